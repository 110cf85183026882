"""Item response theory on a zoo of runs: item parameters, suspect items, adaptive evaluation.

Adaptive evaluation gives the same accuracy from a fraction of the items.
``medvqa irt fit`` calibrates a benchmark's items on scored runs (:func:`fit_irt`, writing
``irt.json``); its item-quality flags name items whose key looks wrong or that tell nothing;
``medvqa run --adaptive irt.json`` asks a new model only the items that tell the most about it
(:class:`AdaptiveSession`; a guessing floor of 1/k per item, Sympson–Hetter exposure control)
and reports its estimated full-benchmark accuracy with an interval
whose coverage the calibration measured. Names are imported on first use (PEP 562).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from medvqa._lazy import lazy_exports

if TYPE_CHECKING:
    from medvqa.irt._calibrate import Calibration, Priors, calibrate
    from medvqa.irt._config import IrtFitConfig
    from medvqa.irt._crossval import CrossValidationResult, cross_validate
    from medvqa.irt._exposure import (
        ROUNDS,
        SIMULEES,
        ExposureParameters,
        simulate_exposure,
        sympson_hetter,
    )
    from medvqa.irt._fit import (
        FLAG_SOURCE,
        IrtFitResult,
        fit_irt,
        key_text,
        quality_counts,
        review_flags,
        write_flagged,
    )
    from medvqa.irt._grade import Grader
    from medvqa.irt._guessing import chance_rate, floors
    from medvqa.irt._load import bank_of, load_calibration
    from medvqa.irt._matrix import MIN_MODELS, ResponseMatrix, ZooModel, read_matrix
    from medvqa.irt._model import IRT_MODELS, ItemBank, sigmoid
    from medvqa.irt._quality import ItemSignals, item_signals
    from medvqa.irt._session import (
        AccuracyEstimate,
        AdaptiveSession,
        case_design_effect,
        predict,
    )
    from medvqa.irt._settings import (
        DEFAULT_GUESSING,
        EXPOSURE_CONTROLS,
        GUESSING,
        MAX_EXPOSURE,
        AdaptiveSettings,
    )
    from medvqa.irt._simulate import (
        SimulatedItems,
        correctness,
        simulate_choices,
        simulate_items,
    )

_WHERE: dict[str, str] = {
    "Calibration": "_calibrate",
    "Priors": "_calibrate",
    "calibrate": "_calibrate",
    "IrtFitConfig": "_config",
    "CrossValidationResult": "_crossval",
    "cross_validate": "_crossval",
    "ExposureParameters": "_exposure",
    "ROUNDS": "_exposure",
    "SIMULEES": "_exposure",
    "simulate_exposure": "_exposure",
    "sympson_hetter": "_exposure",
    "chance_rate": "_guessing",
    "floors": "_guessing",
    "FLAG_SOURCE": "_fit",
    "IrtFitResult": "_fit",
    "fit_irt": "_fit",
    "key_text": "_fit",
    "quality_counts": "_fit",
    "review_flags": "_fit",
    "write_flagged": "_fit",
    "bank_of": "_load",
    "load_calibration": "_load",
    "MIN_MODELS": "_matrix",
    "ResponseMatrix": "_matrix",
    "ZooModel": "_matrix",
    "read_matrix": "_matrix",
    "IRT_MODELS": "_model",
    "ItemBank": "_model",
    "ItemSignals": "_quality",
    "item_signals": "_quality",
    "AccuracyEstimate": "_session",
    "AdaptiveSession": "_session",
    "AdaptiveSettings": "_settings",
    "DEFAULT_GUESSING": "_settings",
    "EXPOSURE_CONTROLS": "_settings",
    "GUESSING": "_settings",
    "MAX_EXPOSURE": "_settings",
    "case_design_effect": "_session",
    "predict": "_session",
    "SimulatedItems": "_simulate",
    "correctness": "_simulate",
    "simulate_choices": "_simulate",
    "simulate_items": "_simulate",
    "Grader": "_grade",
    "sigmoid": "_model",
}

__all__ = [
    "Calibration",
    "Priors",
    "calibrate",
    "IrtFitConfig",
    "CrossValidationResult",
    "cross_validate",
    "ExposureParameters",
    "ROUNDS",
    "SIMULEES",
    "simulate_exposure",
    "sympson_hetter",
    "chance_rate",
    "floors",
    "FLAG_SOURCE",
    "IrtFitResult",
    "fit_irt",
    "key_text",
    "quality_counts",
    "review_flags",
    "write_flagged",
    "bank_of",
    "load_calibration",
    "MIN_MODELS",
    "ResponseMatrix",
    "ZooModel",
    "read_matrix",
    "IRT_MODELS",
    "ItemBank",
    "ItemSignals",
    "item_signals",
    "AccuracyEstimate",
    "AdaptiveSession",
    "AdaptiveSettings",
    "DEFAULT_GUESSING",
    "EXPOSURE_CONTROLS",
    "GUESSING",
    "MAX_EXPOSURE",
    "case_design_effect",
    "predict",
    "SimulatedItems",
    "correctness",
    "simulate_choices",
    "simulate_items",
    "Grader",
    "sigmoid",
]

__getattr__, __dir__ = lazy_exports(__name__, _WHERE, globals())
