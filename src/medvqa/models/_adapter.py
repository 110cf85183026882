"""``--adapter DIR``: a peft LoRA adapter on top of ``hf:`` weights, for evaluation.

The adapter is merged into a fresh copy of the base weights (never the shared cached copy, which
other runs in the process still use), so generation runs at the base model's speed. Its digest
is part of the backend's parameters, hence of the cache key and of run.json: answers of the base
model and of each adapter never mix.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from medvqa.errors import BadInputError

ADAPTER_WEIGHTS = ("adapter_model.safetensors", "adapter_model.bin")


def adapter_of(config: Any) -> str:
    """The adapter folder named in ``config.extra["adapter"]`` ("" for none).

    Raises:
        BadInputError: a folder without adapter_config.json and adapter weights.
    """
    path = str(config.extra.get("adapter") or "")
    if path and not (Path(path) / "adapter_config.json").is_file():
        raise BadInputError(f"--adapter {path}: not a peft adapter folder "
                            "(no adapter_config.json; train one with `medvqa train lora`)")
    return path


def adapter_digest(path: str) -> str:
    """SHA-256 (16 hex digits) of the adapter's config and weights."""
    digest = hashlib.sha256()
    for name in ("adapter_config.json", *ADAPTER_WEIGHTS):
        f = Path(path) / name
        if f.is_file():
            digest.update(f.read_bytes())
    return digest.hexdigest()[:16]


def apply_adapter(model: Any, path: str) -> Any:
    """Load the adapter onto ``model`` and merge it; returns the merged model in eval mode."""
    from peft import PeftModel

    merged = PeftModel.from_pretrained(model, path).merge_and_unload()
    merged.eval()
    return merged
