r"""Marked tables, check-lists and forms: which rows a response marks, read only when clear.

Models asked to "mark the finding" answer with a Markdown table (a column of ✓ / ✗, Yes / No,
Present / Absent) or a check-list (``- [x] Mass``, ``☑ Mass``, ``- Mass: present``). A block
of at least two such rows is a *marked list*; its positive rows are the answer:

- every row of the block must carry a mark in the same place — positive (✓ ✔ ✅ ☑ ☒ 🟢 👍
  ``[x]`` x yes present positive seen true selected correct +, or a verdict: most likely, most
  consistent), negative (✗ ✘ ❌ ✖ ☐ 🔴 👎 ``[ ]``, an empty cell, no absent negative "not seen"
  false - –, or a verdict: unlikely, excluded, ruled out) — or the block is not read; several
  marked parts on one line ("A ✗  B ✓  C ✗") are rows of their own, and so are the marks of a
  form's line with its group named before or after them ("ACL:  [✓] intact  [ ] tear",
  "☑ Yes ☐ No — Effusion": each row's label is "group: item"); radio buttons ``( )`` /
  ``(●)`` are boxes;
- an uncertain mark (? possible maybe equivocal indeterminate ±) is read as "possibly …": a
  hedge, never turned into a choice;
- a table whose mark column is headed by a negative word (Absent, Excluded, Ruled out) is not
  read (its ✓ would mean the opposite);
- a block with every row negative answers "none";
- the last marked block of a response counts.

The labels of the positive rows (the row's other cells, joined by ``: ``) become the final-answer
segment; the strict reader then maps them to options (two positive rows on a single-choice item
are two options: invalid).

>>> read_marks("| Finding | Present |\n|---|---|\n| Mass | ✓ |\n| Calcification | ✗ |").labels
['Mass']
>>> read_marks("- [ ] A. Fatty\n- [x] B. Dense\n").labels
['B. Dense']
>>> read_marks("- Mass: present\n- Cyst: possible").labels
['Mass', 'possibly Cyst']
"""

from __future__ import annotations

import re
from typing import Final

from medvqa.reading._text import Opening, blanked

__all__ = ["MARK_CUES", "MARK_SYMBOLS", "NONE_MARKED", "VERDICTS", "Marked", "forget_kinds",
           "read_marks"]


class Marked:
    """The positive rows of a response's last marked block.

    A plain class, not a NamedTuple (see ``_reading.Reading``).

    Attributes:
        start: where the block begins in the text.
        end: where it ends.
        labels: the positive rows' labels, in order.
        rejected: where the negative rows are (an empty box's label is no option offered
            beside the answer: the checks after the reading set them aside).
    """

    __slots__ = ("end", "labels", "rejected", "start")

    def __init__(self, start: int, end: int, labels: list[str],
                 rejected: list[tuple[int, int]] | None = None):
        self.start = start
        self.end = end
        self.labels = labels
        self.rejected = rejected or []


# (a green circle and a thumb up mark a row as kept, a red circle and a thumb down as not)
_POS_SYMBOLS: Final = "\u2713\u2714\u2705\u2611\u2612\U0001f7e2\U0001f44d"
_NEG_SYMBOLS: Final = "\u2717\u2718\u274c\u2716\u2610\U0001f534\U0001f44e"
# A radio button: "( )" empty, "(\u25cf)" "(\u2022)" "(\u25c9)" filled.
_RADIO_FILLED: Final = "\u25cf\u2022\u25c9\u29bf*"
_POS_WORDS: Final = frozenset({"x", "[x]", "(x)", "yes", "y", "present", "positive", "seen", "true",
                               "selected", "correct", "+", "detected", "identified", "chosen",
                               *(f"({c})" for c in _RADIO_FILLED),
                               *(f"[{c}]" for c in _RADIO_FILLED)})
_NEG_WORDS: Final = frozenset({"", "[ ]", "[]", "( )", "no", "n", "absent", "negative", "not seen",
                               "false", "-", "\u2013", "\u2014", "not present", "incorrect",
                               "not detected", "not identified", "none", "n/a"})
_UNSURE_WORDS: Final = frozenset({"?", "[?]", "(?)", "possible", "possibly", "maybe", "equivocal",
                                  "indeterminate", "uncertain", "\u00b1", "+/-", "unclear",
                                  "probable", "likely", "suspected", "borderline"})
