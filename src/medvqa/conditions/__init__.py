"""Shortcut and robustness controls: how much of a score needs the image.

``medvqa run BENCH --conditions clean,blind,noise,corrupt:all@1-5,swap,permute,ood`` asks every
item under each condition; each is a ``condition`` value in predictions.jsonl, cached and
resumable like the clean run. See :mod:`._registry` for the names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from medvqa._lazy import lazy_exports

if TYPE_CHECKING:
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
        DEFAULT_PERMUTE_SHIFTS,
        ConditionInfo,
        baseline_of,
        condition_order,
        describe,
        expand_conditions,
        get_condition,
        split_name,
    )
    from medvqa.conditions._table import CONDITIONS

_WHERE: dict[str, str] = {
    "GREY_MODALITIES": "_base",
    "REMOVABLE": "_base",
    "Condition": "_base",
    "ImageCondition": "_base",
    "modality_is_grey": "_base",
    "ImageDecodeError": "_codec",
    "PerturbedCache": "_codec",
    "decode": "_codec",
    "encode": "_codec",
    "is_grey": "_codec",
    "CORRUPTIONS": "_corruptions",
    "SEVERITIES": "_corruptions",
    "CorruptionInfo": "_corruptions",
    "CONDITIONS": "_table",
    "DEFAULT_PERMUTE_SHIFTS": "_registry",
    "ConditionInfo": "_registry",
    "baseline_of": "_registry",
    "condition_order": "_registry",
    "describe": "_registry",
    "expand_conditions": "_registry",
    "get_condition": "_registry",
    "split_name": "_registry",
}


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


__getattr__, __dir__ = lazy_exports(__name__, _WHERE, globals())
