"""The shipped table of yes/no words and answer markers by language (``yes_no_words.yaml``).

Loaded once, on first import of a parser that reads free text. See the YAML file's header for
what each list means, where it comes from and how the strict parser uses it.

>>> "oui" in YES_WORDS and "nein" in NO_WORDS and "respuesta" in ANSWER_WORDS
True
>>> sorted(w for w in YES_WORDS & NO_WORDS)
[]
"""

from __future__ import annotations

from typing import Any, Final

import yaml

from medvqa._resources import shipped_text

__all__ = ["ANSWER_WORDS", "NO_WORDS", "YES_WORDS", "complete_marker"]


def _load() -> dict[str, dict[str, list[str]]]:
    data: Any = yaml.safe_load(shipped_text("resources", "answers", "yes_no_words.yaml"))
    return {lang: {k: [str(w).lower() for w in (v or [])] for k, v in table.items()}
            for lang, table in data["languages"].items()}


_TABLE = _load()
#: Words that answer "yes" on their own, every language.
YES_WORDS: Final[frozenset[str]] = frozenset(w for t in _TABLE.values() for w in t["yes"])
#: Words that answer "no" on their own, every language.
NO_WORDS: Final[frozenset[str]] = frozenset(w for t in _TABLE.values() for w in t["no"])
#: Words that introduce an answer in languages other than English.
ANSWER_WORDS: tuple[str, ...] = tuple(sorted({w for t in _TABLE.values() for w in t["answer"]},
                                               key=len, reverse=True))


def complete_marker(word: str) -> bool:
    """Whether an answer word already ends in its connector (答案是) and needs no colon.

    >>> complete_marker("答案是"), complete_marker("respuesta")
    (True, False)
    """
    return word[-1] in "是为為"