_NEG_HEADERS: Final = re.compile(r"\b(?:absent|excluded|ruled\s+out|not\s+present|negative|no)\b",
                                 re.IGNORECASE)
_MARKUP: Final = re.compile(r"[*_`][*_`]*")  # (opened by a set, which the engine skips to in C)
_SEPARATOR: Final = re.compile(r"^\s*:?-{2,}:?\s*$")
_BULLET = r"^[ \t]*(?:[-*\u2022+][ \t]+|\d+[.)][ \t]+)?"
_SYMBOL_CLASS = "[" + _POS_SYMBOLS + _NEG_SYMBOLS + "]"
# A box or a radio button, empty, ticked, crossed or queried.
_BOX_MARK = (r"\[[ xX?\u2713\u2714" + _RADIO_FILLED + r"]?\]|\([ xX?" + _RADIO_FILLED
             + r"]\)")
_MARK_FIRST: Final = re.compile(_BULLET + r"(?P<mark>" + _BOX_MARK + "|" + _SYMBOL_CLASS
                                + r")[ \t]*(?P<label>\S[^\n]*?)[ \t]*$")
_MARK_LAST: Final = re.compile(_BULLET + r"(?P<label>\S[^\n]*?)[ \t]*[:\-\u2014\u2013]?[ \t]*"
                               r"(?P<mark>" + _BOX_MARK + "|" + _SYMBOL_CLASS + r")[ \t]*$")
_MARK_WORD: Final = re.compile(
    r"^[ \t]*(?:[-*\u2022+][ \t]+|\d+[.)][ \t]+)(?P<label>[^:\n\u2014\u2013]+?)[ \t]*"
    r"[:\u2014\u2013][ \t]*\**[ \t]*(?P<mark>present|absent|yes|no|positive|negative|not\s+seen"
    r"|seen|not\s+present|possible|equivocal|indeterminate|uncertain)\b[ \t]*\**[.;]?[ \t]*$",
    re.IGNORECASE)
_NOT_LABELS: Final = frozenset({"answer", "final answer", "my answer", "choice", "conclusion"})
# A verdict on each option of a list, its reason after it: "- A. Melanoma — unlikely (symmetric)",
# "* **C. Basal cell carcinoma** – *Most likely.* Arborizing vessels".
#: A verdict word on an option and the mark it stands for.
VERDICTS: Final = {"most likely": "pos", "most consistent": "pos", "best fit": "pos",
                    "favoured": "pos", "favored": "pos", "unlikely": "neg", "less likely": "neg",
                    "ruled out": "neg", "excluded": "neg", "not consistent": "neg",
                    "inconsistent": "neg", "possible": "unsure", "likely": "unsure"}
_MARK_VERDICT: Final = re.compile(
    r"^[ \t]*(?:[-*\u2022+][ \t]+|\d+[.)][ \t]+|(?=[A-Z][.)][ \t]))"
    r"(?P<label>[^:\n\u2014\u2013]+?)[ \t]*"
    r"[:\u2014\u2013][ \t]*[*_]*[ \t]*(?P<mark>" + "|".join(
        sorted(VERDICTS, key=len, reverse=True)) + r")\b(?![ \t]+(?:than|to|that|if)\b)"
    r"[*_]*[ \t]*(?:[.;,:(\u2014\u2013-].*)?$", re.IGNORECASE)
# The marks of _MARK_FIRST and _MARK_LAST that are one symbol: a line without one of them and
# without "[" matches neither.
_MARK_SYMBOLS: Final = _POS_SYMBOLS + _NEG_SYMBOLS
#: Every one-symbol mark, positive or negative (where a marked list may be).
MARK_SYMBOLS: Final = _MARK_SYMBOLS
#: What a text without a marked list lacks, beyond the ASCII boxes: a one-symbol mark, a
#: filled radio button, an arrow pointing back at a line.
MARK_CUES: Final[tuple[str, ...]] = (*_MARK_SYMBOLS, *_RADIO_FILLED, "\u2190", "\u27f5", "\u2192",
                                    "\u27a1", "\u25b6")
# What a line _MARK_LAST may match ends with: a symbol, a box or a radio button.
_LAST_MARK_ENDS: Final = _MARK_SYMBOLS + "])"
# What _MARK_WORD's line may open with: white space, a bullet or a number.
_WORD_LINE_OPENS: Final = Opening("-*\u2022+", ".)", space=True, digit=True)
# The kind of each cell read so far (cells repeat: ✓, ✗, Yes, No, Present …); it stops growing
# when full.
_KINDS: Final[dict[str, str]] = {}
_KINDS_SIZE: Final = 4096


