"""``hf:PATH`` for vision-language models: local weights that do see the image.

Any checkpoint that transformers loads with ``AutoProcessor`` and
``AutoModelForImageTextToText`` (Qwen2-VL, LLaVA, Idefics3/SmolVLM, PaliGemma …) runs here on
local weights, on the device and dtype of :mod:`medvqa.models._hf_device`. The processor's own
chat template places one image slot per image (multi-image items keep every image, in order);
images are decoded and pre-processed in worker threads and only the forward passes hold the
model lock, so one batch is prepared while the previous one generates. The runner hands
:data:`GROUP_WINDOW` × ``batch_size`` requests at once; they are sorted by prompt length and
generated ``batch_size`` at a time with left padding, so a batch wastes few padded positions.
Processors that centre-crop (CLIP-style) get images padded to a square first, so nothing is
cut off silently. Which backend ``hf:`` gets is decided from the checkpoint's config: one with a
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
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from medvqa._optional import require
from medvqa.models._adapter import adapter_digest, adapter_of, apply_adapter
from medvqa.models._base import GenerateRequest, GenerateResponse, ModelConfig
from medvqa.models._hf_device import (
    Placement,
    generate_with_fallback,
    resolve_placement,
    supports_static_cache,
)
from medvqa.models._weights import readable_weights

log = logging.getLogger(__name__)
_LOCK = threading.Lock()
#: The loaded models, keyed by (path, placement, adapter, checkpoint digest): each is loaded
#: once per process, and again when the checkpoint's weights change.
LOADED_VLMS: dict[tuple[str, Placement, str, str], LoadedVLM] = {}

#: Requests taken per call, as a multiple of ``batch_size``, to group by prompt length.
GROUP_WINDOW = 4


@dataclass
class LoadedVLM:
    """A processor and model pair, loaded once per process and placement."""

    processor: Any
    model: Any
    load_s: float
    gpu_lock: threading.Lock = field(default_factory=threading.Lock)
    state: dict[str, Any] = field(default_factory=dict)


def is_vision_checkpoint(path: str) -> bool:
    """True when the checkpoint's config describes a vision encoder (a local folder or hub id)."""
    config_file = Path(path) / "config.json"
    if config_file.is_file():
        config = json.loads(config_file.read_text())
        return isinstance(config, dict) and "vision_config" in config
    if Path(path).exists():
        return False
    require("transformers")
    from transformers import AutoConfig

    return hasattr(AutoConfig.from_pretrained(path), "vision_config")


def load_vlm(path: str, placement: Placement | None = None, adapter: str = "",
             checkpoint: str = "") -> LoadedVLM:
    """Load (once per process and placement) a vision-language model and its processor.

    With ``adapter``, a peft LoRA adapter is merged into a fresh copy of the weights;
    ``checkpoint`` (the local checkpoint's digest) is part of the key.
    """
    require("torch", "transformers", *(["peft"] if adapter else []))
    placement = placement or Placement("cpu", "float32")
    key = (path, placement, adapter, checkpoint)
    with _LOCK:
        if key not in LOADED_VLMS:
            from transformers import AutoModelForImageTextToText, AutoProcessor
            from transformers.utils import logging as hf_logging

            hf_logging.disable_progress_bar()  # the CLI shows its own progress
            t0 = time.perf_counter()
            with readable_weights(f"hf:{path}", path):
                processor = AutoProcessor.from_pretrained(path)
                processor.tokenizer.padding_side = "left"  # batched generation continues right
                model = AutoModelForImageTextToText.from_pretrained(path,
                                                                    **placement.load_kwargs())
            if not placement.device_map:
                model.to(placement.device)  # type: ignore[arg-type]  # transformers' wrapper hides the signature
            model.eval()
            if adapter:
                with readable_weights(f"--adapter {adapter}", adapter):
                    model = apply_adapter(model, adapter)
            cache = placement.cache
            if cache == "static" and not supports_static_cache(model):
                cache = "dynamic"
            loaded = LoadedVLM(processor, model, time.perf_counter() - t0)
            loaded.state["cache"] = cache
            LOADED_VLMS[key] = loaded
            log.info("loaded %s on %s in %.1f s", path, placement.device, loaded.load_s)
        return LOADED_VLMS[key]


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


