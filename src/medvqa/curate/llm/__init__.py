"""LLM-driven benchmark construction: captions, reports, LLM judges, ``--local-only``.

Captions → QA (MIRA), reports → schema → QA (oncology), LLM judges, and the ``--local-only``
guard. Every LLM call goes through ``medvqa.run.complete``; report grounding is
negation-aware (``_negation``).
"""

from __future__ import annotations

from medvqa.curate.llm._captions import (
    CaptionsConfig,
    build_captions,
    keyword_sweep,
    read_labelled,
)
from medvqa.curate.llm._generate import Outcome, Task, generate_structured
from medvqa.curate.llm._grounding import (
    answer_supported,
    ground_value,
    quote_pools,
    report_quotes,
    span_in_text,
)
from medvqa.curate.llm._jsontext import extract_json
from medvqa.curate.llm._judges import JudgeScores, judge_decision, run_judges
from medvqa.curate.llm._keywords import (
    KeywordList,
    KeywordMatcher,
    SweepRow,
    load_keywords,
    sweep,
    term_pattern,
)
from medvqa.curate.llm._local import check_local, is_loopback_host
from medvqa.curate.llm._negation import NegationScope, Polarity, mention_polarities
from medvqa.curate.llm._output import DROPPED_FILE, LLMBuildResult, drop_lines, drop_summary
from medvqa.curate.llm._qa import GeneratedQA, load_fewshot, parse_qa, qa_json_schema, qa_tasks
from medvqa.curate.llm._report_schema import (
    PRESETS,
    ReportSchema,
    SchemaField,
    induce_schema,
    load_schema,
    write_schema,
)
from medvqa.curate.llm._reports import ReportsConfig, build_reports
from medvqa.curate.llm._texts import TextRecord, read_texts, resource_path

__all__ = [
    "read_texts",
    "PRESETS",
    "CaptionsConfig",
    "LLMBuildResult",
    "GeneratedQA",
    "JudgeScores",
    "KeywordList",
    "KeywordMatcher",
    "NegationScope",
    "Outcome",
    "Polarity",
    "ReportSchema",
    "ReportsConfig",
    "SchemaField",
    "SweepRow",
    "Task",
    "answer_supported",
    "build_captions",
    "build_reports",
    "check_local",
    "DROPPED_FILE",
    "drop_lines",
    "drop_summary",
    "extract_json",
    "generate_structured",
    "ground_value",
    "induce_schema",
    "is_loopback_host",
    "judge_decision",
    "keyword_sweep",
    "load_keywords",
    "load_schema",
    "mention_polarities",
    "qa_json_schema",
    "load_fewshot",
    "parse_qa",
    "qa_tasks",
    "quote_pools",
    "read_labelled",
    "report_quotes",
    "run_judges",
    "span_in_text",
    "sweep",
    "term_pattern",
    "write_schema",
    "load_fewshot",
    "parse_qa",
    "qa_tasks",
    "TextRecord",
    "resource_path",
]
