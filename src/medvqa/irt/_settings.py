"""How an adaptive test chooses items and stops: the defaults of ``medvqa run --adaptive``.

A light module (a dataclass only): the command line reads these defaults at start-up.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Guessing floors of a calibration: ``chance`` (fixed at 1/k from each item's options) or
#: ``none`` (the 2PL); :mod:`medvqa.irt._guessing` says how each item's floor is set.
GUESSING = ("chance", "none")
#: The default floor: none. ``medvqa bench --only adaptive`` measures each; on zoos that guess
#: (a model that does not know picks an option, each item with its own pull towards the right
#: one) the 2PL needed fewer items for the same width at equal or better error and coverage.
DEFAULT_GUESSING = "none"
#: Default Sympson–Hetter cap on an item's exposure rate (the share of tests that give it).
MAX_EXPOSURE = 0.5

#: Exposure controls of an adaptive test (:class:`~medvqa.irt.AdaptiveSession` describes them).
EXPOSURE_CONTROLS = ("sympson-hetter", "randomesque", "none")


@dataclass(frozen=True)
class AdaptiveSettings:
    """How an adaptive test chooses and stops.

    Attributes:
        target_se: stop when the standard error of the estimated full-benchmark accuracy is
            at most this (accuracy scale: 0.03 is about ±0.06 at 95 %).
        budget: most items asked (None: every item of the bank).
        exposure: the exposure control, one of :data:`EXPOSURE_CONTROLS`: ``sympson-hetter``
            (each item given with its calibrated probability ``K_i`` when selected; the
            calibration's ``exposure`` block says the rate it holds to), ``randomesque`` or
            ``none`` (always the most informative item).
        randomesque: ``exposure="randomesque"``: the next item is drawn among this many most
            informative.
        batch: items chosen at once before the ability is updated (more: fewer round trips
            and requests in flight together, a little less adaptive).
        inflation: factor on the standard error (the calibration's measured interval
            inflation; 1: none).
    """

    target_se: float = 0.03
    budget: int | None = None
    exposure: str = "sympson-hetter"
    randomesque: int = 5
    batch: int = 1
    inflation: float = 1.0
