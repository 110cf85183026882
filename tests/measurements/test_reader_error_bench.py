"""The ``reader-error`` bench section: its simulation and its figures (quick sizes)."""

from __future__ import annotations

import pytest

from medvqa.measurements._reader_error import (
    READERS,
    Reader,
    bench_reader_error,
    cell_probabilities,
    reader_rates,
    simulate,
)


def test_the_cells_are_a_distribution_with_the_readers_rates():
    for reader in READERS:
        cells = cell_probabilities(reader)
        assert cells.sum() == pytest.approx(1.0)
        rates = reader_rates(cells)
        assert rates["false_credit"] == pytest.approx(
            reader.false_credit + 0.4 * (1 - reader.false_credit) * 0.2 * 0.1, abs=1e-9)
        assert 0 < rates["miss"] <= reader.miss


def test_a_perfect_reader_leaves_the_plain_interval_valid():
    c = simulate(Reader("perfect", 0.0, 0.0), 1000, 100, reps=150)
    assert c.plain > 0.85 and c.ppi > 0.85


def test_quick_section_reports_coverage_and_the_targets():
    figures = {f.name: f for f in bench_reader_error(quick=True)}
    ppi = next(f for n, f in figures.items() if n.endswith("coverage, prediction-powered"))
    plain = next(f for n, f in figures.items() if n.endswith("coverage, plain (reader alone)"))
    assert ppi.target == ">= 0.93" and ppi.value > 0.9
    assert plain.value < 0.5  # the rules-like reader misses 30 % of the right answers
    assert figures["lowest prediction-powered coverage, audits of >= 100"].met
