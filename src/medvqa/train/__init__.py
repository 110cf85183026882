"""Trained baselines in the same harness: supervised image classifiers and LoRA fine-tuning.

``medvqa train classifier`` writes an ordinary RUN/ of model ``supervised:RUN``;
``medvqa train lora`` writes peft adapters that ``medvqa run --model hf:PATH --adapter DIR``
evaluates. Names are imported on first use (PEP 562), so the CLI does not pay for torch.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from medvqa._lazy import lazy_exports

if TYPE_CHECKING:
    from medvqa.train._classifier import (
        ClassifierResult,
        TrainEvent,
        train_classifier,
    )
    from medvqa.train._config import ClassifierConfig, LoraTrainConfig
    from medvqa.train._data import ClassifierData, load_classifier_data
    from medvqa.train._evaluate import EpochRow
    from medvqa.train._lora import LoraResult, train_lora
    from medvqa.train._predict import predict_splits, supervised_spec
    from medvqa.train._presets import FAST_CNN, ClassifierPreset
    from medvqa.train._progress import EpochProgress, StepProgress

_WHERE: dict[str, str] = {
    "StepProgress": "_progress",
    "EpochProgress": "_progress",
    "ClassifierConfig": "_config",
    "ClassifierResult": "_classifier",
    "EpochRow": "_evaluate",
    "TrainEvent": "_classifier",
    "train_classifier": "_classifier",
    "ClassifierData": "_data",
    "load_classifier_data": "_data",
    "LoraResult": "_lora",
    "LoraTrainConfig": "_config",
    "train_lora": "_lora",
    "predict_splits": "_predict",
    "supervised_spec": "_predict",
    "ClassifierPreset": "_presets",
    "FAST_CNN": "_presets",
}

__all__ = [
    "StepProgress",
    "EpochProgress",
    "ClassifierConfig",
    "ClassifierData",
    "ClassifierResult",
    "EpochRow",
    "LoraResult",
    "LoraTrainConfig",
    "TrainEvent",
    "load_classifier_data",
    "predict_splits",
    "supervised_spec",
    "train_classifier",
    "train_lora",
    "ClassifierPreset",
    "FAST_CNN",
]


__getattr__, __dir__ = lazy_exports(__name__, _WHERE, globals())
