"""Like with like: every model of a benchmark scored on the items all of them answered.

Runs of one benchmark may cover different items (a ``--limit``, a split, failed requests, an
adaptive run), and accuracies on different items rank nothing: a model measured on 12 items
can top one measured on 47 by luck of the items. The leaderboard is therefore ranked on the
*common set* — the items every listed model answered under the baseline condition (a failed
request is no answer) — with each model's figure on all its own items beside it. The interval
is the score interval of a proportion, case-clustered where an item's case is known and
repeats (:func:`medvqa.stats.rate_interval`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from medvqa.report._items import BenchItems

__all__ = ["CommonSet", "common_set"]


@dataclass(frozen=True)
class CommonAccuracy:
    """One model's accuracy on the common set."""

    value: float
    low: float
    high: float
    method: str


@dataclass(frozen=True)
class CommonSet:
    """The items every model of a benchmark answered, and each model's accuracy on them.

    Attributes:
        condition: the baseline condition compared (``clean``).
        n: items in the common set.
        same: True when every model answered exactly these items (nothing to say).
        models: model → its accuracy on the common set (absent when ``n`` is 0).
        sizes: model → items it answered (its full set).
        splits: the splits of the common items, sorted.
    """

    condition: str
    n: int
    same: bool
    models: dict[str, CommonAccuracy] = field(default_factory=dict)
    sizes: dict[str, int] = field(default_factory=dict)
    splits: list[str] = field(default_factory=list)

    def note(self) -> str:
        """What the leaderboard says about its items, in one sentence."""
        if self.same:
            return (f"Every model answered the same {self.n} items ({self.condition}"
                    f"{_split_text(self.splits)}).")
        sizes = ", ".join(f"{m} {n}" for m, n in self.sizes.items())
        if not self.n:
            return (f"No item was answered by every model ({self.condition}; items answered: "
                    f"{sizes}): each row is on its own items and the rows cannot be ranked.")
        return (f"Ranked on the {self.n} items every model answered ({self.condition}"
                f"{_split_text(self.splits)}; the common set); the other columns are each "
                f"model's figures on all the items it answered ({sizes}).")


def _split_text(splits: list[str]) -> str:
    return f", split {', '.join(splits)}" if splits else ""


def common_set(bench: BenchItems, models: list[str], condition: str) -> CommonSet:
    """The common set of ``models`` under ``condition`` and each model's accuracy on it.

    An answer counts when the request succeeded and was scored (an invalid answer is an answer,
    and wrong); the units of the interval are the items' cases where known, else the items.
    """
    answered: dict[str, dict[str, bool]] = {m: {} for m in models}
    cases: dict[str, str] = {}
    splits: dict[str, str] = {}
    for it in bench.items:
        cases[it.id] = it.case_id or it.id
        splits[it.id] = it.split
        for a in it.answers:
            if a.condition == condition and a.model in answered \
                    and a.outcome in ("correct", "wrong", "invalid"):
                answered[a.model][it.id] = a.outcome == "correct"
    sizes = {m: len(v) for m, v in answered.items()}
    sets = [set(v) for v in answered.values()]
    common = set.intersection(*sets) if sets else set()
    same = bool(sets) and all(s == common for s in sets)
    order = [it.id for it in bench.items if it.id in common]
    out = CommonSet(condition, len(order), same, sizes=sizes,
                    splits=sorted({splits[i] for i in order if splits[i]}))
    if not order:
        return out
    from medvqa.stats import rate_interval

    units = np.unique([cases[i] for i in order], return_inverse=True)[1]
    for m in models:
        hits = np.array([answered[m][i] for i in order], dtype=float)
        ci = rate_interval(hits, units)
        out.models[m] = CommonAccuracy(float(hits.mean()), ci.low, ci.high, ci.method)
    return out
