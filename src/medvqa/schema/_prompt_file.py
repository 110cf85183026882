"""A prompt file: the one model and loader of medvqa's versioned prompt YAML.

Prompts are data (``prompts/answer/NAME.yaml`` for models under test, ``failure_judge.yaml``,
``extract.yaml``, ``llm_builders.yaml``, or a user's own file): each is read here, through the
shared YAML loader (no aliases, a size cap, regular files only), checked to be a mapping with a
numeric ``version`` and its required fields, and handed on as a :class:`PromptFile`. What a
prompt means (a template per question type, a judge's taxonomies) is its reader's; how it is
read, and the one line a bad file gets, is stated once.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from medvqa._resources import shipped_path
from medvqa._yaml_loader import YamlError, load_yaml_file
from medvqa.errors import BadInputError


@dataclass(frozen=True)
class PromptFile:
    """One prompt file as read.

    Attributes:
        version: the file's ``version`` (1 where the file states none and may omit it).
        fields: every top-level key of the file and its value.
        source: ``medvqa:prompts/NAME`` for a shipped file, else the path given.
        path: the file read.
    """

    version: int
    fields: dict[str, Any]
    source: str
    path: Path


def load_prompt_file(path: str | Path | None, *, shipped: str, what: str,
                     required: tuple[str, ...] = (),
                     error: type[BadInputError] = BadInputError) -> PromptFile:
    """Read a prompt file: ``path``, or the shipped ``prompts/SHIPPED`` when ``path`` is None.

    Args:
        path: a user's file, or None for the shipped one.
        shipped: the shipped file below ``prompts/`` (``"answer/mammovqa.yaml"``).
        what: what the file is, for the error line (``"judge prompt"``).
        required: fields that must be present and not empty (``version`` is always checked
            to be a number when present).
        error: the error class raised (a :class:`~medvqa.errors.BadInputError`).

    Raises:
        BadInputError: one line naming the file and the bad or missing field.

    >>> load_prompt_file(None, shipped="extract.yaml", what="extractor prompt").source
    'medvqa:prompts/extract.yaml'
    """
    file = Path(path) if path is not None else shipped_path("prompts", *shipped.split("/"))
    try:
        data = load_yaml_file(file)
    except YamlError as exc:
        raise error(f"{exc} (the {what})") from None
    except OSError as exc:
        raise error(f"{file}: cannot read the {what}: {exc}") from None
    if not isinstance(data, dict):
        raise error(f"{file}: the {what} must be a YAML mapping")
    for key in required:
        if data.get(key) in (None, ""):
            raise error(f"{file}: {what}: missing field {key!r}")
    try:
        version = int(data.get("version", 1))
    except (TypeError, ValueError):
        raise error(f"{file}: {what}: field 'version' is not a number") from None
    source = f"medvqa:prompts/{shipped}" if path is None else str(file)
    return PromptFile(version, {str(k): v for k, v in data.items()}, source, file)
