"""What ``medvqa train classifier`` and ``medvqa train lora`` are asked to do.

The configs live apart from the trainers (which import torch on use) so the command line reads
their defaults at start-up, each stated once, here.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass
from pathlib import Path


@dataclass(frozen=True)
class ClassifierConfig:
    """What ``medvqa train classifier`` was asked to do.

    Attributes:
        bench_dir: the BENCH/ folder (needs train and val splits).
        out_dir: the RUN/ folder to write.
        arch: small-cnn, resnet18, resnet50, or linear-probe (logistic regression on the
            frozen features of ``backbone``).
        heads: ``multi`` (one trunk, a head per category) or ``expert`` (a model per category).
        weights: a local state_dict of the trunk (torchvision names for the ResNets).
        backbone: the frozen trunk of ``linear-probe``.
        epochs: most epochs.
        patience: stop after this many epochs without a better val accuracy.
        batch_size: images per step.
        lr: AdamW learning rate.
        weight_decay: AdamW weight decay.
        image_size: square input size in pixels.
        seed: seed of initialisation, shuffling and flips.
        device: auto, cpu, cuda, cuda:N.
        splits: splits to answer after training.
        fresh: discard an earlier (finished or interrupted) training in RUN/.
    """

    bench_dir: Path
    out_dir: Path
    _: KW_ONLY
    arch: str = "small-cnn"
    heads: str = "multi"
    weights: Path | None = None
    backbone: str = "resnet18"
    epochs: int = 30
    patience: int = 6
    batch_size: int = 32
    lr: float = 1e-3
    weight_decay: float = 1e-4
    image_size: int = 128
    seed: int = 0
    device: str = "auto"
    splits: tuple[str, ...] = ("test",)
    fresh: bool = False



@dataclass(frozen=True)
class LoraTrainConfig:
    """What ``medvqa train lora`` was asked to do (see the command's help for each field)."""

    bench_dir: Path
    model: str
    out_dir: Path
    _: KW_ONLY
    target: str = "answer"
    by: str = ""
    r: int = 8
    alpha: int = 8
    dropout: float = 0.05
    epochs: int = 1
    max_steps: int = 0
    batch_size: int = 16
    lr: float = 2e-5
    target_modules: tuple[str, ...] = ()
    split: str = "train"
    limit: int | None = None
    seed: int = 0
    device: str = "auto"
    bf16: bool = False
