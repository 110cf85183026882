"""Agreement statistics against values computed by hand (see the comments for the arithmetic)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from medvqa.review import ReviewStore, StatsConfig, load_bench, resolve_all, review_stats
from medvqa.review._agreement import kripp, percent_agreement


@pytest.fixture
def scored(bench, tmp_path):
    """Three reviewers on r0–r3 (keep labels a: 1101, b: 1001, c: 110-) and one adjudication."""
    b = load_bench(bench)
    store = ReviewStore(tmp_path / "r.sqlite")
    for name in ("a", "b", "c"):
        store.add_reviewer(name, "reviewer", [b.key])
    boss_token = store.add_reviewer("boss", "admin", [b.key])
    who = {r.name: r for r in store.reviewers()}
    n = iter(range(1000))

    def dec(item, name, verdict, reason=None, version=None, kind="review"):
        assert store.record_decision(nonce=f"n{next(n)}", bench=b.key, item_id=item,
                                     reviewer=who[name], kind=kind, verdict=verdict,
                                     reason=reason, version=version)

    for name in "abc":
        dec("r0", name, "accept")
    dec("r1", "a", "accept")
    dec("r1", "b", "reject", "wrong_answer")
    dec("r1", "c", "accept")
    dec("r2", "a", "reject", "guessable")
    dec("r2", "b", "reject", "guessable")
    dec("r2", "c", "reject", "ambiguous")
    dec("r3", "a", "accept")
    edited = b.items["r3"].model_copy(update={"question": "Is this lung parenchyma?"})
    v = store.add_version(b.key, "r3", edited.model_dump_json(), who["b"])
    dec("r3", "b", "edit", version=v)
    return b, store, who, dec, boss_token


def test_resolution_before_adjudication(scored):
    b, store, *_ = scored
    finals = resolve_all(list(b.items), store.latest_reviews(b.key), store.adjudications(b.key), 2)
    assert {k: f.status for k, f in finals.items()} == {
        "r0": "kept", "r1": "disputed", "r2": "rejected", "r3": "kept",
        "t0": "incomplete", "t1": "incomplete"}
    assert finals["r2"].reason == "guessable"
    assert (finals["r3"].verdict, finals["r3"].version) == ("edit", 1)


def test_agreement_matches_hand_computation(scored):
    b, store, *_ = scored
    s = review_stats(b, store, StatsConfig(per_item=2, resamples=200, seed=0))
    keep = s["keep"]
    # r0 1, r1 1/3, r2 1, r3 1 → 10/12.
    assert keep["percent_agreement"]["value"] == pytest.approx(10 / 12, abs=1e-6)
    # Fleiss on r0–r2 (3 raters each): P̄ = 7/9, Pe = 41/81 → κ = 22/40.
    assert keep["fleiss_kappa"]["value"] == pytest.approx(0.55, abs=1e-6)
    # Coincidences o00=3, o01=o10=1, o11=6 (n=11): α = 1 − (2/11)/(56/110) = 36/56.
    assert keep["krippendorff_alpha"]["value"] == pytest.approx(36 / 56, abs=1e-6)
    assert keep["cohen_kappa"]["a|b"] == {"value": 0.5, "ci": keep["cohen_kappa"]["a|b"]["ci"],
                                          "n": 4}
    assert keep["cohen_kappa"]["a|c"]["value"] == pytest.approx(1.0)
    assert keep["cohen_kappa"]["b|c"]["value"] == pytest.approx(0.4)
    # Verdict (accept/edit/reject): r3 now disagrees → (1 + 1/3 + 1 + 0) / 4.
    assert s["verdict"]["percent_agreement"]["value"] == pytest.approx(7 / 12, abs=1e-6)
    assert s["criteria"]["guessable"]["percent_agreement"]["value"] == pytest.approx(10 / 12,
                                                                                      abs=1e-6)
    lo, hi = keep["percent_agreement"]["ci"]
    assert 0 <= lo <= 10 / 12 <= hi <= 1
    assert set(s["by_category"]) == {"mammo", "lung"}
    assert s["by_category"]["mammo"]["percent_agreement"]["value"] == pytest.approx(4 / 6)


def test_judges_against_adjudicated_experts(scored):
    b, store, who, dec, _ = scored
    dec("r1", "boss", "reject", "wrong_answer", kind="adjudication")
    s = review_stats(b, store, StatsConfig(per_item=2, resamples=200, seed=0,
                                           judge_threshold=4))
    assert s["status"] == {"incomplete": 2, "kept": 2, "rejected": 2}
    j1, j2 = s["judges"]["judge1"], s["judges"]["judge2"]
    # experts keep r0, r3; judge1 keeps r0, r1, r3; judge2 keeps r2, r3.
    assert j1["n"] == 4 and j1["percent_agreement"]["value"] == 0.75
    assert j1["cohen_kappa"]["value"] == pytest.approx(0.5)
    assert j1["krippendorff_alpha"]["value"] == pytest.approx(16 / 30, abs=1e-6)
    assert j2["percent_agreement"]["value"] == 0.5
    assert j2["cohen_kappa"]["value"] == pytest.approx(0.0, abs=1e-9)


def test_stats_are_reproducible(scored):
    b, store, *_ = scored
    cfg = StatsConfig(per_item=2, resamples=100, seed=7)
    assert review_stats(b, store, cfg) == review_stats(b, store, cfg)


def test_undefined_coefficients_are_none():
    m = np.array([[1.0, 1.0], [1.0, 1.0]])
    assert percent_agreement(m) == 1.0
    assert kripp(m) is None


@given(st.lists(st.lists(st.integers(0, 2), min_size=3, max_size=3), min_size=2, max_size=12))
def test_percent_agreement_is_a_share(cols):
    m = np.array(cols, dtype=float).T
    v = percent_agreement(m)
    assert v is not None and 0.0 <= v <= 1.0
    if all(len(set(c)) == 1 for c in cols):
        assert v == 1.0