def _unmarked(cell: str) -> str:
    """``cell`` without Markdown emphasis (the pattern runs only where there is some)."""
    return _MARKUP.sub("", cell) if "*" in cell or "_" in cell or "`" in cell else cell


def _holds_symbol(line: str) -> bool:
    """Whether ``line`` holds one of :data:`_MARK_SYMBOLS`."""
    for symbol in _MARK_SYMBOLS:
        if symbol in line:
            return True
    return False


def _kind(cell: str) -> str:
    """``pos``, ``neg``, ``unsure`` or ``""`` (not a mark) for one mark cell (remembered)."""
    kind = _KINDS.get(cell)
    if kind is None:
        kind = _kind_of(cell)
        if len(_KINDS) < _KINDS_SIZE:
            _KINDS[cell] = kind
    return kind


def forget_kinds() -> None:
    """Forget the remembered cell kinds (benchmarks start cold with it)."""
    _KINDS.clear()


def _kind_of(cell: str) -> str:
    """:func:`_kind`, worked out."""
    if cell.strip() in _POS_WORDS:
        return "pos"  # ("[*]" before its star is taken for emphasis)
    text = _unmarked(cell).strip().lower().rstrip(".")
    pos = any(c in text for c in _POS_SYMBOLS)
    neg = any(c in text for c in _NEG_SYMBOLS)
    if pos != neg:
        return "pos" if pos else "neg"
    if text in _POS_WORDS:
        return "pos"
    if text in _NEG_WORDS:
        return "neg"
    if text in VERDICTS:
        return VERDICTS[text]
    return "unsure" if text in _UNSURE_WORDS else ""


def _block_start(block: Block) -> int:
    """Where ``block`` starts (a sort key; see ``_locate._position``)."""
    return block[0]


def read_marks(text: str) -> Marked | None:
    """The last marked table or check-list of ``text`` (None when there is none).

    A block with an uncertain mark is read with its uncertain rows as "possibly …": the reader
    then finds the hedge and abstains, rather than reading the rows' words as an answer.
    """
    rows_a_line = _row_line_blocks(text) if _MANY_MARKS.search(text) is not None else []
    if rows_a_line:
        # (their lines read, the rest of the text is read for the other forms)
        text = blanked(text, [(start, end) for start, end, _ in rows_a_line])
    if text.count("[") > 1 and _BOX.search(text) is not None:
        text = _one_box_a_line(text)
    if _holds_symbol(text):
        text = _one_symbol_a_line(text)
    blocks = rows_a_line + _table_blocks(text) + _list_blocks(text) + _lone_mark_blocks(text)
    for block in sorted(blocks, key=_block_start, reverse=True):
        start, end, rows = block
        if len(rows) < 2 or any(row[1] == "" for row in rows):
            continue
        kept = [(label, kind) for label, kind, _, _ in rows if kind in ("pos", "unsure")]
        if block in rows_a_line:
            kept = list(zip(_group_once([label for label, _ in kept]),
                            [kind for _, kind in kept], strict=True))
        labels = [label if kind == "pos" else f"{_UNSURE_READ} {label}" for label, kind in kept]
        rejected = [(a, b) for _, kind, a, b in rows if kind == "neg"]
        if not labels and (text[:start].strip() or text[end:].strip()):
            return None  # every row negative, and more written beside: read as a whole
        # every row negative and nothing else written: the list answers none of them
        return Marked(start, end, labels or [NONE_MARKED], rejected)
    return None


#: How a list with every row negative is read.
NONE_MARKED: Final = "none"
#: How an uncertain row is read: a hedge the rule table knows.
_UNSURE_READ: Final = "possibly"
# A mark: a question mark standing alone ("A \u2713   C ?   D \u2717") is an uncertain one.
_LONE_QUERY = r"(?<!\S)\?(?!\S)"
# A mark: a box or a radio button (empty, ticked, crossed, queried) or a one-symbol mark.
_MARK_ANY = _BOX_MARK + "|" + _SYMBOL_CLASS + "|" + _LONE_QUERY
_MARK_TOKEN: Final = re.compile(_MARK_ANY)
# Two marks on one line (the cheap test before the rows are read).
_MANY_MARKS: Final = re.compile("(?:" + _MARK_ANY + r")[^\n]*?(?:" + _MARK_ANY + ")")
# A group's name after a line's marks: "\u2611 Yes \u2610 No \u2014 Pleural effusion".
_GROUP_AFTER: Final = re.compile(r"[ \t]+[\u2014\u2013-][ \t]+([^\n]{1,60}?)[ \t]*$")
_ROW_LABEL_CHARS: Final = 60


