"""Scoring: parse responses, compute metrics with bootstrap CIs, compare runs and conditions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from medvqa._lazy import lazy_exports

if TYPE_CHECKING:
    from medvqa.score._bootstrap import Interval, cluster_index, ratio_ci, statistic_ci
    from medvqa.score._config import DEFAULT_AGE_BANDS, ScoreConfig
    from medvqa.score._coverage import missing_lines
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
    from medvqa.score._paired import (
        PairedComparison,
        compare_runs,
        mcnemar_exact,
        paired_difference,
    )
    from medvqa.score._provenance import require_fresh_run
    from medvqa.score._score import ScoreResult, score_run
    from medvqa.score._subgroups import age_band, subgroup_analysis
    from medvqa.score._tests import group_test, holm, paired_test, sign_flip_p

_WHERE: dict[str, str] = {
    "rescue": "_extract",
    "prepare_extractor": "_extract",
    "load_extract_prompt": "_extract_prompt",
    "extract_answers": "_extract",
    "eligible": "_extract",
    "ExtractPrompt": "_extract_prompt",
    "ExtractResult": "_extract",
    "Extractor": "_extract",
    "Extraction": "_extract",
    "ExtractedBy": "_extract",
    "ExtractConfig": "_extract",
    "ExtractCandidate": "_extract",
    "require_fresh_run": "_provenance",
    "missing_lines": "_coverage",
    "DEFAULT_AGE_BANDS": "_config",
    "Interval": "_bootstrap",
    "cluster_index": "_bootstrap",
    "ratio_ci": "_bootstrap",
    "statistic_ci": "_bootstrap",
    "JudgeConfig": "_judge",
    "JudgeResult": "_judge",
    "run_judge": "_judge",
    "JudgePrompt": "_judge_prompt",
    "load_judge_prompt": "_judge_prompt",
    "parse_verdict": "_judge_prompt",
    "METRICS": "_metric_table",
    "Metric": "_metric_table",
    "accuracy": "_metrics",
    "chance_of_guess": "_metrics",
    "frequent_baseline": "_metrics",
    "macro_f1": "_metrics",
    "valid_accuracy": "_metrics",
    "weighted_accuracy": "_metrics",
    "PairedComparison": "_paired",
    "compare_runs": "_paired",
    "mcnemar_exact": "_paired",
    "paired_difference": "_paired",
    "ScoreConfig": "_config",
    "ScoreResult": "_score",
    "score_run": "_score",
    "age_band": "_subgroups",
    "subgroup_analysis": "_subgroups",
    "group_test": "_tests",
    "holm": "_tests",
    "paired_test": "_tests",
    "sign_flip_p": "_tests",
}


__all__ = [
    "ExtractPrompt",
    "ExtractResult",
    "Extractor",
    "Extraction",
    "ExtractedBy",
    "ExtractConfig",
    "ExtractCandidate",
    "require_fresh_run",
    "missing_lines",
    "DEFAULT_AGE_BANDS",
    "METRICS",
    "Metric",
    "Interval",
    "JudgeConfig",
    "JudgePrompt",
    "JudgeResult",
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


__getattr__, __dir__ = lazy_exports(__name__, _WHERE, globals())
