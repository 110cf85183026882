"""Every style's decision on every corpus input, each written as one short cell.

A cell says what a style decided on one input:

- ``B`` or ``A,C`` — the letter or letters read; the strict style adds the rule that decided,
  ``B @structural.letters``;
- ``- hedge @hedge.modal`` — an abstention, its reason and rule (``-`` alone where a style
  says neither, as the published scorers do);
- ``?`` — pathmmu's seeded random option where it reads none (the letter drawn depends on
  the order of the inputs, so the table records only that it drew);
- ``! KeyError`` — the reader raised instead of deciding (a bug the table keeps in view until
  it is fixed).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from medvqa.reading import ParsedAnswer, clear_caches, make_parser
from medvqa.reading.harness._corpus import HarnessInput

__all__ = ["HARNESS_STYLES", "NOT_OPTION_STYLES", "cell", "decide"]

#: The styles that read a choice among options: the harness's columns, in this order.
HARNESS_STYLES: Final = ("strict", "mammovqa", "pathmmu")
#: The other registered styles, and why the harness leaves them out.
NOT_OPTION_STYLES: Final = {"region": "reads sets of region IDs, not options",
                            "open": "reads free text, not options"}
#: The cell of a random option drawn where nothing was read.
DRAWN: Final = "?"
#: The start of the cell of a reader that raised (the exception's class follows).
RAISED: Final = "!"


def cell(parsed: ParsedAnswer, drew: bool = False) -> str:
    """One decision as its cell (see the module's docstring).

    >>> cell(ParsedAnswer("B", False, None, "structural.letters"))
    'B @structural.letters'
    >>> cell(ParsedAnswer(None, True, "hedge", "hedge.modal"))
    '- hedge @hedge.modal'
    >>> cell(ParsedAnswer(["A", "C"], False))
    'A,C'
    """
    if drew:
        return DRAWN
    if parsed.invalid:
        text = "-" if parsed.reason is None else f"- {parsed.reason}"
    elif isinstance(parsed.choice, list):
        text = ",".join(parsed.choice) if parsed.choice else "[]"
    else:
        text = str(parsed.choice)
    return text if parsed.rule is None else f"{text} @{parsed.rule}"


def decide(inputs: Iterable[HarnessInput],
           styles: tuple[str, ...] = HARNESS_STYLES) -> dict[str, tuple[str, ...]]:
    """Input id → the cell of each style in ``styles``, caches cleared first.

    One parser per style reads every input in order, as one scoring pass does; a seeded
    style's draws are recorded as :data:`DRAWN`, never as the letter drawn.
    """
    clear_caches()
    parsers = [make_parser(s) for s in styles]
    out: dict[str, tuple[str, ...]] = {}
    for item in inputs:
        cells = []
        for parser in parsers:
            before = getattr(parser, "fallbacks", 0)
            try:
                parsed = parser.parse(item.response, item.options, item.question_type,
                                      question=item.question)
            except Exception as exc:  # noqa: BLE001 - a reader's crash is a decision to keep
                cells.append(f"{RAISED} {type(exc).__name__}")
                continue
            cells.append(cell(parsed, getattr(parser, "fallbacks", 0) != before))
        out[item.id] = tuple(cells)
    return out