def _row_line_blocks(text: str) -> list[Block]:
    """Lines of several marks, each mark a row: "ACL:  [\u2713] intact  [ ] partial tear".

    The line's group name (before a colon opening it, or after a dash closing it) joins each
    row's label ("ACL: intact"); consecutive such lines are one block.
    """
    blocks: list[Block] = []
    run: list[tuple[int, int, list[Row]]] = []
    for start, end, line in [*_lines(text), (len(text), len(text), "")]:
        rows = _line_rows(line, start) if len(_MARK_TOKEN.findall(line)) >= 2 else None
        if rows is not None:
            run.append((start, end, rows))
            continue
        if run:
            blocks.append((run[0][0], run[-1][1], [r for _, _, rs in run for r in rs]))
        run = []
    return blocks


def _group_once(labels: list[str]) -> list[str]:
    """Labels of one group written with its name once ("Mark one: A; B", not "Mark one: B").

    Rows of one group repeat its name; written with each, the last row's name would read as
    a label of its own answer.
    """
    groups = {label.partition(": ")[0] for label in labels}
    if len(labels) < 2 or len(groups) != 1 or not all(": " in label for label in labels):
        return labels
    return [labels[0]] + [label.partition(": ")[2] for label in labels[1:]]


def _line_rows(line: str, at: int) -> list[Row] | None:
    """The rows of one line of several marks (the line at ``at``), or None where it is not one.

    Marks before their items ("[ ] 2   [x] 3") or after them ("I \u2610   II \u2611"); any
    other text on the line, or an empty item, and it is not read.
    """
    marks = list(_MARK_TOKEN.finditer(line))
    head = line[:marks[0].start()].strip()
    group = ""
    items: list[str] = []
    # each row's place: from its mark to the next (marks first), or from the mark before
    spans: list[tuple[int, int]] = []
    if not head or head.endswith(":"):
        group = _unmarked(head[:-1]).strip(" \t-*\u2022") if head else ""
        items = [line[m.end():n.start()] for m, n in zip(marks, marks[1:], strict=False)]
        last = line[marks[-1].end():]
        after = _GROUP_AFTER.search(last) if not group else None
        if after is not None:
            group, last = after.group(1), last[:after.start()]
        items.append(last)
        spans = [(m.start(), n.start()) for m, n in zip(marks, marks[1:], strict=False)]
        spans.append((marks[-1].start(), marks[-1].end() + len(last)))
    else:
        if line[marks[-1].end():].strip():
            return None
        group, colon, first = head.rpartition(":")
        group = _unmarked(group).strip(" \t-*\u2022")
        items = [first] + [line[m.end():n.start()] for m, n in zip(marks, marks[1:],
                                                                    strict=False)]
        opens = [len(group) + len(colon)] + [m.end() for m in marks[:-1]]
        spans = [(a, m.end()) for a, m in zip(opens, marks, strict=True)]
    labels = [_unmarked(item).strip(" \t,;|") for item in items]
    # an item with a gap inside holds more than its label ("E  (C undecided …)")
    if any(not label or len(label) > _ROW_LABEL_CHARS or "  " in label for label in labels):
        return None
    kinds = [_kind(m.group()) for m in marks]
    # a letter names its option whatever the group ("Mark one:  (x) A  ( ) B")
    return [(f"{group}: {label}" if group and not _LETTER_ITEM.fullmatch(label) else label,
             kind, at + a, at + b) for label, kind, (a, b) in zip(labels, kinds, spans,
                                                                   strict=True)]


_LETTER_ITEM: Final = re.compile(r"\(?[A-Z][.)]?")




# A check box ("[x]", "[ ]") after another on its line: "[ ] A  [x] B  [ ] C".
_BOX: Final = re.compile(r"\][ \t]*[^\n\[]{1,60}?([ \t]+)\[[ xX?\u2713\u2714]?\]")


