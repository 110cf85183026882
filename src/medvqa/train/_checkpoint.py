"""Checkpoints of a classifier being trained: atomic, resumable, byte-reproducible.

``RUN/classifier/`` holds, while training, ``train-state.pt`` (network, optimiser, best weights
so far and the epoch log; rewritten atomically after every epoch) and ``train_log.jsonl`` (one
line per epoch: loss, val accuracy, seconds). When training ends, the best weights go to
``weights.safetensors`` and ``classifier.json`` is written last, atomically: a folder with a
card is a finished classifier, one without is an interrupted training that the same command
resumes from its last finished epoch. The state file is then removed (a ResNet-50's optimiser
state is hundreds of MB).
"""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path
from typing import Any

from medvqa.models import CARD_FILE, CLASSIFIER_DIR, WEIGHTS_FILE, ClassifierCard
from medvqa.schema import write_json
from medvqa.store import atomic_write_bytes, atomic_write_text

STATE_FILE = "train-state.pt"
LOG_FILE = "train_log.jsonl"


def fingerprint(settings: dict[str, Any]) -> str:
    """SHA-256 of the settings that change the trained weights (resume only with equal ones)."""
    return hashlib.sha256(json.dumps(settings, sort_keys=True).encode()).hexdigest()


def save_state(folder: Path, state: dict[str, Any]) -> None:
    """Write the training state atomically (``torch.save`` to memory, then rename)."""
    import torch

    buf = io.BytesIO()
    torch.save(state, buf)
    atomic_write_bytes(folder / STATE_FILE, buf.getvalue())


def load_state(folder: Path, expected: str) -> dict[str, Any] | None:
    """The saved state if it exists and was made with settings of fingerprint ``expected``."""
    import torch

    path = folder / STATE_FILE
    if not path.is_file():
        return None
    try:
        state = torch.load(path, map_location="cpu", weights_only=True)
    except Exception:  # noqa: BLE001  (a state that cannot be read is started over)
        return None
    return state if isinstance(state, dict) and state.get("fingerprint") == expected else None


def write_log(folder: Path, rows: list[dict[str, Any]]) -> None:
    """Rewrite the per-epoch log atomically."""
    atomic_write_text(folder / LOG_FILE, "".join(json.dumps(r) + "\n" for r in rows))


def save_classifier(folder: Path, weights: dict[str, Any], card: ClassifierCard) -> ClassifierCard:
    """Write weights.safetensors, then classifier.json (last) and drop the training state.

    Returns:
        The card with ``weights_sha256`` filled in.
    """
    from safetensors.torch import save

    data = save({k: v.detach().cpu().contiguous() for k, v in sorted(weights.items())})
    atomic_write_bytes(folder / WEIGHTS_FILE, data)
    card = card.model_copy(update={"weights_sha256": hashlib.sha256(data).hexdigest()})
    write_json(folder / CARD_FILE, card)
    (folder / STATE_FILE).unlink(missing_ok=True)
    return card


def finished(out_dir: Path, expected: str) -> ClassifierCard | None:
    """The card of a finished classifier in ``out_dir`` trained with settings ``expected``."""
    from medvqa.schema import InputError, read_json

    path = out_dir / CLASSIFIER_DIR / CARD_FILE
    if not path.is_file():
        return None
    try:
        card = read_json(path, ClassifierCard)
    except InputError:
        return None
    weights = out_dir / CLASSIFIER_DIR / WEIGHTS_FILE
    if not weights.is_file() or card.config.get("fingerprint") != expected:
        return None
    if hashlib.sha256(weights.read_bytes()).hexdigest() != card.weights_sha256:
        return None
    return card
