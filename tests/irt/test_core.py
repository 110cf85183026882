"""The IRT core on simulated banks: calibration recovers parameters, agrees with girth, the
adaptive session is exact at the limits, reproducible, and keeps cases apart."""

from __future__ import annotations

import numpy as np
import pytest

from medvqa.irt import (
    AdaptiveSession,
    AdaptiveSettings,
    ItemBank,
    calibrate,
    correctness,
    item_signals,
    simulate_choices,
    simulate_items,
)
from medvqa.rng import rng_for


def _zoo(models: int, items: int, seed: int = 0, flipped: float = 0.0, guessing: bool = True):
    rng = rng_for(seed, "test-zoo")
    bank = simulate_items(items, rng, flipped=flipped, guessing=guessing)
    choices = simulate_choices(bank, rng.normal(size=models), rng)
    return bank, choices, correctness(bank, choices)


def test_calibration_recovers_difficulty_and_ability() -> None:
    truth, _, y = _zoo(200, 60, guessing=False)
    fit = calibrate(y, "2pl")
    assert fit.converged
    assert np.corrcoef(fit.bank.d, -truth.a * truth.b)[0, 1] > 0.9
    assert np.corrcoef(fit.bank.a, truth.a)[0, 1] > 0.5
    assert (fit.bank.cov[:, 0, 0] > 0).all() and (fit.bank.cov[:, 1, 1] > 0).all()
    one = calibrate(y, "1pl")
    assert np.allclose(one.bank.a, one.bank.a[0])


def test_calibration_agrees_with_girth() -> None:
    girth = pytest.importorskip("girth")
    _, _, y = _zoo(300, 30, seed=1, guessing=False)
    ours = calibrate(y, "2pl")
    theirs = girth.twopl_mml(y.T.astype(int))
    assert np.corrcoef(ours.bank.b, theirs["Difficulty"])[0, 1] > 0.97
    assert np.corrcoef(ours.bank.a, theirs["Discrimination"])[0, 1] > 0.8


def test_missing_answers_are_left_out_not_wrong() -> None:
    _, _, y = _zoo(60, 40)
    holed = y.copy()
    holed[:30, 0] = np.nan
    fit = calibrate(holed, "2pl")
    assert np.isfinite(fit.bank.d).all()


def test_uninformative_item_is_reported_not_a_crash() -> None:
    truth, choices, y = _zoo(30, 40)
    y[:, 3] = 1.0
    y[:, 4] = 0.0
    fit = calibrate(y, "2pl")
    sig = item_signals(y, choices.astype(str).astype(object), [str(k) for k in truth.key],
                       fit.bank, fit.theta)
    assert "all-right" in sig.flags[3] and "all-wrong" in sig.flags[4]
    assert np.isfinite(fit.bank.d[[3, 4]]).all()


def test_planted_wrong_keys_are_flagged() -> None:
    truth, choices, y = _zoo(100, 300, flipped=0.05)
    fit = calibrate(y, "2pl")
    sig = item_signals(y, choices.astype(str).astype(object), [str(k) for k in truth.key],
                       fit.bank, fit.theta)
    label = {"negative-discrimination", "consensus-other-answer", "other-answer-rises"}
    hit = np.array([bool(set(f) & label) for f in sig.flags])
    recall = (hit & truth.flipped).sum() / truth.flipped.sum()
    precision = (hit & truth.flipped).sum() / max(hit.sum(), 1)
    assert recall >= 0.7 and precision >= 0.7


def _bank(n: int = 40, cases: np.ndarray | None = None) -> ItemBank:
    return ItemBank(np.linspace(0.5, 2.0, n), np.linspace(-2, 2, n), cases=cases)


def test_every_item_asked_gives_the_observed_accuracy() -> None:
    bank = _bank()
    session = AdaptiveSession(bank, AdaptiveSettings(), rng_for(0, "t"))
    answers = [i % 3 != 0 for i in range(len(bank))]
    for i, right in enumerate(answers):
        session.record(i, right)
    est = session.estimate()
    assert est.value == pytest.approx(np.mean(answers))
    assert est.se == pytest.approx(0.0, abs=1e-6)
    assert session.stop_reason() == "target"


def test_same_answers_same_items() -> None:
    def path(seed: int) -> list[int]:
        s = AdaptiveSession(_bank(), AdaptiveSettings(budget=10), rng_for(seed, "t"))
        while s.stop_reason() is None:
            for i in s.next_items():
                s.record(i, i % 2 == 0)
        return s.asked

    assert path(0) == path(0)
    assert len(path(0)) == 10


def test_no_second_item_of_a_case_while_others_remain() -> None:
    cases = np.repeat(np.arange(10), 4)
    s = AdaptiveSession(_bank(40, cases), AdaptiveSettings(budget=10, batch=5), rng_for(0, "c"))
    while s.stop_reason() is None:
        for i in s.next_items():
            s.record(i, True)
    assert len({int(cases[i]) for i in s.asked}) == 10


def test_unreachable_target_stops_at_the_budget() -> None:
    s = AdaptiveSession(_bank(), AdaptiveSettings(target_se=1e-6, budget=5), rng_for(0, "b"))
    while s.stop_reason() is None:
        for i in s.next_items():
            s.record(i, False)
    assert s.stop_reason() == "budget" and len(s.asked) == 5


def test_adaptive_ability_agrees_with_girths_eap() -> None:
    """The session's ability (posterior mean, standard-normal prior) is girth's EAP."""
    girth = pytest.importorskip("girth")
    truth, _, y = _zoo(40, 120, seed=4)
    fit = calibrate(y, "2pl")
    bank = ItemBank(fit.bank.a, fit.bank.d)  # no cases: every item independent evidence
    rng = rng_for(4, "test-eap")
    for m in range(5):
        session = AdaptiveSession(bank, AdaptiveSettings(target_se=0.0, budget=30),
                                  rng_for(4, "test-eap", m))
        answers = rng.random(len(bank)) < 0.6
        while session.stop_reason() is None:
            for i in session.next_items():
                session.record(i, bool(answers[i]))
        asked = np.asarray(session.asked)
        theirs = girth.ability_eap(answers[asked][:, None].astype(int), bank.b[asked],
                                   bank.a[asked],
                                   options={"quadrature_bounds": (-6, 6), "quadrature_n": 241})
        assert session.estimate().theta == pytest.approx(float(theirs[0]), abs=2e-3)
