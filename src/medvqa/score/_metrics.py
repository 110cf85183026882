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
- random_baseline = mean over items of the chance of a uniform guess: 1/k for single choice,
  1/(2^k − 1) for multiple choice (a uniformly random non-empty subset);
- frequent_baseline = accuracy of always answering the most frequent gold answer text.
"""

from __future__ import annotations

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

    >>> round(macro_f1(np.array([0, 1, 1, -1]), np.array([0, 1, 0, 1])), 3)
    0.583
    """
    if len(gold_class) == 0:
        return float("nan")
    labels = np.unique(gold_class)
    scores = []
    for c in labels:
        tp = float(np.sum((pred_class == c) & (gold_class == c)))
        fp = float(np.sum((pred_class == c) & (gold_class != c)))
        fn = float(np.sum((pred_class != c) & (gold_class == c)))
        scores.append(2 * tp / (2 * tp + fp + fn) if tp + fp + fn else 0.0)
    return float(np.mean(scores))


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


def class_columns(correct: np.ndarray, pred_class: np.ndarray, gold_class: np.ndarray,
                  n_classes: int) -> np.ndarray:
    """Per-item columns whose sums give weighted accuracy and macro-F1 (for the bootstrap).

    Classes are integer codes 0..n_classes−1 of the gold classes (−1: a prediction that is no
    gold class). Columns, n_classes each: hits, totals, TP, FP, FN.
    """
    n = len(gold_class)
    gold = np.zeros((n, n_classes))
    gold[np.arange(n), gold_class] = 1.0
    pred = np.zeros((n, n_classes))
    known = pred_class >= 0
    pred[np.flatnonzero(known), pred_class[known]] = 1.0
    same = (pred_class == gold_class)[:, None]
    hits = gold * np.asarray(correct, float)[:, None]
    return np.hstack([hits, gold, gold * same, pred * ~same, gold * ~same])


def weighted_accuracy_from_sums(sums: np.ndarray, n_classes: int) -> np.ndarray:
    """Weighted accuracy per row of summed :func:`class_columns` (classes present only)."""
    hits, totals = sums[:, :n_classes], sums[:, n_classes:2 * n_classes]
    with np.errstate(invalid="ignore", divide="ignore"):
        per_class = np.where(totals > 0, hits / totals, np.nan)
        return np.asarray(np.nanmean(per_class, axis=1), dtype=float)


def macro_f1_from_sums(sums: np.ndarray, n_classes: int) -> np.ndarray:
    """Macro-F1 per row of summed :func:`class_columns` (gold classes present only)."""
    c = n_classes
    tp, fp, fn = sums[:, 2 * c:3 * c], sums[:, 3 * c:4 * c], sums[:, 4 * c:5 * c]
    with np.errstate(invalid="ignore", divide="ignore"):
        f1 = np.where(tp + fn > 0, 2 * tp / (2 * tp + fp + fn), np.nan)
        return np.asarray(np.nanmean(f1, axis=1), dtype=float)
