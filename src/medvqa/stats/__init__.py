"""Statistics: intervals (closed-form and resampled), tests, power — pure functions of arrays.

``medvqa.score`` builds its figures from these; nothing here knows a benchmark or a run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from medvqa._lazy import lazy_exports

if TYPE_CHECKING:
    from medvqa.stats._bootstrap import (
        Interval,
        cluster_index,
        percentile_interval,
        ratio_ci,
        resampled_sums,
        statistic_ci,
        sums_ci,
    )
    from medvqa.stats._intervals import (
        BOOTSTRAP,
        BOOTSTRAP_MIN_COUNT,
        BOOTSTRAP_MIN_UNITS,
        DEGENERATE,
        METHOD_TAG,
        METHOD_TEXT,
        RULE_TEXT,
        ClosedInterval,
        bootstrap_applies,
        paired_interval,
        rate_interval,
        score_bounds,
        tango_bounds,
        weighted_interval,
        wilson_bounds,
    )
    from medvqa.stats._power import (
        detectable_difference,
        effective_pairs_needed,
        icc_anova,
        independent_discordance,
        kish_design_effect,
    )
    from medvqa.stats._resample import (
        MAX_UNITS,
        Columns,
        IntervalRef,
        Part,
        Resampler,
        draw_indices,
        draw_weights,
        unit_groups,
    )
    from medvqa.stats._tests import (
        PERMUTATION_MAX_CASES,
        dense_labels,
        group_test,
        holm,
        mcnemar_midp,
        paired_test,
        repeats,
        sign_flip_p,
        significant,
    )
    from medvqa.stats._trend import PERMUTATION_MAX_UNITS, TrendResult, trend_test

_WHERE: dict[str, str] = {
    **dict.fromkeys(("BOOTSTRAP", "BOOTSTRAP_MIN_COUNT", "BOOTSTRAP_MIN_UNITS", "DEGENERATE",
                     "METHOD_TAG", "METHOD_TEXT", "RULE_TEXT", "ClosedInterval",
                     "bootstrap_applies", "paired_interval", "rate_interval", "score_bounds",
                     "tango_bounds", "weighted_interval", "wilson_bounds"), "_intervals"),
    **dict.fromkeys(("detectable_difference", "effective_pairs_needed", "icc_anova",
                     "independent_discordance", "kish_design_effect"), "_power"),
    "Interval": "_bootstrap",
    "cluster_index": "_bootstrap",
    "ratio_ci": "_bootstrap",
    "statistic_ci": "_bootstrap",
    "percentile_interval": "_bootstrap",
    "resampled_sums": "_bootstrap",
    "sums_ci": "_bootstrap",
    "Columns": "_resample",
    "IntervalRef": "_resample",
    "Part": "_resample",
    "Resampler": "_resample",
    "MAX_UNITS": "_resample",
    "unit_groups": "_resample",
    "draw_indices": "_resample",
    "draw_weights": "_resample",
    "PERMUTATION_MAX_CASES": "_tests",
    "group_test": "_tests",
    "holm": "_tests",
    "mcnemar_midp": "_tests",
    "paired_test": "_tests",
    "repeats": "_tests",
    "sign_flip_p": "_tests",
    "significant": "_tests",
    "dense_labels": "_tests",
    "trend_test": "_trend",
    "TrendResult": "_trend",
    "PERMUTATION_MAX_UNITS": "_trend",
}

__all__ = [
    "BOOTSTRAP",
    "BOOTSTRAP_MIN_COUNT",
    "BOOTSTRAP_MIN_UNITS",
    "ClosedInterval",
    "Columns",
    "DEGENERATE",
    "Interval",
    "IntervalRef",
    "MAX_UNITS",
    "METHOD_TAG",
    "METHOD_TEXT",
    "PERMUTATION_MAX_CASES",
    "PERMUTATION_MAX_UNITS",
    "Part",
    "RULE_TEXT",
    "Resampler",
    "TrendResult",
    "bootstrap_applies",
    "cluster_index",
    "dense_labels",
    "detectable_difference",
    "draw_indices",
    "draw_weights",
    "effective_pairs_needed",
    "group_test",
    "holm",
    "icc_anova",
    "independent_discordance",
    "kish_design_effect",
    "mcnemar_midp",
    "paired_interval",
    "paired_test",
    "percentile_interval",
    "rate_interval",
    "ratio_ci",
    "repeats",
    "resampled_sums",
    "score_bounds",
    "sign_flip_p",
    "significant",
    "statistic_ci",
    "sums_ci",
    "tango_bounds",
    "trend_test",
    "unit_groups",
    "weighted_interval",
    "wilson_bounds",
]

__getattr__, __dir__ = lazy_exports(__name__, _WHERE, globals())
