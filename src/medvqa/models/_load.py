"""``load_model``: one table from spec kind to backend factory.

It is the only place backends are built.
"""

from __future__ import annotations

from pathlib import Path

from medvqa.errors import BadInputError
from medvqa.models._base import ModelBackend, ModelConfig
from medvqa.models._spec import parse_model_spec

_NOT_YET = {"human"}


def load_model(config: ModelConfig, bench_dir: Path | None = None) -> ModelBackend:
    """Build the backend named by ``config.spec`` (not started: call ``await backend.start()``).

    Raises:
        BadInputError: an unknown kind (with a suggestion), or a kind not available here.
    """
    try:
        spec = parse_model_spec(config.spec)
    except ValueError as exc:
        raise BadInputError(str(exc)) from None
    if spec.kind == "random":
        from medvqa.models._random import RandomModel

        return RandomModel(config)
    if spec.kind == "frequent":
        from medvqa.models._frequent import FrequentModel

        return FrequentModel(config, bench_dir)
    if spec.kind == "smollm2":
        from medvqa.models._hf_local import smollm2

        return smollm2(config)
    if spec.kind == "hf":
        return _hf(config, spec.name)
    if spec.kind == "openai":
        from medvqa.models._openai_compat import OpenAICompatModel

        return OpenAICompatModel(config, spec.name, spec.base_url)
    if spec.kind == "anthropic":
        from medvqa.models._anthropic import AnthropicModel

        return AnthropicModel(config, spec.name, spec.base_url)
    # --- supervised image classifiers (issue 15): one row in the backend table ---
    if spec.kind == "supervised":
        from medvqa.models._supervised import build_supervised

        return build_supervised(config, spec, bench_dir)
    assert spec.kind in _NOT_YET
    raise BadInputError(
        f"model kind {spec.kind!r} is not available in this version of medvqa; "
        "use random, frequent, smollm2, hf:PATH, openai:MODEL@URL or anthropic:MODEL"
    )


def _hf(config: ModelConfig, name: str) -> ModelBackend:
    """Local weights: a vision-language model when the config has a vision tower, else a text LM."""
    from medvqa.models._hf_local import LocalLM
    from medvqa.models._hf_vlm import LocalVLM, is_vision_checkpoint

    path = Path(name).expanduser()
    if path.suffix == ".gguf":
        return LocalLM(config, str(path.parent), path.name)
    if (path.is_absolute() or name.startswith(".")) and not path.exists():
        raise BadInputError(f"hf:{name}: not a local checkpoint folder (no such folder)")
    try:
        vision = is_vision_checkpoint(name)
    except (OSError, ValueError) as exc:
        raise BadInputError(
            f"hf:{name}: not a local checkpoint folder and not loadable as a hub id ({exc})"
        ) from None
    return LocalVLM(config, name) if vision else LocalLM(config, name)
