"""``medvqa bench`` section ``scoring``: parser throughput and bootstrap time.

Targets (issue 4): ``strict`` ≥ 100,000 responses/s, ``mammovqa`` ≥ 5,000/s; a 9,999-resample
bootstrap over 100,000 items ≤ 2 s; case-clustered over 20,000 cases ≤ 5 s. The parser targets
apply to a *realistic mix*: 70 % common short forms that repeat verbatim (bare letters most of
all, ``Answer: X``, ``The answer is X.``, option texts, a refusal) and 30 % explaining sentences,
each distinct. The *all distinct* figure is the pessimistic bound: every form made unique by a
trailing number (so no response is a bare letter and no cache can help); it has no target.
"""

from __future__ import annotations

import time
import tracemalloc

import numpy as np

from medvqa.measurements._figure import BenchFigure
from medvqa.measurements._rules_build import rules_build

_OPTIONS = {"A": "adenocarcinoma", "B": "squamous cell carcinoma", "C": "benign lung tissue",
            "D": "large cell carcinoma"}
_FORMS = ("{L}", "({L})", "Answer: {L}", "The answer is {L}.", "{T}", "{L}: {T}", "**{L}**",
          "I cannot determine this from the image.", "This looks like {T} to me", "{L}. {T}")
# What models answer most of the time: short forms that repeat verbatim across items.
_COMMON = ("{L}", "{L}", "{L}", "{L}.", "({L})", "**{L}**", "Answer: {L}", "The answer is {L}.",
           "{T}", "{T}.", "{L}: {T}", "{L}. {T}", "I'm sorry, I cannot determine this from the "
           "image.", "The image shows {T}.")
# The rest: sentences that explain, each one different.
_DISTINCT = ("The answer is {L}. The {part} in field {i} show {finding}.",
             "Based on the {part} in field {i}, this is most consistent with {T}.",
             "{L}: {T}. The {part} show {finding} (field {i}).",
             "The {part} show {finding} in field {i}, so I would say {T}.",
             "It is difficult to tell from field {i}; the {part} show {finding}.",
             "Field {i}: {finding} in the {part}, which suggests option {L}.")
_PARTS = ("nuclei", "glands", "cells", "stroma", "alveoli", "margins")
_FINDINGS = ("marked atypia", "keratin pearls", "mucin", "no atypia", "necrosis",
             "prominent nucleoli", "intercellular bridges", "gland formation")


def responses(n: int, seed: int = 0) -> list[str]:
    """``n`` distinct synthetic responses over :data:`_OPTIONS` (pessimistic: no bare letter)."""
    rng = np.random.default_rng(seed)
    letters = list(_OPTIONS)
    out = []
    forms, picks = rng.integers(0, len(_FORMS), n), rng.integers(0, 4, n)
    for i, (f, k) in enumerate(zip(forms, picks, strict=True)):
        letter = letters[int(k)]
        out.append(_FORMS[int(f)].format(L=letter, T=_OPTIONS[letter]) + f" {i}")
    return out


def realistic_responses(n: int, seed: int = 0, distinct: float = 0.3) -> list[str]:
    """``n`` responses like a model's, a share ``distinct`` of them unique.

    The unique ones are explaining sentences; the rest are common short forms (bare letters
    most of all) that repeat verbatim.
    """
    rng = np.random.default_rng(seed)
    letters = list(_OPTIONS)
    out = []
    for i in range(n):
        letter = letters[int(rng.integers(0, 4))]
        if rng.random() < distinct:
            form = _DISTINCT[int(rng.integers(0, len(_DISTINCT)))]
            out.append(form.format(L=letter, T=_OPTIONS[letter], i=i,
                                   part=_PARTS[int(rng.integers(0, len(_PARTS)))],
                                   finding=_FINDINGS[int(rng.integers(0, len(_FINDINGS)))]))
        else:
            out.append(_COMMON[int(rng.integers(0, len(_COMMON)))].format(
                L=letter, T=_OPTIONS[letter]))
    return out


def _clear_caches() -> None:
    from medvqa.reading import clear_caches

    clear_caches()