def _one_box_a_line(text: str) -> str:
    """``text`` with each check box of a line of several opening a line of its own.

    The space before each further box becomes a line break, so positions do not move.
    """
    chars = list(text)
    for m in _BOX.finditer(text):
        chars[m.start(1)] = "\n"
    return "".join(chars)


# A gap of two spaces or more on a line of several marks: "A \u2717  B \u2717  C \u2713".
_GAP: Final = re.compile(r"[ \t]{2,}")


def _one_symbol_a_line(text: str) -> str:
    """``text`` with each marked part of a line of several opening a line of its own.

    Only a line whose parts, split at gaps of two spaces or more, each hold exactly one mark
    symbol; the first space of each gap becomes a line break, so positions do not move.
    """
    chars = list(text)
    for start, _, line in _lines(text):
        gaps = list(_GAP.finditer(line))
        if not gaps:
            continue
        parts = _GAP.split(line.strip())
        if len(parts) < 2 or any(sum(part.count(c) for c in _MARK_SYMBOLS) != 1
                                 for part in parts):
            continue
        for gap in gaps:
            if 0 < gap.start() and gap.end() < len(line):
                chars[start + gap.start()] = "\n"
    return "".join(chars)


def _lines(text: str) -> list[tuple[int, int, str]]:
    out, pos = [], 0
    for line in text.split("\n"):
        out.append((pos, pos + len(line), line))
        pos += len(line) + 1
    return out


#: One row of a marked block: its label, its kind (``pos``, ``neg``, ``unsure``, ``""``) and
#: where it is.
Row = tuple[str, str, int, int]
Block = tuple[int, int, list[Row]]


def _table_blocks(text: str) -> list[Block]:
    """Markdown tables with one mark column: (start, end, rows)."""
    if "|" not in text:
        return []
    blocks: list[Block] = []
    run: list[tuple[int, int, str]] = []
    for line in [*_lines(text), (len(text), len(text), "")]:
        if line[2].count("|") >= 2:
            run.append(line)
            continue
        if len(run) >= 2:
            got = _read_table(run)
            if got is not None:
                blocks.append(got)
        run = []
    return blocks


def _read_table(run: list[tuple[int, int, str]]) -> Block | None:
    cells = [[c.strip() for c in line.strip().strip("|").split("|")] for _, _, line in run]
    begins, ends = run[0][0], run[-1][1]
    header: list[str] | None = None
    if len(cells) > 1 and all(_separates(c) for c in cells[1] if c):
        header, cells, run = cells[0], cells[2:], run[2:]
    kept = [(r, line) for r, line in zip(cells, run, strict=True)
            if not all(_separates(c) or not c for c in r)]
    rows = [r for r, _ in kept]
    if len(rows) < 2 or len({len(r) for r in rows}) != 1 or len(rows[0]) < 2:
        return None
    columns = [c for c in range(len(rows[0])) if all(_kind(r[c]) for r in rows)]
    if len(columns) != 1:
        return None
    col = columns[0]
    if header is not None and col < len(header) and _NEG_HEADERS.search(header[col]):
        return None
    marked = [(": ".join(_unmarked(c).strip() for i, c in enumerate(r)
                         if i != col and c.strip()), _kind(r[col]), start, end)
              for r, (start, end, _) in kept]
    return begins, ends, marked


# A restated option line: "A. Text", "B) Text", "3. Text", after an optional bullet.
# A restated option's line: "A) …", "(B) …", "C …", "1. …", or a bulleted option text.
# An arrow pointing at a line from its start ("\u2192 C. BI-RADS 4") marks it too.
_ARROW_BEFORE = r"(?:\u2192|\u27a1\ufe0f?|=>|->|\u25b6\ufe0f?)[ \t]*"
_OPTION_LINE: Final = re.compile(r"^[ \t]*(?:" + _ARROW_BEFORE + r")?(?:(?:[-*\u2022][ \t]+)?"
                                 r"(?:[A-Z][.)]|\([A-Z]\)|\d+[.)]|[A-Z](?=[ \t]))[ \t]+\S"
                                 r"|[-*\u2022][ \t]+\S)")
