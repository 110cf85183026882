"""From decision rows to one final decision per item, and the adjudication queue.

An admin's adjudication is final. Otherwise an item with at least ``per_item`` reviews whose
reviewers all keep it (accept or edit) is kept — at the newest edited version any of them wrote —
and one they all reject is rejected (with the most frequent reason). Reviewers who disagree on
keep vs reject send the item to the admins' queue; fewer reviews leave it ``incomplete``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from medvqa.review._criteria import keeps
from medvqa.review._store import Decision


@dataclass(frozen=True)
class Final:
    """The outcome of one item.

    Attributes:
        status: ``kept``, ``rejected``, ``disputed`` (awaits adjudication) or ``incomplete``.
        verdict: accept / edit / reject, or None while unresolved.
        version: edited version kept (None = the original).
        reason: rejection reason.
        note: free text given with the deciding decision(s).
        by: who decided (reviewers, or the adjudicating admin).
        adjudicated: whether an admin decided.
    """

    status: str
    verdict: str | None = None
    version: int | None = None
    reason: str | None = None
    note: str | None = None
    by: tuple[str, ...] = ()
    adjudicated: bool = False


def resolve(reviews: dict[str, Decision], adjudication: Decision | None, per_item: int) -> Final:
    """The final decision on one item from its reviewers' latest decisions and any adjudication.

    >>> d = lambda who, v, ver=None: Decision(0, "i", who, "review", v, None, None, ver, 0.0)
    >>> resolve({"a": d("a", "accept"), "b": d("b", "edit", 2)}, None, 2).version
    2
    >>> resolve({"a": d("a", "accept"), "b": d("b", "reject")}, None, 2).status
    'disputed'
    """
    if adjudication is not None:
        a = adjudication
        return Final("kept" if keeps(a.verdict) else "rejected", a.verdict, a.version,
                     a.reason, a.note, (a.reviewer,), True)
    if not reviews:
        return Final("incomplete")
    kept = {keeps(d.verdict) for d in reviews.values()}
    if len(kept) > 1:
        return Final("disputed", by=tuple(sorted(reviews)))
    if len(reviews) < per_item:
        return Final("incomplete", by=tuple(sorted(reviews)))
    ds = sorted(reviews.values(), key=lambda d: d.id)
    notes = "; ".join(d.note for d in ds if d.note) or None
    if kept == {True}:
        edits = [d for d in ds if d.verdict == "edit" and d.version is not None]
        if edits:
            newest = max(edits, key=lambda d: d.version or 0)
            return Final("kept", "edit", newest.version, None, notes, tuple(sorted(reviews)))
        return Final("kept", "accept", None, None, notes, tuple(sorted(reviews)))
    reason = Counter(d.reason for d in ds).most_common(1)[0][0]
    return Final("rejected", "reject", None, reason, notes, tuple(sorted(reviews)))


def resolve_all(
    order: list[str], reviews: dict[str, dict[str, Decision]],
    adjudications: dict[str, Decision], per_item: int,
) -> dict[str, Final]:
    """Item id → final decision, for every item in ``order``."""
    return {i: resolve(reviews.get(i, {}), adjudications.get(i), per_item) for i in order}
