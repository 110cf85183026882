"""``medvqa bench`` sections ``local`` and ``gpu``: the ``hf:`` backend's own speed.

``local`` (CPU): the tiny random VLM of :mod:`medvqa.testing` answering 32 one-image requests
unbatched (batch 1) and batched (batch 8): items/s of each.

``gpu`` (skipped without CUDA): a random-initialised 2.1B LLaVA-shaped model
(:data:`medvqa.testing._random_vlm.SHAPES` ``2b``: 224² image = 256 visual tokens, ≈ 32 text
tokens) and, where torchvision imports, a 2.1B Qwen2-VL-shaped one
(:mod:`medvqa.testing._random_qwen2vl`: 448² image = 256 visual tokens), in bfloat16 on
``cuda:0``, 64 new tokens forced, greedy. In one process: a plain
``model.generate`` loop with the dynamic cache, the same with ``cache_implementation="static"``,
and the ``hf:`` backend (:class:`~medvqa.models._hf_vlm.LocalVLM`, whose ``auto`` cache is
static on CUDA; handed ``GROUP_WINDOW`` batches per call, as a run hands it, so preparing
images overlaps generating), at batch 1 and 16, in generated tokens/s (median of 3 after one
warm-up).
Target: the backend ≥ 90 % of the best plain configuration at the same batch.
"""

from __future__ import annotations

import asyncio
import io
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from medvqa.measurements._figure import BenchFigure

PROMPT = ("Which finding is shown in this image? Answer with the letter of the best option: "
          "A. normal B. nodule C. effusion D. consolidation.")


class NoGPUError(ImportError):
    """No CUDA GPU here (the bench CLI prints the section as skipped)."""


def _png(side: int, seed: int) -> bytes:
    import numpy as np
    from PIL import Image

    pixels = (np.random.default_rng(seed).random((side, side, 3)) * 255).astype("uint8")
    buf = io.BytesIO()
    Image.fromarray(pixels).save(buf, format="PNG")
    return buf.getvalue()


def _requests(n: int, side: int) -> list[Any]:
    from medvqa.benchmark import ImageInput
    from medvqa.models import GenerateRequest

    return [GenerateRequest(item_id=str(i), condition="clean", prompt=PROMPT,
                            images=(ImageInput(_png(side, i), "image/png", f"img{i}"),))
            for i in range(n)]


def bench_local(quick: bool) -> list[BenchFigure]:
    """Tiny VLM on CPU: items/s unbatched vs batched (32 requests, 8 new tokens)."""
    from medvqa.models import ModelConfig, load_model
    from medvqa.testing import write_tiny_vlm

    n = 16 if quick else 32
    figures = []
    with tempfile.TemporaryDirectory(prefix="medvqa-bench-local-") as tmp:
        folder = write_tiny_vlm(Path(tmp) / "tiny")
        reqs = _requests(n, 96)
        rates = {}
        for batch in (1, 8):
            model = load_model(ModelConfig(spec=f"hf:{folder}", max_tokens=8, batch_size=batch,
                                           device="cpu"))
            asyncio.run(model.start())
            window = model.batch_size

            async def all_of(m: Any = model, w: int = window) -> None:
                for i in range(0, n, w):
                    await m.generate(reqs[i:i + w])

            asyncio.run(all_of())  # warm-up
            t0 = time.perf_counter()
            asyncio.run(all_of())
            rates[batch] = n / (time.perf_counter() - t0)
            figures.append(BenchFigure("local", f"tiny random VLM on CPU, batch {batch}, "
                                       f"{n} one-image requests", rates[batch], "items/s"))
    figures.append(BenchFigure("local", "tiny VLM: batched (8) over unbatched", rates[8] / rates[1],
                               "×"))
    return figures


def _median_rate(fn: Callable[[], None], tokens: int, reps: int, sync: Callable[[], None]) -> float:
    fn()  # warm-up (allocates the static cache, autotunes kernels)
    times = []
    for _ in range(reps):
        sync()
        t0 = time.perf_counter()
        fn()
        sync()
        times.append(time.perf_counter() - t0)
    return tokens / statistics.median(times)


def _random_model(shape: str, device: str, dtype: str) -> tuple[Any, Any, int]:
    """Processor, random model and the image side fed for ``shape``.

    ``qwen2vl-<size>`` is a Qwen2-VL model (:mod:`medvqa.testing._random_qwen2vl`), any other
    name a LLaVA one (:data:`medvqa.testing._random_vlm.SHAPES`).
    """
    if shape.startswith("qwen2vl-"):
        from medvqa.testing import SIDE, random_qwen2vl

        processor, model = random_qwen2vl(shape.removeprefix("qwen2vl-"), device=device,
                                          dtype=dtype)
        return processor, model, SIDE
    from medvqa.testing import random_vlm

    processor, model = random_vlm(shape, device=device, dtype=dtype)
    return processor, model, int(processor.image_processor.crop_size["height"])


