"""Simulated zoos with known parameters: how the bench and the tests check the method.

Items are multiple-choice questions with 2 (yes/no), 4 or 5 options. A model of ability ``θ``
knows the answer with the 2PL probability ``1 / (1 + exp(-a (θ - b)))``; otherwise it guesses:
it picks an option, each with its own attractiveness (a flat Dirichlet draw per item over all
``k`` options, the right one included), so wrong answers cluster on plausible options as real
models' do, and a model that knows nothing is still right about ``1/k`` of the time (each
item's own share, not exactly ``1/k``: the floor a calibration fixes at ``1/k`` is close, not
true). ``guessing=False`` draws only among the distractors: no floor at all, the 2PL's world.

A *flipped* item has its answer key moved to a distractor (the most attractive one, as a
plausible mislabel would be): a planted label error, right for a model exactly when it picks
that distractor. Items may come in cases of several
items (their abilities are not correlated within a case here; the case only groups them).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from medvqa.irt._model import sigmoid

#: Option counts of simulated items and how often each occurs.
OPTION_COUNTS = (2, 4, 5)
OPTION_SHARES = (0.3, 0.5, 0.2)


@dataclass(frozen=True)
class SimulatedItems:
    """A bank of simulated items with their true parameters.

    Attributes:
        a: true discriminations (of the true answer).
        b: true difficulties.
        options: options per item.
        attraction: per item the probability of each option when the answer is not known
            (rows of length ``max(options)``; option 0 is the true answer, 0 without
            guessing).
        key: the keyed option (0, or the distractor a flip moved it to).
        flipped: whether the key was moved (a planted label error).
        cases: case label per item.
    """

    a: np.ndarray
    b: np.ndarray
    options: np.ndarray
    attraction: np.ndarray
    key: np.ndarray
    flipped: np.ndarray
    cases: np.ndarray

    def __len__(self) -> int:
        return len(self.a)

    @property
    def chance(self) -> np.ndarray:
        """Each item's chance rate ``1/k``: the guessing floor a calibration would fix."""
        return np.asarray(1.0 / self.options)


def simulate_items(n: int, rng: np.random.Generator, *, flipped: float = 0.0,
                   case_size: int = 1, slope_log_sd: float = 0.4,
                   difficulty_sd: float = 1.2, guessing: bool = True) -> SimulatedItems:
    """``n`` items: ``a ~ logN(0, slope_log_sd²)``, ``b ~ N(0, difficulty_sd²)``.

    Args:
        n: items.
        rng: the generator (seeded by the caller).
        flipped: share of items whose key is moved to their most attractive distractor.
        case_size: items per case (consecutive items share a case).
        slope_log_sd: spread of the log discriminations.
        difficulty_sd: spread of the difficulties.
        guessing: a model that does not know may pick the right option (see the module).
    """
    a = rng.lognormal(0.0, slope_log_sd, n)
    b = rng.normal(0.0, difficulty_sd, n)
    options = rng.choice(np.array(OPTION_COUNTS), size=n, p=np.array(OPTION_SHARES))
    width = max(OPTION_COUNTS)
    attraction = np.zeros((n, width))
    first = 0 if guessing else 1
    for i, k in enumerate(options):
        attraction[i, first:k] = rng.dirichlet(np.ones(k - first))
    key = np.zeros(n, dtype=int)
    flip = np.zeros(n, dtype=bool)
    count = int(round(flipped * n))
    if count:
        chosen = rng.choice(n, size=count, replace=False)
        flip[chosen] = True
        key[chosen] = 1 + attraction[chosen, 1:].argmax(axis=1)
    cases = np.arange(n) // max(case_size, 1)
    return SimulatedItems(a, b, options, attraction, key, flip, cases)


def simulate_choices(items: SimulatedItems, theta: np.ndarray,
                     rng: np.random.Generator) -> np.ndarray:
    """The option each model (rows, abilities ``theta``) picks on each item (columns)."""
    theta = np.atleast_1d(theta)
    knows = rng.random((len(theta), len(items))) < sigmoid(
        items.a[None, :] * (theta[:, None] - items.b[None, :]))
    cumulative = np.cumsum(items.attraction, axis=1)
    u = rng.random((len(theta), len(items)))
    guess = (u[:, :, None] > cumulative[None, :, :]).sum(axis=2)
    guess = np.minimum(guess, items.options[None, :] - 1)
    # Without guessing option 0 has no weight; the guard only keeps a draw of exactly 0 off it.
    no_guess = items.attraction[None, :, 0] == 0
    return np.where(knows, 0, np.where(no_guess, np.maximum(guess, 1), guess))


def correctness(items: SimulatedItems, choices: np.ndarray) -> np.ndarray:
    """1.0 where a choice is the keyed option, else 0.0 (models × items)."""
    return (choices == items.key[None, :]).astype(float)
