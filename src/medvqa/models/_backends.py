"""The model backend registry: one row per backend, its spec prefix, module and capabilities.

Adding a backend is one file (its class and a ``build(config, spec, bench_dir)`` function) plus
one row here. Everything that needs to know about backends reads this table: the spec parser
(known prefixes, "did you mean"), :func:`medvqa.models.load_model` (lazy import of the factory),
``--local-only`` (``local``), constrained decoding (``structured``), the models.yaml weights
guard (``weights``) and help strings (``example``). Nothing registers itself on import.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, cast

from medvqa._registry import Entry, Registry

if TYPE_CHECKING:
    from medvqa.models._base import ModelBackend, ModelConfig

#: How a backend accepts a JSON schema for its output: ``json_schema`` = ``extra["json_schema"]``
#: (constrained decoding in-process), ``response_format`` = the OpenAI ``response_format`` body
#: field, ``""`` = not supported (the caller validates the text afterwards).
Structured = Literal["json_schema", "response_format", ""]

#: What the name after a backend's colon is, for weights: ``path`` = local weights (a folder or
#: file), ``path-or-hub`` = local weights or a hub id, ``""`` = no weights (a model name, a
#: reader). A models.yaml's local weights are held inside its folder (``medvqa.run``).
Weights = Literal["path", "path-or-hub", ""]


@dataclass(frozen=True)
class BackendInfo(Entry):
    """One backend's row (``target``: its factory, ``(config, spec, bench_dir) -> backend``).

    Attributes:
        local: True when nothing leaves this machine (no text sent to any server).
        images: whether it sees images (None: depends on the checkpoint).
        structured: how it takes a JSON schema (see :data:`Structured`).
        needs_name: whether the spec must name a model after the colon.
        takes_url: whether ``@BASE_URL`` may follow the name.
        adapter: whether it takes a peft LoRA adapter (``--adapter``).
        weights: what its name is, when it names weights (see :data:`Weights`).
    """

    local: bool = True
    images: bool | None = False
    structured: Structured = ""
    needs_name: bool = False
    takes_url: bool = False
    adapter: bool = False
    weights: Weights = ""


_F = "medvqa.models._factories"

#: ``(config, parsed spec, bench_dir) -> backend`` (the spec is a :class:`ModelSpec`).
Factory = Callable[["ModelConfig", Any, "Path | None"], "ModelBackend"]

#: Every backend, one row each, keyed by its spec prefix; order is the order of help texts.
BACKENDS: Registry[Factory] = Registry("model kind", {
    "random": BackendInfo(f"{_F}:build_random", "picks an option at random (seeded)",
                          "random"),
    "frequent": BackendInfo(f"{_F}:build_frequent", "always the most frequent answer of the "
                            "benchmark's train split", "frequent"),
    "smollm2": BackendInfo(f"{_F}:build_smollm2", "SmolLM2-135M on the CPU (text only; "
                           "shipped)", "smollm2", structured="json_schema", adapter=True),
    "hf": BackendInfo(f"{_F}:build_hf", "local transformers weights (a folder or a hub ID)",
                      "hf:/path/to/model-or-hub-id", images=None, structured="json_schema",
                      needs_name=True, adapter=True, weights="path-or-hub"),
    "openai": BackendInfo(f"{_F}:build_openai", "an OpenAI-compatible server (vLLM, SGLang, "
                          "Ollama, hosted APIs)", "openai:qwen2.5-vl-7b@http://127.0.0.1:8000/v1",
                          local=False, images=True, structured="response_format",
                          needs_name=True, takes_url=True),
    "anthropic": BackendInfo(f"{_F}:build_anthropic", "Anthropic's Messages API",
                             "anthropic:claude-sonnet-4-5", local=False, images=True,
                             needs_name=True, takes_url=True),
    "supervised": BackendInfo("medvqa.models._supervised:build_supervised", "a classifier "
                              "trained by `medvqa train classifier`", "supervised:RUN_DIR",
                              images=True, needs_name=True, weights="path"),
    "human": BackendInfo(f"{_F}:human_reader", "a human reader's answers (`medvqa review exam`)",
                         "human:reader1", images=True, needs_name=True),
})


def backend_info(prefix: str) -> BackendInfo:
    """The row for ``prefix``.

    Raises:
        medvqa._registry.UnknownNameError: an unknown prefix, with a "did you mean" suggestion
            and the known ones.
    """
    return cast(BackendInfo, BACKENDS.row(prefix))


def backend_factory(prefix: str) -> Factory:
    """The factory function of ``prefix``, imported now (lazily, once)."""
    return BACKENDS.get(prefix)


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
