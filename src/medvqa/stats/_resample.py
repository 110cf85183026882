"""One bootstrap for a whole scoring run: units drawn once, every interval read from the draws.

Every figure in metrics.json is a function of column sums over items (accuracy: Σ correct / Σ 1;
weighted accuracy: per-class hits and totals; a control's Δ: Σ (clean − condition) / Σ 1). So
one resample is one vector of unit weights w (how often each unit was drawn), and each
statistic is ``statistic(w @ U)`` where U holds the per-unit column sums. :class:`Resampler`
draws w once per resample and evaluates *every* registered statistic on it — every metric,
every breakdown group, every condition and every paired control see the same resampled cases,
so scoring costs one pass over the draws however many figures it reports.

The draws are those of :func:`medvqa.stats._bootstrap.statistic_ci`: for each resample,
``numpy.random.default_rng(seed).integers(0, n, size=n)`` picks n units with replacement
(units: cases when some case contributes several items, else items; percentile intervals,
9,999 resamples, after MammoVQA, seed 000, and the oncology paper's case resampling, seed 003).
So an interval here equals the interval of the naive per-resample loop with the same seed, to
the last bit (``tests/score/test_resample.py`` checks it).

Beyond :data:`MAX_UNITS` units the cost of w @ U (resamples × units × columns) is bounded by
drawing *random groups of units* instead (Wolter, *Introduction to Variance Estimation*, 2007,
ch. 2): the units are dealt into :data:`MAX_UNITS` groups by a seeded random permutation, and
groups are resampled. Units are independent, so groups of them are independent clusters and the
cluster bootstrap over them is valid; the grouping adds about as much variation to an interval's
ends as 9,999 resamples leave (half-width relative error ≈ 1/√(2·4,096) ≈ 1.1 %, against ≈ 1.4 %
Monte Carlo error; measured on 8,334 cases over five seeds: the ends' spread 1.2× that of
drawing every case, no shift beyond it). metrics.json records the grouping
(``resample_groups``).

Sums are exact: integer columns are summed in float32 when every partial sum stays below 2**24
(float64 otherwise) so BLAS order cannot change a bit; non-integer columns (region and open
scores) go through SciPy's sequential sparse product. Memory is bounded: draws come in chunks of
:data:`EVAL_CHUNK` resamples, and requests are evaluated in passes whose per-unit sums and
statistics fit :data:`PASS_BYTES` (a pass reads the weights the previous one kept, or redraws
the same weights from the seed when they are too many to keep).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from medvqa.stats._bootstrap import Interval, percentile_interval

#: Most units resampled one by one; beyond, units are resampled in this many random groups.
MAX_UNITS = 4096
#: Resamples drawn and evaluated together.
CHUNK = 256
#: Bytes of per-unit sums plus stored statistics one pass may hold.
PASS_BYTES = 96 * 2**20
#: Resamples evaluated together at most: every statistic is called once per chunk, so larger
#: chunks mean fewer calls on small arrays.
EVAL_CHUNK = 1024
#: Resampled sums held at once (resamples × columns), bounding the chunk when columns are many.
_SUM_CELLS = 4_000_000
#: Unit weights held at once (resamples × groups), bounding the chunk when units are many.
_WEIGHT_CELLS = 2_000_000
#: Unit weights of every resample kept for the next pass when they fit (as uint8 counts).
_KEPT_CELLS = 64_000_000
#: A dense per-unit matrix above this many cells becomes sparse.
_DENSE_CELLS = 2_000_000
_F32_EXACT = 2.0**24

Statistic = Callable[[np.ndarray], np.ndarray]


@dataclass(frozen=True)
class Part:
    """Rows adding to columns: row ``rows[i]`` adds ``weight[i]`` (1 when None) to ``col[i]``.

    Attributes:
        rows: block-row indices (None: every row, in order).
        col: the column of each of those rows, or one column for all of them.
        weight: the value each adds (None: 1).
    """

    rows: np.ndarray | None
    col: np.ndarray | int
    weight: np.ndarray | None = None


@dataclass(frozen=True)
class Columns:
    """Sums to resample over a block of rows: ``k`` columns filled by :class:`Part` s.

    A column's sum over the rows drawn is what a statistic sees. The parts are summed per
    group of units as soon as they are registered (:meth:`Resampler.interval`): nothing of
    them is kept per row.
    """

    k: int
    parts: tuple[Part, ...]

    @classmethod
    def dense(cls, *columns: np.ndarray) -> Columns:
        """Columns given as full arrays over the block rows.

        >>> Columns.dense(np.array([1.0, 0.0]), np.ones(2)).k
        2
        """
        return cls(len(columns), tuple(Part(None, j, np.asarray(c, dtype=float))
                                        for j, c in enumerate(columns)))

    def integer(self) -> bool:
        """Whether every value is a whole number (sums then exact in float32 / float64)."""
        return all(p.weight is None or bool(np.all(np.mod(p.weight, 1) == 0))
                   for p in self.parts)


class IntervalRef:
    """An interval that :meth:`Resampler.run` fills in (NaN until then, and when undefined)."""

    __slots__ = ("low", "high")

    def __init__(self, low: float = float("nan"), high: float = float("nan")):
        self.low, self.high = low, high

    @property
    def interval(self) -> Interval:
        """The filled interval."""
        return Interval(self.low, self.high)


@dataclass
class _Request:
    """Columns summed per group of units as soon as registered (never kept per row)."""

    key: Hashable
    kind: str
    matrix: Any
    k: int
    statistics: list[tuple[Statistic, IntervalRef]] = field(default_factory=list)


def unit_groups(n_units: int, seed: int, max_units: int | None = None) -> np.ndarray:
    """Group of each unit: itself up to ``max_units`` units, else a seeded deal into groups.

    >>> unit_groups(3, 0).tolist()
    [0, 1, 2]
    >>> np.bincount(unit_groups(10, 0, max_units=4)).tolist()
    [3, 3, 2, 2]
    """
    max_units = MAX_UNITS if max_units is None else max_units
    if n_units <= max_units:
        return np.arange(n_units)
    from medvqa.rng import rng_for

    order = rng_for(seed, "bootstrap groups").permutation(n_units)
    groups = np.empty(n_units, dtype=np.int64)
    groups[order] = np.arange(n_units) % max_units
    return groups


def draw_indices(n: int, resamples: int, seed: int) -> Iterator[np.ndarray]:
    """The drawn unit indices, in chunks of (≤ :data:`CHUNK`) × n: one row per resample.

    Row r is ``rng.integers(0, n, size=n)``, the r-th call on ``default_rng(seed)`` — the
    draws of :func:`~medvqa.stats._bootstrap.statistic_ci`.
    """
    rng = np.random.default_rng(seed)
    for start in range(0, resamples, CHUNK):
        b = min(CHUNK, resamples - start)
        # int32 draws are the int64 ones (the same 32-bit stream), in half the memory.
        yield np.stack([rng.integers(0, n, size=n, dtype=np.int32) for _ in range(b)])


def draw_weights(n: int, resamples: int, seed: int,
                 chunk: int = CHUNK) -> Iterator[np.ndarray]:
    """How often each unit was drawn, per resample: chunks of (≤ ``chunk``) × n counts.

    The draws of :func:`draw_indices`, counted row by row (float32: small exact integers);
    the chunk size changes how many are evaluated together, never what is drawn.
    """
    rng = np.random.default_rng(seed)
    for start in range(0, resamples, chunk):
        b = min(chunk, resamples - start)
        weights = np.empty((b, n), dtype=np.float32)
        for i in range(b):
            weights[i] = np.bincount(rng.integers(0, n, size=n, dtype=np.int32), minlength=n)
        yield weights


class Resampler:
    """Registers statistics of column sums, then draws the bootstrap once for all of them.

    Args:
        n_units: resampling units (cases or items) in the run.
        resamples: bootstrap resamples.
        seed: seed of the draws (and of the grouping beyond :data:`MAX_UNITS` units).
        level: two-sided level of the percentile intervals.
    """

    def __init__(self, n_units: int, resamples: int, seed: int, level: float = 0.95):
        self.n_units, self.resamples, self.seed, self.level = n_units, resamples, seed, level
        self.group_of_unit = unit_groups(n_units, seed)
        self.groups = int(self.group_of_unit.max()) + 1 if n_units else 0
        self._requests: dict[Hashable, _Request] = {}
        self._kept: np.ndarray | None = None

    @property
    def grouped(self) -> bool:
        """Whether units are resampled in random groups (more units than :data:`MAX_UNITS`)."""
        return self.groups < self.n_units

    def interval(self, key: Hashable, units: np.ndarray, columns: Callable[[], Columns],
                 statistic: Statistic) -> IntervalRef:
        """An interval of ``statistic(column sums)``, filled by :meth:`run`.

        Args:
            key: identifies the columns: statistics registered under one key share them (the
                block and what the columns hold, e.g. ``(block, "classes")``).
            units: unit of each block row.
            columns: builds the columns (called once per key).
            statistic: (b × k) sums → (b,) values; NaN values (undefined) are left out.
        """
        ref = IntervalRef()
        request = self._requests.get(key)
        if request is None:
            built = columns()
            reduced = self._per_group(built, np.asarray(units))
            if reduced is None:
                return ref
            request = self._requests[key] = _Request(key, reduced[0], reduced[1], built.k)
        request.statistics.append((statistic, ref))
        return ref

    def run(self) -> None:
        """Draw the resamples and fill every registered interval."""
        requests = list(self._requests.values())
        self._requests = {}
        batches = list(_batches(requests, self.groups, self.resamples))
        keep = len(batches) > 1 and self.resamples * self.groups <= _KEPT_CELLS
        try:
            for i, batch in enumerate(batches):
                self._run_pass(batch, keep and i < len(batches) - 1)
        finally:
            self._kept = None

    def _weights(self, chunk: int, keep: bool) -> Iterator[np.ndarray]:
        """The draws of :func:`draw_weights`, from the previous pass's copy when one was kept.

        With ``keep``, this pass's draws are kept (uint8 counts) for the next pass: drawing
        them again costs about as much as a pass's products.
        """
        kept = self._kept
        if kept is not None:
            for start in range(0, self.resamples, chunk):
                yield kept[start:start + chunk].astype(np.float32)
            return
        store = np.empty((self.resamples, self.groups), np.uint8) if keep else None
        start = 0
        for weights in draw_weights(self.groups, self.resamples, self.seed, chunk):
            if store is not None:
                if weights.max(initial=0) > 255:  # a unit drawn that often: draw again instead
                    store = None
                else:
                    store[start:start + len(weights)] = weights
            start += len(weights)
            yield weights
        self._kept = store

    def _per_group(self, c: Columns, units: np.ndarray) -> tuple[str, Any] | None:
        """Per-group sums of columns: (kind, matrix) — dense "f32" / "f64", or "sparse".

        None when no row adds anything.
        """
        k, groups = c.k, self.groups
        g_rows = self.group_of_unit[units]
        dense = groups * k <= _DENSE_CELLS
        sums = np.zeros(groups * k) if dense else None
        coo: list[tuple[np.ndarray, np.ndarray]] = []
        any_row = False
        for part in c.parts:
            g = g_rows if part.rows is None else g_rows[part.rows]
            if not len(g):
                continue
            any_row = True
            cells = g * k + part.col
            if sums is not None:
                sums += np.bincount(cells, part.weight, minlength=groups * k)
            else:
                weight = np.ones(len(g)) if part.weight is None else part.weight
                coo.append((np.broadcast_to(cells, (len(g),)), weight))
        if not any_row:
            return None
        if sums is not None and c.integer():
            return self._exact(sums.reshape(groups, k))
        if sums is not None:
            rows, cols = np.nonzero(sums.reshape(groups, k))
            return "sparse", self._sparse(rows, cols, sums.reshape(groups, k)[rows, cols], k)
        cells = np.concatenate([x for x, _ in coo])
        return "sparse", self._sparse(cells // k, cells % k, np.concatenate([w for _, w in coo]),
                                      k)

    def _exact(self, dense: np.ndarray) -> tuple[str, np.ndarray]:
        """Integer sums: float32 when no resampled sum can reach 2**24, else float64."""
        bound = float(np.abs(dense).max(initial=0.0)) * self.groups
        if bound < _F32_EXACT:
            return "f32", dense.astype(np.float32)
        return "f64", dense

    def _sparse(self, rows: np.ndarray, cols: np.ndarray, values: np.ndarray, k: int) -> Any:
        """Columns × groups in CSR (summed in a fixed order: the same bits on every machine)."""
        from scipy.sparse import csr_matrix

        return csr_matrix((values.astype(float), (rows, cols)), shape=(self.groups, k)).T.tocsr()

    def _run_pass(self, requests: list[_Request], keep: bool = False) -> None:
        kinds: dict[str, list[tuple[_Request, Any]]] = {"f32": [], "f64": [], "sparse": []}
        for request in requests:
            kinds[request.kind].append((request, request.matrix))
        dense = {kind: _side_by_side(kinds[kind], np.float32 if kind == "f32" else np.float64)
                 for kind in ("f32", "f64") if kinds[kind]}
        stats = [np.empty((len(r.statistics), self.resamples)) for r in requests]
        where = {id(r): i for i, r in enumerate(requests)}
        start = 0
        # Fewer resamples at a time when there are many columns: the sums stay ~16 MB.
        width = sum(m.shape[1] for m in dense.values()) + sum(r.k for r, _ in kinds["sparse"])
        chunk = max(8, min(EVAL_CHUNK, _SUM_CELLS // max(width, 1),
                           _WEIGHT_CELLS // max(self.groups, 1)))
        with np.errstate(invalid="ignore", divide="ignore"):
            for weights in self._weights(chunk, keep):
                b = len(weights)
                for kind, matrix in dense.items():
                    sums = weights.astype(matrix.dtype, copy=False) @ matrix
                    offset = 0
                    for request, m in kinds[kind]:
                        k = m.shape[1]
                        self._evaluate(request, sums[:, offset:offset + k].astype(np.float64),
                                       stats[where[id(request)]], start, b)
                        offset += k
                w64 = weights.T.astype(np.float64) if kinds["sparse"] else weights
                for request, m in kinds["sparse"]:
                    sums = np.asarray(m @ w64).T
                    self._evaluate(request, sums, stats[where[id(request)]], start, b)
                start += b
        for request, values in zip(requests, stats, strict=True):
            for (_, ref), row in zip(request.statistics, values, strict=True):
                ref.low, ref.high = percentile_interval(row, self.level)

    @staticmethod
    def _evaluate(request: _Request, sums: np.ndarray, out: np.ndarray, start: int,
                  b: int) -> None:
        for j, (statistic, _) in enumerate(request.statistics):
            out[j, start:start + b] = np.asarray(statistic(sums), dtype=float)


def _side_by_side(parts: list[tuple[_Request, Any]], dtype: type) -> np.ndarray:
    """The dense per-group sums of ``parts`` in one matrix (one BLAS product per chunk).

    Each request's own copy is dropped as it is copied in, so memory is not held twice.
    """
    rows = parts[0][1].shape[0]
    out = np.empty((rows, sum(m.shape[1] for _, m in parts)), dtype=dtype)
    offset = 0
    for i, (request, m) in enumerate(parts):
        out[:, offset:offset + m.shape[1]] = m
        offset += m.shape[1]
        parts[i] = (request, _Shape(m.shape))
        request.matrix = None
    return out


@dataclass(frozen=True)
class _Shape:
    """Stands for a matrix already copied into the pass's product (only its shape is read)."""

    shape: tuple[int, ...]


def _batches(requests: list[_Request], groups: int,
             resamples: int) -> Iterator[list[_Request]]:
    """Requests split into passes that each fit :data:`PASS_BYTES`."""
    batch: list[_Request] = []
    used = 0
    for request in requests:
        cost = 2 * groups * request.k * 4 + (len(request.statistics) * resamples + CHUNK
                                             * request.k) * 8
        if batch and used + cost > PASS_BYTES:
            yield batch
            batch, used = [], 0
        batch.append(request)
        used += cost
    if batch:
        yield batch
