"""The ``adaptive`` bench section's pieces: item exposure, and a small simulated zoo."""

from __future__ import annotations

import pytest

from medvqa.measurements import _adaptive
from medvqa.measurements._adaptive import HeldOut, exposure


def _held(chosen: tuple[int, ...], items: int = 4) -> HeldOut:
    return HeldOut(0.5, 0.5, 0.4, 0.6, len(chosen), items, chosen)


def test_exposure_is_each_items_share_of_the_models_per_bank():
    one = [_held((0, 1)), _held((0, 2))]  # item 0 asked of both models
    other = [_held((3,)), _held((2,))]
    e = exposure([one, other])
    assert e.max_rate == pytest.approx((1.0 + 0.5) / 2)
    assert e.mean_rate == pytest.approx((4 / 8 + 2 / 8) / 2)
    assert e.used == pytest.approx((3 / 4 + 2 / 4) / 2)


def test_exposure_of_nothing_is_undefined_not_an_error():
    assert all(v != v for v in exposure([]))  # NaN


def _small(monkeypatch, models: int) -> None:
    monkeypatch.setattr(_adaptive, "TEST_MODELS", models)
    monkeypatch.setattr(_adaptive, "BENCH_SIMULEES", 20)
    monkeypatch.setattr(_adaptive, "BENCH_ROUNDS", 2)


def test_a_small_zoo_under_every_variant(monkeypatch):
    _small(monkeypatch, 12)
    by = _adaptive._simulated(10, 150, 1, 0, variants=_adaptive.VARIANTS)
    assert set(by) == set(_adaptive.VARIANTS)
    for s in by.values():
        assert 0 < s["asked"] <= 150 and 0 < s["max_exposure"] <= 1
        assert 0 < s["used"] <= 1 and s["n"] == 12
    # The same new models, the same targets: only the choice of items differs (these tests
    # ask most of so small a bank; tests/irt measures Sympson-Hetter's cap on short tests).
    default, none = by[_adaptive.DEFAULT], by[_adaptive.Variant("chance", "none")]
    assert default["max_exposure"] <= none["max_exposure"]
    assert default["used"] >= none["used"]


def test_replicates_computed_apart_pool_to_the_sections_figures(monkeypatch):
    _small(monkeypatch, 6)
    variants = (_adaptive.DEFAULT, *_adaptive.RUN_DEFAULT_VARIANTS)
    apart = _adaptive.pooled([_adaptive.replicate(10, 120, r, 0, variants) for r in (0, 1)])
    assert apart == _adaptive._simulated(10, 120, 2, 0, variants)
    for v in _adaptive.RUN_DEFAULT_VARIANTS:  # tests stopped at the run default SE
        assert v.target_se == 0.03 and apart[v]["n"] == 12


def test_the_section_names_its_targets_and_the_exposure_comparison(monkeypatch):
    monkeypatch.setattr(_adaptive, "QUICK_ZOOS", ((10, 120, 1), (30, 150, 1)))
    _small(monkeypatch, 4)
    monkeypatch.setattr(_adaptive, "_planted", lambda models, items, reps, seed, g: (0.9, 0.6))
    monkeypatch.setattr(_adaptive, "_real_matrix", lambda tmp, quick, seed: [])
    figures = {f.name: f for f in _adaptive.bench_adaptive(quick=True)}
    label = "30 simulated models, 150 items"
    assert figures[f"{label}: coverage of the 95 % interval"].target == ">= 0.93"
    assert f"{label}: exposure, most-asked item's share of the models" in figures
    assert f"{label}, guessing chance, exposure none: coverage of the 95 % interval" in figures
    assert f"{label}, guessing none, exposure randomesque: items asked (mean)" in figures
    for control in ("sympson-hetter", "randomesque", "none"):  # the exposure rows
        at = f"{label}, guessing none, exposure {control}, target SE 0.03"
        for name in ("items asked (mean)", "most-asked item's share of the models",
                     "share of the items ever asked",
                     "absolute error of the reconstructed accuracy",
                     "coverage of the 95 % interval"):
            assert f"{at}: {name}" in figures
    assert not any(n.startswith("10 simulated models, 120 items, guessing") for n in figures)
    assert "planted label errors (5 %), 30 models, guessing chance: recall" in figures
    assert "planted label errors (5 %), 10 models, guessing chance: recall" not in figures
    recall = figures["planted label errors (5 %), 30 models: recall"]
    assert recall.target == ">= 0.8" and recall.met
