"""Scoring: parse responses, compute metrics with bootstrap CIs, compare runs and conditions."""

from medvqa.score._bootstrap import Interval, cluster_index, ratio_ci, statistic_ci
from medvqa.score._judge import JudgeConfig, JudgeResult, run_judge
from medvqa.score._judge_prompt import JudgePrompt, load_judge_prompt, parse_verdict
from medvqa.score._metrics import (
    accuracy,
    chance_of_guess,
    frequent_baseline,
    macro_f1,
    valid_accuracy,
    weighted_accuracy,
)
from medvqa.score._model import ConditionMetrics, MetricsBlock, MetricsFile, MetricValue
from medvqa.score._paired import PairedComparison, compare_runs, mcnemar_exact, paired_difference
from medvqa.score._score import ScoreConfig, ScoreResult, score_run
from medvqa.score._subgroups import age_band, subgroup_analysis

__all__ = [
    "ConditionMetrics",
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
    "frequent_baseline",
    "load_judge_prompt",
    "macro_f1",
    "mcnemar_exact",
    "paired_difference",
    "parse_verdict",
    "ratio_ci",
    "run_judge",
    "score_run",
    "statistic_ci",
    "subgroup_analysis",
    "valid_accuracy",
    "weighted_accuracy",
]
