"""Per-condition metric functions on arrays (one row per scored item).

Definitions (``correct`` and ``invalid`` are 0/1; errored requests are excluded before this):

- accuracy = mean(correct), invalid responses counted wrong;
- valid_accuracy = sum(correct) / sum(1 − invalid) — accuracy over responses the parser could
  read (the oncology paper, seed 003, reports both);
- invalid_rate = mean(invalid);
- weighted_accuracy = mean over gold answer classes present of per-class accuracy (MammoVQA,
  seed 000; for multiple choice each sorted answer set is one class) — balanced accuracy;
- macro_f1 = unweighted mean of per-class F1 over gold classes present, an invalid prediction
  being a class of its own that is never gold (scikit-learn ``f1_score(average="macro")`` with
  ``labels`` = the gold classes);
- both need a label set (:func:`class_metrics_note`): with open-vocabulary options, where
  nearly every item has its own answer text, they are not applicable (null);
- random_baseline = mean over items of the chance of a uniform guess: 1/k for single choice,
  1/(2^k − 1) for multiple choice (a uniformly random non-empty subset);
- frequent_baseline = accuracy of always answering the most frequent gold answer text.
"""

from __future__ import annotations

import warnings

import numpy as np


def accuracy(correct: np.ndarray) -> float:
    """Mean of 0/1 correctness (NaN when empty)."""
    return float(np.mean(correct)) if len(correct) else float("nan")


def valid_accuracy(correct: np.ndarray, invalid: np.ndarray) -> float:
    """Accuracy over the responses the parser could read."""
    valid = len(invalid) - float(np.sum(invalid))
    return float(np.sum(correct) / valid) if valid else float("nan")


def weighted_accuracy(correct: np.ndarray, gold_class: np.ndarray) -> float:
    """Mean over gold classes present of per-class accuracy (balanced accuracy).

    >>> weighted_accuracy(np.array([1, 1, 1, 0]), np.array([0, 0, 0, 1]))
    0.5
    """
    if len(correct) == 0:
        return float("nan")
    classes, inverse = np.unique(gold_class, return_inverse=True)
    hits = np.bincount(inverse, weights=correct, minlength=len(classes))
    totals = np.bincount(inverse, minlength=len(classes))
    return float(np.mean(hits / totals))


def macro_f1(pred_class: np.ndarray, gold_class: np.ndarray) -> float:
    """Macro-F1 over the gold classes present (invalid predictions use class -1).

    Counted with ``np.bincount`` over the classes present: memory grows with the items, never
    with items × classes.

    >>> round(macro_f1(np.array([0, 1, 1, -1]), np.array([0, 1, 0, 1])), 3)
    0.583
    """
    if len(gold_class) == 0:
        return float("nan")
    labels, gold = np.unique(gold_class, return_inverse=True)
    gold = gold.reshape(-1)
    at = np.minimum(np.searchsorted(labels, pred_class), len(labels) - 1)
    pred = np.where(labels[at] == pred_class, at, -1)
    same = pred == gold
    k = len(labels)
    tp = np.bincount(gold[same], minlength=k).astype(float)
    fn = np.bincount(gold[~same], minlength=k).astype(float)
    fp = np.bincount(pred[~same & (pred >= 0)], minlength=k).astype(float)
    return float(np.mean(2 * tp / (2 * tp + fp + fn)))


def chance_of_guess(n_options: int, question_type: str) -> float:
    """Probability that a uniform guess is right for one item."""
    if n_options <= 0:
        return 0.0
    if question_type == "multi":
        return 1.0 / float(2**n_options - 1)
    return 1.0 / n_options


def frequent_baseline(gold_text: list[str]) -> float:
    """Accuracy of always answering the most frequent gold answer text."""
    if not gold_text:
        return float("nan")
    _, counts = np.unique(np.asarray(gold_text, dtype=str), return_counts=True)
    return float(counts.max() / len(gold_text))


def weighted_accuracy_from_sums(hits: np.ndarray, totals: np.ndarray) -> np.ndarray:
    """Weighted accuracy per resample from per-class sums (b × classes); classes drawn only.

    >>> weighted_accuracy_from_sums(np.array([[3.0, 0.0]]), np.array([[3.0, 1.0]])).tolist()
    [0.5]
    """
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a resample with no class: NaN
        per_class = np.where(totals > 0, hits / totals, np.nan)
        return np.asarray(np.nanmean(per_class, axis=1), dtype=float)


def macro_f1_from_sums(tp: np.ndarray, fp: np.ndarray, fn: np.ndarray) -> np.ndarray:
    """Macro-F1 per resample from per-class TP, FP, FN sums (b × classes); gold classes drawn.

    >>> macro_f1_from_sums(np.array([[1.0, 1.0]]), np.array([[0.0, 1.0]]),
    ...                    np.array([[1.0, 0.0]])).round(3).tolist()
    [0.667]
    """
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a resample with no class: NaN
        f1 = np.where(tp + fn > 0, 2 * tp / (2 * tp + fp + fn), np.nan)
        return np.asarray(np.nanmean(f1, axis=1), dtype=float)


#: Class metrics need a label set: at most this many gold answers, or …
FEW_CLASSES = 20
#: … on average at least this many items per gold answer.
ITEMS_PER_CLASS = 2
#: Above this many gold answers, class metrics are reported without an interval.
MAX_INTERVAL_CLASSES = 100


def class_metrics_note(n_items: int, n_classes: int) -> str:
    """Why weighted accuracy and macro-F1 do not apply to these items ("" when they do).

    They average over answer classes, so they need classes: at most :data:`FEW_CLASSES` gold
    answers, or at least :data:`ITEMS_PER_CLASS` items per gold answer on average. When
    options differ on every item (PMC-VQA, OmniMedVQA) nearly every answer is its own class:
    a class's accuracy is then one item's 0/1 and their mean is accuracy re-weighted by noise.

    >>> class_metrics_note(300, 12), class_metrics_note(9, 9)
    ('', '')
    >>> class_metrics_note(1000, 990)[:60]
    'not applicable: 990 distinct gold answers for 1,000 items (o'
    """
    if n_classes <= FEW_CLASSES or n_items >= ITEMS_PER_CLASS * n_classes:
        return ""
    return (f"not applicable: {n_classes:,} distinct gold answers for {n_items:,} items (open "
            f"vocabulary; class metrics need at most {FEW_CLASSES} answers, or "
            f"{ITEMS_PER_CLASS} items per answer on average)")
