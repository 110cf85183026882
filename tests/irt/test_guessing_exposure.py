"""The guessing floor (a 3PL with ``c`` fixed at 1/k) and Sympson–Hetter exposure control."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from medvqa.errors import UsageError
from medvqa.irt import (
    AdaptiveSession,
    AdaptiveSettings,
    ItemBank,
    calibrate,
    chance_rate,
    floors,
    simulate_exposure,
    sympson_hetter,
)
from medvqa.rng import rng_for
from medvqa.schema import Item


def _three_pl(models: int, items: int, seed: int) -> tuple[ItemBank, np.ndarray, np.ndarray]:
    """Answers drawn from a true 3PL whose floors are 1/k (k of 2, 4 or 5 options)."""
    rng = rng_for(seed, "test-3pl")
    a = rng.lognormal(0.0, 0.4, items)
    b = rng.normal(0.0, 1.2, items)
    true = ItemBank(a, -a * b, c=1.0 / rng.choice([2, 4, 5], items))
    theta = rng.normal(size=models)
    y = (rng.random((models, items)) < true.prob(theta).T).astype(float)
    return true, theta, y


def _item(qt: str, k: int) -> Item:
    letters = "ABCDE"[:k]
    opts = {x: f"option {x}" for x in letters}
    answer: str | list[str] = ["A"] if qt == "multi" else "A"
    return Item(id="i", question="q?", options=opts, answer=answer, question_type=qt)


def test_chance_rates_follow_the_question_form() -> None:
    assert chance_rate(_item("single", 4)) == 0.25
    assert chance_rate(_item("yesno", 2)) == 0.5
    assert chance_rate(_item("multi", 3)) == pytest.approx(1 / 7)
    assert chance_rate(Item(id="o", question="q?", answer="x", question_type="open")) == 0.0
    assert floors([_item("single", 5)], "none").tolist() == [0.0]
    with pytest.raises(UsageError, match="--guessing 'maybe'"):
        floors([], "maybe")


@settings(max_examples=60, deadline=None)
@given(a=st.floats(0.2, 3.0), d=st.floats(-3, 3), c=st.sampled_from([0.0, 0.2, 0.25, 0.5]),
       theta=st.floats(-3, 3))
def test_information_is_the_squared_slope_of_p_over_its_variance(a, d, c, theta) -> None:
    """Fisher information of one Bernoulli answer is P'(θ)² / (P (1 - P)), floor or none."""
    bank = ItemBank(np.array([a]), np.array([d]), c=np.array([c]))
    h = 1e-5
    p = lambda t: float(bank.prob(np.array([t]))[0, 0])  # noqa: E731
    slope = (p(theta + h) - p(theta - h)) / (2 * h)
    expected = slope**2 / (p(theta) * (1 - p(theta)))
    assert float(bank.information(theta)[0]) == pytest.approx(expected, rel=1e-4, abs=1e-9)
    # and the floor lowers the information of the same item
    bare = ItemBank(np.array([a]), np.array([d]))
    assert float(bank.information(theta)[0]) <= float(bare.information(theta)[0]) + 1e-12


def test_log_prob_is_the_log_of_prob_with_and_without_a_floor() -> None:
    bank = ItemBank(np.array([1.0, 2.0]), np.array([0.0, -30.0]), c=np.array([0.25, 0.0]))
    theta = np.linspace(-6, 6, 7)
    right, wrong = bank.log_prob(theta)
    assert np.allclose(np.exp(right), bank.prob(theta))
    assert np.allclose(np.exp(wrong), 1 - bank.prob(theta))
    assert np.isfinite(right).all()  # no log(0) at the second item's far tail


