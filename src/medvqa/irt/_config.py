"""What ``medvqa irt fit`` is asked to do, and every default of the command.

A light module (dataclasses only): the command line shows these defaults in its help.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from medvqa.irt._settings import DEFAULT_GUESSING, MAX_EXPOSURE, AdaptiveSettings
from medvqa.schema import CLEAN


@dataclass(frozen=True)
class IrtFitConfig:
    """One ``medvqa irt fit``.

    Attributes:
        bench_dir: the BENCH/ folder whose items are calibrated.
        runs: scored RUN/ folders of that benchmark (the zoo; at least five models).
        out: irt.json to write.
        item_model: ``2pl`` (a slope per item) or ``1pl`` (one shared slope).
        conditions: conditions whose answers make the zoo: each run under each condition is
            one model (``clean,blind``: a model and its image-free self).
        seed: seed of the cross-validation's folds and item splits.
        folds: folds of models for cross-validation (below 2: none).
        cv_target_se: standard error the cross-validated adaptive replays stop at (None:
            each held-out model's full-run standard error).
        to_review: write the suspect items to BENCH/flagged.jsonl, the review app's queue.
        guessing: the items' fixed lower asymptotes: ``chance`` (1/k for k options, the
            3PL's floor) or ``none`` (the 2PL).
        exposure_rate: Sympson–Hetter cap on an item's exposure rate, the share of adaptive
            tests that give it (0: no exposure parameters; every item's ``K`` is 1).
        exposure_target_se: standard error the Sympson–Hetter simulation's tests stop at (the
            exposure a cap holds to depends on the test length).
    """

    bench_dir: Path
    runs: tuple[Path, ...]
    out: Path
    item_model: str = "2pl"
    conditions: tuple[str, ...] = field(default_factory=lambda: (CLEAN,))
    seed: int = 0
    folds: int = 5
    cv_target_se: float | None = None
    to_review: bool = False
    guessing: str = DEFAULT_GUESSING
    exposure_rate: float = MAX_EXPOSURE
    exposure_target_se: float = AdaptiveSettings.target_se
