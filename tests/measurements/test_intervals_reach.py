"""The limit of any paired interval on few pairs, and the finer grid of the intervals bench."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from medvqa.measurements._intervals import P_GRID, PAIRED_GAP, TARGET, _paired_cells
from medvqa.measurements._intervals_exact import exact_paired
from medvqa.measurements._intervals_reach import (
    FAMILIES,
    finer_grid,
    monotone_reach,
    paired_cell_probs,
)
from medvqa.stats import tango_bounds


def test_no_monotone_interval_puts_ten_pairs_at_p_05_and_097_in_the_target():
    cells = [_paired_cells(0.5), _paired_cells(0.97)]
    assert monotone_reach(10, cells, PAIRED_GAP, TARGET) == (0, (True, True))


def test_without_p_097_ten_pairs_can_be_put_in_the_target():
    reach = monotone_reach(10, [_paired_cells(p) for p in P_GRID[:3]], PAIRED_GAP, TARGET)
    assert reach.together > 0


@pytest.mark.parametrize("p", P_GRID)
def test_the_enumeration_holds_the_coverage_of_a_real_interval(p):
    # Tango's score interval is a monotone function of (b, c) that holds its estimate, so
    # its coverage on 10 pairs must be one that some pair of staircases gives.
    b, c = (v.ravel().astype(float) for v in np.indices((11, 11)))
    keep = b + c <= 10
    b, c = b[keep], c[keep]
    lo, hi = tango_bounds(b, c, np.full(len(b), 10.0))
    from scipy.stats import multinomial

    cells = _paired_cells(p)
    concordant = cells[0] + cells[3]
    pmf = multinomial.pmf(np.stack([b, c, 10 - b - c], -1), 10,
                          [cells[1], cells[2], concordant])
    got = round(float(pmf[(lo <= PAIRED_GAP + 1e-12) & (PAIRED_GAP - 1e-12 <= hi)].sum()), 3)
    assert monotone_reach(10, [cells], PAIRED_GAP, (got, got)).alone == (True,)


def test_a_truth_off_the_grid_of_the_counts_is_refused():
    with pytest.raises(ValueError, match="multiple of 1/10"):
        monotone_reach(10, [_paired_cells(0.5)], 0.15, TARGET)


@given(st.floats(0.3, 0.99), st.floats(0.01, 0.25), st.floats(0.0, 1.0))
def test_cells_are_a_distribution_with_the_stated_margins(p, gap, spread):
    cells = paired_cell_probs(p, min(gap, p / 2), spread)
    g = min(gap, p / 2)
    assert (cells >= -1e-12).all() and abs(cells.sum() - 1) < 1e-12
    assert abs(cells[0] + cells[1] - p) < 1e-12 and abs(cells[0] + cells[2] - (p - g)) < 1e-12
    assert abs(cells[1] - cells[2] - g) < 1e-12


def test_the_finer_grid_is_the_exact_sum_and_holds_the_floor_where_others_dip():
    # n 11 and 24 at p 0.89-0.97 are where the intervals that put more cells in range fall to
    # 0.91-0.93 (MOVER on the discordant cells, the Dirichlet posterior); medvqa's does not.
    grid = finer_grid((11, 24), (0.89, 0.93, 0.97))
    assert len(grid) == 2 * 3 * len(FAMILIES)
    assert min(round(c.coverage, 3) for c in grid) >= TARGET[0]
    bench = next(c for c in grid if c.family == "the bench's" and c.n == 24 and c.p == 0.97)
    assert bench.coverage == exact_paired(24, _paired_cells(0.97), PAIRED_GAP).coverage
    assert bench.discordant == pytest.approx(24 * 0.115)
