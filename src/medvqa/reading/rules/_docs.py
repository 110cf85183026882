"""The rule table as Markdown: the section of ``docs/answer-reading.md`` that lists the rules.

Written from :data:`~medvqa.reading.rules.RULES` alone, so the documentation cannot drift from
the table: ``python -m medvqa.reading.rules --write docs/answer-reading.md`` replaces the text
between the two markers, and a test fails while the committed section differs from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from medvqa.reading.rules._types import Example, Rule

__all__ = ["BEGIN", "END", "replace_section", "rules_markdown"]

BEGIN: Final = "<!-- rule table: written by `python -m medvqa.reading.rules`; do not edit -->"
END: Final = "<!-- end of the rule table -->"
#: Phrases listed per rule (the rest are counted): the table, not the docs, holds them all.
_PHRASES_SHOWN: Final = 12


def _decision(e: Example) -> str:
    """How an example is decided, in the docs' words."""
    if e.expected is None:
        return "abstains"
    if isinstance(e.expected, tuple):
        return "reads " + ", ".join(e.expected)
    return f"reads {e.expected}"


def _quoted(text: str) -> str:
    """``text`` as inline code on one line (line breaks shown as ⏎)."""
    one_line = text.replace("\n", "\u23ce")
    tick = "``" if "`" in one_line else "`"
    pad = " " if tick == "``" else ""
    return f"{tick}{pad}{one_line}{pad}{tick}"


def _rule_entry(r: Rule) -> list[str]:
    lines = [f"- **`{r.id}`** ({r.kind.value}): {r.doc}"]
    if r.phrases:
        shown = ", ".join(_quoted(p) for p in r.phrases[:_PHRASES_SHOWN])
        more = len(r.phrases) - _PHRASES_SHOWN
        lines.append(f"  Phrases: {shown}" + (f" and {more} more." if more > 0 else "."))
    if r.examples:
        e = r.examples[0]
        lines.append(f"  Example: {_quoted(e.response)} ({e.options}) {_decision(e)}.")
    if r.counter:
        e = r.counter[0]
        lines.append(f"  Not this: {_quoted(e.response)} ({e.options}) {_decision(e)}.")
    return lines


def rules_markdown(rules: Sequence[Rule]) -> str:
    """The rule table's section: every rule by its id, grouped by the id's first part."""
    out = [BEGIN, "", f"{len(rules)} rules, in the order the reader's table lists them. Option "
           "sets named in examples are those of `medvqa.reading.rules.OPTION_SETS`.", ""]
    group = None
    for r in rules:
        head = r.id.split(".")[0]
        if head != group:
            if group is not None:
                out.append("")
            out += [f"#### {head}", ""]
            group = head
        out += _rule_entry(r)
    out += ["", END]
    return "\n".join(out) + "\n"


def replace_section(document: str, section: str) -> str:
    """``document`` with the text from :data:`BEGIN` to :data:`END` replaced by ``section``.

    Raises:
        ValueError: the document has no such markers.
    """
    start = document.find(BEGIN)
    end = document.find(END)
    if start < 0 or end < start:
        raise ValueError("the document has no rule-table markers")
    return document[:start] + section + document[end + len(END) + 1:]
