"""The group a scored row falls in for a ``--by`` breakdown: an item field or ``meta.KEY``.

``meta.KEY`` makes an imported breakdown first-class (GMAI-MMBench's ``meta.department``,
``meta.modality``, ``meta.granularity``; SLAKE's ``meta.content_type``); ``meta.a.b`` reads a
nested key. An item without the key is in the group ``unknown``.
"""

from __future__ import annotations

from typing import Any

from medvqa.errors import UsageError

#: Item fields a breakdown may use directly.
FIELDS = ("category", "source", "split", "question_type", "case_id")


def check_by(name: str) -> str:
    """``name`` when it is a valid breakdown, else a usage error naming the valid ones."""
    if name in FIELDS or (name.startswith("meta.") and len(name) > len("meta.")):
        return name
    raise UsageError(f"--by {name!r}: use {', '.join(FIELDS)} or meta.KEY")


def group_key(row: Any, name: str) -> str:
    """The group label of ``row`` (a ScoredRow or Item) for breakdown ``name``.

    >>> from types import SimpleNamespace as R
    >>> group_key(R(category="Organ", meta={}), "category")
    'Organ'
    >>> group_key(R(meta={"dept": {"name": "Radiology"}}), "meta.dept.name")
    'Radiology'
    >>> group_key(R(meta={}), "meta.modality")
    'unknown'
    """
    if not name.startswith("meta."):
        return str(getattr(row, name, "") or "")
    value: Any = row.meta
    for part in name[len("meta."):].split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return "unknown" if value is None or value == "" else str(value)
