"""Leakage across the splits of one benchmark: the same case, bytes, pixels or a near-copy.

Each check groups what must not cross splits and reports every group that does, with the
items involved and the severity of the splits it joins (:func:`leak_severity`):

- ``split-case``: items of one case (``source`` + ``case_id``: one patient or study) in two
  splits;
- ``split-bytes``: one image file (the same SHA-256) used by items of two splits;
- ``split-pixels``: different files that decode to the same pixels, used across splits (or,
  as a note, twice within one split);
- ``split-near``: near-duplicate images (:mod:`._near`) used across splits (or, as a note,
  within one split).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from medvqa.benchmark.audit._collection import Collection
from medvqa.benchmark.audit._model import Finding, ImageRef
from medvqa.benchmark.audit._near import NearPair
from medvqa.benchmark.audit._severity import cross_splits, leak_severity, listed


def _items_of(coll: Collection, images: Iterable[int]) -> list[str]:
    return [coll.items[i].id for k in images for i in coll.image_items[k]]


def _ref(coll: Collection, k: int) -> ImageRef:
    return ImageRef(collection=coll.info.label, path=coll.images.paths[k],
                    splits=coll.image_splits(k))


def _published(coll: Collection) -> bool:
    return coll.info.published_split is not None


def case_leaks(coll: Collection, leaked: set[int]) -> list[Finding]:
    """``split-case``: one finding per case whose items are in more than one split.

    Items of a case leaking beyond a note are added to ``leaked``.
    """
    by_case: dict[tuple[str, str], list[int]] = defaultdict(list)
    for n, item in enumerate(coll.items):
        if item.case_id:
            by_case[(item.source, item.case_id)].append(n)
    out = []
    for (source, case), members in sorted(by_case.items()):
        splits = sorted({coll.items[n].split for n in members})
        if len(splits) < 2:
            continue
        ids, count = listed(coll.items[n].id for n in members)
        per_split = {s: sum(1 for n in members if coll.items[n].split == s) for s in splits}
        severity = leak_severity(splits, _published(coll))
        if severity != "note":
            leaked.update(members)
        counts = ", ".join(f"{v} {k}" for k, v in per_split.items())
        out.append(Finding(
            check="split-case", severity=severity,
            message=f"case {case!r} ({source or 'no source'}) has items in "
                    f"{' and '.join(splits)} ({counts})",
            items=ids, n_items=count, splits=splits,
            data={"case_id": case, "source": source, "items_by_split": per_split}))
    return out


def byte_and_pixel_leaks(coll: Collection, leaked: set[int]) -> list[Finding]:
    """``split-bytes`` and ``split-pixels`` findings (leaking items added to ``leaked``)."""
    table, out = coll.images, []
    by_sha: dict[str, list[int]] = defaultdict(list)
    by_pixels: dict[str, list[int]] = defaultdict(list)
    for k in range(len(table)):
        if table.ok[k]:
            by_sha[table.sha256[k]].append(k)
            by_pixels[table.pixels[k]].append(k)
    for sha, files in sorted(by_sha.items()):
        splits = sorted({s for k in files for s in coll.image_splits(k)})
        if len(splits) < 2:
            continue
        ids, count = listed(_items_of(coll, files))
        severity = leak_severity(splits, _published(coll))
        _note(coll, files, severity, leaked)
        out.append(Finding(
            check="split-bytes", severity=severity,
            message=f"image {table.paths[files[0]]} is used by items of {' and '.join(splits)}",
            items=ids, n_items=count, splits=splits, images=[_ref(coll, k) for k in files],
            data={"sha256": sha}))
    for digest, files in sorted(by_pixels.items()):
        if len({table.sha256[k] for k in files}) < 2:
            continue
        splits = sorted({s for k in files for s in coll.image_splits(k)})
        ids, count = listed(_items_of(coll, files))
        where = " and ".join(splits) if len(splits) > 1 else f"one split ({splits[0]})"
        severity = leak_severity(splits, _published(coll))
        _note(coll, files, severity, leaked)
        out.append(Finding(
            check="split-pixels", severity=severity,
            message=f"{len(files)} different files decode to the same pixels, used by items of "
                    f"{where}: {', '.join(table.paths[k] for k in files[:3])}",
            items=ids, n_items=count, splits=splits, images=[_ref(coll, k) for k in files[:8]],
            data={"pixels": digest, "files": len(files)}))
    return out


def near_leaks(coll: Collection, pairs: list[NearPair], leaked: set[int]) -> list[Finding]:
    """``split-near`` findings of the near-duplicate pairs of one benchmark.

    Pairs whose images decode to the same pixels are left to ``split-pixels``; items of a
    pair leaking beyond a note are added to ``leaked``.
    """
    table, out = coll.images, []
    for pair in pairs:
        if table.pixels[pair.a] == table.pixels[pair.b]:
            continue
        sa, sb = coll.image_splits(pair.a), coll.image_splits(pair.b)
        splits = cross_splits(sa, sb)
        ids, count = listed(_items_of(coll, (pair.a, pair.b)))
        severity = leak_severity(splits, _published(coll), exact=False) if splits else "note"
        _note(coll, (pair.a, pair.b), severity, leaked)
        how = ("a mirrored near-duplicate" if pair.mirrored
               else "a cropped near-duplicate" if pair.cropped else "a near-duplicate")
        where = (f"across {' and '.join(splits)}" if splits
                 else f"within {' / '.join(sorted(set(sa) | set(sb))) or 'no split'}")
        out.append(Finding(
            check="split-near", severity=severity,
            message=f"{table.paths[pair.a]} and {table.paths[pair.b]}: {how} "
                    f"({pair.distance} bits) {where}",
            items=ids, n_items=count, splits=splits or sorted(set(sa) | set(sb)),
            images=[_ref(coll, pair.a), _ref(coll, pair.b)], distance=pair.distance,
            data={"mirrored": pair.mirrored, "cropped": pair.cropped}))
    return out


def _note(coll: Collection, images: Iterable[int], severity: str, leaked: set[int]) -> None:
    """Add the items using ``images`` to ``leaked`` unless the leak is only a note."""
    if severity != "note":
        leaked.update(i for k in images for i in coll.image_items[k])


def leaked_by_split(coll: Collection, leaked: set[int]) -> dict[str, int]:
    """Split → how many of ``leaked`` (item numbers) it holds."""
    counts: dict[str, int] = defaultdict(int)
    for n in leaked:
        counts[coll.items[n].split] += 1
    return dict(sorted(counts.items()))
