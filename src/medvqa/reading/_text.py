r"""Text as the reader reads it: one form for every way of writing a character, Markdown dropped.

:func:`normalize` runs once on every response: Unicode compatibility forms made one (NFKC:
full-width letters and colons, ligatures, "Ⅳ" for IV), curly quotes straight, every dash and
minus sign one of ``-`` ``–`` ``—``, no-break and zero-width spaces made plain or dropped, line
ends made ``\n``, "there's" and "here's" written out ("there is"), text
struck through (``~~B~~``, a list's line ``C. ~~TR3~~``) dropped: it is taken back.
:func:`prepare` drops Markdown emphasis, code marks, headings and quote marks
from a piece about to be read. The rest are small helpers of the reader's patterns.

>>> normalize("Ｂ\u200b：“Right”\r\n")
'B:"Right"\n'
>>> prepare("**Answer:** `B`")
'Answer: B'
"""

from __future__ import annotations

import html
import re
import unicodedata
from typing import Final

__all__ = ["Opening", "blanked", "holds_dash", "holds_markup", "line_starts", "matches_at",
           "normalize", "positions_of", "prepare"]

_REPLACE: Final[tuple[tuple[str, str], ...]] = (
    ("\u2019", "'"), ("\u2018", "'"), ("\u201b", "'"), ("\u2032", "'"), ("\u201c", '"'),
    ("\u201d", '"'), ("\u201e", '"'), ("\u00ab", '"'), ("\u00bb", '"'), ("\u00a0", " "),
    ("\u202f", " "), ("\u2009", " "), ("\u2212", "-"), ("\u2010", "-"), ("\u2011", "-"),
    ("\u2012", "\u2013"), ("\u2015", "\u2014"), ("\u200b", ""), ("\u200c", ""), ("\u200d", ""),
    ("\ufeff", ""), ("\u00ad", ""), ("\r\n", "\n"), ("\r", "\n"), ("\u060c", ", "),
    ("\u3001", ", "), ("\ufe0f", ""), ("\ufe0e", ""))
_STRUCK: Final = re.compile(r"~~[^~\n]{1,200}~~")
_STRUCK_LINE: Final = re.compile(r"(?m)^[ \t]*(?:[-*\u2022][ \t]*)?(?:[A-Z][.):]|\([A-Z]\))?[ \t]*"
                                 r"~~[^~\n]{1,200}~~[ \t]*(?:\n|\Z)")
# "There's no effusion" is "there is no effusion": the one form the finding rules read ("it's"
# stays: rules such as the letter keyword "it's" read it as written).
_IS: Final = re.compile(r"\b([Tt]here|[Hh]ere)'s\b")
_MARKUP: Final = re.compile(r"[*_`]+|^[ \t]*(?:#+|>+)[ \t]*", re.MULTILINE)


_FOOTNOTE_LINE: Final = re.compile(r"(?m)^[ \t]*\[\^[\w-]{1,12}\]:[^\n]*\n?")
_FOOTNOTE_REF: Final = re.compile(r"[ \t]?\[\^[\w-]{1,12}\]")
_SUPERSCRIPT_DIGITS = "\u00b9\u00b2\u00b3\u2070\u2074-\u2079"
_SUPERSCRIPTS: Final = re.compile("[" + _SUPERSCRIPT_DIGITS + "]")
# a note opening a line with its mark ("\u00b9 Measured …"), a mark after a lone capital ("B\u00b9")
_SUPERSCRIPT_LINE: Final = re.compile(r"(?m)^[ \t]*[" + _SUPERSCRIPT_DIGITS + r"]+[ \t][^\n]*\n?")
_SUPERSCRIPT_AFTER_LETTER: Final = re.compile(r"(?<![\w'])([A-Z])[" + _SUPERSCRIPT_DIGITS + "]+")
# The decimal digits of scripts whose digits NFKC leaves as they are (Arabic-Indic, Persian,
# Devanagari, Bengali, Thai …): each block's zero, its nine others after it.
_DIGIT_ZEROS: Final = (0x0660, 0x06F0, 0x07C0, 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66, 0x0BE6,
                       0x0C66, 0x0CE6, 0x0D66, 0x0E50, 0x0ED0, 0x0F20, 0x1040, 0x17E0, 0x1810)
