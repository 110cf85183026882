"""Scored rows as compact columns: about 20 bytes a prediction instead of a Python object.

:class:`RowTable` is what ``medvqa score`` keeps of each scored prediction once its line is
written back: the item, the condition, correct / invalid, the predicted class (as a stable
code, :func:`~medvqa.score._rows.class_hash`), whether the parser guessed, and — for the few
region and open items — their per-item scores. Metrics are computed from these columns.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from medvqa.score._rows import ScoredRow, class_hash

#: Distinct predicted-class labels whose codes are remembered (labels repeat across items).
_CODE_CACHE = 4096


@dataclass
class Extra:
    """Per-row scores of some rows (region or open items): row indices and a value matrix."""

    rows: np.ndarray
    values: np.ndarray


@dataclass
class RowTable:
    """Every scored row, in prediction-file order.

    Attributes:
        conditions: condition name → code, in order of first appearance.
    """

    conditions: dict[str, int] = field(default_factory=dict)
    _item: array[int] = field(default_factory=lambda: array("i"))
    _cond: array[int] = field(default_factory=lambda: array("h"))
    _correct: array[int] = field(default_factory=lambda: array("b"))
    _invalid: array[int] = field(default_factory=lambda: array("b"))
    _pred: array[int] = field(default_factory=lambda: array("q"))
    _guessed: array[int] = field(default_factory=lambda: array("b"))
    _extras: dict[str, tuple[array[int], array[float], int]] = field(default_factory=dict)
    _codes: dict[str, int] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self._item)

    def code_of(self, condition: str) -> int:
        """The code of ``condition`` (a new one on first sight)."""
        code = self.conditions.get(condition)
        if code is None:
            code = self.conditions[condition] = len(self.conditions)
        return code

    def add(self, item: int, condition: str, row: ScoredRow) -> None:
        """Append one scored row of item index ``item``."""
        index = len(self._item)
        self._item.append(item)
        # The codes' lookups inline (a million rows a run); new ones through the methods.
        cond = self.conditions.get(condition)
        self._cond.append(self.code_of(condition) if cond is None else cond)
        self._correct.append(bool(row.correct))
        self._invalid.append(bool(row.invalid))
        pred = self._codes.get(row.pred_class)
        self._pred.append(self._class_code(row.pred_class) if pred is None else pred)
        self._guessed.append(-1 if row.guessed is None else int(row.guessed))
        if row.region is not None:
            self._extra("region", index, row.region)
        if row.open is not None:
            self._extra("open", index, row.open)
        if row.bleu is not None:
            self._extra("bleu", index, row.bleu)

    def _class_code(self, label: str) -> int:
        code = self._codes.get(label)
        if code is None:
            if len(self._codes) >= _CODE_CACHE:
                self._codes.clear()
            code = self._codes[label] = class_hash(label)
        return code

    def _extra(self, name: str, index: int, values: tuple[float, ...]) -> None:
        got = self._extras.get(name)
        if got is None:
            got = self._extras[name] = (array("q"), array("d"), len(values))
        got[0].append(index)
        got[1].extend(float(v) for v in values)

    def freeze(self) -> Rows:
        """The columns as NumPy arrays over the table's own buffers.

        No copy is made: the arrays hold the buffers, and the table can grow no more.
        """
        def col(values: array[Any], dtype: type) -> np.ndarray:
            return np.frombuffer(values, dtype=dtype) if len(values) else np.zeros(0, dtype)

        extras = {}
        for name, (rows, values, k) in self._extras.items():
            extras[name] = Extra(col(rows, np.int64), col(values, np.float64).reshape(-1, k))
        return Rows(
            item=col(self._item, np.int32), cond=col(self._cond, np.int16),
            correct=col(self._correct, np.int8), invalid=col(self._invalid, np.int8),
            pred=col(self._pred, np.int64), guessed=col(self._guessed, np.int8),
            extras=extras, conditions=dict(self.conditions))


@dataclass
class Rows:
    """The frozen columns of a :class:`RowTable` (one entry per scored row).

    Attributes:
        item: item index (into the :class:`~medvqa.score._items.ItemTable`).
        cond: condition code (see ``conditions``).
        correct: 1 / 0 (int8).
        invalid: 1 when the parser abstained (int8).
        pred: predicted class code.
        guessed: 1 when the parser answered by a random draw, 0 when not, −1 for parsers that
            never guess.
        extras: ``region`` / ``open`` / ``bleu`` → the rows that have them and their values.
        conditions: condition name → code.
    """

    item: np.ndarray
    cond: np.ndarray
    correct: np.ndarray
    invalid: np.ndarray
    pred: np.ndarray
    guessed: np.ndarray
    extras: dict[str, Extra]
    conditions: dict[str, int]

    def of(self, condition: str) -> np.ndarray:
        """Row indices of ``condition``, in file order."""
        code = self.conditions.get(condition)
        if code is None:
            return np.zeros(0, dtype=np.int64)
        return np.flatnonzero(self.cond == code)
