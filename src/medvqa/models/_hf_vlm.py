"""``hf:PATH`` for vision-language models: local weights that do see the image.

Any checkpoint that transformers loads with ``AutoProcessor`` and
``AutoModelForImageTextToText`` (Qwen2-VL, LLaVA, Idefics3/SmolVLM, PaliGemma …) runs here on
local weights: the processor's own chat template places one image slot per image, the images
are decoded from the bytes the runner already holds, and a batch is generated in one call on a
worker thread. Which backend ``hf:`` gets is decided from the checkpoint's config: one with a
``vision_config`` is a VLM, anything else a text-only causal LM (``_hf_local``).
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from medvqa._optional import require
from medvqa.models._adapter import adapter_digest, adapter_of, apply_adapter
from medvqa.models._base import GenerateRequest, GenerateResponse, ModelConfig

log = logging.getLogger(__name__)
_LOCK = threading.Lock()
_LOADED: dict[str, LoadedVLM] = {}


@dataclass(frozen=True)
class LoadedVLM:
    """A processor and model pair, loaded once per process."""

    processor: Any
    model: Any
    load_s: float


def is_vision_checkpoint(path: str) -> bool:
    """True when the checkpoint's config describes a vision encoder (a local folder or hub id)."""
    config_file = Path(path) / "config.json"
    if config_file.is_file():
        return "vision_config" in json.loads(config_file.read_text())
    if Path(path).exists():
        return False
    require("transformers")
    from transformers import AutoConfig

    return hasattr(AutoConfig.from_pretrained(path), "vision_config")


def load_vlm(path: str, adapter: str = "") -> LoadedVLM:
    """Load (once per process) a vision-language model and its processor (``adapter`` merged)."""
    require("torch", "transformers", *(["peft"] if adapter else []))
    key = f"{path}\x1f{adapter}"
    with _LOCK:
        if key not in _LOADED:
            import torch
            from transformers import AutoModelForImageTextToText, AutoProcessor
            from transformers.utils import logging as hf_logging

            hf_logging.disable_progress_bar()  # the CLI shows its own progress
            t0 = time.perf_counter()
            processor = AutoProcessor.from_pretrained(path)
            processor.tokenizer.padding_side = "left"  # batched generation continues on the right
            model = AutoModelForImageTextToText.from_pretrained(path, dtype=torch.float32)
            model.eval()
            if adapter:  # issue 15: --adapter DIR
                model = apply_adapter(model, adapter)
            _LOADED[key] = LoadedVLM(processor, model, time.perf_counter() - t0)
            log.info("loaded %s in %.1f s", path, _LOADED[key].load_s)
        return _LOADED[key]


def chat_messages(request: GenerateRequest) -> list[dict[str, Any]]:
    """The request as chat messages with one image slot per image, images first."""
    content: list[dict[str, Any]] = [{"type": "image"} for _ in request.images]
    content.append({"type": "text", "text": request.prompt})
    messages: list[dict[str, Any]] = [{"role": "user", "content": content}]
    if request.system:
        messages.insert(
            0, {"role": "system", "content": [{"type": "text", "text": request.system}]}
        )
    return messages


class LocalVLM:
    """Batched generation with a local vision-language model; sees the images.

    Args:
        config: ``max_tokens``, ``temperature``, ``seed`` and ``batch_size`` apply.
        path: local checkpoint folder or hub id.

    """

    def __init__(self, config: ModelConfig, path: str):
        self.name = config.spec
        self.path = path
        self.adapter = adapter_of(config)
        self.batch_size = max(1, config.batch_size)
        self.max_tokens = config.max_tokens
        self.temperature = config.temperature
        self.seed = config.seed
        self.params: dict[str, Any] = {
            "max_tokens": config.max_tokens,
            "temperature": config.temperature,
            **({"seed": config.seed} if config.temperature > 0 else {}),
            **({"adapter": adapter_digest(self.adapter)} if self.adapter else {}),
        }
        self.info: dict[str, Any] = {"text_only": False, "weights": path, "kind": "local VLM"}
        self._vlm: LoadedVLM | None = None

    async def start(self) -> None:
        """Load the weights (once per process) off the event loop."""
        self._vlm = await asyncio.to_thread(load_vlm, self.path, self.adapter)

    async def aclose(self) -> None:
        """Weights stay cached for the process; nothing else to release."""

    async def generate(self, requests: Sequence[GenerateRequest]) -> list[GenerateResponse]:
        """Generate for a batch of requests (prompts and their images) in one call."""
        if self._vlm is None:
            await self.start()
        return await asyncio.to_thread(self._generate_sync, list(requests))

    def _generate_sync(self, requests: list[GenerateRequest]) -> list[GenerateResponse]:
        import torch
        from PIL import Image

        assert self._vlm is not None
        processor, model = self._vlm.processor, self._vlm.model
        texts = [processor.apply_chat_template(chat_messages(r), add_generation_prompt=True,
                                               tokenize=False) for r in requests]
        images = [Image.open(io.BytesIO(img.data)).convert("RGB")
                  for r in requests for img in r.images]
        inputs = processor(text=texts, images=images or None, return_tensors="pt", padding=True)
        sample = self.temperature > 0
        if sample:
            torch.manual_seed(self.seed)
        t0 = time.perf_counter()
        with torch.inference_mode():
            out = model.generate(**inputs, max_new_tokens=self.max_tokens, do_sample=sample,
                                 temperature=self.temperature if sample else None,
                                 pad_token_id=processor.tokenizer.pad_token_id)
        per_item = (time.perf_counter() - t0) / len(requests)
        new = out[:, inputs["input_ids"].shape[1]:]
        decoded = processor.batch_decode(new, skip_special_tokens=True)
        return [GenerateResponse(text=d.strip(), latency_s=per_item) for d in decoded]
