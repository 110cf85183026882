"""What changed between two decision tables, by class of decision.

A class is one style's move from one kind of decision to another: ``strict: read
(structural.letters) → negated (structural.all-negated)``. A kind keeps the reason and rule and
drops the letter, so that the same change on many items is one class; a read that moved to
another letter under the same rule is the class ``… (another choice)``. Inputs only one table
has are counted apart (:attr:`TableChanges.added`, :attr:`TableChanges.removed`).
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from medvqa.reading.harness._table import Table

__all__ = ["Change", "ChangeClass", "TableChanges", "by_source", "compare", "describe", "kind"]

#: Examples kept per class.
EXAMPLES = 3


class Change(NamedTuple):
    """One input's decision of one style, before and after."""

    id: str
    old: str
    new: str
    excerpt: str


class ChangeClass(NamedTuple):
    """Changed decisions of one class.

    Attributes:
        style: the style whose decisions changed.
        label: ``OLD KIND → NEW KIND`` (see :func:`kind`).
        n: how many decisions of the class changed.
        examples: the first :data:`EXAMPLES` of them, by input id.
    """

    style: str
    label: str
    n: int
    examples: tuple[Change, ...]


class TableChanges(NamedTuple):
    """The changes from one table to another.

    Attributes:
        classes: changed decisions of inputs both tables hold, the largest class first.
        added: ids of inputs only the new table holds.
        removed: ids of inputs only the old table holds.
    """

    classes: tuple[ChangeClass, ...]
    added: tuple[str, ...]
    removed: tuple[str, ...]

    @property
    def changed(self) -> int:
        """Decisions changed on inputs both tables hold."""
        return sum(c.n for c in self.classes)

    def __bool__(self) -> bool:
        """Whether anything changed."""
        return bool(self.classes or self.added or self.removed)


def _choice(cell: str) -> str:
    return cell.split(" @", 1)[0]


def kind(cell: str) -> str:
    """A cell's kind of decision: the letter dropped, the reason and rule kept.

    >>> kind("B @structural.letters"), kind("- hedge @hedge.modal"), kind("-"), kind("?")
    ('read (structural.letters)', 'hedge (hedge.modal)', 'invalid', 'random')
    """
    if cell == "?":
        return "random"
    if cell == "":
        return "no decision"
    if cell.startswith("! "):
        return f"raised {cell[2:]}"
    choice, _, rule = cell.partition(" @")
    what = (choice[2:] or "invalid") if choice.startswith("-") else "read"
    return f"{what} ({rule})" if rule else what


def _label(old: str, new: str) -> str:
    label = f"{kind(old)} → {kind(new)}"
    if label.startswith("read") and kind(old) == kind(new) and _choice(old) != _choice(new):
        label += " (another choice)"
    return label


def compare(old: Table, new: Table) -> TableChanges:
    """The changes from ``old`` to ``new``.

    A style only one of the tables has counts as "no decision" in the other.
    """
    styles = list(new.styles) + [s for s in old.styles if s not in new.styles]
    found: dict[tuple[str, str], list[Change]] = {}
    for input_id in sorted(set(old.rows) & set(new.rows)):
        before = dict(zip(old.styles, old.rows[input_id], strict=True))
        after = dict(zip(new.styles, new.rows[input_id], strict=True))
        for style in styles:
            a, b = before.get(style, ""), after.get(style, "")
            if a != b:
                found.setdefault((style, _label(a, b)), []).append(
                    Change(input_id, a, b, new.excerpts.get(input_id, "")))
    order = {s: i for i, s in enumerate(styles)}
    classes = sorted((ChangeClass(style, label, len(got), tuple(got[:EXAMPLES]))
                      for (style, label), got in found.items()),
                     key=lambda c: (-c.n, order[c.style], c.label))
    return TableChanges(tuple(classes), tuple(sorted(set(new.rows) - set(old.rows))),
                        tuple(sorted(set(old.rows) - set(new.rows))))


def by_source(ids: tuple[str, ...]) -> str:
    """Input ids counted by their source, the largest first.

    >>> by_source(("labelled-0a", "rule_table-1b", "labelled-2c"))
    'labelled 2, rule_table 1'
    """
    counts = Counter(i.rsplit("-", 1)[0] for i in ids)
    return ", ".join(f"{s} {n:,}" for s, n in sorted(counts.items(), key=lambda kv: (-kv[1],
                                                                                   kv[0])))


def describe(changes: TableChanges, limit: int = 20) -> str:
    """The changes as lines to read, at most ``limit`` classes.

    Each class with its count and examples, then the inputs added and removed.
    """
    lines = []
    for c in changes.classes[:limit]:
        lines.append(f"{c.style}: {c.label}: {c.n:,}")
        lines.extend(f"    {e.id}: {e.old or '—'} → {e.new or '—'}  {e.excerpt}"
                     for e in c.examples)
    if len(changes.classes) > limit:
        rest = changes.classes[limit:]
        lines.append(f"… and {len(rest)} classes more ({sum(c.n for c in rest):,} "
                     "decisions)")
    for word, ids in (("added", changes.added), ("removed", changes.removed)):
        if ids:
            lines.append(f"inputs {word}: {len(ids):,} ({by_source(ids)}; first: "
                         f"{', '.join(ids[:3])})")
    return "\n".join(lines)
