"""Scores given to the options: the answer must be the one scored highest, alone."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from medvqa.reading import make_parser
from medvqa.reading._options import option_set
from medvqa.reading._scores import TOP_LEAD, TOP_SHARE, option_scores, scored_otherwise, top_scored

KNEE = (("A", "ACL tear"), ("B", "PCL tear"), ("C", "Medial meniscus tear"))
MAYO = (("A", "Mayo 0 (normal)"), ("B", "Mayo 1 (mild)"), ("C", "Mayo 2 (moderate)"))


def test_scores_are_read_by_letter_and_by_text() -> None:
    assert option_scores("A: 0.45, B: .10, C: 45%", option_set(KNEE)) == {
        "A": 0.45, "B": 0.10, "C": 0.45}
    assert option_scores("Mayo 0: 0.70, Mayo 1: 0.20", option_set(MAYO)) == {
        "A": 0.70, "B": 0.20}
    assert option_scores("A 12 mm, B 3 cm", option_set(KNEE)) == {}


def test_a_tie_or_an_answer_not_at_the_top_is_not_credited() -> None:
    parser = make_parser("strict")
    knee = dict(KNEE)
    assert parser.parse("A: 0.45, B: 0.10, C: 0.45", knee, "single").rule == "structural.scores"
    got = parser.parse("Mayo 0: 0.70, Mayo 1: 0.20, Mayo 2: 0.10\nAnswer: C", dict(MAYO),
                       "single")
    assert got.choice is None and got.rule == "structural.scores"
    assert parser.parse("A: 0.10, B: 0.80, C: 0.10\nAnswer: B", knee, "single").choice == "B"


@given(st.lists(st.integers(0, 100), min_size=3, max_size=3), st.sampled_from("ABC"))
def test_credit_stays_only_on_the_unique_top(weights: list[int], chosen: str) -> None:
    text = ", ".join(f"{k}: {w}%" for k, w in zip("ABC", weights, strict=True))
    top = max(weights)
    alone = weights.count(top) == 1 and "ABC"[weights.index(top)] == chosen
    assert scored_otherwise(text, chosen, option_set(KNEE)) is not alone


@settings(max_examples=200, deadline=None)
@given(weights=st.lists(st.integers(1, 100), min_size=2, max_size=5), order=st.randoms())
def test_a_score_table_answers_only_its_clear_top_whatever_the_order(weights, order):
    total = sum(weights)
    probs = [round(w / total, 3) for w in weights]
    keys = "ABCDE"[:len(probs)]
    ix = option_set(tuple((k, f"Finding {k}") for k in keys))
    pairs = list(zip(keys, probs, strict=True))
    order.shuffle(pairs)
    got = top_scored(", ".join(f"{k}: {p}" for k, p in pairs), ix)
    ranked = sorted(probs, reverse=True)
    if got is None:
        s = sum(probs)
        assert not (0.95 <= s <= 1.05) or ranked[0] / s < TOP_SHARE or (
            ranked[0] < TOP_LEAD * ranked[1])
    else:
        assert dict(pairs)[got] == ranked[0] and ranked[0] >= TOP_LEAD * ranked[1]
