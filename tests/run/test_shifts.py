"""Named option shifts against the selection (``medvqa.run._shifts``)."""

from __future__ import annotations

import pytest

from medvqa.conditions import get_condition
from medvqa.errors import BadInputError
from medvqa.run._shifts import named_shifts, shift_tally
from medvqa.schema import Item


def _item(n: int, options: int, qt: str = "single") -> Item:
    opts = {chr(65 + k): f"text {k}" for k in range(options)}
    if qt == "open":
        return Item(id=f"q{n}", question="What?", options={}, answer="x", question_type="open")
    return Item(id=f"q{n}", question="Which?", options=opts, answer="A", question_type=qt)


def _tally(specs: list[str], items: list[Item]):
    from medvqa.conditions import expand_conditions

    conds = [get_condition(c) for c in expand_conditions(specs)]
    tally = shift_tally(specs, conds)
    for item in items:
        tally.add(item)
    return tally


def test_the_bare_permute_names_no_shift() -> None:
    assert named_shifts(["permute", "clean", "permute:x"]) == set()
    assert _tally(["permute"], [_item(0, 3)]).notes() == []


def test_a_shift_that_asks_every_choice_item_says_nothing() -> None:
    items = [_item(0, 4), _item(1, 4), _item(2, 0, "open")]  # open items are never shifted
    assert _tally(["clean", "permute@0-3"], items).notes() == []


def test_a_shift_that_skips_some_items_is_counted() -> None:
    notes = _tally(["permute@3"], [_item(0, 4), _item(1, 3), _item(2, 2, "yesno")]).notes()
    assert notes == ["permute@3: not asked of 2 of the 3 selected choice items (they have 3 "
                     "options or fewer; circular evaluation asks each item the shifts below "
                     "its option count)"]


def test_a_shift_that_asks_no_item_is_refused() -> None:
    with pytest.raises(BadInputError, match=r"permute@4, permute@5: no selected item has more "
                       r"than 4 options \(the most is 4\), so they would ask nothing.*"
                       r"permute@0-3; nothing was run"):
        _tally(["permute@0-5"], [_item(0, 4), _item(1, 3)]).notes()


def test_without_choice_items_the_refusal_says_so() -> None:
    with pytest.raises(BadInputError, match="no selected item is a choice question"):
        _tally(["permute@0"], [_item(0, 0, "open")]).notes()
