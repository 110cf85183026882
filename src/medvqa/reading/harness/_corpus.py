"""The harness's corpus: reader inputs, each with a stable id, stored as gzip JSONL.

An input is what every reader is given: a response, the options (letter → text, in display
order), the question type and the question. Its id is the source it was first collected from
and the first ten hex digits of the SHA-256 of its content (:func:`content_hash`), so an id
names one content: editing a test's response gives a new id, and reordering a test's table
changes nothing. The same content collected from two sources is one input, named by the first.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple

from medvqa.errors import BadInputError
from medvqa.store import atomic_write_bytes

__all__ = ["HarnessInput", "content_hash", "merge_sources", "read_corpus", "write_corpus"]

_FIELDS = ("id", "response", "options", "question_type", "question", "sources")


class HarnessInput(NamedTuple):
    """One reader input of the corpus.

    Attributes:
        id: ``SOURCE-HASH``: the first source and :func:`content_hash` of the content.
        response: the raw response (text nearly always; any JSON value, as a run may hold).
        options: letter → option text, in display order.
        question_type: ``single``, ``multi``, ``yesno`` …
        question: the item's question ("" where the source gives none).
        sources: every source the content was collected from, first first.
    """

    id: str
    response: Any
    options: dict[str, str]
    question_type: str
    question: str
    sources: tuple[str, ...]


def content_hash(response: Any, options: dict[str, str], question_type: str,
                 question: str) -> str:
    """The first ten hex digits of the SHA-256 of an input's content (options in order).

    >>> content_hash("B", {"A": "Left", "B": "Right"}, "single", "")
    '93f0618025'
    """
    blob = json.dumps([response, list(options.items()), question_type, question],
                      ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:10]


def merge_sources(found: Iterable[tuple[str, Any, dict[str, str], str, str]]
                  ) -> list[HarnessInput]:
    """Inputs from ``(source, response, options, question_type, question)``, one per content.

    The first source to give a content names it; later ones are added to its ``sources``.
    The result is sorted by id.
    """
    by_hash: dict[str, HarnessInput] = {}
    for source, response, options, qtype, question in found:
        key = content_hash(response, options, qtype, question)
        got = by_hash.get(key)
        if got is None:
            by_hash[key] = HarnessInput(f"{source}-{key}", response, dict(options), qtype,
                                        question, (source,))
        elif source not in got.sources:
            by_hash[key] = got._replace(sources=(*got.sources, source))
    return sorted(by_hash.values(), key=lambda i: i.id)


def write_corpus(path: Path, inputs: Iterable[HarnessInput]) -> None:
    """Write the corpus as gzip JSONL sorted by id, byte for byte the same for the same inputs."""
    lines = [json.dumps(dict(zip(_FIELDS, (i.id, i.response, i.options, i.question_type,
                                           i.question, list(i.sources)), strict=True)),
                        ensure_ascii=False, separators=(",", ":"))
             for i in sorted(inputs, key=lambda i: i.id)]
    data = ("\n".join(lines) + "\n").encode("utf-8")
    atomic_write_bytes(path, gzip.compress(data, compresslevel=9, mtime=0))


def _field(path: Path, line: int, row: dict[str, Any], name: str, kind: type) -> Any:
    value = row.get(name)
    if not isinstance(value, kind):
        raise BadInputError(f"{path}: line {line}: field {name!r}: expected "
                            f"{kind.__name__}, got {type(value).__name__}")
    return value


def read_corpus(path: Path) -> list[HarnessInput]:
    """The corpus at ``path``, in file order.

    Raises:
        BadInputError: the file is missing or not gzip, or a line is not an input (one line
            naming the file, line and field).
    """
    try:
        text = gzip.decompress(path.read_bytes()).decode("utf-8")
    except OSError as exc:
        raise BadInputError(f"{path}: {exc.strerror or exc}") from None
    except (EOFError, UnicodeDecodeError) as exc:
        raise BadInputError(f"{path}: not a gzip UTF-8 file ({exc})") from None
    out = []
    for n, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            row = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise BadInputError(f"{path}: line {n}: not JSON ({exc.msg})") from None
        if not isinstance(row, dict):
            raise BadInputError(f"{path}: line {n}: not an object")
        options = _field(path, n, row, "options", dict)
        if not all(isinstance(v, str) for v in options.values()):
            raise BadInputError(f"{path}: line {n}: field 'options': texts must be strings")
        if "response" not in row:
            raise BadInputError(f"{path}: line {n}: field 'response': missing")
        out.append(HarnessInput(_field(path, n, row, "id", str), row["response"], options,
                                _field(path, n, row, "question_type", str),
                                _field(path, n, row, "question", str),
                                tuple(_field(path, n, row, "sources", list))))
    return out
