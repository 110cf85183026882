"""``supervised:PATH``: a trained image classifier answering option letters.

PATH is a RUN/ folder written by ``medvqa train classifier`` (or its ``classifier/`` folder). The
classifier has one head per question category whose classes are option *texts*; an item is
answered with the letter of its option whose text scores highest, so items whose options are
shuffled or differ per item map correctly, and so do the ``permute`` control's shifted options.
The image a condition produces goes through the classifier; when a condition sends no image
(``blind``) the classifier sees the all-zero normalised image (the ImageNet mean), so its
clean − blind difference measures how much it reads the image.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, Field

from medvqa.errors import BadInputError
from medvqa.models._base import GenerateRequest, GenerateResponse, ModelConfig
from medvqa.schema import ITEMS_FILE, InputError, Item, read_json, read_jsonl

CLASSIFIER_DIR = "classifier"
CARD_FILE = "classifier.json"
WEIGHTS_FILE = "weights.safetensors"


class ClassifierCard(BaseModel):
    """``classifier.json``: what a trained classifier is and how it was made."""

    version: int = Field(default=1, description="Version of this format.")
    method: str = Field(description="'finetune' (trained end to end) or 'linear-probe'.")
    arch: str = Field(description="Trunk architecture: small-cnn, resnet18 or resnet50.")
    mode: str = Field(description="'multi' (one shared trunk) or 'expert' (one per category).")
    image_size: int = Field(description="Square input size in pixels.")
    categories: dict[str, list[str]] = Field(
        description="Category → class texts (normalised option texts), in head order."
    )
    seed: int = Field(default=0, description="Seed of initialisation, shuffling, augmentation.")
    best_epoch: int = Field(default=0, description="Epoch kept by early stopping (1-based).")
    val_accuracy: float | None = Field(default=None, description="Val accuracy of that epoch.")
    weights_sha256: str = Field(description="SHA-256 of weights.safetensors.")
    items_sha256: str = Field(default="", description="items.jsonl of the training benchmark.")
    config: dict[str, Any] = Field(default_factory=dict, description="Training settings.")


def norm_text(text: str) -> str:
    """Option texts compare case- and whitespace-insensitively."""
    return " ".join(str(text).lower().split())


def classifier_dir(path: str | Path) -> Path:
    """The folder holding classifier.json: PATH itself or PATH/classifier."""
    p = Path(path).expanduser()
    return p if (p / CARD_FILE).is_file() else p / CLASSIFIER_DIR


def load_classifier(path: str | Path) -> tuple[ClassifierCard, Any]:
    """Read a trained classifier (card and network in eval mode, on the CPU).

    Raises:
        BadInputError: no classifier there, weights that do not match the card, or a weights
            file that does not load (a corrupt safetensors header; names the file).
    """
    from medvqa._optional import require
    from medvqa.models._weights import readable_weights

    require("torch", "safetensors")
    from safetensors.torch import load_file

    from medvqa.models._vision_nets import build_net

    folder = classifier_dir(path)
    if not (folder / CARD_FILE).is_file():
        raise BadInputError(f"supervised:{path}: no {CARD_FILE} (train one with "
                            "`medvqa train classifier BENCH/ --out RUN/`)")
    try:
        card = read_json(folder / CARD_FILE, ClassifierCard)
    except InputError as exc:
        raise BadInputError(str(exc)) from None
    weights = folder / WEIGHTS_FILE
    data = weights.read_bytes() if weights.is_file() else b""
    if hashlib.sha256(data).hexdigest() != card.weights_sha256:
        raise BadInputError(f"{weights}: missing or not the weights {folder / CARD_FILE} names")
    net = build_net(card.arch, {c: len(v) for c, v in card.categories.items()}, card.mode)
    with readable_weights(f"supervised:{path}", weights):
        net.load_state_dict(load_file(str(weights)))
    net.eval()
    return card, net


class SupervisedModel:
    """A trained classifier behind the model protocol (sees the image, ignores the text).

    Args:
        config: ``batch_size`` and ``device`` (auto, cpu, cuda, cuda:N) apply.
        path: RUN/ folder or classifier folder.
        bench_dir: the benchmark asked, to look up each item's category.
    """

    def __init__(self, config: ModelConfig, path: str, bench_dir: Path | None):
        import os

        self.path = os.path.normpath(path)
        self.name = f"supervised:{self.path}"
        self.card, self.net = load_classifier(self.path)
        if bench_dir is None:
            raise BadInputError(f"{self.name} needs the benchmark, to read item categories")
        self.category = {item.id: item.category
                         for item in read_jsonl(Path(bench_dir) / ITEMS_FILE, Item, errors=[])}
        self.device = config.device  # resolved in start()
        self.batch_size = max(32, config.batch_size)
        self.params: dict[str, Any] = {"weights_sha256": self.card.weights_sha256[:16]}
        self.info: dict[str, Any] = {
            "text_only": False,
            "kind": "supervised image classifier",
            "method": self.card.method,
            "arch": self.card.arch,
            "heads": self.card.mode,
            "image_size": self.card.image_size,
            "note": "answers from the image alone; blind feeds the mean image",
        }
        self._classes = {c: {t: i for i, t in enumerate(v)}
                         for c, v in self.card.categories.items()}

    async def start(self) -> None:
        """Move the network to its device (weights were read in the constructor)."""
        from medvqa.models._hf_device import resolve_device

        self.device = resolve_device(self.device)
        self.net.to(self.device)

    async def aclose(self) -> None:
        """Nothing to release."""

    async def generate(self, requests: Sequence[GenerateRequest]) -> list[GenerateResponse]:
        """Classify a batch in a worker thread."""
        return await asyncio.to_thread(self._generate_sync, list(requests))

    def _generate_sync(self, requests: list[GenerateRequest]) -> list[GenerateResponse]:
        import torch

        from medvqa.models._vision_nets import decode_image, to_tensor

        t0 = time.perf_counter()
        size = self.card.image_size
        out: list[GenerateResponse | None] = [None] * len(requests)
        groups: dict[str, list[tuple[int, np.ndarray]]] = {}
        for i, r in enumerate(requests):
            cat = self.category.get(r.item_id)
            if cat not in self._classes:
                why = ("item not in the benchmark" if cat is None
                       else f"category {cat!r} was not trained")
                out[i] = GenerateResponse(text=None, latency_s=0.0, error=f"{self.name}: {why}")
                continue
            try:
                pixels = (decode_image(r.images[0].data, size) if r.images
                          else _mean_image(size))
            except (OSError, ValueError) as exc:
                out[i] = GenerateResponse(text=None, latency_s=0.0,
                                          error=f"image cannot be decoded: {exc}")
                continue
            groups.setdefault(cat, []).append((i, pixels))
        logits: dict[int, np.ndarray] = {}
        with torch.inference_mode():
            for cat, rows in groups.items():
                x = to_tensor(np.stack([p for _, p in rows])).to(self.device)
                scores = self.net(x, cat).float().cpu().numpy()
                for (i, _), s in zip(rows, scores, strict=True):
                    logits[i] = s
        per_item = (time.perf_counter() - t0) / max(len(requests), 1)
        for i, s in logits.items():
            r = requests[i]
            out[i] = self._answer(r, s, self._classes[self.category[r.item_id]], per_item)
        return [o for o in out if o is not None]

    def _answer(self, r: GenerateRequest, scores: np.ndarray, classes: dict[str, int],
                latency: float) -> GenerateResponse:
        known = [(float(scores[classes[norm_text(t)]]), k) for k, t in r.options.items()
                 if norm_text(t) in classes]
        if not known:
            return GenerateResponse(text=None, latency_s=latency,
                                    error=f"{self.name}: no option text was a trained class")
        best = max(known, key=lambda sk: sk[0])  # ties: the first option in display order
        return GenerateResponse(text=best[1], latency_s=latency)


def _mean_image(size: int) -> np.ndarray:
    """The uint8 image closest to the normalisation mean (what ``blind`` shows the classifier)."""
    from medvqa.models._vision_nets import MEAN

    return np.broadcast_to(np.round(MEAN * 255).astype(np.uint8), (size, size, 3)).copy()


def build_supervised(config: ModelConfig, spec: Any, bench_dir: Path | None) -> SupervisedModel:
    """Backend-registry factory for ``supervised:PATH`` (``spec.name`` is PATH)."""
    return SupervisedModel(config, spec.name, bench_dir)
