"""One epoch's log line and the val evaluation shared by fine-tuning and the linear probe."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from medvqa.models import to_tensor
from medvqa.train._data import Split


@dataclass(frozen=True)
class EpochRow:
    """One line of train_log.jsonl."""

    epoch: int
    train_loss: float
    val_loss: float
    val_accuracy: float
    seconds: float
    images_per_s: float



def evaluate(net: Any, split: Split, device: str, batch_size: int = 64) -> tuple[float, float]:
    """Mean cross-entropy and accuracy on ``split`` (labels of -1 count as wrong, no loss)."""
    import torch

    net.eval()
    loss, correct, n_loss = 0.0, 0, 0
    with torch.inference_mode():
        for cat in sorted(set(split.categories)):
            sel = np.asarray([i for i, c in enumerate(split.categories) if c == cat])
            for s in range(0, len(sel), batch_size):
                part = sel[s:s + batch_size]
                logits = net(to_tensor(split.images[part]).to(device), cat).float().cpu()
                y = torch.from_numpy(split.labels[part])
                ok = y >= 0
                correct += int((logits.argmax(1)[ok] == y[ok]).sum())
                if ok.any():
                    loss += float(torch.nn.functional.cross_entropy(
                        logits[ok], y[ok], reduction="sum"))
                    n_loss += int(ok.sum())
    return loss / max(n_loss, 1), correct / max(len(split), 1)
