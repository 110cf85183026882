"""``make_parser``: the one table of parser styles."""

from __future__ import annotations

from typing import Any, cast

from medvqa._registry import Registry
from medvqa.score.parsers._base import AnswerParser

STYLES: Registry[Any] = Registry(
    "parser style",
    {
        "strict": "medvqa.score.parsers._strict:StrictParser",
        "mammovqa": "medvqa.score.parsers._mammovqa:MammoVQAParser",
        "pathmmu": "medvqa.score.parsers._pathmmu:PathMMUParser",
        "region": "medvqa.score.parsers._region:RegionParser",
        "open": "medvqa.score.parsers._open:OpenParser",
    },
)
_SEEDED = {"pathmmu"}


def make_parser(style: str, *, seed: int = 42) -> AnswerParser:
    """A fresh parser of ``style``; make one per scoring pass (it may hold a seeded RNG).

    Raises:
        medvqa._registry.UnknownNameError: unknown style, with close matches.
    """
    cls = STYLES.get(style)
    return cast(AnswerParser, cls(seed=seed) if style in _SEEDED else cls())


def clear_caches() -> None:
    """Forget every parser's remembered results (they are pure; benchmarks start cold)."""
    from medvqa.score.parsers import _mammovqa, _strict

    _strict.clear_memo()
    _mammovqa.clear_memo()
