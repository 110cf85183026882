"""The ``strict`` default parser, and the ``region`` and ``open`` styles."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from medvqa.score.parsers import (
    STYLES,
    is_correct,
    make_parser,
    open_scores,
    region_scores,
    token_f1,
)

LR = {"A": "Left", "B": "Right"}
LUNG = {"A": "benign lung tissue", "B": "adenocarcinoma", "C": "squamous cell carcinoma"}
YN = {"A": "Yes", "B": "No"}


@pytest.mark.parametrize("response", [
    "B", "(B)", "B.", "**B**", "[B]", "B)", "Answer: B", "The answer is B", "The answer is (B).",
    "Right", " right. ", "B: Right", "B. Right", "**Answer:** B",
])
def test_strict_accepts_the_documented_forms(response):
    assert make_parser("strict").parse(response, LR, "single").choice == "B"


@pytest.mark.parametrize("response", [
    "", "   ", "Left or Right", "A and B", "I'm sorry, I cannot determine that.",
    "I don't know.", "Z", "The answer is E", "Maybe something else entirely",
    "B: Left",  # letter and text name different options
])
def test_strict_abstains(response):
    parsed = make_parser("strict").parse(response, LR, "single")
    assert parsed.invalid and parsed.choice is None


def test_strict_names_one_option_in_a_sentence():
    text = "This tile shows benign lung tissue without atypia."
    assert make_parser("strict").parse(text, LUNG, "single").choice == "A"


def test_strict_contained_phrase_does_not_count_twice():
    # "benign lung tissue" also contains "lung tissue"; only the longest phrase is named.
    options = {"A": "benign lung tissue", "B": "lung tissue"}
    assert make_parser("strict").parse("It is benign lung tissue.", options, "single").choice == "A"


@pytest.mark.parametrize(("response", "expected"), [
    ("Yes", "A"), ("yes.", "A"), ("Yes, there is a mass.", "A"), ("True", "A"),
    ("No", "B"), ("No, the image is normal.", "B"), ("false", "B"), ("**No**", "B"),
])
def test_strict_yes_no_phrasings(response, expected):
    assert make_parser("strict").parse(response, YN, "yesno").choice == expected


def test_strict_yes_no_refusal_is_invalid():
    assert make_parser("strict").parse("I cannot determine this.", YN, "yesno").invalid


@pytest.mark.parametrize(("response", "expected"), [
    ("A, C", ["A", "C"]), ("A and C", ["A", "C"]), ("(A) (C)", ["A", "C"]), ("C", ["C"]),
    ("benign lung tissue, squamous cell carcinoma", ["A", "C"]), ("Answer: B; C", ["B"]),
])
def test_strict_multi_returns_a_set_of_letters(response, expected):
    assert make_parser("strict").parse(response, LUNG, "multi").choice == expected


@pytest.mark.parametrize("response", ["A, Z", "I cannot tell", "", "some words"])
def test_strict_multi_abstains(response):
    assert make_parser("strict").parse(response, LUNG, "multi").invalid


def test_strict_non_string_response_is_invalid():
    assert make_parser("strict").parse(None, LR, "single").invalid  # type: ignore[arg-type]


# Permuting the options and relabelling the response never changes correctness.
_texts = st.lists(st.sampled_from(["Left", "Right", "Anterior", "Posterior", "Mass", "Normal"]),
                  min_size=2, max_size=5, unique=True)
_forms = st.sampled_from(["{L}", "({L})", "Answer: {L}", "The answer is {L}.", "{T}", "{L}: {T}",
                          "**{L}**", "It is {T}.", "{L} or {O}", "I'm not sure", "{T} and {OT}"])


@settings(max_examples=200, deadline=None)
@given(texts=_texts, form=_forms, pick=st.integers(0, 9), other=st.integers(0, 9),
       gold=st.integers(0, 9), perm=st.permutations(range(5)))
def test_strict_correctness_is_invariant_to_option_order(texts, form, pick, other, gold, perm):
    k = len(texts)
    letters = "ABCDE"[:k]
    order = [i for i in perm if i < k]
    first = dict(zip(letters, texts, strict=True))
    second = dict(zip(letters, [texts[i] for i in order], strict=True))
    pick, other, gold = pick % k, other % k, gold % k

    def render(options: dict[str, str]) -> tuple[str, str]:
        letter_of = {v: key for key, v in options.items()}
        resp = form.format(L=letter_of[texts[pick]], T=texts[pick], O=letter_of[texts[other]],
                           OT=texts[other])
        return resp, letter_of[texts[gold]]

    results = []
    for options in (first, second):
        response, answer = render(options)
        parsed = make_parser("strict").parse(response, options, "single")
        results.append((is_correct(parsed.choice, answer, "single"), parsed.invalid))
    assert results[0] == results[1]


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=40))
def test_strict_never_returns_a_non_option(text):
    parsed = make_parser("strict").parse(text, LR, "single")
    assert (parsed.choice is None) == parsed.invalid
    assert parsed.choice is None or parsed.choice in LR


# --- region ------------------------------------------------------------------------------

def test_region_parses_lmod_fields():
    text = "Region ID: 3, 5; Type: optic disc\nRegion ID: 1; Type: macula"
    assert make_parser("region").parse(text, {}, "region").choice == ["1", "3", "5"]


def test_region_plain_list_and_nothing():
    parser = make_parser("region")
    assert parser.parse("2 and 7", {}, "region").choice == ["2", "7"]
    assert parser.parse("no regions visible", {}, "region").invalid


def test_region_scores_and_hallucination_resistance():
    s = region_scores(["1", "4", "5", "6"], ["1", "2"])
    assert s.precision == 0.25 and s.recall == 0.5
    assert s.f1 == pytest.approx(2 * 0.25 * 0.5 / 0.75)
    assert s.hallucination_resistance == 0.25  # 1 − 3/4 predicted IDs not in gold


def test_region_empty_prediction_hallucinates_nothing():
    s = region_scores([], ["1"])
    assert (s.precision, s.recall, s.hallucination_resistance) == (0.0, 0.0, 1.0)


@settings(max_examples=100, deadline=None)
@given(pred=st.sets(st.integers(0, 9)), gold=st.sets(st.integers(0, 9)))
def test_region_scores_are_bounded(pred, gold):
    s = region_scores([str(x) for x in pred], [str(x) for x in gold])
    assert all(0.0 <= v <= 1.0 for v in s)


# --- open --------------------------------------------------------------------------------

def test_open_exact_after_normalisation():
    scores = open_scores("A left pleural effusion.", "left pleural effusion")
    assert scores.exact == 1.0 and scores.token_f1 == 1.0
    # ROUGE-L and BLEU read the raw text (as MIRA reports them): the article costs a little.
    assert scores.rouge_l == pytest.approx(2 * 1 * 0.75 / 1.75)
    same = open_scores("Left pleural effusion.", "left pleural effusion")
    assert same.rouge_l == pytest.approx(1.0)


def test_open_partial_answer_scores_between_zero_and_one():
    scores = open_scores("pleural effusion on the right", "left pleural effusion")
    assert scores.exact == 0.0
    assert 0 < scores.token_f1 < 1 and 0 < scores.rouge_l < 1 and 0 <= scores.bleu4 < 1
    assert token_f1("pleural effusion on the right", "left pleural effusion") == pytest.approx(
        2 * (2 / 4) * (2 / 3) / (2 / 4 + 2 / 3))


def test_open_parser_abstains_on_refusal():
    assert make_parser("open").parse("I cannot determine this.", {}, "open").invalid
    assert make_parser("open").parse("The Mass.", {}, "open").choice == "mass"


@pytest.mark.parametrize("style", STYLES.names())
def test_every_style_round_trips_a_plain_letter(style):
    parser = make_parser(style)
    for qtype, options in (("single", LR), ("yesno", YN), ("multi", LUNG)):
        parsed = parser.parse("B", options, qtype)
        if style in {"region", "open"}:
            continue
        assert parsed.choice in ("B", ["B"]) and not parsed.invalid
