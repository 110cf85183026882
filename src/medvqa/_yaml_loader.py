"""The one YAML loader for files users and downloads hand medvqa: safe, small, without aliases.

Prompt templates, models.yaml, ``--prompt`` files, recipes and the LLM builders' files are
YAML that may come from anywhere. PyYAML's ``safe_load`` already refuses tags that build
objects, but it expands anchors and aliases: a "billion laughs" file of a few hundred bytes
(``a: &a [x, x, …]``, ``b: &b [*a, *a, …]`` …) becomes a structure that every later walk
(validation, JSON, hashing) expands to gigabytes. None of medvqa's formats needs an alias, so
an alias is refused at the event it appears, with its line, before anything is built; and a
file above :data:`MAX_YAML_BYTES` is refused before it is parsed.

Every refusal is a :class:`YamlError` (a :class:`~medvqa.errors.BadInputError`, exit 2) of one
line naming the file and line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from medvqa._path_guard import UnsafePathError, read_regular
from medvqa.errors import BadInputError

#: Largest YAML file read (bytes): the largest shipped file is a few kilobytes; a recipe or a
#: models.yaml of a thousand entries stays far below a mebibyte.
MAX_YAML_BYTES = 1 << 20


class YamlError(BadInputError, ValueError):
    """A YAML file that is not read: bad syntax, an alias, too large, not a regular file."""


class _NoAliasLoader(yaml.SafeLoader):
    """``SafeLoader`` that refuses anchors and aliases where they appear."""

    source = "<yaml>"

    def compose_node(self, parent: Any, index: Any) -> Any:  # noqa: D102 - PyYAML hook
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise YamlError(
                f"{self.source}:{event.start_mark.line + 1}: an alias (*{event.anchor}) is not "
                "read (an alias can expand a small file to gigabytes); write the value out")
        event = self.peek_event()
        anchor = getattr(event, "anchor", None)
        if anchor is not None:
            raise YamlError(
                f"{self.source}:{event.start_mark.line + 1}: an anchor (&{anchor}) is not read "
                "(an alias can expand a small file to gigabytes); write the value out")
        return super().compose_node(parent, index)


def _loader(text: str, source: str) -> _NoAliasLoader:
    if len(text) > MAX_YAML_BYTES:
        raise YamlError(f"{source}: {len(text):,} characters, above the cap of "
                        f"{MAX_YAML_BYTES:,} for a YAML file")
    loader = _NoAliasLoader(text)
    loader.source = source
    return loader


def _syntax(exc: yaml.YAMLError, source: str) -> YamlError:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    where = f":{mark.line + 1}" if mark is not None else ""
    problem = getattr(exc, "problem", None) or "not valid YAML"
    return YamlError(f"{source}{where}: not valid YAML ({problem})")


def load_yaml(text: str, source: str = "<yaml>") -> Any:
    r"""The data of YAML ``text`` (safe tags only, no aliases, at most :data:`MAX_YAML_BYTES`).

    >>> load_yaml("name: x\nitems: [1, 2]")
    {'name': 'x', 'items': [1, 2]}
    >>> load_yaml("a: &x [1]\nb: *x", "f.yaml")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    medvqa._yaml_loader.YamlError: f.yaml:1: an anchor (&x) is not read (an alias can ...

    Raises:
        YamlError: bad syntax, an anchor or alias, or text above the cap (file and line).

    """
    loader = _loader(text, source)
    try:
        return loader.get_single_data()
    except yaml.YAMLError as exc:
        raise _syntax(exc, source) from None
    finally:
        loader.dispose()


def compose_yaml(text: str, source: str = "<yaml>") -> yaml.Node | None:
    """The node tree of ``text`` (for line numbers), with :func:`load_yaml`'s refusals."""
    loader = _loader(text, source)
    try:
        return loader.get_single_node()
    except yaml.YAMLError as exc:
        raise _syntax(exc, source) from None
    finally:
        loader.dispose()


def read_yaml_text(path: str | Path) -> str:
    """The text of a YAML file: a regular file, at most :data:`MAX_YAML_BYTES`, UTF-8.

    Raises:
        YamlError: missing, not a regular file (a FIFO …), too large, or not UTF-8.

    """
    try:
        data = read_regular(path, max_bytes=MAX_YAML_BYTES)
    except UnsafePathError as exc:
        raise YamlError(str(exc)) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise YamlError(f"{path}: not UTF-8 (byte {exc.start})") from None


def load_yaml_file(path: str | Path) -> Any:
    """The data of the YAML file at ``path`` (:func:`read_yaml_text`, then :func:`load_yaml`)."""
    return load_yaml(read_yaml_text(path), str(path))


__all__ = ["MAX_YAML_BYTES", "YamlError", "compose_yaml", "load_yaml", "load_yaml_file",
           "read_yaml_text"]
