"""Splits: train / val / test by ratio, stratified by answer and grouped by case (seeded).

A fixed-size ``test_tiny`` is carved out of test.

Groups (all items of one ``case_id``) are visited in a seeded order, largest first, and each goes
to the split whose per-stratum quota it fills best, so strata are spread in proportion and no case
ever spans two splits. Items marked fixed (imports, external sources) keep their split.

Splitting needs only a few small keys per item (group, stratum, fixed, split), so a build keeps
:class:`SplitKeys` (integer codes in arrays) instead of the items: memory per item is a few bytes
plus one entry per distinct case and stratum.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from medvqa.builders._context import Draft
from medvqa.rng import rng_for
from medvqa.schema import Item, Split

#: Split names by code (the order is arbitrary but fixed: codes live in ``SplitKeys.split``).
SPLIT_NAMES: tuple[Split, ...] = ("train", "val", "test", "test_tiny", "external")
_CODE: dict[str, int] = {name: i for i, name in enumerate(SPLIT_NAMES)}
_TEST, _TINY = _CODE["test"], _CODE["test_tiny"]


def stratum(item: Item) -> str:
    """Stratification key: category plus the answer's option text (or the open answer).

    For region items, the region types present (their IDs are random, so they cannot stratify).
    """
    if item.question_type == "region":
        types = sorted(str(r.get("type", "")) for r in item.meta.get("regions", []))
        return f"{item.category}\x1f" + "|".join(types)
    if isinstance(item.answer, list):
        texts = [item.options.get(a, a) for a in item.answer]
        return f"{item.category}\x1f" + "|".join(sorted(texts))
    return f"{item.category}\x1f{item.options.get(item.answer, item.answer)}"


class SplitKeys:
    """What splitting needs of each item, in item order, as integer codes.

    ``group`` and ``stratum`` are codes of the case key (source + case id) and of
    :func:`stratum`, numbered in order of first appearance; fixed items get -1 for both (they
    are never regrouped). ``split`` holds :data:`SPLIT_NAMES` codes and is what
    :func:`assign_split_keys` changes.
    """

    def __init__(self) -> None:
        self.group: array[int] = array("q")
        self.stratum: array[int] = array("q")
        self.fixed = bytearray()
        self.split = bytearray()
        self._groups: dict[str, int] = {}
        self._strata: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self.split)

    def add(self, item: Item, fixed: bool) -> None:
        """Append one item's keys."""
        self.split.append(_CODE[item.split])
        self.fixed.append(fixed)
        if fixed:
            self.group.append(-1)
            self.stratum.append(-1)
            return
        gkey = f"{item.source}\x1f{item.case_id or item.id}"
        self.group.append(self._groups.setdefault(gkey, len(self._groups)))
        skey = stratum(item)
        self.stratum.append(self._strata.setdefault(skey, len(self._strata)))

    def split_name(self, i: int) -> Split:
        """The split of item ``i``."""
        return SPLIT_NAMES[self.split[i]]


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
    keys = SplitKeys()
    for d in drafts:
        keys.add(d.item, d.fixed)
    assign_split_keys(keys, ratios, seed, test_tiny)
    for i, d in enumerate(drafts):
        if not d.fixed:
            d.item.split = keys.split_name(i)


def assign_split_keys(
    keys: SplitKeys, ratios: Mapping[Any, float], seed: int, test_tiny: int = 0
) -> None:
    """:func:`assign_splits` on keys: set ``keys.split`` of every non-fixed item (in place)."""
    free = np.flatnonzero(np.array(keys.fixed, dtype=np.uint8) == 0)
    names = [s for s, w in ratios.items() if w > 0]
    if len(free) and names:
        _assign(keys, free, {s: ratios[s] for s in names}, seed)
    if test_tiny:
        split = np.array(keys.split, dtype=np.uint8)
        _carve_tiny(keys, free[split[free] == _TEST], test_tiny, seed)


class _Groups:
    """Groups among some items, numbered by first appearance.

    ``members(g)`` is group ``g``'s ascending item indices. Stored as one index array plus
    offsets (no per-group objects).
    """

    def __init__(self, keys: SplitKeys, idx: np.ndarray):
        codes = _codes(keys.group)[idx]
        _, first, local = np.unique(codes, return_index=True, return_inverse=True)
        # np.unique numbers groups by code; renumber them by first appearance among ``idx``.
        rank = np.empty(len(first), dtype=np.int64)
        rank[np.argsort(first, kind="stable")] = np.arange(len(first))
        local = rank[local.reshape(-1)]
        self.items = idx[np.argsort(local, kind="stable")]
        self.sizes = np.bincount(local, minlength=len(first))
        self.starts = np.concatenate(([0], np.cumsum(self.sizes)))

    def __len__(self) -> int:
        return len(self.sizes)

    def members(self, g: int) -> np.ndarray:
        """Item indices of group ``g``, ascending."""
        return self.items[self.starts[g] : self.starts[g + 1]]


def _codes(values: array[int]) -> np.ndarray:
    return np.frombuffer(values, dtype=np.int64) if len(values) else np.zeros(0, np.int64)


def _assign(keys: SplitKeys, free: np.ndarray, ratios: Mapping[str, float], seed: int) -> None:
    total_w = sum(ratios.values())
    strata = _codes(keys.stratum)
    count = Counter(strata[free].tolist())
    n = len(free)
    groups = _Groups(keys, free)
    order = rng_for(seed, "splits").permutation(len(groups))
    # Largest first; ties keep the seeded order (a stable sort, as sorted(reverse=True) is).
    visit = order[np.argsort(-groups.sizes[order], kind="stable")]
    assigned: dict[str, Counter[int]] = {s: Counter() for s in ratios}
    split_sizes = dict.fromkeys(ratios, 0)
    for g in visit.tolist():
        members = groups.members(g)
        need = Counter(strata[members].tolist())

        def score(split: str, need: Counter[int] = need) -> tuple[float, float]:
            frac = ratios[split] / total_w
            fill = sum(
                c * (frac * count[lab] - assigned[split][lab]) / count[lab]
                for lab, c in need.items()
            )
            return fill, frac * n - split_sizes[split]

        best = max(ratios, key=score)
        assigned[best].update(need)
        split_sizes[best] += len(members)
        code = _CODE[best]
        for i in members.tolist():
            keys.split[i] = code


def _carve_tiny(keys: SplitKeys, test: np.ndarray, size: int, seed: int) -> None:
    """Move whole test cases to ``test_tiny``.

    Exactly ``size`` items when some set of cases adds up to it, else as close below as possible.

    Cases are considered in a seeded order and a subset-sum table over item counts keeps, for
    each reachable total, the first-found (earliest in that order) set of cases, so the subset
    is random but reproducible. Cost: O(cases × size).
    """
    groups = _Groups(keys, test)
    order = rng_for(seed, "test_tiny").permutation(len(groups)).tolist()
    # reach[total] = (previous total, group index) of the first way found to reach ``total``.
    reach: dict[int, tuple[int, int]] = {0: (-1, -1)}
    for gi in order:
        n = int(groups.sizes[gi])
        for total in sorted(reach, reverse=True):
            new = total + n
            if new <= size and new not in reach:
                reach[new] = (total, gi)
        if size in reach:
            break
    total = max(reach)
    while total > 0:
        prev, gi = reach[total]
        for i in groups.members(gi).tolist():
            keys.split[i] = _TINY
        total = prev
