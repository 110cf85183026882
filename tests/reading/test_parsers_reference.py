"""The ``mammovqa`` and ``pathmmu`` styles against the published scorers' described examples,
and against plain re-statements of the described algorithms."""

from __future__ import annotations

import json
import random
import warnings
from difflib import SequenceMatcher

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from medvqa.reading import is_correct, make_parser

LR = {"A": "Left", "B": "Right"}
FIVE = {"A": "Hepatitis A", "B": "Cirrhosis", "C": "Hepatitis C infection", "D": "Steatosis",
        "E": "Normal liver"}


# --- mammovqa: every described example of the published scorer, row by row ---------------

DENSITY = {"A": "Heterogeneously dense", "B": "Extremely dense", "C": "Fatty",
           "D": "Scattered fibroglandular densities"}
LEVELS = {"A": "Normal", "B": "Level 4", "C": "Level 2", "D": "Level 3", "E": "Level 5",
          "F": "Level 1"}
ACR = {"A": "Level B", "B": "Level D", "C": "Level A", "D": "Level C"}
MULTI_I = {"A": "Mass", "B": "Calcification", "C": "Architectural distortion",
           "D": "Asymmetry", "E": "Nipple retraction", "F": "Skin thickening",
           "G": "Skin retraction", "H": "Lymph node", "I": "Miscellaneous"}
SKIN = {"A": "Skin thickening", "B": "Skin retraction", "C": "Mass"}
# (options, question type, response, what the reference picks)
REFERENCE_ROWS = [
    (LR, "single", "B", "B"),
    (LR, "single", "Answer: B", "A"),
    (LR, "single", "Left or Right", "B"),
    (ACR, "single", "D", "D"),
    ({"A": "MLO", "B": "CC"}, "single", "This is a CC view mammogram.", "A"),
    ({"A": "MLO", "B": "CC"}, "single", "A: MLO", "A"),
    (LR, "single", "Option B", "B"),
    ({"A": "Right", "B": "Left"}, "single", "I don't know.", "A"),
    ({"A": "Yes", "B": "No"}, "yesno", "Yes, there is evidence of cancer.", "A"),
    (DENSITY, "single", "EXTREMELY DENSE", "B"),
    (LEVELS, "single", "It is not Level 5, it is Level 4.", "E"),
    (LR, "single", "", None),
    (MULTI_I, "multi", "I don't know.", ["I"]),
    (SKIN, "multi", "Skin thickening", ["A", "B"]),
]


@pytest.mark.parametrize(("options", "qtype", "response", "expected"), REFERENCE_ROWS,
                         ids=[r[2][:30] or "empty" for r in REFERENCE_ROWS])
def test_mammovqa_reproduces_every_reference_example(options, qtype, response, expected):
    assert make_parser("mammovqa").parse(response, options, qtype).choice == expected


def test_mammovqa_lower_cases_the_response_too():
    # With the response's case kept, "This is a CC view…" went to CC and "EXTREMELY DENSE"
    # to another option: the published scorer lower-cases both sides.
    parser = make_parser("mammovqa")
    assert parser.parse("EXTREMELY DENSE", DENSITY, "single").choice == \
        parser.parse("extremely dense", DENSITY, "single").choice == "B"
    assert parser.parse("OPTION B", LR, "single").choice == parser.parse("option b", LR,
                                                                          "single").choice


def test_mammovqa_multi_shared_word_scores_zero():
    parsed = make_parser("mammovqa").parse("Skin thickening", SKIN, "multi")
    assert not is_correct(parsed.choice, ["A"], "multi")


def test_mammovqa_refusal_still_lands_on_an_option():
    parsed = make_parser("mammovqa").parse("I cannot tell from this image.", LR, "yesno")
    assert parsed.choice in LR and not parsed.invalid


# --- mammovqa: the pruned, cached implementation equals the plain algorithm ----------------