_DIGITS: Final = {zero + d: str(d) for zero in _DIGIT_ZEROS for d in range(10)}
_HOLDS_DIGITS: Final = re.compile("[" + "".join(f"{chr(z)}-{chr(z + 9)}" for z in _DIGIT_ZEROS)
                                  + "]")


# Letters NFKC leaves as symbols: the negative circled and negative squared capitals ("🅐",
# "🅰"), written as letters; a pointing hand or a heavy arrow, written as the arrow "→";
# a green or a red square as a verdict, written as a check or a cross.
_GLYPHS: Final = {**{0x1F150 + i: chr(65 + i) for i in range(26)},
                  **{0x1F170 + i: chr(65 + i) for i in range(26)},
                  0x1F449: "\u2192", 0x27A1: "\u2192", 0x279C: "\u2192", 0x27A4: "\u2192",
                  0x1F7E9: "\u2713", 0x1F7E5: "\u2717"}
_HOLDS_GLYPHS: Final = re.compile("[" + "".join(map(chr, _GLYPHS)) + "]")
# A Greek capital that looks like a Latin one, standing alone ("Β" as an answer is B): a
# letter of Greek prose ("Η απάντηση ...", its article "Η") is left as it is.
_LATIN_OF_GREEK: Final = dict(zip("\u0391\u0392\u0395\u0396\u0397\u0399\u039a\u039c\u039d"
                                  "\u039f\u03a1\u03a4\u03a5\u03a7", "ABEZHIKMNOPTYX", strict=True))
_GREEK_LOOKALIKE: Final = re.compile("(?<![^\\W\\d_])([" + "".join(_LATIN_OF_GREEK) + "])"
                                     "(?![^\\W\\d_])")
_GREEK_SMALL: Final = re.compile("[\u03ac-\u03ce]")
# A letter struck through with combining overlays ("C̶"): taken back, as "~~C~~" is.
_OVERLAID: Final = re.compile("(?:[^\\s\u0335-\u0338][\u0335-\u0338]+)+")


_HTML_FORMAT: Final = re.compile(
    r"</?(b|i|u|em|strong|p|br|span|div|font|mark|small|big|li|ul|ol|h[1-6])(?:\s[^<>]{0,80})?/?>",
    re.IGNORECASE)
_BREAKS: Final = re.compile(r"\0(?:[ \t]*\0)*")
# A character entity of HTML ("&#x2713;", "&amp;"): written as its character.
_ENTITY: Final = re.compile(r"&(?:#[0-9]{1,6}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});")
_HTML_BLOCK: Final = frozenset({"p", "br", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5",
                                "h6"})


def normalize(text: str) -> str:
    """``text`` in the one form the reader reads (see the module docstring).

    NFKC maps "Ｂ" to "B" and "：" to ":" but leaves "。" and "，" (Chinese punctuation the
    reader knows) as they are.
    """
    if not text.isascii():
        if _OVERLAID.search(text) is not None:
            text = _OVERLAID.sub(lambda m: "~~" + re.sub("[\u0335-\u0338]", "", m.group())
                                 + "~~", text)
        if _HOLDS_GLYPHS.search(text) is not None:
            text = text.translate(_GLYPHS)
        if _GREEK_LOOKALIKE.search(text) is not None and _GREEK_SMALL.search(text) is None:
            text = _GREEK_LOOKALIKE.sub(lambda m: _LATIN_OF_GREEK[m.group(1)], text)
    if "~~" in text:
        # struck through is taken back: "~~B~~ D", "~~A~~ ~~B~~ C" say D and C; a restated
        # list's line struck through ("C. ~~TR3~~") goes with its letter
        text = _STRUCK_LINE.sub("", text)
        text = _STRUCK.sub(" ", text)
    if "&" in text and _ENTITY.search(text) is not None:
        text = html.unescape(text)
    if "</" in text and _HTML_FORMAT.search(text) is not None:
        # HTML's formatting ("<p><b>Answer:</b> C</p>") is markup, as Markdown's is; a block
        # element ends a line. Other tags (<answer>, <ref>) are structure, read as such.
        # (adjacent block tags end one line: "</li><li>" is one break, not a blank line)
        text = _HTML_FORMAT.sub(lambda m: "\0" if m.group(1).lower() in _HTML_BLOCK else "",
                                text)
        text = _BREAKS.sub("\n", text)
    if "[^" in text:
        # a Markdown footnote ("Answer [^1]: C", "[^1]: Based on …") is a note, not the answer
        text = _FOOTNOTE_REF.sub("", _FOOTNOTE_LINE.sub("", text))
    if not text.isascii():
        if _SUPERSCRIPTS.search(text) is not None:
            # "B\u00b9" and its note "\u00b9 Measured on …": NFKC would make "B1"
            text = _SUPERSCRIPT_AFTER_LETTER.sub(r"\1", _SUPERSCRIPT_LINE.sub("", text))
        if not unicodedata.is_normalized("NFKC", text):
            text = unicodedata.normalize("NFKC", text)
        if not text.isascii() and _HOLDS_DIGITS.search(text):
            text = text.translate(_DIGITS)  # "BI-RADS ٤" is BI-RADS 4
        for a, b in _REPLACE:
            if a in text:
                text = text.replace(a, b)
    elif "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _IS.sub(r"\1 is", text) if "'s" in text else text


