"""A recipe build followed by the post-build filter it asks for (the guessability filter)."""

from __future__ import annotations

from medvqa.curate._guessable import apply_filter_spec
from medvqa.recipes import BuildConfig, BuildResult, build_benchmark, reread_result


def build_curated(config: BuildConfig) -> BuildResult:
    """Build a benchmark, then apply ``config.filter`` (or the recipe's filter) in place.

    The filter asks models and parses their answers, so it lives above the builders: a
    builder never runs a model.
    """
    result = build_benchmark(config)
    if not result.filter:
        return result
    apply_filter_spec(result.out, result.filter, seed=config.seed)
    return reread_result(result)
