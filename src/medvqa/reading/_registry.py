"""``make_parser``: the one table of parser styles.

A light module: the command line's help text is made from :data:`STYLES` at start-up.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from medvqa._registry import Entry, Registry
from medvqa.reading._base import AnswerParser

#: The seed of a seeded style's fallback unless a caller says otherwise: 42, as the PathMMU
#: scorer's published numbers used (it picks a random option when it cannot read one).
PARSER_SEED = 42


@dataclass(frozen=True)
class ParserStyle(Entry):
    """A style's row.

    Attributes:
        seeded: the parser draws from a seeded generator (its constructor takes ``seed``).
    """

    seeded: bool = False


_P = "medvqa.reading"

STYLES: Registry[Any] = Registry("parser style", {
    "strict": ParserStyle(f"{_P}._strict:StrictParser", "abstains rather than guesses; "
                          "reports the invalid rate (default)"),
    "mammovqa": ParserStyle(f"{_P}._mammovqa:MammoVQAParser", "the published MammoVQA scorer, "
                            "quirks included"),
    "pathmmu": ParserStyle(f"{_P}._pathmmu:PathMMUParser", "the published PathMMU scorer "
                           "(a seeded random option when it cannot read one)", seeded=True),
    "region": ParserStyle(f"{_P}._region:RegionParser", "sets of region IDs (LMOD)"),
    "open": ParserStyle(f"{_P}._open:OpenParser", "free text: exact match, token F1, BLEU, "
                        "ROUGE-L"),
})


def make_parser(style: str, *, seed: int = PARSER_SEED) -> AnswerParser:
    """A fresh parser of ``style``; make one per scoring pass (it may hold a seeded RNG).

    Raises:
        medvqa._registry.UnknownNameError: unknown style, with close matches.
    """
    cls = STYLES.get(style)
    seeded = cast(ParserStyle, STYLES.row(style)).seeded
    return cast(AnswerParser, cls(seed=seed) if seeded else cls())


def clear_caches() -> None:
    """Forget every parser's remembered results (they are pure; benchmarks start cold)."""
    from medvqa.reading import _mammovqa, _strict
    from medvqa.reading._memo import forget_memos

    _strict.clear_memo()
    _mammovqa.clear_memo()
    forget_memos()