def hf_vs_generate(shape: str, device: str, dtype: str, batches: tuple[int, ...],
                   new_tokens: int = 64, reps: int = 3) -> dict[tuple[str, int], float]:
    """Tokens/s of plain ``generate`` (dynamic, static cache) and of the hf backend.

    Returns ``{(configuration, batch): tokens/s}`` with configurations ``generate``,
    ``generate+static`` and ``hf backend``. Runs on any device (the CPU with ``tiny`` in tests).
    """
    import torch
    from PIL import Image

    from medvqa.models import (
        GROUP_WINDOW,
        LoadedVLM,
        LocalVLM,
        ModelConfig,
        chat_messages,
        resolve_placement,
        supports_static_cache,
    )
    from medvqa.models import (
        LOADED_VLMS as _LOADED,
    )

    processor, model, side = _random_model(shape, device, dtype)
    model.generation_config.eos_token_id = None  # force new_tokens tokens every time
    placement = resolve_placement(device, dtype)
    path = f"random-{shape}"
    loaded = LoadedVLM(processor, model, 0.0)
    loaded.state["cache"] = "static" if placement.cache == "static" and supports_static_cache(
        model) else "dynamic"
    _LOADED[(path, placement, "", "")] = loaded  # key as load_vlm builds it (no adapter)
    sync = torch.cuda.synchronize if device.startswith("cuda") else (lambda: None)
    out: dict[tuple[str, int], float] = {}
    try:
        for b in batches:
            # The backend is handed what a run hands it, GROUP_WINDOW forward batches per call,
            # so (as in a run) each batch's images are prepared while the one before generates;
            # plain generate gets the first batch of them.
            window = _requests(b * GROUP_WINDOW, side)
            reqs = window[:b]
            text = processor.apply_chat_template(chat_messages(reqs[0]), add_generation_prompt=True,
                                                 tokenize=False)
            images = [Image.open(io.BytesIO(r.images[0].data)).convert("RGB") for r in reqs]
            inputs = processor(text=[text] * b, images=images, return_tensors="pt",
                               padding=True).to(device)
            common = {"max_new_tokens": new_tokens, "min_new_tokens": new_tokens,
                      "do_sample": False, "num_beams": 1,
                      "pad_token_id": processor.tokenizer.pad_token_id}

            def plain(extra: dict[str, Any], inputs: Any = inputs, common: Any = common) -> None:
                with torch.inference_mode():
                    model.generate(**inputs, **common, **extra)

            tokens = b * new_tokens
            out[("generate", b)] = _median_rate(lambda: plain({}), tokens, reps, sync)
            out[("generate+static", b)] = _median_rate(
                lambda: plain({"cache_implementation": "static"}), tokens, reps, sync)
            backend = LocalVLM(ModelConfig(spec=f"hf:{path}", max_tokens=new_tokens,
                                           batch_size=b, device=device, dtype=dtype), path)
            asyncio.run(backend.start())

            def through_backend(backend: LocalVLM = backend, reqs: list[Any] = window) -> None:
                asyncio.run(backend.generate(reqs))

            out[("hf backend", b)] = _median_rate(through_backend, tokens * GROUP_WINDOW, reps,
                                                  sync)
            asyncio.run(backend.aclose())
    finally:
        _LOADED.pop((path, placement, "", ""), None)
    return out


#: The GPU bench's models: bench label → shape (Qwen2-VL only where torchvision imports).
GPU_MODELS = {"2.1B random LLaVA": "2b", "2.1B random Qwen2-VL": "qwen2vl-2b"}


def bench_gpu(quick: bool) -> list[BenchFigure]:
    """Random 2B VLMs on cuda:0 in bfloat16: hf backend vs plain generate, batch 1 and 16."""
    import torch

    from medvqa.testing import NeedsTorchvisionError

    if not torch.cuda.is_available():
        raise NoGPUError("no CUDA GPU visible to torch")
    name = torch.cuda.get_device_name(0)
    figures = []
    for label, shape in GPU_MODELS.items():
        try:
            rates = hf_vs_generate(shape, "cuda:0", "bfloat16", (1, 16), reps=2 if quick else 3)
        except NeedsTorchvisionError as exc:
            print(f"gpu: {label} skipped: {exc}")
            continue
        figures += [BenchFigure("gpu", f"{config}, batch {b}, {label}, bf16, {name}", r,
                                "tokens/s") for (config, b), r in rates.items()]
        for b in (1, 16):
            best = max(rates[("generate", b)], rates[("generate+static", b)])
            ratio = rates[("hf backend", b)] / best
            figures.append(BenchFigure("gpu", f"{label}: hf backend / best generate, batch {b}",
                                       ratio, "fraction", ">= 0.9", ratio >= 0.9))
    return figures
