"""The failure-mode judge's prompt: load the versioned YAML, render one request, parse the reply.

The reply must be one JSON object ``{"lmod": CODE, "mira": NAME}`` (optionally inside a single
Markdown code fence). Each field is read strictly: an LMOD code (``E3``) or its exact name
(``Inconsistent Reasoning``), a MIRA name (``guess``), case and surrounding space ignored.
Anything else — prose around the object, a missing key, an unknown label — makes that field
``unclassified``: a judge that did not answer in the allowed set is counted, never guessed at.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from medvqa.errors import BadInputError
from medvqa.schema import Item, load_prompt_file

UNCLASSIFIED = "unclassified"
#: Longest model reply quoted to the judge (characters); longer ones are cut with a marker,
#: so one rambling answer cannot overflow a small judge's context window.
MAX_RESPONSE_CHARS = 1500
_FENCE = re.compile(r"^```(?:json)?\s*\n?(.*?)\n?```$", re.DOTALL | re.IGNORECASE)


@dataclass(frozen=True)
class JudgePrompt:
    """The judge prompt with both taxonomies filled in.

    Attributes:
        version: the YAML file's ``version``.
        system: system prompt.
        template: user prompt; per-item placeholders ``{question}``, ``{options}``, ``{gold}``,
            ``{shown}``, ``{response}`` remain.
        lmod: code → name (E1 … E6).
        mira: the MIRA category names.
        shown: condition family → what the model was shown.
        source: where the prompt was read from.

    """

    version: int
    system: str
    template: str
    lmod: dict[str, str]
    mira: tuple[str, ...]
    shown: dict[str, str]
    source: str

    @property
    def text(self) -> str:
        """System and user template as one text (what run.json records)."""
        return f"{self.system}\n\n{self.template}"

    @property
    def sha256(self) -> str:
        """Hex SHA-256 of :attr:`text`."""
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()

    def provenance(self) -> dict[str, Any]:
        """Version, text and hash, for run.json and metrics.json."""
        return {"prompt_version": self.version, "prompt_sha256": self.sha256,
                "prompt": self.text, "prompt_source": self.source}


def load_judge_prompt(path: str | Path | None = None) -> JudgePrompt:
    """Read the judge prompt (default: ``prompts/failure_judge.yaml``).

    Raises:
        BadInputError: the file is missing or lacks a key (the message names file and key).
    """
    read = load_prompt_file(path, shipped="failure_judge.yaml", what="judge prompt",
                            required=("version", "system", "user", "lmod", "mira"))
    file, data = read.path, read.fields
    try:
        lmod = {str(code): str(v["name"]) for code, v in data["lmod"].items()}
        lmod_lines = "\n".join(f"{code}: {v['name']} - {v['description']}"
                               for code, v in data["lmod"].items())
        mira = tuple(str(name) for name in data["mira"])
        mira_lines = "\n".join(f"{name}: {v['description']}" for name, v in data["mira"].items())
        template = str(data["user"]).replace("{lmod}", lmod_lines).replace("{mira}", mira_lines)
        # Check the placeholders now, not on the first item.
        template.format(question="", options="", gold="", shown="", response="")
    except (AttributeError, KeyError, TypeError, IndexError, ValueError) as exc:
        raise BadInputError(f"{file}: judge prompt: bad taxonomy or template ({exc!r})") from None
    shown = {str(k): str(v) for k, v in (data.get("shown") or {}).items()}
    shown.setdefault("default", "the image(s) of the question")
    return JudgePrompt(read.version, str(data["system"]).strip(), template, lmod, mira, shown,
                       read.source)


def judge_json_schema(prompt: JudgePrompt) -> dict[str, Any]:
    """JSON schema of a reply, for constrained decoding (both fields from the allowed sets)."""
    return {
        "type": "object",
        "properties": {"lmod": {"type": "string", "enum": list(prompt.lmod)},
                       "mira": {"type": "string", "enum": list(prompt.mira)}},
        "required": ["lmod", "mira"],
        "additionalProperties": False,
    }


def _family(condition: str) -> str:
    return condition.split(":", 1)[0].split("@", 1)[0]


def _letters(value: object, options: dict[str, str]) -> str:
    picked = value if isinstance(value, list) else [value]
    if not options:
        return ", ".join(str(v) for v in picked)
    return "; ".join(f"{v}. {options.get(str(v), '?')}" for v in picked)


def render_user(prompt: JudgePrompt, item: Item, condition: str, response: str) -> str:
    """The user prompt for one wrong answer (``item`` as the model was shown it)."""
    if item.options:
        options = "\n".join(f"{k}. {v}" for k, v in item.options.items())
    else:
        options = f"(none: {item.question_type} question)"
    reply = response.strip()
    if len(reply) > MAX_RESPONSE_CHARS:
        reply = reply[:MAX_RESPONSE_CHARS] + " [… cut]"
    shown = prompt.shown.get(_family(condition), prompt.shown["default"])
    return prompt.template.format(
        question=item.question.strip(), options=options, gold=_letters(item.answer, item.options),
        shown=shown.replace("{condition}", condition), response=reply or "(empty reply)",
    )


def _label(value: object, allowed: dict[str, str]) -> str:
    """The canonical label for ``value`` (a code or a name, any case), else unclassified."""
    if not isinstance(value, str):
        return UNCLASSIFIED
    key = value.strip().casefold()
    for canonical, name in allowed.items():
        if key in (canonical.casefold(), name.casefold()):
            return canonical
    return UNCLASSIFIED


def parse_verdict(text: str | None, prompt: JudgePrompt) -> tuple[str, str]:
    """``(lmod, mira)`` labels from a judge reply; ``unclassified`` where a field is not valid.

    >>> p = load_judge_prompt()
    >>> parse_verdict('{"lmod": "e3", "mira": "Guess"}', p)
    ('E3', 'guess')
    >>> parse_verdict('I think E3.', p)
    ('unclassified', 'unclassified')
    """
    body = (text or "").strip()
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced.group(1).strip()
    try:
        obj = json.loads(body)
    except ValueError:
        return UNCLASSIFIED, UNCLASSIFIED
    if not isinstance(obj, dict):
        return UNCLASSIFIED, UNCLASSIFIED
    return (_label(obj.get("lmod"), prompt.lmod),
            _label(obj.get("mira"), {m: m for m in prompt.mira}))
