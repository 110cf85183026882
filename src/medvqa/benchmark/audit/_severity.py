"""How severe a leak is, from the splits it joins; the order findings are written in.

A leak between a split a model learns from and a split it is scored on is an error; between
two splits used for training and tuning (``train``, ``val``), or between ``val`` and a scored
split, a warning; between two scored splits (``test``, ``test_tiny``, ``external``) a note. A
leak found by similarity (near-duplicate images, paraphrased questions) is at most a warning:
it asks a person to look at the pair (audit.html shows it), where the same case, file or
pixels is proof. A leak of a published split (benchmark.json ``published_split``) is
``published`` instead of an error or a warning: the dataset's publisher made it, and an
importer keeps it on purpose.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from medvqa.benchmark.audit._model import CHECKS, SEVERITIES, Finding, Severity

#: Splits scored by an evaluation.
SCORED = frozenset({"test", "test_tiny", "external"})

#: Item ids listed in one finding (``n_items`` counts them all).
MAX_ITEMS = 50


def leak_severity(splits: Iterable[str], published: bool = False,
                  exact: bool = True) -> Severity:
    """Severity of items of ``splits`` sharing a case or an image (``exact``: not by likeness).

    >>> leak_severity(["train", "test"]), leak_severity(["val", "train"])
    ('error', 'warning')
    >>> leak_severity(["test", "test_tiny"]), leak_severity(["train", "test"], published=True)
    ('note', 'published')
    >>> leak_severity(["train", "test"], exact=False)
    'warning'
    """
    s = set(splits)
    if len(s) < 2:
        return "note"
    level: Severity
    if "train" in s and s & SCORED:
        level = "error" if exact else "warning"
    elif "val" in s:
        level = "warning"
    else:
        level = "note"
    return "published" if published and level != "note" else level


def cross_splits(a: Iterable[str], b: Iterable[str]) -> list[str]:
    """The splits of pairs (one from ``a``, one from ``b``) that differ, sorted.

    >>> cross_splits(["train"], ["test"]), cross_splits(["test"], ["test"])
    (['test', 'train'], [])
    """
    sa, sb = set(a), set(b)
    pairs = {(x, y) for x in sa for y in sb if x != y}
    return sorted({s for p in pairs for s in p})


def listed(ids: Iterable[str]) -> tuple[list[str], int]:
    """Sorted distinct ids, at most :data:`MAX_ITEMS`, and how many there are in all.

    >>> listed(["b", "a", "b"])
    (['a', 'b'], 2)
    """
    out = sorted(set(ids))
    return out[:MAX_ITEMS], len(out)


def sort_key(f: Finding) -> tuple[Any, ...]:
    """Most severe first, then the check's place in ``CHECKS``, then what it is about."""
    check = CHECKS.index(f.check) if f.check in CHECKS else len(CHECKS)
    return (SEVERITIES.index(f.severity), check, [(i.collection, i.path) for i in f.images],
            f.items, f.message)


def capped(findings: list[Finding], limit: int) -> list[Finding]:
    """Findings sorted, at most ``limit`` per check and severity, plus a note per cut.

    >>> fs = [Finding(check="split-near", severity="note", message=str(k)) for k in range(3)]
    >>> [f.message for f in capped(fs, 2)][-1]
    'split-near: 1 more note finding(s) left out of this file (limit 2 per check)'
    """
    out: list[Finding] = []
    seen: dict[tuple[str, str], int] = {}
    cut: dict[tuple[str, str], int] = {}
    for f in sorted(findings, key=sort_key):
        key = (f.check, f.severity)
        seen[key] = seen.get(key, 0) + 1
        if seen[key] <= limit:
            out.append(f)
        else:
            cut[key] = cut.get(key, 0) + 1
    for (check, severity), n in sorted(cut.items()):
        out.append(Finding(check="truncated", severity="note",
                           message=f"{check}: {n} more {severity} finding(s) left out of this "
                                   f"file (limit {limit} per check)",
                           data={"check": check, "severity": severity, "left_out": n}))
    return sorted(out, key=sort_key)
