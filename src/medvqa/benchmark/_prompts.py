"""Prompt templates: published prompts kept as versioned data files, rendered per item.

Templates live in ``medvqa/prompts/answer/NAME.yaml`` (or any YAML path a user passes). Each
names an option format (``"{letter}: {text}"`` joined by ``", "`` for MammoVQA,
``"({letter}) {text}"`` lines for PathMMU) and one template per question type. An item may pick
another template key through ``meta["prompt_key"]`` (LMOD's ``glaucoma`` and ``staging``
prompts). Placeholders are ``{question}``, ``{options}`` and any key of ``item.meta``.
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from medvqa._path_guard import UnsafePathError, inside
from medvqa._resources import shipped_path
from medvqa._suggest import did_you_mean
from medvqa.errors import BadInputError
from medvqa.schema import Item, load_prompt_file


class PromptError(BadInputError, ValueError):
    """A template that cannot be found or cannot be rendered for an item."""


@dataclass(frozen=True)
class PromptTemplate:
    """A named set of templates, one per question type (or ``meta.prompt_key``)."""

    name: str
    version: int
    description: str
    option_format: str
    option_separator: str
    templates: dict[str, str]

    def key_for(self, item: Item) -> str:
        """Which template renders ``item``: ``meta.prompt_key`` or the question type."""
        key = str(item.meta.get("prompt_key") or item.question_type)
        if key in self.templates:
            return key
        if item.question_type in self.templates:
            return item.question_type
        raise PromptError(
            f"prompt template {self.name!r} has no template for {key!r} (item {item.id}); "
            f"it has: {', '.join(self.templates)}"
        )


def _packaged() -> list[str]:
    root = shipped_path("prompts", "answer")
    return sorted(p.name[:-5] for p in root.iterdir() if p.name.endswith(".yaml"))


def list_templates() -> list[str]:
    """Names of the templates shipped with medvqa."""
    return _packaged()


@lru_cache(maxsize=64)
def load_template(name_or_path: str) -> PromptTemplate:
    """Load a shipped template by name, or a user's template from a YAML path.

    Raises:
        PromptError: unknown name (with close matches) or a malformed file.
    """
    if name_or_path.endswith((".yaml", ".yml")) and Path(name_or_path).exists():
        path: str | None = name_or_path
    else:
        shipped = _packaged()
        if name_or_path not in shipped:
            hint = did_you_mean(name_or_path, shipped)
            raise PromptError(
                f"unknown prompt template {name_or_path!r}.{hint} "
                f"Known: {', '.join(shipped)}"
            )
        path = None
    read = load_prompt_file(path, shipped=f"answer/{name_or_path}.yaml", what="prompt template",
                            required=("name", "templates"), error=PromptError)
    data = read.fields
    try:
        return PromptTemplate(
            name=str(data["name"]),
            version=read.version,
            description=str(data.get("description", "")),
            option_format=str(data.get("option_format", "{letter}. {text}")),
            option_separator=str(data.get("option_separator", "\n")),
            templates={str(k): str(v) for k, v in data["templates"].items()},
        )
    except (KeyError, TypeError, AttributeError) as exc:
        raise PromptError(f"{read.path}: malformed prompt template ({exc})") from None


def load_bench_template(bench_dir: str | Path, name: str) -> PromptTemplate:
    """The template a benchmark's card names: a shipped name, or a YAML file inside BENCH/.

    A benchmark may come from anywhere, so its ``prompt_template`` is never a path to a local
    file: a name with a ``.yaml`` suffix is resolved inside the benchmark folder (symbolic
    links followed) and must be a regular file there; anything else must be a shipped name.
    A user's own file is passed with ``--prompt`` instead.

    Raises:
        PromptError: an unknown name, a path that leaves the benchmark, or a bad file (the
            message names benchmark.json's field).

    """
    field = f"{Path(bench_dir) / 'benchmark.json'}: prompt_template"
    if not name.endswith((".yaml", ".yml")):
        try:
            return load_template(name)
        except PromptError as exc:
            raise PromptError(f"{field}: {exc}") from None
    try:
        path = inside(bench_dir, name, what="prompt template",
                      root_name="the benchmark folder")
    except UnsafePathError as exc:
        raise PromptError(f"{field}: {exc} (a template of your own goes to --prompt)") from None
    if not path.exists():
        raise PromptError(f"{field}: {name!r} is not a file inside the benchmark folder")
    try:
        return load_template(str(path))
    except PromptError as exc:
        raise PromptError(f"{field}: {exc}") from None


def format_options(options: dict[str, str], template: PromptTemplate) -> str:
    """Options in display order, written in the template's style.

    >>> t = load_template("mammovqa")
    >>> format_options({"A": "Left", "B": "Right"}, t)
    'A: Left, B: Right'
    """
    return template.option_separator.join(
        template.option_format.format(letter=k, text=v) for k, v in options.items()
    )


def render_prompt(item: Item, template: PromptTemplate) -> str:
    """The full prompt for ``item``; a missing placeholder names the item and the field."""
    text = template.templates[template.key_for(item)]
    values: dict[str, object] = {k: v for k, v in item.meta.items() if v is not None}
    values["question"] = item.question
    values["options"] = format_options(item.options, template)
    needed = {f for _, f, _, _ in string.Formatter().parse(text) if f}
    missing = sorted(needed - values.keys())
    if missing:
        raise PromptError(
            f"item {item.id}: prompt template {template.name!r} needs meta field(s) {missing}"
        )
    return text.format_map(values)
