"""Rule-based failure tags (LMOD E1–E6, MIRA) on realistic responses."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from medvqa.score._failure_modes import FailureCounts, abstains, needs_judge, tag_response
from medvqa.score._rows import ScoredRow

OPTIONS = {"A": "benign", "B": "malignant", "C": "normal"}


def row(condition: str = "clean", correct: bool = False, invalid: bool = False) -> ScoredRow:
    return ScoredRow("i1", condition, correct, invalid, None if invalid else "A", "benign",
                     "benign", 3, "single", "cat", "src", "test", None)


def test_right_answers_carry_no_tag() -> None:
    assert tag_response("B", row(correct=True), OPTIONS) == ()


def test_bare_wrong_letter_is_misclassification_assertion_and_guess() -> None:
    assert set(tag_response("A", row(), OPTIONS)) == {"E1", "E5", "guess"}


def test_explained_wrong_answer_is_not_an_assertion() -> None:
    tags = tag_response("A. The cells look benign because nuclei are regular.", row(), OPTIONS)
    assert "E5" not in tags and "E1" in tags


@pytest.mark.parametrize("text", ["I'm sorry, I cannot determine this.",
                                  "As an AI, I won't give a diagnosis."])
def test_refusals(text: str) -> None:
    assert "refusal" in tag_response(text, row(invalid=True), OPTIONS)


def test_missing_image_complaint_under_text_only() -> None:
    tags = tag_response("No image was provided, so I can't tell.", row("text-only", invalid=True),
                        OPTIONS)
    assert "missing visual evidence" in tags and "invalid_format" not in tags


def test_letter_outside_the_options_is_a_hallucination() -> None:
    tags = tag_response("D", row(invalid=True), OPTIONS)
    assert {"outside_options", "E4", "hallucination"} <= set(tags)


def test_describing_a_blank_image_is_a_hallucination() -> None:
    tags = tag_response("The image shows atypical glands, so A.", row("blind"), OPTIONS)
    assert "hallucination" in tags and "guess" not in tags


def test_unreadable_answer_is_invalid_format() -> None:
    tags = tag_response("Hmm, interesting slide.", row(invalid=True), OPTIONS)
    assert tags == ("invalid_format",)


def test_ood_answer_without_abstaining_is_failure_to_abstain() -> None:
    assert tag_response("B", row("ood", correct=True), OPTIONS) == ("E2",)
    assert tag_response("This is not a medical image; it is a photo of a cat.", row("ood"),
                        OPTIONS) == ()


def test_counts_and_abstention_rate() -> None:
    counts = FailureCounts()
    for text in ["B", "A", "This is not a relevant medical image."]:
        counts.add(text, row("ood"), OPTIONS)
    d = counts.as_dict()
    assert d["n"] == 3 and d["abstained"] == 1 and d["lmod"]["E2"] == 2
    assert d["abstention_rate"] == pytest.approx(1 / 3, abs=1e-6)


@given(st.sampled_from("ABC"))
def test_single_letters_never_abstain(letter: str) -> None:
    assert not abstains(letter)


@given(st.text(max_size=200))
def test_tagging_never_fails_and_tags_are_known(text: str) -> None:
    known = {"E1", "E2", "E3", "E4", "E5", "E6", "guess", "refusal", "hallucination",
             "missing visual evidence", "invalid_format", "outside_options"}
    for r in (row(), row(invalid=True), row("ood"), row("blind")):
        assert set(tag_response(text, r, OPTIONS)) <= known


def test_judge_candidates_are_failures_the_rules_cannot_place() -> None:
    counts = FailureCounts()
    for text, r in [("A", row()),                                        # readable wrong: E1
                    ("Hmm, interesting slide.", row(invalid=True)),      # unreadable, untagged
                    ("I'm sorry, I cannot determine this.", row(invalid=True)),  # refusal
                    ("D", row(invalid=True)),                            # outside the options
                    ("B", row(correct=True)),                            # right
                    ("B", row("ood"))]:                                  # ood: E2 by rule
        counts.add(text, r, OPTIONS)
    assert counts.as_dict()["judge_candidates"] == 2


def test_needs_judge_never_takes_right_or_ood_answers() -> None:
    assert needs_judge(("E1", "E5", "guess"), row())
    assert not needs_judge((), row(correct=True))
    assert not needs_judge(("E2",), row("ood"))
    assert not needs_judge(("invalid_format", "refusal"), row(invalid=True))


@given(st.lists(st.tuples(st.sampled_from(["A", "B", "D", "I'm sorry, I cannot tell.",
                                           "The image shows a mass. " * 5, "Hmm."]),
                          st.sampled_from(["clean", "blind", "ood"]), st.booleans(),
                          st.booleans()), max_size=30))
def test_counts_are_the_sum_of_each_response_tags(answers) -> None:
    counts = FailureCounts()
    tags, abstained, failures, judge = Counter(), 0, 0, 0
    for text, cond, correct, invalid in answers:
        r = row(cond, correct=correct, invalid=invalid)
        got = tag_response(text, r, OPTIONS)
        assert counts.add(text, r, OPTIONS) == got
        tags.update(got)
        abstained += abstains(text)
        failures += bool(got) or (not correct and cond != "ood")
        judge += needs_judge(got, r)
    d = counts.as_dict()
    assert (d["n"], d["abstained"], d["failures"], d["judge_candidates"]) == (
        len(answers), abstained, failures, judge)
    assert {**d["lmod"], **d["mira"], **d["rules"]} == {
        t: tags.get(t, 0) for t in (*d["lmod"], *d["mira"], *d["rules"])}
