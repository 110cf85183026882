"""The cheap part of the audit, run by ``medvqa validate``: leaks of cases, bytes and pixels.

No perceptual hash and no near-duplicate search: one decode of each image for its pixel
digest. Each check that finds something gives one line (how many cases or images, which
splits, the first example), worded as a warning; a published split says so. The full list is
``medvqa audit``'s.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from medvqa.benchmark.audit._collection import read_benchmark
from medvqa.benchmark.audit._leakage import byte_and_pixel_leaks, case_leaks

_WHAT = {"split-case": "case(s) have items in two splits",
         "split-bytes": "image file(s) are used by items of two splits",
         "split-pixels": "group(s) of files decode to the same pixels across splits"}


def cheap_leaks(bench: str | Path, workers: int = 1) -> list[str]:
    """One line per leak check that found something in ``bench`` (none: no leak).

    Raises:
        BadInputError: no items.jsonl or no item in it.

    """
    coll = read_benchmark(Path(bench), "bench", workers, perceptual=False)
    leaked: set[int] = set()
    findings = case_leaks(coll, leaked) + byte_and_pixel_leaks(coll, leaked)
    findings = [f for f in findings if f.severity != "note"]
    lines = []
    for check, what in _WHAT.items():
        mine = [f for f in findings if f.check == check]
        if not mine:
            continue
        splits = Counter(" / ".join(f.splits) for f in mine).most_common(1)[0][0]
        published = (f" (the published split: {coll.info.published_split})"
                     if coll.info.published_split else "")
        lines.append(f"leak: {len(mine)} {what}{published}, e.g. {splits}: {mine[0].message}; "
                     "`medvqa audit` lists them all")
    return lines