def holds_dash(text: str) -> bool:
    """Whether ``text`` holds a hyphen or an en or em dash (a spaced dash may end a clause)."""
    return "-" in text or "\u2014" in text or "\u2013" in text


def holds_markup(text: str) -> bool:
    """Whether ``text`` holds a Markdown character that :func:`prepare` drops."""
    return "*" in text or "_" in text or "`" in text or "#" in text or ">" in text


def prepare(text: str) -> str:
    """Markdown emphasis, code marks, headings and quote marks dropped; trimmed."""
    if holds_markup(text):
        text = _MARKUP.sub("", text)
    return text.strip()


def positions_of(text: str, marks: str) -> list[int]:
    """Every position of a character of ``marks`` in ``text``, in order.

    >>> positions_of("(a) [b] (c)", "([")
    [0, 4, 8]
    """
    out: list[int] = []
    for mark in marks:
        i = text.find(mark)
        while i >= 0:
            out.append(i)
            i = text.find(mark, i + 1)
    if len(marks) > 1:
        out.sort()
    return out


def line_starts(text: str) -> list[int]:
    r"""Where each line of ``text`` starts.

    >>> line_starts("a\nb\n")
    [0, 2, 4]
    """
    out = [0]
    i = text.find("\n")
    while i >= 0:
        out.append(i + 1)
        i = text.find("\n", i + 1)
    return out


class Opening:
    """What a pattern matched at a line start may open with (a test before the match).

    Attributes:
        chars: the characters it may open with (a capital aside).
        after_capital: the characters that may follow an opening capital A–Z; None when it
            cannot open with one.
        space_after_capital: white space may follow the capital too.
        space: it may open with any white space.
        digit: it may open with a decimal digit.
    """

    __slots__ = ("after_capital", "chars", "digit", "space", "space_after_capital")

    def __init__(self, chars: str, after_capital: str | None = None, *,
                 space_after_capital: bool = False, space: bool = False, digit: bool = False):
        self.chars = chars
        self.after_capital = after_capital
        self.space_after_capital = space_after_capital
        self.space = space
        self.digit = digit

    def allows(self, text: str, p: int) -> bool:
        """Whether the pattern may match at ``p``."""
        if p >= len(text):
            return False
        c = text[p]
        if self.after_capital is not None and "A" <= c <= "Z":
            if p + 1 >= len(text):
                return False
            d = text[p + 1]
            return d in self.after_capital or self.space_after_capital and d.isspace()
        return c in self.chars or self.space and c.isspace() or self.digit and c.isdecimal()


def matches_at(pattern: re.Pattern[str], text: str, positions: list[int],
               opens: Opening | None = None) -> list[re.Match[str]]:
    """``pattern``'s matches at ``positions`` (where ``opens`` allows), in order."""
    return [m for p in positions
            if (opens is None or opens.allows(text, p)) and (m := pattern.match(text, p))]


def blanked(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with the spans replaced by spaces (positions kept): set aside, not removed."""
    parts, pos = [], 0
    for start, end in sorted(spans):
        if start < pos:
            start = pos
        if end <= start:
            continue
        parts += [text[pos:start], " " * (end - start)]
        pos = end
    parts.append(text[pos:])
    return "".join(parts)
