"""The BENCH/ and RUN/ file formats as pydantic models, and streaming JSON-lines read/write.

These models are the public contract described in docs/formats.md: ``items.jsonl`` holds one
:class:`Item` per line, ``benchmark.json`` one :class:`Benchmark`, ``review.jsonl`` one
:class:`ReviewRecord` per line, ``predictions.jsonl`` one :class:`Prediction` per line,
``run.json`` one :class:`RunInfo` and ``metrics.json`` one :class:`MetricsFile`. Readers stream
(a 100,000-item benchmark is never held in memory whole) and report a malformed line as a
:class:`RecordError` naming file, line and field, so callers can skip it and go on.
"""

from typing import TYPE_CHECKING

from medvqa._lazy import lazy_exports

if TYPE_CHECKING:
    from medvqa.schema._formats import (
        ABSENT_WHEN_NULL,
        AskedSelection,
        Benchmark,
        CreatedWith,
        Item,
        JudgeVerdict,
        Prediction,
        ReviewRecord,
        RunInfo,
        SourceInfo,
    )
    from medvqa.schema._jsonl import (
        ENCODING_FIELD,
        InputError,
        JsonLine,
        RawLine,
        RecordError,
        dump_line,
        encoding_error,
        file_sha256,
        iter_json_lines,
        raw_lines,
        read_json,
        read_jsonl,
        read_numbered,
        record_error,
        validate_raw,
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
    from medvqa.schema._names import (
        BENCHMARK_FILE,
        CACHE_FILE,
        CHOICE_TYPES,
        CLEAN,
        ITEMS_FILE,
        METRICS_FILE,
        PREDICTIONS_FILE,
        RUN_FILE,
        SCHEMA_VERSION,
        QuestionType,
        Split,
    )

_WHERE: dict[str, str] = {
    "ABSENT_WHEN_NULL": "_formats",
    "record_error": "_jsonl",
    "raw_lines": "_jsonl",
    "validate_raw": "_jsonl",
    "RawLine": "_jsonl",
    "BENCHMARK_FILE": "_names",
    "CACHE_FILE": "_names",
    "CHOICE_TYPES": "_names",
    "CLEAN": "_names",
    "ITEMS_FILE": "_names",
    "METRICS_FILE": "_names",
    "PREDICTIONS_FILE": "_names",
    "RUN_FILE": "_names",
    "SCHEMA_VERSION": "_names",
    "QuestionType": "_names",
    "Split": "_names",
    "AskedSelection": "_formats",
    "Benchmark": "_formats",
    "CreatedWith": "_formats",
    "Item": "_formats",
    "JudgeVerdict": "_formats",
    "Prediction": "_formats",
    "ReviewRecord": "_formats",
    "RunInfo": "_formats",
    "SourceInfo": "_formats",
    "ENCODING_FIELD": "_jsonl",
    "InputError": "_jsonl",
    "JsonLine": "_jsonl",
    "RecordError": "_jsonl",
    "dump_line": "_jsonl",
    "encoding_error": "_jsonl",
    "file_sha256": "_jsonl",
    "iter_json_lines": "_jsonl",
    "read_json": "_jsonl",
    "read_jsonl": "_jsonl",
    "read_numbered": "_jsonl",
    "write_json": "_jsonl",
    "write_jsonl": "_jsonl",
    "METRICS_VERSION": "_metrics",
    "ConditionMetrics": "_metrics",
    "MetricsBlock": "_metrics",
    "MetricsFile": "_metrics",
    "MetricValue": "_metrics",
}


__all__ = [
    "ABSENT_WHEN_NULL",
    "record_error",
    "raw_lines",
    "validate_raw",
    "RawLine",
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
    "AskedSelection",
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


__getattr__, __dir__ = lazy_exports(__name__, _WHERE, globals())
