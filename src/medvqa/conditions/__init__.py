"""Shortcut and robustness controls: how much of a score needs the image.

``medvqa run BENCH --conditions clean,blind,noise,corrupt:all@1-5,swap,permute,ood`` asks every
item under each condition; each is a ``condition`` value in predictions.jsonl, cached and
resumable like the clean run. See :mod:`._registry` for the names.
"""

from medvqa.conditions._base import (
    GREY_MODALITIES,
    REMOVABLE,
    Condition,
    ImageCondition,
    modality_is_grey,
)
from medvqa.conditions._codec import ImageDecodeError, PerturbedCache, decode, encode, is_grey
from medvqa.conditions._corruptions import CORRUPTIONS, SEVERITIES, CorruptionInfo
from medvqa.conditions._registry import (
    CONDITIONS,
    DEFAULT_PERMUTE_SHIFTS,
    ConditionInfo,
    baseline_of,
    condition_order,
    describe,
    expand_conditions,
    get_condition,
    split_name,
)

__all__ = [
    "CONDITIONS",
    "CORRUPTIONS",
    "DEFAULT_PERMUTE_SHIFTS",
    "GREY_MODALITIES",
    "REMOVABLE",
    "SEVERITIES",
    "Condition",
    "ConditionInfo",
    "CorruptionInfo",
    "ImageCondition",
    "ImageDecodeError",
    "PerturbedCache",
    "baseline_of",
    "condition_order",
    "decode",
    "describe",
    "encode",
    "expand_conditions",
    "get_condition",
    "is_grey",
    "modality_is_grey",
    "split_name",
]
