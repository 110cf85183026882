"""Option shifts a run was asked for by name, checked against the items it selects.

Circular evaluation asks an item every shift below its option count (``permute@k`` shows
option ``i`` the text at ``i + k``; on three options ``permute@3`` is ``permute@0`` again), so
an item with ``k`` options or fewer is never asked ``permute@k``. The bare ``permute`` names
every shift each item has (0 … 9): its shifts that ask nothing are its definition, not news.
A shift written out (``permute@5``, ``permute@0-5``) is a request, so the run says what
became of it before anything is sent:

* a named shift that asks **no** selected item is refused (exit 2, nothing written): its
  rows would be missing from every table with no word, and the fix is the user's;
* a named shift that asks **some** selected items gives a note counting those it does not
  ask — the run goes on, because those items are complete without it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from medvqa.conditions import Condition, expand_conditions, split_name
from medvqa.errors import BadInputError
from medvqa.schema import CHOICE_TYPES, Item


def named_shifts(specs: Iterable[str]) -> set[str]:
    """The ``permute@k`` names that the condition specs write out (not the bare ``permute``).

    >>> sorted(named_shifts(["clean", "permute", "permute@4", "permute@0-1"]))
    ['permute@0', 'permute@1', 'permute@4']
    """
    out: set[str] = set()
    for spec in specs:
        family, _, param = split_name(spec)
        if family == "permute" and param:
            out.update(expand_conditions([spec]))
    return out


@dataclass
class ShiftTally:
    """How many selected items each named shift asks, and the most options of any item.

    Attributes:
        conditions: the named ``permute@k`` conditions of the run.
        asked: condition name → selected items it asks.
        choice: selected choice items seen (the only ones a shift can ask).
        most_options: the most options of a selected choice item (0: none).
    """

    conditions: Sequence[Condition]
    asked: dict[str, int]
    choice: int = 0
    most_options: int = 0

    def add(self, item: Item) -> None:
        """Count one selected item."""
        if item.question_type not in CHOICE_TYPES:
            return
        self.choice += 1
        self.most_options = max(self.most_options, len(item.options))
        for cond in self.conditions:
            if cond.applies_to(item):
                self.asked[cond.name] += 1

    def notes(self) -> list[str]:
        """One note per named shift that skips some items.

        Raises:
            BadInputError: a named shift asks no selected item (nothing was run).
        """
        never = [c.name for c in self.conditions if not self.asked[c.name]]
        if never:
            most = self.most_options
            fix = f" or permute@0-{most - 1}" if most > 1 else ""
            has = (f"no selected item has more than {min(int(n.split('@')[1]) for n in never)} "
                   f"options (the most is {most})" if self.choice
                   else "no selected item is a choice question")
            raise BadInputError(
                f"--conditions {', '.join(never)}: {has}, so {'they' if len(never) > 1 else 'it'} "
                "would ask nothing; circular "
                "evaluation asks each item the shifts below its option count: use permute "
                f"(every shift each item has){fix}; nothing was run")
        return [f"{c.name}: not asked of {self.choice - self.asked[c.name]} of the "
                f"{self.choice} selected choice items (they have {c.name.split('@')[1]} options "
                "or fewer; circular evaluation asks each item the shifts below its option "
                "count)" for c in self.conditions if self.asked[c.name] < self.choice]


def shift_tally(specs: Iterable[str], conditions: Sequence[Condition]) -> ShiftTally:
    """An empty :class:`ShiftTally` for the shifts ``specs`` name among ``conditions``."""
    named = named_shifts(specs)
    chosen = [c for c in conditions if c.name in named]
    return ShiftTally(chosen, {c.name: 0 for c in chosen})
