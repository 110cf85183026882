"""Contamination: images of the benchmark that also sit in another collection.

``--against`` names another BENCH/ or a plain image folder (a model's known training images,
another benchmark built from the same sources). Each image of the benchmark is compared with
every image there: the same bytes (``against-bytes``), the same pixels in another file
(``against-pixels``) and near-duplicates (``against-near``). A benchmark image used by a scored
split (test, test_tiny, external) found elsewhere is an error (a warning when only near); one
used only by train or val is a note.
"""

from __future__ import annotations

from collections import defaultdict

from medvqa.benchmark.audit._collection import Collection
from medvqa.benchmark.audit._model import Finding, ImageRef, Severity
from medvqa.benchmark.audit._near import NearPair
from medvqa.benchmark.audit._severity import SCORED, listed


def _severity(splits: list[str], exact: bool) -> Severity:
    if not set(splits) & SCORED:
        return "note"
    return "error" if exact else "warning"


def _refs(coll: Collection, images: list[int]) -> list[ImageRef]:
    return [ImageRef(collection=coll.info.label, path=coll.images.paths[k],
                     splits=coll.image_splits(k)) for k in images]


def _finding(bench: Collection, other: Collection, mine: list[int], theirs: list[int],
             check: str, exact: bool, what: str, distance: int | None = None,
             data: dict[str, object] | None = None) -> Finding:
    splits = sorted({s for k in mine for s in bench.image_splits(k)})
    ids, count = listed(bench.items[i].id for k in mine for i in bench.image_items[k])
    where = other.info.name or other.info.path
    used = f"used by {' / '.join(splits)} items" if splits else "used by no item"
    return Finding(
        check=check, severity=_severity(splits, exact),
        message=f"{bench.images.paths[mine[0]]} ({used}) {what} "
                f"{other.images.paths[theirs[0]]} in {other.info.label} ({where})",
        items=ids, n_items=count, splits=splits,
        images=_refs(bench, mine[:4]) + _refs(other, theirs[:4]), distance=distance,
        data={"against": other.info.label, "their_splits": sorted(
            {s for k in theirs for s in other.image_splits(k)}), **(data or {})})


def exact_matches(bench: Collection, other: Collection) -> list[Finding]:
    """``against-bytes`` and ``against-pixels``: one finding per shared SHA-256 or pixels."""
    out: list[Finding] = []
    for field, check, what in (("sha256", "against-bytes", "has the same bytes as"),
                               ("pixels", "against-pixels", "has the same pixels as")):
        theirs: dict[str, list[int]] = defaultdict(list)
        values = getattr(other.images, field)
        for k in range(len(other.images)):
            if other.images.ok[k]:
                theirs[values[k]].append(k)
        mine: dict[str, list[int]] = defaultdict(list)
        for k, value in enumerate(getattr(bench.images, field)):
            if bench.images.ok[k] and value in theirs:
                mine[value].append(k)
        for value, files in sorted(mine.items()):
            if field == "pixels" and {bench.images.sha256[k] for k in files} == {
                    other.images.sha256[k] for k in theirs[value]}:
                continue  # the same file: already an against-bytes finding
            out.append(_finding(bench, other, files, theirs[value], check, True, what,
                                data={field: value}))
    return out


def near_matches(bench: Collection, other: Collection, pairs: list[NearPair]) -> list[Finding]:
    """``against-near``: one finding per near-duplicate pair (same pixels left out)."""
    out = []
    for pair in pairs:
        if bench.images.pixels[pair.a] == other.images.pixels[pair.b]:
            continue
        how = ("is a mirrored near-duplicate of" if pair.mirrored
               else "is a cropped near-duplicate of" if pair.cropped
               else "is a near-duplicate of")
        out.append(_finding(bench, other, [pair.a], [pair.b], "against-near", False,
                            f"{how} ({pair.distance} bits)", pair.distance,
                            {"mirrored": pair.mirrored, "cropped": pair.cropped}))
    return out
