"""``medvqa train lora``: peft LoRA fine-tuning of a local text LM or vision-language model.

Defaults are MammoVQA's (r = 8, alpha = 8, dropout 0.05, one epoch, batch 16, lr 2e-5), all
configurable. Examples are the runner's own prompts in the model's chat template with the loss
on the answer tokens only (``_lora_data``); ``--by question_type`` trains one adapter per question
type (MIRA). The loop is a plain AdamW loop, seeded: LoRA initialisation, dropout and shuffling
come from ``seed`` under a forked RNG. Each adapter is written to a temporary folder and renamed
into place, so an interrupted training leaves no half-written adapter (it starts clean when run
again). Evaluate with ``medvqa run BENCH --model hf:PATH --adapter DIR``.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from medvqa.errors import BadInputError
from medvqa.train._config import LoraTrainConfig
from medvqa.train._lora_data import TARGETS, LoraExample, collate, encode, read_items, target_text

log = logging.getLogger(__name__)
#: Without --target-modules, a VLM adapts the attention of its language model only.
VLM_TARGETS = r".*language_model.*\.(q_proj|v_proj)"


@dataclass
class LoraResult:
    """One adapter: where it is, how many items and steps, the loss curve, the speed."""

    adapter_dir: Path
    group: str
    items: int
    steps: int
    losses: list[float] = field(default_factory=list)
    steps_per_s: float = 0.0

    @property
    def first_loss(self) -> float:
        """Loss of the first step."""
        return self.losses[0] if self.losses else float("nan")

    @property
    def last_loss(self) -> float:
        """Loss of the last step."""
        return self.losses[-1] if self.losses else float("nan")


def model_location(spec: str) -> tuple[str, str]:
    """``hf:PATH`` (a folder, hub id or ``.gguf`` file) or ``smollm2`` → (path, gguf file).

    Raises:
        BadInputError: another model kind, or a local path that does not exist.
    """
    if spec == "smollm2":
        from medvqa.models import smollm2_location

        folder, gguf = smollm2_location()
        return str(folder), gguf
    if not spec.startswith("hf:") or len(spec) == 3:
        raise BadInputError(f"--model {spec!r}: LoRA trains local weights; use hf:PATH or smollm2")
    path = Path(spec[3:]).expanduser()
    if path.suffix == ".gguf":
        return str(path.parent), path.name
    if (path.is_absolute() or spec[3:].startswith(".")) and not path.exists():
        raise BadInputError(f"--model {spec}: no such folder")
    return spec[3:], ""


def _load(path: str, gguf: str) -> tuple[Any, Any, bool]:
    """A fresh, trainable copy of the weights (never the backends' shared cached copy).

    Weights that do not load (a corrupt file, a pickle the safe loader refuses) are one
    bad-input line naming the file.
    """
    from medvqa.models import readable_weights

    with readable_weights(f"--model hf:{path}", Path(path) / gguf if gguf else path):
        return _load_weights(path, gguf)


def _load_weights(path: str, gguf: str) -> tuple[Any, Any, bool]:
    import torch
    from transformers.utils import logging as hf_logging

    from medvqa.models import is_vision_checkpoint

    hf_logging.disable_progress_bar()  # the CLI shows its own progress
    vision = not gguf and is_vision_checkpoint(path)
    if vision:
        from transformers import AutoModelForImageTextToText, AutoProcessor

        processor = AutoProcessor.from_pretrained(path)
        model = AutoModelForImageTextToText.from_pretrained(path, dtype=torch.float32)
        return processor, model, True
    from transformers import AutoModelForCausalLM, AutoTokenizer

    kwargs: dict[str, Any] = {"gguf_file": gguf} if gguf else {}
    tok = AutoTokenizer.from_pretrained(path, **kwargs)
    if tok.pad_token is None:
        tok.pad_token = tok.eos_token
    return tok, AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32, **kwargs), False


def _wrap(model: Any, config: LoraTrainConfig, vision: bool) -> Any:
    """Inject LoRA layers; a target module that does not exist is bad input."""
    from peft import LoraConfig, get_peft_model

    targets: Any = list(config.target_modules) or (VLM_TARGETS if vision else None)
    lora = LoraConfig(r=config.r, lora_alpha=config.alpha, lora_dropout=config.dropout,
                      target_modules=targets, task_type="CAUSAL_LM")
    try:
        return get_peft_model(model, lora)
    except ValueError as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise BadInputError(f"--target-modules {targets}: {first}") from None


def train_lora(config: LoraTrainConfig,
               progress: Callable[[str, int, int, float], None] | None = None
               ) -> list[LoraResult]:
    """Train one adapter (or one per question type) and save it under ``config.out_dir``.

    Raises:
        BadInputError: a bad option, a missing benchmark or split, a model that is not local
            weights, or a LoRA target module the model does not have; nothing is written then.
    """
    from medvqa._optional import require

    require("torch", "transformers", "peft")
    import torch

    from medvqa.benchmark import load_bench_template, render_prompt
    from medvqa.models import resolve_device

    if config.target not in TARGETS:
        raise BadInputError(f"--target {config.target!r}: choose {' or '.join(TARGETS)}")
    if config.by not in {"", "question_type"}:
        raise BadInputError(f"--by {config.by!r}: only question_type is supported")
    device = resolve_device(config.device)
    path, gguf = model_location(config.model)
    items, template_name = read_items(config.bench_dir, config.split, config.limit)
    template = load_bench_template(config.bench_dir, template_name)
    processor, base, vision = _load(path, gguf)
    groups = sorted({it.question_type for it in items}) if config.by else [""]
    results = []
    for gi, group in enumerate(groups):
        chosen = [it for it in items if not group or it.question_type == group]
        examples = [encode(it, render_prompt(it, template), target_text(it, config.target),
                           processor, vision, config.bench_dir, group) for it in chosen]
        model = base if gi == 0 else _load(path, gguf)[1]  # a fresh base per adapter
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(config.seed)
            peft_model = _wrap(model, config, vision)
            result = _fit(peft_model, examples, processor, vision, config, device, group,
                          progress)
        _save(peft_model, config, result, template_name)
        results.append(result)
    return results


def _fit(model: Any, examples: list[LoraExample], processor: Any, vision: bool,
         config: LoraTrainConfig, device: str, group: str,
         progress: Callable[[str, int, int, float], None] | None) -> LoraResult:
    import torch

    tok = processor.tokenizer if vision else processor
    dtype = torch.bfloat16 if config.bf16 else torch.float32
    model.to(device=device, dtype=dtype)
    model.train()
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=config.lr)
    per_epoch = -(-len(examples) // config.batch_size)
    total = per_epoch * config.epochs
    if config.max_steps:
        total = min(total, config.max_steps) if config.epochs > 1 else config.max_steps
    name = group or "adapter"
    result = LoraResult(Path(config.out_dir) / group if group else Path(config.out_dir), name,
                        len(examples), 0)
    gen = torch.Generator().manual_seed(config.seed)
    order: list[int] = []
    t0 = time.perf_counter()
    for step in range(total):
        if not order:
            order = torch.randperm(len(examples), generator=gen).tolist()
        batch, order = order[:config.batch_size], order[config.batch_size:]
        inputs = collate([examples[i] for i in batch], tok.pad_token_id)
        inputs = {k: v.to(device=device, dtype=dtype) if v.is_floating_point() else v.to(device)
                  for k, v in inputs.items()}
        loss = model(**inputs).loss
        opt.zero_grad()
        loss.backward()
        opt.step()
        result.losses.append(round(float(loss.detach()), 6))
        result.steps = step + 1
        if progress:
            progress(name, step + 1, total, result.losses[-1])
    result.steps_per_s = result.steps / max(time.perf_counter() - t0, 1e-9)
    return result


def _save(model: Any, config: LoraTrainConfig, result: LoraResult, template: str) -> None:
    """Save the adapter and its training record atomically (temporary folder, then rename)."""
    out = result.adapter_dir
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.parent / f".{out.name}.tmp-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    model.save_pretrained(str(tmp))
    record = {"config": {k: (str(v) if isinstance(v, Path) else v)
                         for k, v in asdict(config).items()},
              "group": result.group, "items": result.items, "steps": result.steps,
              "losses": result.losses, "steps_per_s": round(result.steps_per_s, 4),
              "prompt_template": template}
    (tmp / "medvqa_lora.json").write_text(json.dumps(record, indent=1) + "\n", "utf-8")
    if out.exists():
        old = out.parent / f".{out.name}.old-{os.getpid()}"
        out.rename(old)
        tmp.rename(out)
        shutil.rmtree(old)
    else:
        tmp.rename(out)
