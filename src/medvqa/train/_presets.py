"""A fast small-CNN preset: what the demo trains and what ``medvqa bench`` measures.

64-pixel inputs, at most 15 epochs, patience 4: on two CPU cores this trains on the shipped
LC25000 and IDRiD benchmarks in well under a minute each, keeping ``make demo`` within its time
budget, while LC25000's test accuracy stays far above the frequent baseline (see bench ``train``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ClassifierPreset:
    """Training settings shared by the demo and the bench."""

    arch: str = "small-cnn"
    image_size: int = 64
    epochs: int = 15
    patience: int = 4


FAST_CNN = ClassifierPreset()
