"""Item quality: which items look like a wrong answer key, a broken question, or tell nothing.

Four signals per item, from the zoo's answers and the calibration:

* **slope z** — the item's slope on the models' abilities by an unshrunk logistic regression
  (the calibration's slope is pulled towards the prior on purpose, which would hide a wrong
  key), over its standard error. A wrong key makes the strong models wrong and the weak ones
  right by chance: a slope at least :data:`NEGATIVE_Z` standard errors below zero is flagged.
* **consensus on another answer** — most of the stronger half of the zoo (at least
  :data:`CONSENSUS_SHARE` of those that answered, and at least :data:`CONSENSUS_MIN` models)
  give one and the same answer other than the key: what a wrong key looks like when the item
  is easy, where every model is "wrong" and no slope can be seen.
* **another answer rises** — one answer other than the key behaves more like a right answer
  than the key does: its choice, regressed on ability, rises by at least :data:`RISING_MARGIN`
  more z than the key's (``z_other - z_key``). With a right key the key rises and every wrong
  answer falls; with a wrong key the real answer rises and the keyed distractor falls, so the
  difference adds both halves of the evidence. The strongest signal of the four where models
  answer at all, because the true answer's choice curve spans the whole range while a wrong
  key's right-rate spans only the distractor's share.
* **near-zero discrimination** — the slope's 95 % interval lies within ±:data:`FLAT_SLOPE`:
  strong and weak models alike are right at the same rate (an ambiguous or broken item). With
  tens of models an interval is rarely that narrow, so this flags only what the zoo is sure of.
* **misfit** — the outfit mean square (the average squared standardised residual) is too large
  for chance under the model (χ² approximation, Bonferroni over the items).

And items every model answered alike (or none answered) are *uninformative*: reported, never
an error; their parameters are the prior's.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.stats import chi2

from medvqa.irt._model import ItemBank, sigmoid

#: Share of the stronger half of the zoo that must agree on one other answer.
CONSENSUS_SHARE = 2 / 3
#: Fewest models of the stronger half that must have answered for a consensus to count.
CONSENSUS_MIN = 3
#: z at or below which a slope counts as negative: one standard error below zero. Sensitive on
#: purpose (a flag sends an item to review, which costs a reviewer a minute); at 30 models an
#: item with a right key is this far below zero about once in 400 (``medvqa bench --only
#: adaptive`` measures the precision and recall of the flags on planted errors).
NEGATIVE_Z = -1.0
#: How many z more another answer's rise with ability must show than the key's (z_other - z_key)
#: for the flag. On simulated zoos (``medvqa bench --only adaptive``'s planted errors, and other
#: seeds) it finds more wrong keys than another answer's z alone at one-sided 5 % (the rule it
#: replaced) with the same or fewer false flags at 30 and 100 models.
RISING_MARGIN = 1.5
#: Half-width of the band a slope's 95 % interval must lie in to be called near zero.
FLAT_SLOPE = 0.3
#: Family-wise level of the misfit test (Bonferroni over the items).
MISFIT_ALPHA = 0.05


@dataclass
class ItemSignals:
    """Every item's quality signals (arrays over items; NaN where undefined)."""

    slope: np.ndarray
    slope_se: np.ndarray
    item_rest: np.ndarray
    infit: np.ndarray
    outfit: np.ndarray
    outfit_p: np.ndarray
    top_other: list[str | None]
    flags: list[list[str]]

    @property
    def slope_z(self) -> np.ndarray:
        """Slope over its standard error."""
        return np.asarray(self.slope / self.slope_se)


def _regress(y: np.ndarray, obs: np.ndarray, theta: np.ndarray,
             steps: int = 25, prior_sd: float = 5.0) -> tuple[np.ndarray, np.ndarray]:
    """Per item (columns) a logistic regression of the answers on ``theta``: slope and its SE.

    Vectorised Newton steps, with a weak ridge so that a perfectly separated item stays finite.
    """
    n_items = y.shape[1]
    alpha = np.zeros(n_items)
    beta = np.zeros(n_items)
    ridge = 1.0 / prior_sd**2
    t = theta[:, None]
    haa = had = hbb = np.ones(n_items)
    for _ in range(steps):
        p = sigmoid(alpha * t + beta)
        resid = obs * (y - p)
        w = obs * p * (1.0 - p)
        ga = (resid * t).sum(axis=0) - ridge * alpha
        gb = resid.sum(axis=0) - ridge * beta
        haa = (w * t * t).sum(axis=0) + ridge
        had = (w * t).sum(axis=0)
        hbb = w.sum(axis=0) + ridge
        det = haa * hbb - had**2
        alpha = alpha + np.clip((hbb * ga - had * gb) / det, -3, 3)
        beta = beta + np.clip((haa * gb - had * ga) / det, -3, 3)
    det = haa * hbb - had**2
    return alpha, np.sqrt(hbb / det)


def _item_rest(y: np.ndarray, obs: np.ndarray) -> np.ndarray:
    """Correlation of each item with each model's accuracy on the other items it answered."""
    right, asked = (y * obs).sum(axis=1), obs.sum(axis=1)
    out = np.full(y.shape[1], np.nan)
    for i in range(y.shape[1]):
        m = obs[:, i] > 0
        rest_n = asked[m] - 1
        ok = rest_n > 0
        if ok.sum() < 3:
            continue
        yi = y[m, i][ok]
        rest = (right[m][ok] - yi) / rest_n[ok]
        if yi.std() == 0 or rest.std() == 0:
            continue
        out[i] = float(np.corrcoef(yi, rest)[0, 1])
    return out


