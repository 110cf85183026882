"""Sympson–Hetter exposure parameters: how often each item may be given when it is selected.

Adaptive tests from one bank all start at the same ability and so all ask the same few most
informative items first; those items are then seen by every model tested (a leak, or a model
tuned on them, moves every adaptive score alike). Sympson and Hetter (1985) cap each item's
exposure rate, the share of tests that give it, at ``r``: an item selected by information is
given with probability ``K_i`` and otherwise set aside for that test. ``K`` is found by
simulation on the population the tests are for (here the zoo's, standard normal on the
calibration's scale; answers drawn from the calibrated items):

1. start with every ``K_i = 1``;
2. simulate ``simulees`` adaptive tests with the current ``K`` and count, per item, the share
   of tests that selected it, ``P(S_i)``, and that gave it, ``P(A_i) = P(S_i) K_i``;
3. stop when ``max P(A_i) ≤ r`` (within two binomial standard errors of ``r`` at ``simulees``
   tests: the simulation's own noise), else lower each ``K_i`` to ``r / P(S_i)`` where that is
   below it, and go to 2, at most ``rounds`` times.

Step 3 only ever lowers ``K``: Sympson and Hetter's update sets it back to 1 once an item's
selection rate falls under ``r``, which with a hundred simulated tests per round oscillates
(the item is then over-exposed again the next round) instead of settling.

A cap below the mean exposure (test length over bank size) cannot hold: then the items a test
needs are simply more evenly spread. Every draw is seeded (``rng_for(seed, …)``): the same bank
and settings give the same ``K``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from medvqa.irt._model import ItemBank
from medvqa.irt._session import AdaptiveSession
from medvqa.irt._settings import MAX_EXPOSURE, AdaptiveSettings
from medvqa.rng import rng_for

#: Simulated tests per round, and most rounds.
SIMULEES = 100
ROUNDS = 10


@dataclass(frozen=True)
class ExposureParameters:
    """What the Sympson–Hetter simulation found.

    Attributes:
        k: per item the probability it is given when selected (1: never held back).
        selected: per item the share of the last round's tests that selected it.
        given: per item the share of the last round's tests that gave it (its exposure rate).
        max_rate: the cap aimed at.
        rounds: rounds simulated.
        simulees: tests per round.
        target_se: the standard error the simulated tests stopped at.
    """

    k: np.ndarray
    selected: np.ndarray
    given: np.ndarray
    max_rate: float
    rounds: int
    simulees: int
    target_se: float


def simulate_exposure(bank: ItemBank, settings: AdaptiveSettings, seed: int, round_: int,
                      simulees: int) -> tuple[np.ndarray, np.ndarray]:
    """Per item, the shares of ``simulees`` simulated tests that selected and gave it."""
    rng = rng_for(seed, "sympson-hetter", round_)
    thetas = rng.standard_normal(simulees)
    selected = np.zeros(len(bank))
    given = np.zeros(len(bank))
    for j, theta in enumerate(thetas):
        answers = rng.random(len(bank)) < bank.prob(np.array([theta]))[:, 0]
        session = AdaptiveSession(bank, settings, rng_for(seed, "sympson-hetter-test",
                                                          round_, j))
        est = session.estimate()
        while session.stop_reason(est) is None:
            for i in session.next_items():
                session.record(i, bool(answers[i]))
            est = session.estimate()
        given[session.asked] += 1
        selected[session.asked] += 1
        selected[session.rejected] += 1
    return selected / simulees, given / simulees


def sympson_hetter(bank: ItemBank, settings: AdaptiveSettings, *, seed: int,
                   max_rate: float = MAX_EXPOSURE, simulees: int = SIMULEES,
                   rounds: int = ROUNDS) -> ExposureParameters:
    """Exposure parameters holding every item's exposure rate to ``max_rate`` (see the module).

    Args:
        bank: the calibrated items (their own ``exposure_k`` is ignored).
        settings: how the tests choose and stop (its ``exposure`` is taken as Sympson–Hetter).
        seed: seed of the simulated abilities, answers and draws.
        max_rate: the cap, a share of tests in (0, 1].
        simulees: simulated tests per round.
        rounds: most rounds.

    >>> from medvqa.irt._model import ItemBank
    >>> bank = ItemBank(np.linspace(0.5, 2.5, 60), np.linspace(-2, 2, 60))
    >>> fit = sympson_hetter(bank, AdaptiveSettings(target_se=0.06), seed=0, max_rate=0.5,
    ...                      simulees=100)
    >>> bool(fit.given.max() <= 0.5 + 0.1), bool(fit.k.min() < 1)
    (True, True)
    """
    if not 0.0 < max_rate <= 1.0:
        raise ValueError(f"max_rate {max_rate}: use a share of tests in (0, 1]")
    settings = replace(settings, exposure="sympson-hetter")
    k = np.ones(len(bank))
    selected = given = np.zeros(len(bank))
    done = 0
    for done in range(1, rounds + 1):  # noqa: B007 - the count is reported
        trial = replace(bank, exposure_k=k)
        selected, given = simulate_exposure(trial, settings, seed, done, simulees)
        noise = 2.0 * np.sqrt(max_rate * (1.0 - max_rate) / simulees)
        if given.max() <= max_rate + noise or done == rounds:
            break
        k = np.minimum(k, np.where(selected > max_rate,
                                   max_rate / np.maximum(selected, 1e-12), 1.0))
    return ExposureParameters(k, selected, given, max_rate, done, simulees, settings.target_se)
