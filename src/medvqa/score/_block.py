"""Blocks of rows and their :class:`MetricsBlock`: every registered metric with its interval.

A block is a set of scored rows given as arrays (:class:`BlockArrays`): one condition, one
breakdown group of it, or a combined condition. :func:`pending_block` runs every metric of the
registry on it and returns values whose intervals the run's resampler fills later;
:func:`finish_block` turns them into a :class:`MetricsBlock`. :func:`metrics_block` does both
for a list of :class:`ScoredRow` (tests, small tools).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass

import numpy as np

from medvqa.schema import MetricsBlock
from medvqa.score._block_input import BlockInput, resolve
from medvqa.score._metric_table import METRICS
from medvqa.score._metrics import MAX_INTERVAL_CLASSES, chance_of_guess, class_metrics_note
from medvqa.score._rows import ScoredRow, class_hash
from medvqa.score._table import Extra
from medvqa.stats import Resampler, cluster_index


@dataclass
class BlockArrays:
    """The rows of one block, as arrays (one entry per row).

    Attributes:
        item: item index of each row.
        correct: 1.0 / 0.0.
        invalid: 1.0 where the parser abstained.
        pred: predicted class code.
        guessed: 1 / 0 where the parser may guess, −1 where it never does.
        extras: region / open / bleu scores (``rows`` are positions in this block).
    """

    item: np.ndarray
    correct: np.ndarray
    invalid: np.ndarray
    pred: np.ndarray
    guessed: np.ndarray
    extras: dict[str, Extra]

    def __len__(self) -> int:
        return len(self.item)

    def subset(self, positions: np.ndarray) -> BlockArrays:
        """The rows at ``positions`` (ascending), extras re-indexed."""
        extras = {}
        for name, e in self.extras.items():
            where = np.searchsorted(positions, e.rows)
            hit = (where < len(positions)) & (positions[np.minimum(where, len(positions) - 1)]
                                              == e.rows) if len(positions) else \
                np.zeros(len(e.rows), dtype=bool)
            extras[name] = Extra(where[hit], e.values[hit])
        return BlockArrays(self.item[positions], self.correct[positions],
                           self.invalid[positions], self.pred[positions],
                           self.guessed[positions], extras)


@dataclass(frozen=True)
class ClassRule:
    """Whether a condition's class metrics apply ("" note) and get intervals."""

    note: str
    interval: bool

    @classmethod
    def of(cls, gold: np.ndarray) -> ClassRule:
        """The rule for rows with these gold class codes (decided once per condition)."""
        n_classes = len(np.unique(gold))
        return cls(class_metrics_note(len(gold), n_classes),
                   n_classes <= MAX_INTERVAL_CLASSES)


@dataclass
class PendingBlock:
    """A block's metric values, intervals still to be drawn."""

    values: dict[str, object]
    n: int
    errors: int
    units: int | None = None


def pending_block(key: Hashable, rows: BlockArrays, gold: np.ndarray, chance: np.ndarray,
                  units: np.ndarray, resampler: Resampler, rule: ClassRule,
                  errors: int = 0) -> PendingBlock:
    """Every metric of the registry on one block; intervals registered with ``resampler``.

    Args:
        key: identifies the block (its columns are shared by its metrics).
        rows: the block's rows.
        gold: per item (indexed by ``rows.item``): gold class code.
        chance: per item: chance that a uniform guess is right.
        units: per item: resampling unit.
        resampler: the run's resampler.
        rule: whether class metrics apply, and get intervals.
        errors: failed requests of the block (counted, not scored).
    """
    b = BlockInput(key, rows.correct.astype(float), rows.invalid.astype(float),
                   gold[rows.item], rows.pred, chance[rows.item], rows.guessed,
                   units[rows.item], rows.extras, resampler, rule.note, rule.interval)
    return PendingBlock({m.name: m.compute(b) for m in METRICS}, len(rows), errors,
                        b.n_units if len(rows) else None)


def finish_block(pending: PendingBlock) -> MetricsBlock:
    """The :class:`MetricsBlock` of a pending block, once its resampler has run."""
    values = {k: resolve(v) for k, v in pending.values.items()}
    return MetricsBlock(**values, n=pending.n, units=pending.units, errors=pending.errors)


def arrays_of(rows: list[ScoredRow]) -> tuple[BlockArrays, np.ndarray, np.ndarray]:
    """Scored rows as (block arrays, gold codes, chances): one item per row."""
    n = len(rows)
    extras: dict[str, Extra] = {}
    for name in ("region", "open", "bleu"):
        picked = [(i, getattr(r, name)) for i, r in enumerate(rows) if getattr(r, name) is not None]
        if picked:
            extras[name] = Extra(np.array([i for i, _ in picked]),
                                 np.array([v for _, v in picked], dtype=float))
    arrays = BlockArrays(
        np.arange(n), np.array([r.correct for r in rows], dtype=float),
        np.array([r.invalid for r in rows], dtype=float),
        np.array([class_hash(r.pred_class) for r in rows], dtype=np.int64),
        np.array([-1 if r.guessed is None else int(r.guessed) for r in rows], dtype=np.int8),
        extras)
    gold = np.array([class_hash(r.gold_class) for r in rows], dtype=np.int64)
    chance = np.array([chance_of_guess(r.n_options, r.question_type) for r in rows])
    return arrays, gold, chance


def metrics_block(rows: list[ScoredRow], resamples: int, seed: int, cluster: bool,
                  errors: int = 0) -> MetricsBlock:
    """Every registered metric on ``rows`` with its interval (one block, resampled alone).

    Intervals resample cases when ``cluster`` is on and some case contributes several items.
    """
    arrays, gold, chance = arrays_of(rows)
    clusters = cluster_index([r.case_id for r in rows], len(rows)) if cluster else None
    units = clusters if clusters is not None else np.arange(len(rows))
    resampler = Resampler(int(units.max()) + 1 if len(units) else 0, resamples, seed)
    pending = pending_block("block", arrays, gold, chance, units, resampler,
                            ClassRule.of(gold), errors)
    resampler.run()
    return finish_block(pending)


def confusion(grade: np.ndarray, gold: np.ndarray, pred: np.ndarray,
              labels_of: dict[int, str]) -> dict[str, object] | None:
    """Gold × predicted counts of grading rows (labels are option texts; 'invalid' last).

    Args:
        grade: per row, whether it is a grading item.
        gold: per row, the gold class code.
        pred: per row, the predicted class code.
        labels_of: class code → label of the grading items' gold classes.
    """
    if not np.any(grade):
        return None
    g = [labels_of[int(c)] for c in gold[grade]]
    p = [labels_of.get(int(c), "invalid") for c in pred[grade]]
    labels = sorted(set(g))
    preds = labels + ["invalid"]
    counts = Counter((a, b if b in labels else "invalid") for a, b in zip(g, p, strict=True))
    return {"labels": labels, "predicted": preds,
            "counts": [[counts[(x, y)] for y in preds] for x in labels]}