def _residual_fit(y: np.ndarray, obs: np.ndarray, bank: ItemBank,
                  theta: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Infit and outfit mean squares and the outfit's p-value per item."""
    p = bank.prob(theta).T  # models × items
    var = np.clip(p * (1.0 - p), 1e-6, None)
    sq = obs * (y - p) ** 2
    n = obs.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        outfit = (sq / var).sum(axis=0) / n
        infit = sq.sum(axis=0) / (obs * var).sum(axis=0)
    p_value = np.where(n > 0, chi2.sf(np.nan_to_num(outfit) * n, np.maximum(n, 1)), np.nan)
    return infit, outfit, p_value


def _consensus(chosen: np.ndarray, y: np.ndarray, obs: np.ndarray, keys: list[str],
               theta: np.ndarray) -> list[str | None]:
    """Per item the other answer most of the stronger half agrees on, or None.

    Only where the stronger half is right no more often than the weaker half: on a hard item
    with a right key the stronger models still find the key more often, and their wrong
    answers agreeing (a yes/no item has one wrong answer) is no sign of a wrong key.
    """
    strong = theta >= np.median(theta)
    out: list[str | None] = []
    for i, key in enumerate(keys):
        answered = obs[:, i] > 0
        answers = [str(c) for c, s, o in zip(chosen[:, i], strong, answered, strict=True)
                   if s and o and c]
        weak = answered & ~strong
        if not key or len(answers) < CONSENSUS_MIN or not weak.any():
            out.append(None)
            continue
        if y[strong & answered, i].mean() > y[weak, i].mean():
            out.append(None)
            continue
        values, counts = np.unique(np.asarray(answers), return_counts=True)
        top = int(counts.argmax())
        agree = counts[top] / len(answers)
        out.append(str(values[top]) if values[top] != key and agree >= CONSENSUS_SHARE
                   else None)
    return out


def _rising(chosen: np.ndarray, obs: np.ndarray, keys: list[str],
            theta: np.ndarray) -> tuple[list[str | None], np.ndarray]:
    """Per item the answer other than the key whose choice rises most with ability, and its z.

    With a right key every other answer is chosen less as models get stronger; an answer that
    stronger models choose more is what the key should be. One logistic regression of "chose
    this answer" on ability per (item, other answer), all at once.
    """
    columns: list[np.ndarray] = []
    owners: list[tuple[int, str]] = []
    for i, key in enumerate(keys):
        if not key:
            continue
        answered = obs[:, i] > 0
        texts = {str(c) for c, o in zip(chosen[:, i], answered, strict=True) if o and c}
        for text in sorted(texts - {key}):
            columns.append(np.array([c == text for c in chosen[:, i]], dtype=float))
            owners.append((i, text))
    best: list[str | None] = [None] * len(keys)
    best_z = np.full(len(keys), np.nan)
    if not columns:
        return best, best_z
    y = np.stack(columns, axis=1)
    mask = np.stack([obs[:, i] for i, _ in owners], axis=1)
    slope, se = _regress(y, mask, theta)
    z = slope / se
    for (i, text), zi in zip(owners, z, strict=True):
        if np.isnan(best_z[i]) or zi > best_z[i]:
            best_z[i], best[i] = zi, text
    return best, best_z


def item_signals(correct: np.ndarray, chosen: np.ndarray, keys: list[str], bank: ItemBank,
                 theta: np.ndarray) -> ItemSignals:
    """Every item's quality signals and flags (see the module's docstring).

    Args:
        correct: models × items of 1, 0, NaN (not answered).
        chosen: models × items of the chosen answer's text ("" where none).
        keys: each item's keyed answer text ("" where answers are not compared, e.g. multi).
        bank: the calibrated items.
        theta: each model's ability.
    """
    obs = (~np.isnan(correct)).astype(float)
    y = np.nan_to_num(correct, nan=0.0)
    slope, slope_se = _regress(y, obs, theta)
    infit, outfit, outfit_p = _residual_fit(y, obs, bank, theta)
    rest = _item_rest(y, obs)
    others = _consensus(chosen, y, obs, keys, theta)
    rising, rising_z = _rising(chosen, obs, keys, theta)
    answered, right = obs.sum(axis=0), (y * obs).sum(axis=0)
    n_items = correct.shape[1]
    flags: list[list[str]] = []
    for i in range(n_items):
        f: list[str] = []
        alike = answered[i] == 0 or right[i] in (0, answered[i])
        if answered[i] == 0:
            f.append("unanswered")
        elif right[i] == answered[i]:
            f.append("all-right")
        elif right[i] == 0:
            f.append("all-wrong")
        if not alike and slope[i] / slope_se[i] <= NEGATIVE_Z:
            f.append("negative-discrimination")
        if others[i] is not None:
            f.append("consensus-other-answer")
        elif rising_z[i] - slope[i] / slope_se[i] >= RISING_MARGIN:
            f.append("other-answer-rises")
            others[i] = rising[i]
        half = 1.959963984540054 * slope_se[i]
        if not alike and abs(slope[i]) + half <= FLAT_SLOPE:
            f.append("near-zero-discrimination")
        if not alike and outfit_p[i] < MISFIT_ALPHA / n_items:
            f.append("misfit")
        flags.append(f)
    alike_mask = (answered == 0) | (right == 0) | (right == answered)
    slope = np.where(alike_mask, np.nan, slope)
    return ItemSignals(slope, slope_se, rest, infit, outfit, outfit_p, others, flags)