def pad_to_square(image: Any) -> Any:
    """The PIL image centred on a black square canvas (so a centre crop removes nothing)."""
    from PIL import Image

    w, h = image.size
    if w == h:
        return image
    side = max(w, h)
    canvas = Image.new(image.mode, (side, side))
    canvas.paste(image, ((side - w) // 2, (side - h) // 2))
    return canvas


def length_groups(lengths: Sequence[int], batch_size: int) -> list[list[int]]:
    """Indices grouped into batches of ``batch_size`` by ascending length (stable).

    >>> length_groups([5, 1, 4, 2, 3], 2)
    [[1, 3], [4, 2], [0]]
    """
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    return [order[i:i + batch_size] for i in range(0, len(order), max(1, batch_size))]


def _image_sizes(inputs: Any, processor: Any, n_images: int) -> list[list[int]]:
    """Height and width of each image after the processor (best effort, per architecture).

    Qwen2-VL's grid gives each image's own size; otherwise the pixel tensor's, which for a
    tiling processor (Idefics3, SmolVLM) is the size of one tile (the tile count shows in the
    prompt tokens).
    """
    grid = inputs.get("image_grid_thw")
    if grid is not None:
        patch = int(getattr(processor.image_processor, "patch_size", 14) or 14)
        return [[int(h) * patch, int(w) * patch] for _, h, w in grid.tolist()]
    pixels = inputs.get("pixel_values")
    if pixels is not None and pixels.dim() >= 4:
        h, w = int(pixels.shape[-2]), int(pixels.shape[-1])
        return [[h, w]] * n_images
    return []


class LocalVLM:
    """Batched generation with a local vision-language model; sees the images.

    Args:
        config: ``max_tokens``, ``temperature``, ``top_p``, ``seed``, ``batch_size`` and the
            placement fields (``device``, ``dtype``, ``device_map``, ``attn_implementation``)
            apply; ``extra["cache"]`` may force ``static`` or ``dynamic``.
        path: local checkpoint folder or hub id.
        checkpoint: the local checkpoint's digest (a parameter); "" for a hub id.

    """

    def __init__(self, config: ModelConfig, path: str, checkpoint: str = ""):
        self.name = config.spec
        self.path = path
        self.adapter = adapter_of(config)
        self.placement = resolve_placement(
            config.device, config.dtype, config.device_map, config.attn_implementation,
            str(config.extra.get("cache", "auto")),
        )
        self.forward_batch = max(1, config.batch_size)
        self.batch_size = self.forward_batch * GROUP_WINDOW
        self.max_tokens = config.max_tokens
        self.temperature = config.temperature
        self.top_p = config.top_p
        self.seed = config.seed
        self.params: dict[str, Any] = {
            "max_tokens": config.max_tokens,
            "temperature": config.temperature,
            **({"seed": config.seed} if config.temperature > 0 else {}),
            **({"top_p": config.top_p} if config.top_p is not None else {}),
            **({"adapter": adapter_digest(self.adapter)} if self.adapter else {}),
            **({"checkpoint": checkpoint} if checkpoint else {}),
        }
        self.info: dict[str, Any] = {"text_only": False, "weights": path, "kind": "local VLM",
                                     "batch_size": self.forward_batch, **self.placement.record()}
        self._vlm: LoadedVLM | None = None
        self._prep = ThreadPoolExecutor(max_workers=1, thread_name_prefix="vlm-prep")
        self._tally_lock = threading.Lock()
        self.tokens_generated = 0
        self.generate_s = 0.0

    async def start(self) -> None:
        """Load the weights (once per process) off the event loop."""
        self._vlm = await asyncio.to_thread(load_vlm, self.path, self.placement, self.adapter,
                                           self.params.get("checkpoint", ""))
        self.info["cache"] = self._vlm.state["cache"]
        self.info["attn_implementation"] = str(
            getattr(self._vlm.model.config, "_attn_implementation", "")
            or self.info["attn_implementation"])

    async def aclose(self) -> None:
        """Stop the preprocessing thread; weights stay cached for the process."""
        self._prep.shutdown(wait=False)

    async def generate(self, requests: Sequence[GenerateRequest]) -> list[GenerateResponse]:
        """Generate for up to ``batch_size`` requests: grouped by length, in forward batches."""
        if self._vlm is None:
            await self.start()
        return await asyncio.to_thread(self._generate_sync, list(requests))

    def _prepare(self, requests: list[GenerateRequest]) -> Any:
        """Chat template, image decoding and the processor, for one forward batch (a thread)."""
        from PIL import Image

        assert self._vlm is not None
        processor = self._vlm.processor
        texts = [processor.apply_chat_template(chat_messages(r), add_generation_prompt=True,
                                               tokenize=False) for r in requests]
        images = [Image.open(io.BytesIO(img.data)).convert("RGB")
                  for r in requests for img in r.images]
        if getattr(processor.image_processor, "do_center_crop", False):
            images = [pad_to_square(im) for im in images]
        return processor(text=texts, images=images or None, return_tensors="pt", padding=True)

    def _generate_sync(self, requests: list[GenerateRequest]) -> list[GenerateResponse]:
        assert self._vlm is not None
        lengths = [len(r.prompt) + 1000 * len(r.images) for r in requests]
        groups = length_groups(lengths, self.forward_batch)
        out: list[GenerateResponse | None] = [None] * len(requests)
        pending: Future[Any] = self._prep.submit(self._prepare, [requests[i] for i in groups[0]])
        for g, group in enumerate(groups):
            inputs = pending.result()
            if g + 1 < len(groups):  # prepare the next batch while this one generates
                pending = self._prep.submit(self._prepare, [requests[i] for i in groups[g + 1]])
            for i, resp in zip(group, self._forward([requests[i] for i in group], inputs),
                               strict=True):
                out[i] = resp
        return [r for r in out if r is not None]

    def _forward(self, requests: list[GenerateRequest], inputs: Any) -> list[GenerateResponse]:
        import torch

        assert self._vlm is not None
        processor, model = self._vlm.processor, self._vlm.model
        n_images = [len(r.images) for r in requests]
        sizes = _image_sizes(inputs, processor, sum(n_images))
        prompt_tokens = inputs["attention_mask"].sum(dim=1).tolist()
        sample = self.temperature > 0
        kwargs: dict[str, Any] = {
            **inputs.to(self.placement.device), "max_new_tokens": self.max_tokens,
            "do_sample": sample, "temperature": self.temperature if sample else None,
            "top_p": self.top_p if sample else None, "top_k": None, "num_beams": 1,
            "pad_token_id": processor.tokenizer.pad_token_id,
        }
        with self._vlm.gpu_lock:
            if sample:
                torch.manual_seed(self.seed)
            t0 = time.perf_counter()
            with torch.inference_mode():
                generated = generate_with_fallback(model.generate, kwargs, self._vlm.state)
            elapsed = time.perf_counter() - t0
            if "cache_fallback" in self._vlm.state:
                self.info["cache"] = "dynamic"
                self.info["cache_fallback"] = self._vlm.state["cache_fallback"]
        new = generated[:, inputs["input_ids"].shape[1]:].cpu()
        pad = processor.tokenizer.pad_token_id
        new_counts = (new != pad).sum(dim=1).tolist()
        self.tokens_generated += int(sum(new_counts))
        self.generate_s += elapsed
        decoded = processor.batch_decode(new, skip_special_tokens=True)
        per_item = elapsed / len(requests)
        responses, k = [], 0
        for j, text in enumerate(decoded):
            sent = {"images": n_images[j], "image_sizes": sizes[k:k + n_images[j]],
                    "prompt_tokens": int(prompt_tokens[j]), "new_tokens": int(new_counts[j])}
            k += n_images[j]
            responses.append(GenerateResponse(text=text.strip(), latency_s=per_item, sent=sent))
        self._tally([r.sent for r in responses if r.sent is not None], elapsed)
        return responses

    def _tally(self, sent: list[dict[str, Any]], elapsed: float) -> None:
        """Run-level summary of what was sent, kept in ``info`` (run.json's model_info)."""
        with self._tally_lock:
            self._tally_locked(sent, elapsed)

    def _tally_locked(self, sent: list[dict[str, Any]], elapsed: float) -> None:
        t = self.info.setdefault("sent", {"requests": 0, "images": 0, "image_sizes": [],
                                          "prompt_tokens_max": 0, "prompt_tokens_sum": 0,
                                          "new_tokens": 0, "generate_s": 0.0})
        t["requests"] += len(sent)
        t["images"] += sum(s["images"] for s in sent)
        sizes = {tuple(x) for x in t["image_sizes"]} | {tuple(x) for s in sent
                                                         for x in s["image_sizes"]}
        t["image_sizes"] = sorted(list(x) for x in sizes)[:20]
        t["prompt_tokens_max"] = max([t["prompt_tokens_max"], *(s["prompt_tokens"] for s in sent)])
        t["prompt_tokens_sum"] += sum(s["prompt_tokens"] for s in sent)
        t["new_tokens"] += sum(s["new_tokens"] for s in sent)
        t["generate_s"] = round(t["generate_s"] + elapsed, 3)