def _parse_rate(style: str, texts: list[str]) -> float:
    from medvqa.reading import make_parser

    parser = make_parser(style)
    t0 = time.perf_counter()
    for text in texts:
        parser.parse(text, _OPTIONS, "single")
    return len(texts) / (time.perf_counter() - t0)


def _timed_ci(values: np.ndarray, clusters: np.ndarray | None) -> tuple[float, float]:
    """Seconds and peak traced memory (MB) of one 9,999-resample accuracy interval."""
    from medvqa.stats import ratio_ci

    tracemalloc.start()
    t0 = time.perf_counter()
    ratio_ci(values, np.ones(len(values)), clusters, 9999, 0)
    dt = time.perf_counter() - t0
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return dt, peak


def bench_scoring(quick: bool) -> list[BenchFigure]:
    """Parser responses/s per style and bootstrap seconds at the issue's sizes."""
    n = 20_000 if quick else 100_000
    mixes = {"realistic mix (30 % distinct; the target's mix)": realistic_responses(n),
             "all distinct, no bare letter (pessimistic bound)": responses(n)}
    build = rules_build()
    figures = []
    for style, target, count in (("strict", 100_000, n), ("mammovqa", 5_000, n // 5),
                                 ("pathmmu", None, n)):
        for mix, texts in mixes.items():
            # Each style starts cold: no cache carries over from the previous mix.
            _clear_caches()
            rate = _parse_rate(style, texts[:count])
            realistic = mix.startswith("realistic")
            figures.append(BenchFigure(
                "scoring", f"{style} parser{f' ({build})' if style == 'strict' else ''}, "
                f"{count:,} responses, {mix}", rate, "responses/s",
                f">= {target:,}" if target and realistic else "",
                rate >= target if target and realistic else None))
    rng = np.random.default_rng(0)
    items = (rng.random(100_000) < 0.6).astype(float)
    dt, peak = _timed_ci(items, None)
    figures.append(BenchFigure("scoring", "bootstrap 9,999 resamples, 100,000 items", dt, "s",
                               "<= 2", dt <= 2))
    figures.append(BenchFigure("scoring", "  its peak traced memory", peak, "MB"))
    cases = rng.integers(0, 20_000, 110_000)
    skill = rng.random(20_000)
    clustered = (rng.random(110_000) < skill[cases]).astype(float)
    dt, peak = _timed_ci(clustered, cases)
    figures.append(BenchFigure("scoring", "bootstrap 9,999 resamples, 20,000 cases / 110,000 "
                               "items (case-clustered)", dt, "s", "<= 5", dt <= 5))
    figures.append(BenchFigure("scoring", "  its peak traced memory", peak, "MB"))
    if not quick:
        # Worst case for the clustered bootstrap: every case row distinct (continuous scores).
        dt, peak = _timed_ci(rng.random(110_000), cases)
        figures.append(BenchFigure("scoring", "bootstrap, 20,000 cases, continuous scores "
                                   "(every case distinct)", dt, "s", "<= 5", dt <= 5))
        figures.append(BenchFigure("scoring", "  its peak traced memory", peak, "MB"))
    figures.extend(_test_figures(rng))
    return figures


def _test_figures(rng: np.random.Generator) -> list[BenchFigure]:
    """Seconds of the clustered hypothesis tests at a large and at the permutation-limit size."""
    import scipy.stats  # noqa: F401 - imported before timing: the figure is the test's own time

    from medvqa.stats import PERMUTATION_MAX_CASES, group_test, paired_test

    out = []
    cases = rng.integers(0, 20_000, 110_000)
    a, b = (rng.random(110_000) < 0.6).astype(float), (rng.random(110_000) < 0.6).astype(float)
    t0 = time.perf_counter()
    paired_test(a, b, cases)
    out.append(BenchFigure("scoring", "paired test, exact cluster sign-flip, 20,000 cases / "
                           "110,000 items", time.perf_counter() - t0, "s"))
    k = PERMUTATION_MAX_CASES
    few = rng.integers(0, k, 4 * k)
    t0 = time.perf_counter()
    group_test(a[:4 * k], (few % 2), few, 9999, 0)
    out.append(BenchFigure("scoring", f"subgroup test, cluster permutation, {k} cases, 9,999 "
                           "permutations", time.perf_counter() - t0, "s"))
    return out
