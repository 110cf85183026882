"""A response that only lists the options, each with its own text: it answers nothing.

"Answer: A: Yes, B: No", "A) Mass; B) Calcification; C) Asymmetry": the prompt's option list
copied back (``structural.options-listed``). Read as written, every option would be asserted by
its letter and its text at once; the list is no choice among them.
"""

from __future__ import annotations

import re
from typing import Final

from medvqa.reading._options import OptionSet
from medvqa.reading._scan import LEAD

__all__ = ["OPTIONS_LISTED", "lists_every_option"]

OPTIONS_LISTED: Final = "structural.options-listed"
# one option of a list: its letter, a separator, a text, up to the next option or the end
_ITEM: Final = re.compile(r"[ \t]*(?:[-*\u2022][ \t]*)?[(\[]?(?P<key>[A-Z])[)\].:][ \t]*"
                          r"(?P<text>[^,;\n]+?)[ \t]*(?:[,;\n]+|$)")


def lists_every_option(body: str, ix: OptionSet) -> bool:
    """Whether ``body`` (an answer lead aside) is every option with its own text, in a list."""
    text = body.strip()
    if len(text) > 60 * len(ix.keys) or ":" not in text and ")" not in text and "." not in text:
        return False
    lead = LEAD.match(text)
    if lead is not None:
        text = text[lead.end():].lstrip()
    at, seen = 0, []
    while at < len(text):
        m = _ITEM.match(text, at)
        if m is None or m.end() == at:
            return False
        own = dict(ix.items).get(m.group("key"))
        if own is None or m.group("text").strip(" .").lower() != own.strip().lower():
            return False
        seen.append(m.group("key"))
        at = m.end()
    return len(seen) == len(ix.keys) and set(seen) == set(ix.keys)
