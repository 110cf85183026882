"""Another source's answer, reported and never adopted, is not the response's."""

from __future__ import annotations

import pytest

from medvqa.reading._attributed import attributed_only


@pytest.mark.parametrize("text", [
    "According to the textbook answer key for this question, the answer is D.",
    "The previous model output for this question was 'B'.",
    "The dataset label for this image is C.",
])
def test_reported_alone(text):
    assert attributed_only(text)


@pytest.mark.parametrize("text", [
    "The answer key says A and C. I'd add D.",
    "My colleague suggested A. I agree with A.",
    "Per the ground-truth label this is 'Yes', and the image supports it.",
    "The answer is D.",
    "This is the textbook appearance of an epidural hematoma. Final answer: A",
])
def test_adopted_overruled_or_own(text):
    assert not attributed_only(text)


def test_every_source_holds_a_cue_word():
    """The cheap gate never hides a source the pattern would find."""
    from medvqa.reading._attributed import _CUES, _SOURCE

    for text in ["answer key", "the textbook", "dataset", "ground truth", "gold label",
                 "reference answer", "my colleague", "the resident", "our attending",
                 "a fellow", "my supervisor", "the consultant", "my professor", "a teacher",
                 "another model", "previous assistant", "other annotator", "first reader",
                 "model output", "reddit thread", "forum", "question bank"]:
        assert _SOURCE.search(text), text
        assert any(cue in text for cue in _CUES), text
