"""A forced choice (:mod:`medvqa.reading._forced`): it commits, other conditions do not."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from medvqa.reading import make_parser
from medvqa.reading._forced import FORCED_AFTER_IF, forced_pick

ST = {"A": "Stage 1", "B": "Stage 2", "C": "Stage 3"}


def test_forced_words_after_if_and_before_a_pick():
    assert FORCED_AFTER_IF.match(" i had to choose") and FORCED_AFTER_IF.match(" pressed")
    assert not FORCED_AFTER_IF.match(" the node is reactive")
    text = "if i had to pick one, c"
    assert forced_pick(text, text.index("pick")) == (3, len("if i had to pick one,"))
    assert forced_pick("i want to pick c", 10) is None  # no forced words before the verb


@settings(max_examples=80, deadline=None)
@given(lead=st.sampled_from(["If forced to choose one, ", "If I had to pick, ",
                             "If pressed to choose an answer: "]),
       letter=st.sampled_from("ABC"),
       weighing=st.sampled_from(["", "Both Stage 1 (A) and Stage 3 (C) are plausible here. "]))
def test_a_forced_choice_reads_its_answer(lead, letter, weighing):
    got = make_parser("strict").parse(f"{weighing}{lead}{letter}.", ST, "single")
    assert got.choice == letter


@settings(max_examples=40, deadline=None)
@given(letter=st.sampled_from("ABC"), cond=st.sampled_from(["the node is reactive",
                                                            "the margin is involved"]))
def test_another_condition_still_holds_the_answer_back(letter, cond):
    assert make_parser("strict").parse(f"If {cond}, the answer is {letter}.", ST,
                                       "single").invalid