def test_the_floor_recovers_a_three_pl_bank_better_than_the_2pl() -> None:
    true, theta, y = _three_pl(300, 60, seed=2)
    bare = calibrate(y, "2pl")
    floored = calibrate(y, "2pl", floors=true.c)
    assert floored.converged
    assert floored.loglik > bare.loglik
    r = lambda fit: np.corrcoef(fit.bank.d, true.d)[0, 1]  # noqa: E731
    assert r(floored) > r(bare) and r(floored) > 0.95
    assert np.corrcoef(floored.bank.a, true.a)[0, 1] > np.corrcoef(bare.bank.a, true.a)[0, 1]
    assert np.array_equal(floored.bank.c, true.c)  # fixed, never estimated


def test_floored_ability_agrees_with_girths_3pl_eap() -> None:
    """The session's ability under floors is girth's 3PL EAP (standard-normal prior)."""
    girth = pytest.importorskip("girth")
    true, _, y = _three_pl(40, 80, seed=3)
    bank = ItemBank(true.a, true.d, c=true.c)
    rng = rng_for(3, "test-3pl-eap")
    for m in range(4):
        session = AdaptiveSession(bank, AdaptiveSettings(target_se=0.0, budget=30,
                                                         exposure="none"),
                                  rng_for(3, "test-3pl-eap", m))
        answers = rng.random(len(bank)) < 0.55
        while session.stop_reason() is None:
            for i in session.next_items():
                session.record(i, bool(answers[i]))
        asked = np.asarray(session.asked)
        theirs = girth.ability_3pl_eap(answers[asked][:, None].astype(int), bank.b[asked],
                                       bank.a[asked], bank.c[asked],
                                       options={"quadrature_bounds": (-6, 6),
                                                "quadrature_n": 241})
        assert session.estimate().theta == pytest.approx(float(np.atleast_1d(theirs)[0]),
                                                         abs=2e-3)


def _bank(n: int = 120) -> ItemBank:
    return ItemBank(np.linspace(0.6, 2.4, n), np.linspace(-2.5, 2.5, n),
                    c=np.full(n, 0.25))


def test_sympson_hetter_caps_the_exposure_of_fresh_tests() -> None:
    bank = _bank()
    short = AdaptiveSettings(target_se=0.05)
    fit = sympson_hetter(bank, short, seed=0, max_rate=0.4, simulees=100)
    assert fit.k.min() < 1.0 <= fit.k.max()
    # Fresh tests (another seed) with and without the parameters, on the same abilities.
    _, with_k = simulate_exposure(replace(bank, exposure_k=fit.k), short, 7, 1, 150)
    _, without = simulate_exposure(bank, replace(short, exposure="none"), 7, 1, 150)
    assert without.max() > 0.9  # without control the first items go to every test
    # the cap, within the noise of two simulations of 100 and 150 tests (each ±0.05 or so per
    # item, and this is the largest of 120 items)
    assert with_k.max() < 0.4 + 0.15
    assert np.sort(with_k)[-10:].mean() < 0.4 + 0.1
    # as many items asked in all, spread over more of the bank
    assert (with_k > 0).sum() >= (without > 0).sum()


def test_sympson_hetter_is_seeded() -> None:
    bank = _bank(60)
    run = lambda seed: sympson_hetter(bank, AdaptiveSettings(target_se=0.06), seed=seed,  # noqa: E731
                                      max_rate=0.4, simulees=40, rounds=3).k
    assert np.array_equal(run(1), run(1))


def test_an_item_set_aside_is_not_asked_while_others_remain() -> None:
    bank = replace(_bank(30), exposure_k=np.full(30, 0.5))
    s = AdaptiveSession(bank, AdaptiveSettings(budget=10), rng_for(0, "sh"))
    while s.stop_reason() is None:
        for i in s.next_items():
            s.record(i, i % 2 == 0)
    assert s.rejected and not set(s.rejected) & set(s.asked)
    again = AdaptiveSession(bank, AdaptiveSettings(budget=10), rng_for(0, "sh"))
    while again.stop_reason() is None:
        for i in again.next_items():
            again.record(i, i % 2 == 0)
    assert again.asked == s.asked  # same answers, same seed: same items

