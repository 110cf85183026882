"""Parse ``--model`` strings into a :class:`ModelSpec` (the one parser of model specs)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from medvqa._registry import UnknownNameError
from medvqa.models._backends import BACKENDS, backend_info

#: spec kinds and an example of each, for help texts (derived from the backend registry).
SPEC_KINDS: dict[str, str] = {prefix: row.example for prefix, row in BACKENDS.rows().items()}


@dataclass(frozen=True)
class ModelSpec:
    """A parsed model spec: ``kind[:name][@base_url]``."""

    kind: str
    name: str = ""
    base_url: str = ""

    def __str__(self) -> str:
        text = self.kind + (f":{self.name}" if self.name else "")
        return text + (f"@{self.base_url}" if self.base_url else "")


def parse_model_spec(spec: str) -> ModelSpec:
    """Parse a model spec string.

    >>> parse_model_spec("openai:qwen2.5-vl-7b@http://127.0.0.1:8000/v1")
    ModelSpec(kind='openai', name='qwen2.5-vl-7b', base_url='http://127.0.0.1:8000/v1')
    >>> parse_model_spec("random")
    ModelSpec(kind='random', name='', base_url='')

    Raises:
        ValueError: unknown kind (with a suggestion) or a missing model name.
    """
    kind, _, rest = spec.strip().partition(":")
    try:
        row = backend_info(kind)
    except UnknownNameError as exc:
        raise ValueError(f"{exc} (in {spec!r})") from None
    name, base_url = rest, ""
    if row.takes_url and "@" in rest:
        name, _, base_url = rest.partition("@")
    if row.needs_name and not name:
        raise ValueError(f"model spec {spec!r} needs a name, e.g. {row.example!r}")
    return ModelSpec(kind=kind, name=name, base_url=base_url)


def display_name(spec: str, info: Mapping[str, Any] | None = None) -> str:
    """A short name for a model, derived from its spec: what tables, plots and titles show.

    The backend kind alone when the spec has no name (``random``, ``smollm2``); otherwise the
    name without an endpoint URL and without the folders of a path or hub id. A kind medvqa
    has no backend for (an imported run, ``vlmevalkit:MyVLM``) keeps its spec, a local path
    shortened to its last folder. A classifier is
    named by its architecture (run.json ``model_info.arch``, else its folder) and marked
    ``(supervised)``; a human reader is marked ``(human)``. The full spec stays in run.json and
    the report's methods. A name given by the user (models.yaml ``name``, ``medvqa run --name``)
    replaces this one.

    >>> display_name("supervised:demo-out/runs/idrid--supervised_small-cnn", {"arch": "small-cnn"})
    'small-cnn (supervised)'
    >>> display_name("openai:Qwen/Qwen2.5-VL-7B@http://10.0.0.1:8000/v1")
    'Qwen2.5-VL-7B'
    >>> display_name("hf:/models/qwen2-vl-2b/"), display_name("random"), display_name("")
    ('qwen2-vl-2b', 'random', 'model')

    Args:
        spec: the model spec (run.json ``model``); an unknown kind is read the same way.
        info: run.json's ``model_info`` (the classifier's ``arch``), when known.
    """
    kind, sep, rest = spec.strip().partition(":")
    if not sep or not rest:
        return kind or "model"
    short = rest.rstrip("/\\").replace("\\", "/").rsplit("/", 1)[-1] or rest
    if kind not in BACKENDS:  # another tool's run (vlmevalkit:NAME): its prefix tells whose
        return f"{kind}:{short}" if rest.startswith(("/", "./", "../", "~")) else spec.strip()
    if backend_info(kind).takes_url and "@" in rest:
        short = rest.partition("@")[0].rstrip("/").rsplit("/", 1)[-1]
    if kind == "supervised":
        arch = (info or {}).get("arch")
        return f"{arch if isinstance(arch, str) and arch else short} (supervised)"
    if kind == "human":
        return f"{short} (human)"
    return short


#: Longest display name a user may give (``medvqa run --name``).
MAX_DISPLAY_NAME = 100


def display_name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a display name, or None when it can: one short printable line.

    >>> display_name_problem("GPT-4o (2024-08)") is None
    True
    >>> display_name_problem(" padded ")
    'a display name is one line of printable text, at most 100 characters'
    """
    if not name.strip() or len(name) > MAX_DISPLAY_NAME or not name.isprintable() \
            or name != name.strip():
        return (f"a display name is one line of printable text, at most {MAX_DISPLAY_NAME} "
                "characters")
    return None
