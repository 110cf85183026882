"""Splits: train / val / test by ratio, stratified by answer and grouped by case (seeded), and a
fixed-size ``test_tiny`` carved out of test.

Groups (all items of one ``case_id``) are visited in a seeded order, largest first, and each goes
to the split whose per-stratum quota it fills best, so strata are spread in proportion and no case
ever spans two splits. Items marked fixed (imports, external sources) keep their split.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from medvqa.build._context import Draft
from medvqa.build._rng import rng_for
from medvqa.schema import Item


def stratum(item: Item) -> str:
    """Stratification key: category plus the answer's option text (or the open answer); for
    region items the region types present (their IDs are random, so they cannot stratify).
    """
    if item.question_type == "region":
        types = sorted(str(r.get("type", "")) for r in item.meta.get("regions", []))
        return f"{item.category}\x1f" + "|".join(types)
    if isinstance(item.answer, list):
        texts = [item.options.get(a, a) for a in item.answer]
        return f"{item.category}\x1f" + "|".join(sorted(texts))
    return f"{item.category}\x1f{item.options.get(item.answer, item.answer)}"


def _groups(drafts: Sequence[Draft]) -> dict[str, list[int]]:
    groups: dict[str, list[int]] = {}
    for i, draft in enumerate(drafts):
        it = draft.item
        groups.setdefault(f"{it.source}\x1f{it.case_id or it.id}", []).append(i)
    return groups


def assign_splits(
    drafts: Sequence[Draft], ratios: Mapping[str, float], seed: int, test_tiny: int = 0
) -> None:
    """Set ``split`` on every non-fixed draft (in place).

    Args:
        drafts: the items; fixed ones are left alone.
        ratios: split name → weight, e.g. ``{"train": 7, "val": 1, "test": 2}``.
        seed: build seed.
        test_tiny: move about this many test items (whole cases, never more) to ``test_tiny``.

    """
    free = [d for d in drafts if not d.fixed]
    names = [s for s, w in ratios.items() if w > 0]
    if free and names:
        _assign(free, {s: ratios[s] for s in names}, seed)
    if test_tiny:
        _carve_tiny(drafts, test_tiny, seed)


def _assign(free: Sequence[Draft], ratios: Mapping[str, float], seed: int) -> None:
    total_w = sum(ratios.values())
    labels = [stratum(d.item) for d in free]
    count = Counter(labels)
    n = len(free)
    groups = list(_groups(free).values())
    order = rng_for(seed, "splits").permutation(len(groups))
    groups = sorted((groups[i] for i in order), key=len, reverse=True)
    assigned: dict[str, Counter[str]] = {s: Counter() for s in ratios}
    sizes = dict.fromkeys(ratios, 0)
    for members in groups:
        need = Counter(labels[i] for i in members)

        def score(split: str, need: Counter[str] = need) -> tuple[float, float]:
            frac = ratios[split] / total_w
            fill = sum(
                c * (frac * count[lab] - assigned[split][lab]) / count[lab]
                for lab, c in need.items()
            )
            return fill, frac * n - sizes[split]

        best = max(ratios, key=score)
        assigned[best].update(need)
        sizes[best] += len(members)
        for i in members:
            free[i].item.split = best  # type: ignore[assignment]


def _carve_tiny(drafts: Sequence[Draft], size: int, seed: int) -> None:
    """Move whole test cases to ``test_tiny``: exactly ``size`` items when some set of cases
    adds up to it, else as close below as possible.

    Cases are considered in a seeded order and a subset-sum table over item counts keeps, for
    each reachable total, the first-found (earliest in that order) set of cases, so the subset
    is random but reproducible. Cost: O(cases × size).
    """
    test = [d for d in drafts if d.item.split == "test" and not d.fixed]
    groups = list(_groups(test).values())
    order = rng_for(seed, "test_tiny").permutation(len(groups)).tolist()
    # reach[total] = (previous total, group index) of the first way found to reach ``total``.
    reach: dict[int, tuple[int, int]] = {0: (-1, -1)}
    for gi in order:
        n = len(groups[gi])
        for total in sorted(reach, reverse=True):
            new = total + n
            if new <= size and new not in reach:
                reach[new] = (total, gi)
        if size in reach:
            break
    total = max(reach)
    while total > 0:
        prev, gi = reach[total]
        for i in groups[gi]:
            test[i].item.split = "test_tiny"
        total = prev
