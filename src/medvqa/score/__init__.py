"""Scoring: parse responses, compute metrics with bootstrap CIs, compare runs and conditions."""

from medvqa.schema import ConditionMetrics, MetricsBlock, MetricsFile, MetricValue
from medvqa.score._bootstrap import Interval, cluster_index, ratio_ci, statistic_ci
from medvqa.score._extract import (
    ExtractCandidate,
    ExtractConfig,
    ExtractedBy,
    Extraction,
    Extractor,
    ExtractResult,
    eligible,
    extract_answers,
    prepare_extractor,
    rescue,
)
from medvqa.score._extract_prompt import ExtractPrompt, load_extract_prompt
from medvqa.score._judge import JudgeConfig, JudgeResult, run_judge
from medvqa.score._judge_prompt import JudgePrompt, load_judge_prompt, parse_verdict
from medvqa.score._metric_table import METRICS, Metric
from medvqa.score._metrics import (
    accuracy,
    chance_of_guess,
    frequent_baseline,
    macro_f1,
    valid_accuracy,
    weighted_accuracy,
)
from medvqa.score._paired import PairedComparison, compare_runs, mcnemar_exact, paired_difference
from medvqa.score._score import ScoreConfig, ScoreResult, score_run
from medvqa.score._subgroups import age_band, subgroup_analysis
from medvqa.score._tests import group_test, holm, paired_test, sign_flip_p

__all__ = [
    "METRICS",
    "Metric",
    "ConditionMetrics",
    "ExtractCandidate",
    "ExtractConfig",
    "ExtractPrompt",
    "ExtractResult",
    "ExtractedBy",
    "Extraction",
    "Extractor",
    "Interval",
    "JudgeConfig",
    "JudgePrompt",
    "JudgeResult",
    "MetricValue",
    "MetricsBlock",
    "MetricsFile",
    "PairedComparison",
    "ScoreConfig",
    "ScoreResult",
    "accuracy",
    "age_band",
    "chance_of_guess",
    "cluster_index",
    "compare_runs",
    "eligible",
    "extract_answers",
    "frequent_baseline",
    "group_test",
    "holm",
    "load_extract_prompt",
    "load_judge_prompt",
    "macro_f1",
    "mcnemar_exact",
    "paired_difference",
    "paired_test",
    "parse_verdict",
    "prepare_extractor",
    "ratio_ci",
    "rescue",
    "run_judge",
    "score_run",
    "sign_flip_p",
    "statistic_ci",
    "subgroup_analysis",
    "valid_accuracy",
    "weighted_accuracy",
]
