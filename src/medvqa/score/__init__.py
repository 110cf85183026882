"""Scoring: parse responses, compute metrics with bootstrap CIs, compare runs and conditions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from medvqa._lazy import lazy_exports

if TYPE_CHECKING:
    from medvqa.score._config import DEFAULT_AGE_BANDS, ScoreConfig
    from medvqa.score._coverage import missing_lines
    from medvqa.score._judge import JudgeResult, run_judge
    from medvqa.score._judge_config import JudgeConfig
    from medvqa.score._judge_prompt import JudgePrompt, load_judge_prompt, parse_verdict
    from medvqa.score._metric_table import METRICS, Metric, metric_names
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
    from medvqa.score._power import (
        PowerReport,
        benchmark_power,
        pooled_power,
        power_json,
        power_line,
        power_note,
    )
    from medvqa.score._power_config import ASSUMED_ICC, DEFAULT_DELTA, PowerConfig
    from medvqa.score._provenance import require_fresh, require_fresh_run, run_identity
    from medvqa.score._reading import choice_style
    from medvqa.score._score import (
        ScoreResult,
        previous_style,
        refuse_mixed_items,
        refuse_mixed_styles,
        score_run,
        scored_items_sha256,
    )
    from medvqa.score._subgroups import age_band, subgroup_analysis

_WHERE: dict[str, str] = {
    "PowerReport": "_power",
    "benchmark_power": "_power",
    "power_line": "_power",
    "ASSUMED_ICC": "_power_config",
    "DEFAULT_DELTA": "_power_config",
    "PowerConfig": "_power_config",
    "require_fresh_run": "_provenance",
    "missing_lines": "_coverage",
    "DEFAULT_AGE_BANDS": "_config",
    "JudgeConfig": "_judge_config",
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
    "previous_style": "_score",
    "refuse_mixed_items": "_score",
    "refuse_mixed_styles": "_score",
    "scored_items_sha256": "_score",
    "age_band": "_subgroups",
    "subgroup_analysis": "_subgroups",
    "metric_names": "_metric_table",
    "power_json": "_power",
    "pooled_power": "_power",
    "power_note": "_power",
    "require_fresh": "_provenance",
    "run_identity": "_provenance",
    "choice_style": "_reading",
}


__all__ = [
    "ASSUMED_ICC",
    "DEFAULT_DELTA",
    "PowerConfig",
    "PowerReport",
    "benchmark_power",
    "power_line",
    "require_fresh_run",
    "missing_lines",
    "DEFAULT_AGE_BANDS",
    "METRICS",
    "Metric",
    "JudgeConfig",
    "JudgePrompt",
    "JudgeResult",
    "PairedComparison",
    "ScoreConfig",
    "ScoreResult",
    "accuracy",
    "age_band",
    "chance_of_guess",
    "compare_runs",
    "frequent_baseline",
    "load_judge_prompt",
    "macro_f1",
    "mcnemar_exact",
    "paired_difference",
    "parse_verdict",
    "run_judge",
    "score_run",
    "previous_style",
    "refuse_mixed_items",
    "refuse_mixed_styles",
    "scored_items_sha256",
    "subgroup_analysis",
    "valid_accuracy",
    "weighted_accuracy",
    "metric_names",
    "power_json",
    "pooled_power",
    "power_note",
    "require_fresh",
    "run_identity",
    "choice_style",
]


__getattr__, __dir__ = lazy_exports(__name__, _WHERE, globals())
