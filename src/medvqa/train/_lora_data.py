"""Training examples for LoRA: the runner's own prompt, the model's chat template, answer labels.

Each item becomes a user turn (its images, then the prompt exactly as ``medvqa run`` renders it
with the benchmark's template) and an assistant turn (the target). Labels are -100 everywhere
except on the assistant turn's tokens (the answer and the template's end-of-turn marker), so the
loss is on the answer only. ``answer`` targets are the answer letter (the letters a parser reads);
``answer+explanation`` appends ``meta["explanation"]`` where an item has one (PathMMU).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from medvqa.errors import BadInputError
from medvqa.schema import BENCHMARK_FILE, ITEMS_FILE, Benchmark, Item, RecordError, read_json

TARGETS = ("answer", "answer+explanation")


@dataclass(frozen=True)
class LoraExample:
    """One tokenised example: ids, labels (-100 outside the answer), optional image tensors."""

    input_ids: Any
    labels: Any
    extra: dict[str, Any]
    group: str


def target_text(item: Item, target: str) -> str:
    """What the assistant should say: the answer letter(s) or text, plus an explanation."""
    answer = ", ".join(item.answer) if isinstance(item.answer, list) else item.answer
    if target == "answer+explanation":
        explanation = str(item.meta.get("explanation") or "").strip()
        if explanation:
            return f"{answer}. {explanation}"
    return answer


def read_items(bench_dir: Path, split: str, limit: int | None) -> tuple[list[Item], str]:
    """The items of ``split`` (first ``limit``) and the benchmark's prompt template name.

    Raises:
        BadInputError: no benchmark there, a malformed line, or no items in ``split``.
    """
    from medvqa.benchmark import iter_items

    items_file, card_file = Path(bench_dir) / ITEMS_FILE, Path(bench_dir) / BENCHMARK_FILE
    for f in (card_file, items_file):
        if not f.is_file():
            raise BadInputError(f"{f}: file is missing (is {bench_dir} a benchmark folder?)")
    errors: list[RecordError] = []
    items = [it for _, it in iter_items(items_file, errors) if it.split == split]
    if errors:
        raise BadInputError(str(errors[0]))
    if not items:
        raise BadInputError(f"{items_file}: no split={split} items to train on")
    return items[:limit] if limit else items, read_json(card_file, Benchmark).prompt_template


def _messages(prompt: str, n_images: int, target: str | None, vision: bool) -> list[dict]:
    if vision:
        user: Any = [{"type": "image"} for _ in range(n_images)] + [{"type": "text",
                                                                       "text": prompt}]
        msgs = [{"role": "user", "content": user}]
        if target is not None:
            msgs.append({"role": "assistant", "content": [{"type": "text", "text": target}]})
        return msgs
    msgs = [{"role": "user", "content": prompt}]
    if target is not None:
        msgs.append({"role": "assistant", "content": target})
    return msgs


def encode(item: Item, prompt: str, target: str, processor: Any, vision: bool,
           bench_dir: Path, group: str) -> LoraExample:
    """Tokenise one example with the chat template; label only the assistant turn."""
    tok = processor.tokenizer if vision else processor
    full = processor.apply_chat_template(_messages(prompt, len(item.images), target, vision),
                                         tokenize=False)
    head = processor.apply_chat_template(_messages(prompt, len(item.images), None, vision),
                                         tokenize=False, add_generation_prompt=True)
    if not full.startswith(head):
        raise BadInputError("the model's chat template does not render the prompt as a prefix "
                            "of the conversation; cannot find the answer tokens")
    if vision:
        import io

        from PIL import Image

        from medvqa.benchmark import read_image_file  # inside BENCH/, a regular file

        images = [Image.open(io.BytesIO(read_image_file(bench_dir, rel))).convert("RGB")
                  for rel in item.images]
        enc = processor(text=full, images=images or None, return_tensors="pt")
        n_head = processor(text=head, images=images or None,
                           return_tensors="pt")["input_ids"].shape[1]
    else:
        enc = tok(full, return_tensors="pt")
        n_head = tok(head, return_tensors="pt")["input_ids"].shape[1]
    ids = enc["input_ids"][0]
    labels = ids.clone()
    labels[:n_head] = -100
    extra = {k: v for k, v in enc.items() if k not in {"input_ids", "attention_mask"}}
    return LoraExample(ids, labels, extra, group)


def collate(batch: list[LoraExample], pad_id: int) -> dict[str, Any]:
    """Right-pad a batch; image tensors are concatenated along the first axis."""
    import torch

    width = max(len(e.input_ids) for e in batch)
    ids = torch.full((len(batch), width), pad_id, dtype=torch.long)
    labels = torch.full((len(batch), width), -100, dtype=torch.long)
    mask = torch.zeros((len(batch), width), dtype=torch.long)
    for i, e in enumerate(batch):
        n = len(e.input_ids)
        ids[i, :n], labels[i, :n], mask[i, :n] = e.input_ids, e.labels, 1
    out: dict[str, Any] = {"input_ids": ids, "labels": labels, "attention_mask": mask}
    for key in batch[0].extra:
        out[key] = torch.cat([e.extra[key] for e in batch])
    return out
