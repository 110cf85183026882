"""The answer extractor's prompt and reply: load the versioned YAML, render, constrain, read.

The reply must name a letter of the item, a set of letters (multiple choice), or ``NONE``.
:func:`extract_schema` is the JSON schema that constrains decoding where the backend can
(``structured`` in the backend table); :func:`read_reply` validates the text afterwards anyway
and raises :class:`ReplyError` for anything outside the allowed set — prose around the object,
an unknown letter, ``NONE`` mixed with letters — so an unreadable reply is a per-item error,
never a choice.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from medvqa._resources import shipped_path
from medvqa._yaml_loader import YamlError, load_yaml_file
from medvqa.errors import BadInputError

__all__ = ["NONE", "ExtractPrompt", "ReplyError", "extract_schema", "load_extract_prompt",
           "read_reply", "render_extract"]

#: The reply that says the response chose no option.
NONE = "NONE"
#: Longest response quoted to the extractor (characters), so one rambling reply cannot
#: overflow a small model's context window.
MAX_RESPONSE_CHARS = 2000
_REQUIRED = ("version", "system", "user")
_PLACEHOLDERS = {"question": "", "options": "", "kind": "", "letters": "", "response": "",
                 "format": ""}
_FENCE = re.compile(r"^```(?:json)?\s*\n?(.*?)\n?```$", re.DOTALL | re.IGNORECASE)


class ReplyError(ValueError):
    """An extractor reply outside the constrained set (recorded per item, never scored)."""


@dataclass(frozen=True)
class ExtractPrompt:
    """The extractor prompt.

    Attributes:
        version: the YAML file's ``version``.
        system: system prompt.
        template: user prompt with the placeholders ``{question}``, ``{options}``, ``{kind}``,
            ``{letters}``, ``{response}``, ``{format}``.
        source: where it was read from.
    """

    version: int
    system: str
    template: str
    source: str

    @property
    def sha256(self) -> str:
        """Hex SHA-256 of the system and user text (what ``extracted_by`` records)."""
        return hashlib.sha256(f"{self.system}\n\n{self.template}".encode()).hexdigest()

    def provenance(self) -> dict[str, Any]:
        """Version, hash and source, for metrics.json and run.json."""
        return {"prompt_version": self.version, "prompt_sha256": self.sha256,
                "prompt_source": self.source}


def load_extract_prompt(path: str | Path | None = None) -> ExtractPrompt:
    """Read the extractor prompt (default: the shipped ``prompts/extract.yaml``).

    Raises:
        BadInputError: one line naming the file and the missing or bad field.

    >>> load_extract_prompt().version >= 1
    True
    """
    file = Path(path) if path is not None else shipped_path("prompts", "extract.yaml")
    try:
        data = load_yaml_file(file)  # the shared loader: no aliases, a size cap, regular files
    except YamlError as exc:
        raise BadInputError(f"{exc} (the extractor prompt)") from None
    if not isinstance(data, dict):
        raise BadInputError(f"{file}: the extractor prompt must be a YAML mapping")
    for key in _REQUIRED:
        if key not in data or data[key] in (None, ""):
            raise BadInputError(f"{file}: extractor prompt: missing field {key!r}")
    template = str(data["user"])
    try:
        template.format(**_PLACEHOLDERS)
    except (KeyError, IndexError, ValueError) as exc:
        raise BadInputError(f"{file}: extractor prompt: field 'user' has a bad placeholder "
                            f"({exc!r})") from None
    if "{response}" not in template:
        raise BadInputError(f"{file}: extractor prompt: field 'user' never quotes {{response}}")
    try:
        version = int(data["version"])
    except (TypeError, ValueError):
        raise BadInputError(f"{file}: extractor prompt: field 'version' is not a number") \
            from None
    source = "medvqa:prompts/extract.yaml" if path is None else str(file)
    return ExtractPrompt(version, str(data["system"]).strip(), template, source)


def extract_schema(letters: list[str], multi: bool) -> dict[str, Any]:
    """JSON schema of a reply: one letter of the item or NONE (a list of them for ``multi``).

    >>> extract_schema(["A", "B"], False)["properties"]["answer"]["enum"]
    ['A', 'B', 'NONE']
    """
    allowed = {"type": "string", "enum": [*letters, NONE]}
    answer = ({"type": "array", "items": allowed, "minItems": 1, "uniqueItems": True}
              if multi else allowed)
    return {"type": "object", "properties": {"answer": answer}, "required": ["answer"],
            "additionalProperties": False}


def render_extract(prompt: ExtractPrompt, question: str, options: dict[str, str],
                   response: str, multi: bool) -> str:
    """The user prompt for one response (its reasoning already set aside)."""
    reply = response.strip()
    if len(reply) > MAX_RESPONSE_CHARS:
        reply = reply[:MAX_RESPONSE_CHARS] + " [… cut]"
    letters = list(options)
    shape = ('{"answer": ["A", "C"]} (or {"answer": ["NONE"]})' if multi
             else '{"answer": "B"} (or {"answer": "NONE"})')
    return prompt.template.format(
        question=question.strip() or "(not given)",
        options="\n".join(f"{k}. {v}" for k, v in options.items()),
        kind="one or more letters" if multi else "one letter",
        letters=", ".join(letters), response=reply or "(empty reply)", format=shape)


def read_reply(text: str | None, letters: list[str], multi: bool) -> str | list[str] | None:
    """The choice an extractor reply names: a letter, sorted letters, or None for NONE.

    Accepts the JSON object of :func:`extract_schema` (optionally in one code fence) or a bare
    letter / ``NONE`` (backends without structured output).

    Raises:
        ReplyError: anything else (the reply is recorded as a per-item error).

    >>> read_reply('{"answer": "b"}', ["A", "B"], False)
    'B'
    >>> read_reply('{"answer": ["C", "A"]}', ["A", "B", "C"], True)
    ['A', 'C']
    >>> read_reply("NONE", ["A", "B"], False) is None
    True
    """
    body = (text or "").strip()
    if (fenced := _FENCE.match(body)) is not None:
        body = fenced.group(1).strip()
    value: Any
    try:
        value = json.loads(body)
    except ValueError:
        value = body.strip(" .\"'")  # a bare letter or NONE
    if isinstance(value, dict):
        value = value["answer"] if "answer" in value else _bad(text)
    picked = value if isinstance(value, list) else [value]
    if not picked or not all(isinstance(v, str) for v in picked):
        _bad(text)
    names = [v.strip().upper() for v in picked]
    if names == [NONE]:
        return None
    if NONE in names or len(set(names)) != len(names) or not set(names) <= set(letters) or (
            not multi and (len(names) != 1 or isinstance(value, list))):
        _bad(text)
    return sorted(names) if multi else names[0]


def _bad(text: str | None) -> Any:
    shown = (text or "").strip().replace("\n", " ")
    raise ReplyError(f"reply outside the allowed answers: {shown[:80]!r}")
