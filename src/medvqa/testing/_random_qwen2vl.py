"""Randomly initialised Qwen2-VL models built from a config, for measuring speed on a GPU.

Qwen2-VL is the architecture most 2025-era open medical VLMs fine-tune, and its speed differs
from LLaVA's in the ways that matter to a backend: images of any size become a variable number
of visual tokens (a patch grid merged 2 × 2), positions are three-dimensional (M-RoPE), and the
vision tower is a ViT over 14-pixel patches with 3-D (temporal) patching. ``2b`` follows
Qwen2-VL-2B's sizes (a 32-layer 1280-wide ViT, a 28-layer 1536-wide decoder with 2 key-value
heads); ``tiny`` keeps the shapes' structure at a few million parameters. The tokenizer is
SmolLM2's plus Qwen2-VL's vision tokens, so the embedding is smaller than the real model's
(49k instead of 152k rows); speed depends on the shapes, not on the weights.

transformers' Qwen2-VL processor needs torchvision (for its video processor); without it,
:class:`NeedsTorchvisionError` says so and the GPU bench measures the LLaVA shape only.
"""

from __future__ import annotations

from typing import Any

from medvqa.testing._random_vlm import CHAT_TEMPLATE as LLAVA_TEMPLATE
from medvqa.testing._random_vlm import smollm2_tokenizer

#: Image side the bench feeds (448² → 32 × 32 patches → 256 visual tokens after the 2 × 2 merge).
SIDE = 448

VISION_TOKENS = ["<|vision_start|>", "<|image_pad|>", "<|vision_end|>", "<|video_pad|>"]

#: The LLaVA models' template, with Qwen2-VL's vision tokens in the image slot.
CHAT_TEMPLATE = LLAVA_TEMPLATE.replace("<image>", "<|vision_start|><|image_pad|><|vision_end|>")

#: name → (decoder sizes, vision sizes).
QWEN2VL_SHAPES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "tiny": (
        {"hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2,
         "num_attention_heads": 4, "num_key_value_heads": 2},
        {"depth": 2, "embed_dim": 32, "hidden_size": 64, "num_heads": 4, "mlp_ratio": 2},
    ),
    "2b": (
        {"hidden_size": 1536, "intermediate_size": 8960, "num_hidden_layers": 28,
         "num_attention_heads": 12, "num_key_value_heads": 2},
        {"depth": 32, "embed_dim": 1280, "hidden_size": 1536, "num_heads": 16, "mlp_ratio": 4},
    ),
}


class NeedsTorchvisionError(ImportError):
    """transformers' Qwen2-VL processor cannot be built here (torchvision does not import)."""


def random_qwen2vl(
    shape: str = "tiny", *, seed: int = 0, device: str = "cpu", dtype: str = "float32",
) -> tuple[Any, Any]:
    """A processor and a random Qwen2-VL model of ``shape`` (:data:`QWEN2VL_SHAPES`), eval mode.

    Raises:
        NeedsTorchvisionError: torchvision does not import (the processor needs it).

    """
    from medvqa._optional import require

    require("torch", "transformers", "gguf")
    try:
        import torchvision  # noqa: F401
        from transformers import Qwen2VLProcessor, Qwen2VLVideoProcessor
    except Exception as exc:  # noqa: BLE001 - any import failure means no processor here
        raise NeedsTorchvisionError(f"the Qwen2-VL processor needs torchvision: {exc}") from None
    import torch
    from transformers import Qwen2VLConfig, Qwen2VLForConditionalGeneration
    from transformers.models.qwen2_vl import Qwen2VLImageProcessorPil

    text_sizes, vision_sizes = QWEN2VL_SHAPES[shape]
    tokenizer = smollm2_tokenizer(VISION_TOKENS)
    ids = {t: tokenizer.convert_tokens_to_ids(t) for t in VISION_TOKENS}
    config = Qwen2VLConfig(
        text_config={"vocab_size": len(tokenizer), "max_position_embeddings": 4096,
                     "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]
                                      if shape == "2b" else [2, 3, 3]},
                     "pad_token_id": tokenizer.pad_token_id,
                     "bos_token_id": tokenizer.bos_token_id,
                     "eos_token_id": tokenizer.eos_token_id, **text_sizes},
        vision_config={"patch_size": 14, "spatial_merge_size": 2, "temporal_patch_size": 2,
                       "in_channels": 3, **vision_sizes},
        image_token_id=ids["<|image_pad|>"], video_token_id=ids["<|video_pad|>"],
        vision_start_token_id=ids["<|vision_start|>"], vision_end_token_id=ids["<|vision_end|>"],
    )
    torch.manual_seed(seed)
    with torch.device(device):
        model = Qwen2VLForConditionalGeneration(config)
    model = model.to(getattr(torch, dtype)).eval()
    pixels = SIDE * SIDE
    image_processor = Qwen2VLImageProcessorPil(
        size={"shortest_edge": pixels, "longest_edge": pixels})
    processor = Qwen2VLProcessor(image_processor=image_processor, tokenizer=tokenizer,
                                 video_processor=Qwen2VLVideoProcessor(),
                                 chat_template=CHAT_TEMPLATE)
    return processor, model
