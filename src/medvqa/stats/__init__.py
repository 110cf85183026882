"""Statistics: resampled intervals, tests, trend tests — pure functions of arrays, seeded.

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
    from medvqa.stats._ppi import (
        PPIEstimate,
        RateEstimate,
        Stratum,
        design_effect,
        ppi_mean,
        stratified_ppi,
        weighted_rate,
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
    from medvqa.stats._sampling import allocate, draw_stratified
    from medvqa.stats._tests import (
        PERMUTATION_MAX_CASES,
        dense_labels,
        group_test,
        holm,
        paired_test,
        repeats,
        sign_flip_p,
        significant,
    )
    from medvqa.stats._trend import PERMUTATION_MAX_UNITS, TrendResult, trend_test

_WHERE: dict[str, str] = {
    "PPIEstimate": "_ppi",
    "RateEstimate": "_ppi",
    "Stratum": "_ppi",
    "design_effect": "_ppi",
    "ppi_mean": "_ppi",
    "stratified_ppi": "_ppi",
    "weighted_rate": "_ppi",
    "allocate": "_sampling",
    "draw_stratified": "_sampling",
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
    "PPIEstimate",
    "RateEstimate",
    "Stratum",
    "allocate",
    "design_effect",
    "draw_stratified",
    "ppi_mean",
    "stratified_ppi",
    "weighted_rate",
    "Columns",
    "Interval",
    "IntervalRef",
    "MAX_UNITS",
    "PERMUTATION_MAX_CASES",
    "PERMUTATION_MAX_UNITS",
    "Part",
    "Resampler",
    "TrendResult",
    "cluster_index",
    "dense_labels",
    "draw_indices",
    "draw_weights",
    "group_test",
    "holm",
    "paired_test",
    "percentile_interval",
    "ratio_ci",
    "repeats",
    "resampled_sums",
    "sign_flip_p",
    "significant",
    "statistic_ci",
    "sums_ci",
    "trend_test",
    "unit_groups",
]

__getattr__, __dir__ = lazy_exports(__name__, _WHERE, globals())
