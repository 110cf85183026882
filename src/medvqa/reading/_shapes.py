r"""Structured output read by its shape: JSON, XML-like tags, tool calls, CSV lines.

A model asked for structured output answers under any key: ``{"answer": "B"}``, ``{"impression":
"C"}``, ``{"output": {"label": "B"}}``, ``<selected>B</selected>``, ``submit_answer(option='B')``,
an OpenAI tool call whose arguments are a JSON string. :func:`find_shapes` finds each structure
and its leaves; each leaf's key path gets a role from the words of its keys (the rule table's
``shape.*`` rows: an answer key, a key that is not the answer, a key of rejected options), the
innermost key with a role deciding:

- ``answer``: the value is an answer (a letter, an option text, a value, yes/no);
- ``other``: reasoning, evidence, notes — set aside;
- ``negative``: its values are rejected options;
- ``unknown``: any other key — read only where it names the item's scale or the question's
  finding (``"stage": "3"``, ``"effusion_present": false``).

>>> [(l.path, l.value, l.role) for s in find_shapes('{"output": {"label": "B"}, "note": "x"}')
...  for l in s.leaves]
[(('output', 'label'), 'B', 'answer'), (('note',), 'x', 'other')]
>>> [(l.path, l.value) for s in find_shapes("submit_answer(option='C')") for l in s.leaves]
[(('submit_answer', 'option'), 'C')]
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any, Final

from medvqa.reading._book import RuleBook, book
from medvqa.reading.rules import Kind

__all__ = ["Leaf", "Shape", "find_shapes", "key_words"]

_MAX_TEXT: Final = 200_000
_MAX_TRIES: Final = 24
_FENCE: Final = re.compile(r"```[a-zA-Z]*[ \t]*\n(.*?)(?:```|$)", re.DOTALL)
_TAG: Final = re.compile(r"<([A-Za-z][\w\-]{0,40})(?:\s[^<>]{0,200})?>(.{0,2000}?)</\1\s*>",
                         re.DOTALL)
_CALL: Final = re.compile(r"\b([A-Za-z_][\w.]{0,40})\(\s*([^()]{0,400})\)")
_KWARG: Final = re.compile(r"([A-Za-z_]\w{0,40})\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^,\s)]+))")
_CAMEL: Final = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_KEY_SPLIT: Final = re.compile(r"[^a-z0-9]+")


class Leaf:
    """One value of a structure.

    Attributes:
        path: the keys from the outermost to the value's own (tag or function names too).
        value: the value as text (a list joined by ", "; a boolean as "true"/"false").
        role: ``answer``, ``other``, ``negative`` or ``unknown`` (see the module docstring).
        boolean: the value was a JSON boolean (or a yes/no word under a finding key).
    """

    __slots__ = ("boolean", "path", "role", "value")

    def __init__(self, path: tuple[str, ...], value: str, role: str, boolean: bool = False):
        self.path = path
        self.value = value
        self.role = role
        self.boolean = boolean

    def __repr__(self) -> str:
        return f"Leaf({self.path!r}, {self.value!r}, {self.role!r})"


class Shape:
    """One structure found in a response.

    Attributes:
        start: where it begins in the text.
        end: where it ends.
        kind: ``json``, ``tags``, ``call``, ``csv`` or ``log``.
        leaves: its values.
    """

    __slots__ = ("end", "kind", "leaves", "start")

    def __init__(self, start: int, end: int, kind: str, leaves: list[Leaf]):
        self.start = start
        self.end = end
        self.kind = kind
        self.leaves = leaves


def key_words(key: str) -> list[str]:
    """The words of a key: snake_case, camelCase, kebab-case, spaces.

    >>> key_words("selectedOption"), key_words("final_answer"), key_words("ICD-10 code")
    (['selected', 'option'], ['final', 'answer'], ['icd', '10', 'code'])
    """
    return [w for w in _KEY_SPLIT.split(_CAMEL.sub(" ", key).lower()) if w]


def _role_of(key: str, bk: RuleBook) -> str | None:
    words = set(key_words(key))
    words |= {w[:-1] for w in words if w.endswith("s") and len(w) > 3}  # "options", "findings"
    if words & bk.words[Kind.NEGATIVE_KEY]:
        return "negative"
    if words & (bk.words[Kind.OTHER_KEY] | bk.words[Kind.SECOND_KEY]):
        return "other"
    if words & bk.words[Kind.ANSWER_KEY]:
        return "answer"
    return None


def _role(path: tuple[str, ...], bk: RuleBook) -> str:
    for key in reversed(path):
        role = _role_of(key, bk)
        if role is not None:
            return role
    return "unknown"


def _as_text(value: Any) -> tuple[str, bool] | None:
    """A JSON value as text; None for an object (its own leaves are read)."""
    if isinstance(value, bool):
        return ("true" if value else "false"), True
    if isinstance(value, (int, float)):
        return str(value), False
    if isinstance(value, str):
        return value.strip(), False
    if value is None:
        return "", False
    if isinstance(value, list) and all(not isinstance(v, (dict, list)) for v in value):
        return ", ".join(t[0] for v in value if (t := _as_text(v)) and t[0]), False
    return None


class _Repeated(list):  # type: ignore[type-arg]
    """An object whose keys repeat (``{"answer": "A", "answer": "E"}``): every pair kept."""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any] | _Repeated:
    """A JSON object, keeping each value of a repeated key (json keeps only the last)."""
    keys = [k for k, _ in pairs]
    return dict(pairs) if len(set(keys)) == len(keys) else _Repeated(pairs)


def _leaves(obj: Any, path: tuple[str, ...], bk: RuleBook, depth: int = 0) -> Iterator[Leaf]:
    if depth > 40:
        return
    if isinstance(obj, (dict, _Repeated)):
        for k, v in (obj.items() if isinstance(obj, dict) else obj):
            key = str(k)
            if isinstance(v, str) and v.lstrip()[:1] in "{[" and key.lower() in (
                    "arguments", "args", "input", "parameters"):
                try:  # an OpenAI tool call's arguments are a JSON string
                    v = json.loads(v)
                except (ValueError, RecursionError):
                    pass
            yield from _leaves(v, (*path, key), bk, depth + 1)
        return
    if isinstance(obj, list) and any(isinstance(v, (dict, list, _Repeated)) for v in obj):
        for v in obj:
            yield from _leaves(v, path, bk, depth + 1)
        return
    got = _as_text(obj)
    if got is not None and not path and isinstance(obj, list):
        yield Leaf(("answer",), got[0], "answer")  # a bare list: ["A", "B", "E"]
        return
    if got is not None and path:
        role = _role(path, bk)
        if path[-1].lower() in ("name", "function", "type", "id") and role == "unknown":
            return  # a tool call's name, an object's type
        yield Leaf(path, got[0], role, got[1])


#: Deeper nesting than this is no answer's structure: the text is not decoded as JSON (a
#: response nested 10,000 deep would otherwise be tried at every bracket).
MAX_DEPTH: Final = 64
_BRACKETS: Final = re.compile(r"[\[\]{}]")


def _too_deep(text: str) -> bool:
    """Whether brackets nest deeper than :data:`MAX_DEPTH` anywhere (strings not told apart)."""
    depth = 0
    for m in _BRACKETS.finditer(text):
        depth += 1 if m.group() in "[{" else -1
        if depth > MAX_DEPTH:
            return True
        depth = max(depth, 0)
    return False


def _json_shapes(text: str, bk: RuleBook) -> list[Shape]:
    out: list[Shape] = []
    if _too_deep(text):
        return out
    decoder = json.JSONDecoder(object_pairs_hook=_pairs)
    tries = 0
    i = 0
    n = len(text)
    while i < n and tries < _MAX_TRIES:
        j = min((p for p in (text.find("{", i), text.find("[", i)) if p >= 0), default=-1)
        if j < 0:
            break
        tries += 1
        try:
            obj, end = decoder.raw_decode(text, j)
        except (ValueError, RecursionError):
            obj, end = _python_literal(text, j)
            if obj is None:
                i = j + 1
                continue
        if isinstance(obj, (dict, list)) and obj:
            leaves = list(_leaves(obj, (), bk))
            if leaves:
                out.append(Shape(j, end, "json", leaves))
        i = max(end, j + 1)
    return out


_PY_LITERAL: Final = re.compile(r"\{[^{}]{0,2000}\}")


def _python_literal(text: str, j: int) -> tuple[Any, int]:
    """A flat object written with single quotes (``{'answer': 'B'}``), or (None, j)."""
    if text[j] != "{":
        return None, j
    m = _PY_LITERAL.match(text, j)
    if m is None or "'" not in m.group():
        return None, j
    import ast

    try:
        obj = ast.literal_eval(m.group())
    except (ValueError, SyntaxError, RecursionError, MemoryError):
        return None, j
    return (obj, m.end()) if isinstance(obj, dict) else (None, j)


_SKIP_TAGS: Final = frozenset({"think", "thinking", "reasoning", "thought", "br", "p", "b", "i",
                               "em", "strong", "div", "span", "sup", "sub"})


def _tag_shapes(text: str, bk: RuleBook) -> list[Shape]:
    if "</" not in text:
        return []
    leaves: list[Leaf] = []
    start, end = len(text), 0
    spans = [(0, len(text))]
    while spans:
        lo, hi = spans.pop()
        for m in _TAG.finditer(text, lo, hi):
            tag = m.group(1)
            if tag.lower() in _SKIP_TAGS:
                continue
            inner = m.group(2).strip()
            if "<" in inner and _TAG.search(inner):
                spans.append(m.span(2))  # a container: its own tags are its leaves
                continue
            leaves.append(Leaf((tag,), inner, _role((tag,), bk)))
            start, end = min(start, m.start()), max(end, m.end())
    leaves.sort(key=lambda leaf: text.find(f"<{leaf.path[0]}"))
    return [Shape(start, end, "tags", leaves)] if leaves else []


def _call_shapes(text: str, bk: RuleBook) -> list[Shape]:
    if "(" not in text:
        return []
    out: list[Shape] = []
    for m in _CALL.finditer(text):
        name, args = m.group(1), m.group(2).strip()
        if _role_of(name, bk) != "answer" and not _KWARG.search(args):
            continue
        leaves: list[Leaf] = []
        for kw in _KWARG.finditer(args):
            value = next(g for g in kw.groups()[1:] if g is not None)
            path = (name, kw.group(1))
            leaves.append(Leaf(path, value.strip(), _role(path, bk)))
        if not leaves and _role_of(name, bk) == "answer" and args:
            leaves.append(Leaf((name,), args.strip("'\" "), "answer"))
        if any(leaf.role == "answer" for leaf in leaves):
            out.append(Shape(m.start(), m.end(), "call", leaves))
    return out


_CSV_HEAD: Final = re.compile(r"^[ \t]*([A-Za-z_][\w ]{0,30}(?:,[A-Za-z_][\w ]{0,30}){1,8})"
                              r"[ \t]*\n[ \t]*([^\n]+)$", re.MULTILINE)
_CSV_ROW: Final = re.compile(r"\n[ \t]*([^\n]+)")


def _csv_shapes(text: str, bk: RuleBook) -> list[Shape]:
    if "," not in text or "\n" not in text:
        return []
    out: list[Shape] = []
    for m in _CSV_HEAD.finditer(text):
        keys = [k.strip() for k in m.group(1).split(",")]
        values = [v.strip().strip('"') for v in m.group(2).split(",")]
        if len(keys) != len(values) or not any(_role_of(k, bk) == "answer" for k in keys):
            continue
        leaves = [Leaf((k,), v, _role((k,), bk)) for k, v in zip(keys, values, strict=True)]
        end = m.end()
        while (row := _CSV_ROW.match(text, end)) is not None:
            more = [v.strip().strip('"') for v in row.group(1).split(",")]
            if len(more) != len(keys):
                break  # every data row is read: two rows may give two answers
            leaves += [Leaf((k,), v, _role((k,), bk)) for k, v in zip(keys, more, strict=True)]
            end = row.end()
        out.append(Shape(m.start(), end, "csv", leaves))
    return out


# A log line's field: key=value, the value quoted, a bracketed list or a bare word.
_FIELD: Final = re.compile(r"(?<![\w.=])([A-Za-z_]\w{0,40})=(?:\"([^\"\n]*)\"|'([^'\n]*)'"
                           r"|\[([^\]\n]*)\]|([^\s,|;\]]+))")
_LOG_FIELDS: Final = 2
_LIST_QUOTES: Final = re.compile(r"['\"]")


def _log_shapes(text: str, bk: RuleBook) -> list[Shape]:
    """Lines of an inference log with two fields or more (``id=q12 pred=B gt=C``).

    A line with an answer field ("pred", "prediction", "output") is a structure: its other
    fields (a reference answer, a latency) are no answer of the model's.
    """
    out: list[Shape] = []
    pos = 0
    for line in text.split("\n"):
        fields = list(_FIELD.finditer(line)) if "=" in line else []
        if len(fields) >= _LOG_FIELDS:
            leaves = []
            for m in fields:
                # (an empty quoted value, pred="", is a value: the empty answer)
                quoted = m.group(2) if m.group(2) is not None else m.group(3)
                listed = m.group(4)
                value = _LIST_QUOTES.sub("", listed) if listed is not None else \
                    quoted if quoted is not None else m.group(5)
                leaves.append(Leaf((m.group(1),), value.strip(), _role((m.group(1),), bk)))
            if any(leaf.role == "answer" for leaf in leaves):
                out.append(Shape(pos + fields[0].start(), pos + fields[-1].end(), "log", leaves))
        pos += len(line) + 1
    return out


def find_shapes(text: str, bk: RuleBook | None = None) -> list[Shape]:
    """Every structure of a response that has an answer leaf or a leaf of unknown role.

    Cheap when the text holds none of ``{ [ < (`` and no comma on two lines.
    """
    bk = bk or book()
    if len(text) > _MAX_TEXT:
        return []
    out: list[Shape] = []
    if "{" in text or "[" in text:
        out += _json_shapes(text, bk)
    if "<" in text:
        out += [s for s in _tag_shapes(text, bk)
                if not any(o.start <= s.start < o.end for o in out)]
    if "(" in text:
        out += [s for s in _call_shapes(text, bk)
                if not any(o.start <= s.start < o.end for o in out)]
    out += [s for s in _csv_shapes(text, bk) if not any(o.start <= s.start < o.end for o in out)]
    if "=" in text:
        out += [s for s in _log_shapes(text, bk)
                if not any(o.start <= s.start < o.end for o in out)]
    if any(s.kind == "call" and _role_of(s.leaves[0].path[0], bk) == "answer" for s in out):
        # an agent's log: beside its final_answer(…) call, a structure with no answer field is
        # a tool's result (data it read), not an answer it gave
        out = [s for s in out if any(leaf.role == "answer" for leaf in s.leaves)]
    out.sort(key=lambda s: s.start)
    return out
