"""How an adaptive test chooses items and stops: the defaults of ``medvqa run --adaptive``.

A light module (a dataclass only): the command line reads these defaults at start-up.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class AdaptiveSettings:
    """How an adaptive test chooses and stops.

    Attributes:
        target_se: stop when the standard error of the estimated full-benchmark accuracy is
            at most this (accuracy scale: 0.03 is about ±0.06 at 95 %).
        budget: most items asked (None: every item of the bank).
        randomesque: the next item is drawn among this many most informative (1: always the
            most informative; exposure control above 1).
        batch: items chosen at once before the ability is updated (more: fewer round trips
            and requests in flight together, a little less adaptive).
        inflation: factor on the standard error (the calibration's measured interval
            inflation; 1: none).
    """

    target_se: float = 0.03
    budget: int | None = None
    randomesque: int = 5
    batch: int = 1
    inflation: float = 1.0