def _plain_mammovqa(response: str, options: dict[str, str]) -> str | None:
    """The published scorer's single-choice steps 1-5, with no caching and no pruning.

    Step 4 is fuzzywuzzy itself where it is installed (the ``test`` extra), else the parser's
    own WRatio (checked against fuzzywuzzy in ``test_wratio.py``).
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # it warns that it runs on pure-Python difflib
            from fuzzywuzzy import process
    except ImportError:
        from medvqa.reading import _wratio as process

    cands = [*options, *(f"{k}: {v}" for k, v in options.items()), *options.values()]

    def owner(c: str) -> str:
        for k, v in options.items():
            if c == f"{k}: {v}":
                return k
        return next(k for k, v in options.items() if c in (k, v))

    def decide(scores: list[tuple[str, float]]) -> str | None:
        top = max(s for _, s in scores)
        owners = {owner(c) for c, s in scores if s == top}
        if len(owners) == 1:
            return owners.pop()
        d = dict(scores)
        comb = {k: d.get(f"{k}: {v}", 0) + d.get(k, 0) + d.get(v, 0) for k, v in options.items()}
        best = max(comb.values())
        win = [k for k, s in comb.items() if s == best]
        return win[0] if len(win) == 1 else None

    low = response.lower()
    got = decide([(c, SequenceMatcher(None, low, c.lower()).ratio()) for c in cands])
    if got is None:
        got = decide([(c, float(s)) for c, s in process.extract(response, cands, limit=50)])
    return got


_words = st.sampled_from(["left", "Right", "B", "A", "mass", "CC", "MLO", "the answer", "is",
                          "breast", "C", "Yes", "no", ":", ".", "level", "D", " ", "LEVEL 5",
                          "EXTREMELY", "Dense", "Option", "fatty", "not", "4"])


@settings(max_examples=150, deadline=None)
@given(parts=st.lists(_words, max_size=8))
def test_mammovqa_pruning_never_changes_a_decision(parts):
    response = " ".join(parts)
    for options in (LR, {"A": "MLO", "B": "CC"}, {"A": "Yes", "B": "No"}, DENSITY, LEVELS,
                    {"A": "Level B", "B": "Level D", "C": "Level A", "D": "Level C"}):
        assert make_parser("mammovqa").parse(response, options, "single").choice == \
            _plain_mammovqa(response, options)


LUNG = {"A": "adenocarcinoma", "B": "squamous cell carcinoma", "C": "benign lung tissue",
        "D": "large cell carcinoma"}
_sentence_words = st.sampled_from(["The", "answer", "is", "B.", "nuclei", "show", "atypia", "in",
                                   "field", "12,", "adenocarcinoma", "squamous cell carcinoma",
                                   "benign", "lung tissue", "large cell", "carcinoma", "(C)",
                                   "I", "cannot", "tell", "İstanbul", "KELVIN \u212a", ":"])


@settings(max_examples=60, deadline=None)
@given(parts=st.lists(_sentence_words, min_size=4, max_size=16))
def test_mammovqa_bounds_never_change_a_decision_on_long_responses(parts):
    # Long sentences against long option texts: the multiset bound prunes most here. Texts
    # whose lower case is longer ("İ" → "i̇") must be bounded by their lowered length.
    response = " ".join(parts)
    for options in (LUNG, {"A": "İnvasive", "B": "invasive", "C": "Kelvin \u212a"}):
        assert make_parser("mammovqa").parse(response, options, "single").choice == \
            _plain_mammovqa(response, options)


def test_mammovqa_repeated_response_keeps_its_decision():
    parser = make_parser("mammovqa")
    first = [parser.parse(r, LR, "single").choice for r in ("Answer: B", "Left or Right", "B")]
    again = [parser.parse(r, LR, "single").choice for r in ("Answer: B", "Left or Right", "B")]
    assert first == again == ["A", "B", "B"]


# --- pathmmu -----------------------------------------------------------------------------

@pytest.mark.parametrize("response", ["A)", "**A**", "[A]"])
def test_pathmmu_unparsed_forms_fall_back_to_random(response):
    parser = make_parser("pathmmu", seed=42)
    parsed = parser.parse(response, FIVE, "single")
    assert parser.fallbacks == 1
    assert parsed.choice == random.Random(42).choice(list(FIVE))


def test_pathmmu_space_letters_take_the_last():
    assert make_parser("pathmmu").parse("A, C", FIVE, "single").choice == "C"


def test_pathmmu_bracketed_letter_beats_bare_letters():
    assert make_parser("pathmmu").parse("(A) is better than C", FIVE, "single").choice == "A"


def test_pathmmu_full_option_text():
    assert make_parser("pathmmu").parse("Hepatitis C infection", FIVE, "single").choice == "C"


def test_pathmmu_content_match_needs_more_than_five_tokens():
    long = "I think this slide most likely shows steatosis overall"
    assert make_parser("pathmmu").parse(long, FIVE, "single").choice == "D"
    parser = make_parser("pathmmu")
    parser.parse("shows steatosis", FIVE, "single")
    assert parser.fallbacks == 1


def test_pathmmu_content_candidates_take_the_rightmost_text():
    text = "first I thought cirrhosis but it is clearly steatosis here"
    assert make_parser("pathmmu").parse(text, FIVE, "single").choice == "D"


def test_pathmmu_strips_edge_punctuation_before_padding():
    # "C." → strip "." → " C " matches; without stripping it would fall back.
    parser = make_parser("pathmmu")
    assert parser.parse("C.", FIVE, "single").choice == "C"
    assert parser.fallbacks == 0


def test_pathmmu_fallbacks_draw_in_input_order():
    rng = random.Random(42)
    expected = [rng.choice(list(FIVE)) for _ in range(20)]
    parser = make_parser("pathmmu", seed=42)
    got = [parser.parse(f"no idea {i}", FIVE, "single").choice for i in range(20)]
    assert got == expected


@settings(max_examples=100, deadline=None)
@given(text=st.text(alphabet="ABCDE ()[],.:;!?'xyz", max_size=20))
def test_pathmmu_never_abstains(text):
    parsed = make_parser("pathmmu").parse(text, FIVE, "single")
    assert parsed.choice in FIVE and not parsed.invalid


# --- pathmmu compares option texts, not letters ---------------------------------------------

DUP = {"A": "Steatosis", "B": "Cirrhosis", "C": "Steatosis", "D": "Normal liver"}


def test_pathmmu_duplicate_option_texts_count_as_the_same_answer(tmp_path):
    # as the published scorer describes it: the prediction is the chosen letter's text, right when
    # it equals the gold text. C and A read "Steatosis", so answering C to a gold A is right.
    from medvqa.reading._batch import parse_records

    lines = [{"id": "q1", "response": "(C)", "options": DUP, "answer": "A"},
             {"id": "q2", "response": "(B)", "options": DUP, "answer": "A"},
             {"id": "q3", "response": "(A)", "options": DUP, "answer": "C"}]
    path = tmp_path / "responses.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    pathmmu, _ = parse_records(path, "pathmmu", seed=42)
    assert [(r["choice"], r["correct"]) for r in pathmmu] == [("C", True), ("B", False),
                                                              ("A", True)]
    strict, _ = parse_records(path, "strict", seed=42)  # the default judges letters
    assert [r["correct"] for r in strict] == [False, False, False]


def test_pathmmu_text_comparison_reaches_scored_rows():
    from medvqa.schema import Item, Prediction
    from medvqa.score._rows import score_row

    item = Item(id="q1", question="Which finding?", options=DUP, answer="A",
                question_type="single")
    row = score_row(item, Prediction(item_id="q1", response="C"), make_parser("pathmmu"))
    assert row.choice == "C" and row.correct and not row.invalid


@settings(max_examples=100, deadline=None)
@given(texts=st.lists(st.sampled_from(["Steatosis", "Cirrhosis", "Normal"]), min_size=2,
                      max_size=5),
       pick=st.integers(0, 4), gold=st.integers(0, 4))
def test_pathmmu_correct_exactly_when_texts_match(texts, pick, gold):
    options = dict(zip("ABCDE", texts, strict=False))
    letters = list(options)
    chosen, answer = letters[pick % len(letters)], letters[gold % len(letters)]
    parser = make_parser("pathmmu")
    parsed = parser.parse(f"({chosen})", options, "single")
    assert parsed.choice == chosen
    assert is_correct(parsed.choice, answer, "single", texts=options) == \
        (options[chosen] == options[answer])
