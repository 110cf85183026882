"""The model backend registry: one row per backend, its spec prefix, module and capabilities.

Adding a backend is one file (its class and a ``build(config, spec, bench_dir)`` function) plus
one row here. Everything that needs to know about backends reads this table: the spec parser
(known prefixes, "did you mean"), :func:`medvqa.models.load_model` (lazy import of the factory),
``--local-only`` (``local``), constrained decoding (``structured``) and help strings
(``example``). Nothing registers itself on import.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from medvqa._suggest import did_you_mean

if TYPE_CHECKING:
    from medvqa.models._base import ModelBackend, ModelConfig

#: How a backend accepts a JSON schema for its output: ``json_schema`` = ``extra["json_schema"]``
#: (constrained decoding in-process), ``response_format`` = the OpenAI ``response_format`` body
#: field, ``""`` = not supported (the caller validates the text afterwards).
Structured = Literal["json_schema", "response_format", ""]


@dataclass(frozen=True)
class BackendInfo:
    """One backend's row.

    Attributes:
        prefix: the spec prefix (``openai`` in ``openai:MODEL@URL``).
        factory: ``"module:function"`` taking ``(config, spec, bench_dir)``, imported on use.
        example: an example spec, for help texts and errors.
        local: True when nothing leaves this machine (no text sent to any server).
        images: whether it sees images (None: depends on the checkpoint).
        structured: how it takes a JSON schema (see :data:`Structured`).
        needs_name: whether the spec must name a model after the colon.
        takes_url: whether ``@BASE_URL`` may follow the name.
        adapter: whether it takes a peft LoRA adapter (``--adapter``).
    """

    prefix: str
    factory: str
    example: str
    local: bool
    images: bool | None
    structured: Structured = ""
    needs_name: bool = False
    takes_url: bool = False
    adapter: bool = False


_F = "medvqa.models._factories"

#: Every backend, one row each; order is the order of help texts.
BACKENDS: dict[str, BackendInfo] = {
    row.prefix: row
    for row in (
        BackendInfo("random", f"{_F}:build_random", "random", local=True, images=False),
        BackendInfo("frequent", f"{_F}:build_frequent", "frequent", local=True, images=False),
        BackendInfo("smollm2", f"{_F}:build_smollm2", "smollm2", local=True, images=False,
                    structured="json_schema", adapter=True),
        BackendInfo("hf", f"{_F}:build_hf", "hf:/path/to/model-or-hub-id", local=True,
                    images=None, structured="json_schema", needs_name=True, adapter=True),
        BackendInfo("openai", f"{_F}:build_openai",
                    "openai:qwen2.5-vl-7b@http://127.0.0.1:8000/v1", local=False, images=True,
                    structured="response_format", needs_name=True, takes_url=True),
        BackendInfo("anthropic", f"{_F}:build_anthropic", "anthropic:claude-sonnet-4-5",
                    local=False, images=True, needs_name=True, takes_url=True),
        BackendInfo("supervised", "medvqa.models._supervised:build_supervised",
                    "supervised:RUN_DIR", local=True, images=True, needs_name=True),
        BackendInfo("human", f"{_F}:not_yet", "human:reader1", local=True, images=True,
                    needs_name=True),
    )
}

#: ``(config, parsed spec, bench_dir) -> backend`` (the spec is a :class:`ModelSpec`).
Factory = Callable[["ModelConfig", Any, "Path | None"], "ModelBackend"]


def backend_info(prefix: str) -> BackendInfo:
    """The row for ``prefix``.

    Raises:
        ValueError: an unknown prefix, with a "did you mean" suggestion and the known ones.
    """
    row = BACKENDS.get(prefix)
    if row is None:
        hint = did_you_mean(prefix, BACKENDS, n=1)
        raise ValueError(f"unknown model kind {prefix!r}.{hint} Known: {', '.join(BACKENDS)}")
    return row


def backend_factory(prefix: str) -> Factory:
    """The factory function of ``prefix``, imported now (lazily, once)."""
    module, _, attr = backend_info(prefix).factory.partition(":")
    fn: Any = getattr(importlib.import_module(module), attr)
    return fn  # type: ignore[no-any-return]


def structured_extra(spec: str, purpose: str, schema: dict[str, Any]) -> dict[str, Any]:
    """``ModelConfig.extra`` that asks backend ``spec`` for output following ``schema``.

    Empty when the backend has no structured-output mechanism.

    >>> structured_extra("smollm2", "qa", {"type": "object"})
    {'json_schema': {'type': 'object'}}
    >>> sorted(structured_extra("openai:m@http://127.0.0.1:1/v1", "qa", {})["response_format"])
    ['json_schema', 'type']
    """
    how = backend_info(spec.strip().partition(":")[0]).structured
    if how == "json_schema":
        return {"json_schema": schema}
    if how == "response_format":
        return {"response_format": {"type": "json_schema",
                                    "json_schema": {"name": purpose, "schema": schema}}}
    return {}


def help_line() -> str:
    """``random | frequent | … | openai:MODEL@URL`` for ``--model`` help texts."""
    return " | ".join(row.example for row in BACKENDS.values())
