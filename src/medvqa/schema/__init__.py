"""The BENCH/ and RUN/ file formats as pydantic models, and streaming JSON-lines read/write.

These models are the public contract described in docs/formats.md: ``items.jsonl`` holds one
:class:`Item` per line, ``benchmark.json`` one :class:`Benchmark`, ``review.jsonl`` one
:class:`ReviewRecord` per line, ``predictions.jsonl`` one :class:`Prediction` per line,
``run.json`` one :class:`RunInfo` and ``metrics.json`` one :class:`MetricsFile`. Readers stream
(a 100,000-item benchmark is never held in memory whole) and report a malformed line as a
:class:`RecordError` naming file, line and field, so callers can skip it and go on.
"""

from medvqa.schema._formats import (
    BENCHMARK_FILE,
    CACHE_FILE,
    CHOICE_TYPES,
    CLEAN,
    ITEMS_FILE,
    METRICS_FILE,
    PREDICTIONS_FILE,
    RUN_FILE,
    SCHEMA_VERSION,
    Benchmark,
    CreatedWith,
    Item,
    JudgeVerdict,
    Prediction,
    QuestionType,
    ReviewRecord,
    RunInfo,
    SourceInfo,
    Split,
)
from medvqa.schema._jsonl import (
    ENCODING_FIELD,
    InputError,
    JsonLine,
    RecordError,
    dump_line,
    encoding_error,
    file_sha256,
    iter_json_lines,
    read_json,
    read_jsonl,
    read_numbered,
    write_json,
    write_jsonl,
)
from medvqa.schema._metrics import (
    METRICS_VERSION,
    ConditionMetrics,
    MetricsBlock,
    MetricsFile,
    MetricValue,
)

__all__ = [
    "BENCHMARK_FILE",
    "CACHE_FILE",
    "CHOICE_TYPES",
    "CLEAN",
    "ENCODING_FIELD",
    "ITEMS_FILE",
    "METRICS_FILE",
    "METRICS_VERSION",
    "PREDICTIONS_FILE",
    "RUN_FILE",
    "SCHEMA_VERSION",
    "Benchmark",
    "ConditionMetrics",
    "CreatedWith",
    "InputError",
    "Item",
    "JsonLine",
    "JudgeVerdict",
    "MetricValue",
    "MetricsBlock",
    "MetricsFile",
    "Prediction",
    "QuestionType",
    "RecordError",
    "ReviewRecord",
    "RunInfo",
    "SourceInfo",
    "Split",
    "dump_line",
    "encoding_error",
    "file_sha256",
    "iter_json_lines",
    "read_json",
    "read_jsonl",
    "read_numbered",
    "write_json",
    "write_jsonl",
]