_POINTED: Final = re.compile(r"[ \t]*" + _ARROW_BEFORE)
# What marks one line of a restated list as the answer: a tick, or an arrow pointing at it
# ("<--", "←"), closing the line (words may follow an arrow: "<-- this one").
_LONE_MARK: Final = re.compile(r"[ \t]*(?:\*\*)?(?:[\u2713\u2714\u2705\u2611]|\[[\u2713\u2714xX]\]"
                               r"|<-+|\u2190|\u27f5)(?:[^\n]*?)(?:\*\*)?[ \t]*$")
_LONE_LINES: Final = 2


def _lone_mark_blocks(text: str) -> list[Block]:
    """A restated option list in which some lines carry a mark: those lines are chosen.

    "A) Fatty / B) Scattered / C) Heterogeneous <-- / D) Extreme", "**C. Moderate NPDR**" in
    bold among plain lines: the other lines carry no mark at all (a list with marks on every
    line is a check-list, read above). Two lines marked on a single-answer item are two
    answers.
    """
    if not _holds_lone_mark(text):
        return []
    blocks: list[Block] = []
    run: list[tuple[int, int, str]] = []
    for line in [*_lines(text), (len(text), len(text), "")]:
        if _OPTION_LINE.match(_unbolded(line[2])) is not None:
            run.append(line)
            continue
        if len(run) >= _LONE_LINES:
            marks = [_LONE_MARK.search(row) for _, _, row in run]
            bold = [_BOLD_LINE.match(row) is not None for _, _, row in run]
            pointed = [_POINTED.match(row) for _, _, row in run]
            marked = [m is not None or b or p is not None
                      for m, b, p in zip(marks, bold, pointed, strict=True)]
            if 0 < sum(marked) < len(run):
                rows = [(_unmarked(row[p.end() if p else 0:m.start() if m else len(row)]).strip(),
                         "pos" if k else "neg", a, b)
                        for (a, b, row), m, p, k in zip(run, marks, pointed, marked, strict=True)]
                blocks.append((run[0][0], run[-1][1], rows))
        run = []
    return blocks


# A whole line in bold ("**C. Moderate NPDR**"): in a restated list, the line picked out.
_BOLD_LINE: Final = re.compile(r"^[ \t]*(?:[-*\u2022][ \t]+)?\*\*[^*\n]+\*\*[ \t]*$")


def _unbolded(line: str) -> str:
    """``line`` without the bold marks around it ("**A. Adenocarcinoma**")."""
    stripped = line.strip()
    return stripped.strip("*").strip() if stripped.startswith("**") else line


def _holds_lone_mark(text: str) -> bool:
    """Whether ``text`` holds a tick or an arrow (the lone-mark lists' cheap gate)."""
    return "<-" in text or "**" in text or "->" in text or "=>" in text or not text.isascii() \
        and any(c in text for c in "\u2713\u2714\u2705\u2611\u2190\u27f5\u2192\u27a1\u25b6")


def _separates(cell: str) -> bool:
    """Whether ``cell`` is a table's header separator (``---``, ``:--:``)."""
    return "--" in cell and _SEPARATOR.match(cell) is not None


def _list_blocks(text: str) -> list[Block]:
    """Runs of consecutive check-list lines: (start, end, rows)."""
    blocks: list[Block] = []
    run: list[tuple[int, int, str, str]] = []
    for start, end, line in [*_lines(text), (len(text), len(text), "")]:
        # Each pattern is tried only where the line can hold its mark (a call into the pattern
        # engine costs about 1,000 instructions, however soon it fails): _MARK_FIRST's is
        # "[…]" or a symbol, _MARK_LAST's a symbol ending the line, and _MARK_WORD's follows a
        # bullet or a number opening the line and a colon or a dash after the label.
        m = None
        if "[" in line or "(" in line[:8] or not line.isascii() and _holds_symbol(line):
            m = _MARK_FIRST.match(line)
            if m is None and line.rstrip(" \t")[-1:] in _LAST_MARK_ENDS:
                m = _MARK_LAST.match(line)
        if m is None and _WORD_LINE_OPENS.allows(line, 0) and (
                ":" in line or "\u2014" in line or "\u2013" in line):
            m = _MARK_WORD.match(line) or _MARK_VERDICT.match(line)
        label = _unmarked(m.group("label")).strip(" :-") if m else ""
        if m is not None and label.lower() not in _NOT_LABELS:
            run.append((start, end, label, _kind(m.group("mark"))))
            continue
        if len(run) >= 2:
            blocks.append((run[0][0], run[-1][1], [(lab, k, a, b) for a, b, lab, k in run]))
        run = []
    return blocks
