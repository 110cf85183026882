"""WRatio and ``extract`` without fuzzywuzzy: documented examples, the behaviours observed in
fuzzywuzzy 0.18 (pure-Python difflib), and properties checking every score against fuzzywuzzy
itself, called as a black box where it is installed (the ``test`` extra)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import warnings
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from medvqa.reading import make_parser
from medvqa.reading._wratio import (
    Match,
    extract,
    full_process,
    partial_ratio,
    ratio,
    token_set_ratio,
    token_sort_ratio,
    wratio,
)


@pytest.fixture(scope="module")
def fuzzywuzzy() -> ModuleType:
    """fuzzywuzzy's ``fuzz`` and ``process`` (GPL-2.0): only ever called, as the oracle."""
    pytest.importorskip("fuzzywuzzy")
    if importlib.util.find_spec("Levenshtein") is not None:
        pytest.skip("python-Levenshtein is installed: fuzzywuzzy would not run on difflib, "
                    "as the published scorer did")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # it warns that it runs on pure-Python difflib
        import fuzzywuzzy
        from fuzzywuzzy import fuzz, process  # noqa: F401 - loaded as attributes of the package
    return fuzzywuzzy


def test_mammovqa_needs_no_fuzzywuzzy():
    # With fuzzywuzzy unimportable, a response decided in the fuzzy stage is still decided.
    code = """
import sys

class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "fuzzywuzzy":
            raise ModuleNotFoundError("fuzzywuzzy is blocked")

sys.meta_path.insert(0, Refuse())
from medvqa.reading import make_parser
options = {"A": "Normal", "B": "Level 4", "C": "Level 2", "D": "Level 3", "E": "Level 5",
           "F": "Level 1"}
print(make_parser("mammovqa").parse("3 Level 4 I Level 1", options, "single").choice)
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "E"


# --- the examples of fuzzywuzzy's README, with the scores its difflib build gives ----------

def test_readme_examples():
    assert ratio("this is a test", "this is a test!") == 97
    assert partial_ratio("this is a test", "this is a test!") == 100
    assert token_sort_ratio("fuzzy wuzzy was a bear", "wuzzy fuzzy was a bear") == 100
    assert token_set_ratio("fuzzy was a bear", "fuzzy fuzzy was a bear") == 100
    choices = ["Atlanta Falcons", "New York Jets", "New York Giants", "Dallas Cowboys"]
    assert extract("new york jets", choices, limit=2) == [("New York Jets", 100),
                                                          ("New York Giants", 79)]
    assert extract("cowboys", choices, limit=1) == [Match("Dallas Cowboys", 90)]


# --- behaviours the documentation leaves open, as observed ----------------------------------

def test_scores_round_half_to_even():
    assert ratio("a", "a" + "z" * 14) == 12  # 12.5
    assert ratio("abc", "abc" + "z" * 10) == 38  # 37.5


def test_argument_order_is_kept_where_difflib_is_not_symmetric():
    assert (ratio("ab ac", "ba"), ratio("ba", "ab ac")) == (29, 57)
    # Token set: shared tokens ("") first, then each side's; "ba" against "ab ac" in that order.
    assert (token_set_ratio("ab ac", "ba"), token_set_ratio("ba", "ab ac")) == (29, 57)
    assert (wratio("ab ac", "ba"), wratio("ba", "ab ac")) == (45, 57)


def test_processing_drops_only_latin1_when_forcing_ascii():
    assert full_process("Hello, World!") == "hello  world"
    assert full_process("a\u00a0b") == "a b"  # a non-word character becomes a space
    assert full_process("a\u00a0b", force_ascii=True) == "ab"  # ... unless it is dropped first
    assert full_process("Café", force_ascii=True) == "caf"
    assert full_process("İ中", force_ascii=True) == "i\u0307中"  # kept, lower-cased after \W
    assert full_process("a_b") == "a_b"  # the underscore is a word character


def test_length_ratio_chooses_the_comparisons():
    assert wratio("ab", "abx") == 90  # 1.5 times as long: partial, scaled by 0.9
    assert wratio("ab", "ab" + "x" * 14) == 90  # exactly 8 times: still 0.9
    assert wratio("ab", "ab" + "x" * 15) == 60  # more than 8 times: 0.6
    assert wratio("b a c", "c a b") == 95  # same length: token sort, scaled by 0.95


def test_partial_ratio_windows_follow_matching_blocks():
    # The window aligned with the block "a" starts at the last character and is cut short:
    # "ab" against "a" (67), where the best full window ("da") would give 50.
    assert partial_ratio("ab", "ddda") == 67
    assert partial_ratio("", "abc") == 0 and partial_ratio("", "") == 100
    # The best window counts, wherever it lies (here 95, after a window scoring 90).
    assert partial_ratio("aadlfcemgnbigamofjaki", "aadlfcemgnbigamofjzyi aadlfczmgnbigamofjaki") \
        == 95


def test_extract_processes_the_query_once_more_but_not_the_choices():
    # "İ" processes to "i" + a combining dot; processed again, the dot becomes a space.
    assert extract("İ", ["İ", "i"]) == [("i", 100), ("İ", 90)]
    assert wratio("İ", "i") == 90


def test_extract_empty_query_ties_everything_at_zero_in_order():
    assert extract("  ...  ", ["a", "b"]) == [("a", 0), ("b", 0)]
    assert extract("left", ["x", "y", "left", "Left"], limit=3) == [("left", 100), ("Left", 100),
                                                                  ("x", 0)]


# --- against fuzzywuzzy, called as a black box ------------------------------------------------

_TRICKY = st.text(alphabet="abcAB  ,.:-_1éİKŸß中\u0307\u00a0\t", max_size=24)
_OPTION_TEXTS = ["Left", "Right", "Yes", "No", "MLO", "CC", "Fatty", "Fatty-glandular",
                 "Dense-glandular", "Extremely dense", "Heterogeneously dense",
                 "Scattered fibroglandular densities", "Level 1", "Level 4", "Level 5",
                 "BI-RADS 3", "Benign", "Malignant", "Mass", "Calcification",
                 "Architectural distortion", "Asymmetry", "Normal", "Ünterschied", "İnvasive"]
_WORDS = st.sampled_from(["the", "answer", "is", "option", "I", "cannot", "tell", "not", "or",
                          "and", "both", "A", "B", "C", "D", "E", "F", ":", ".", ",", "(B)",
                          "**C**", "left", "RIGHT", "breast", "view", "mammogram", "shows",
                          "level", "4", "dense", "benign", "é", "中", "\n", *_OPTION_TEXTS])


@st.composite
def _candidates(draw: st.DrawFn, max_options: int = 8) -> list[str]:
    """The strings the MammoVQA scorer ranks: letters, then ``L: text``, then texts."""
    texts = draw(st.lists(st.sampled_from(_OPTION_TEXTS), min_size=1, max_size=max_options))
    letters = [chr(65 + i) for i in range(len(texts))]
    return [*letters, *(f"{k}: {v}" for k, v in zip(letters, texts, strict=True)), *texts]


def _sentence(max_words: int) -> st.SearchStrategy[str]:
    return st.lists(_WORDS, max_size=max_words).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(a=_TRICKY, b=_TRICKY)
def test_every_ratio_equals_fuzzywuzzys(fuzzywuzzy, a, b):
    fuzz, utils = fuzzywuzzy.fuzz, fuzzywuzzy.utils
    assert full_process(a) == utils.full_process(a)
    assert full_process(a, force_ascii=True) == utils.full_process(a, force_ascii=True)
    assert ratio(a, b) == fuzz.ratio(a, b)
    assert partial_ratio(a, b) == fuzz.partial_ratio(a, b)
    assert wratio(a, b) == fuzz.WRatio(a, b)
    pa, pb = full_process(a, force_ascii=True), full_process(b, force_ascii=True)
    if pa and pb:
        for partial, sort, token_set in ((False, fuzz.token_sort_ratio, fuzz.token_set_ratio),
                                         (True, fuzz.partial_token_sort_ratio,
                                          fuzz.partial_token_set_ratio)):
            assert token_sort_ratio(pa, pb, partial=partial) == sort(pa, pb, full_process=False)
            assert token_set_ratio(pa, pb, partial=partial) == token_set(pa, pb,
                                                                         full_process=False)


@settings(max_examples=200, deadline=None)
@given(query=st.one_of(_TRICKY, _sentence(16)), choices=st.one_of(
    _candidates(), st.lists(_TRICKY, min_size=1, max_size=6)))
def test_extract_equals_fuzzywuzzys(fuzzywuzzy, query, choices):
    assert extract(query, choices, limit=50) == fuzzywuzzy.process.extract(query, choices,
                                                                            limit=50)


@settings(max_examples=25, deadline=None)
@given(query=st.lists(_WORDS, min_size=40, max_size=90).map(" ".join), choices=_candidates())
def test_extract_equals_fuzzywuzzys_on_long_responses(fuzzywuzzy, query, choices):
    # Over 200 characters difflib's automatic junk heuristic starts to count.
    assert extract(query, choices, limit=50) == fuzzywuzzy.process.extract(query, choices,
                                                                            limit=50)


@settings(max_examples=20, deadline=None)
@given(query=_sentence(4), choices=_candidates(max_options=26))
def test_extract_limit_keeps_ties_in_order_like_fuzzywuzzy(fuzzywuzzy, query, choices):
    # More than 16 options make more than 50 candidates: the limit cuts among ties.
    for limit in (1, 5, 50):
        assert extract(query, choices, limit=limit) == fuzzywuzzy.process.extract(
            query, choices, limit=limit)


def _reference_decision(fuzzywuzzy: ModuleType, response: str,
                        options: dict[str, str]) -> str | None:
    """The published scorer's steps, its last tie-break by fuzzywuzzy itself."""
    from difflib import SequenceMatcher

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
        win = [k for k, s in comb.items() if s == max(comb.values())]
        return win[0] if len(win) == 1 else None

    got = decide([(c, SequenceMatcher(None, response.lower(), c.lower()).ratio()) for c in cands])
    if got is None:
        got = decide([(c, float(s)) for c, s in
                      fuzzywuzzy.process.extract(response, cands, limit=50)])
    return got


LEVELS = {"A": "Normal", "B": "Level 4", "C": "Level 2", "D": "Level 3", "E": "Level 5",
          "F": "Level 1"}
ACR = {"A": "Level B", "B": "Level D", "C": "Level A", "D": "Level C"}
BIRADS = {"A": "BI-RADS 1", "B": "BI-RADS 2", "C": "BI-RADS 3", "D": "BI-RADS 4", "E": "BI-RADS 5"}
TISSUE = {"A": "Fatty", "B": "Fatty-glandular", "C": "Dense-glandular"}
# Responses whose difflib stage ties, so that WRatio decides: fuzzywuzzy's decisions, recorded.
# By its top score alone, by the combined score on its scores, or not at all (a tie again).
FUZZY_STAGE = [
    ("BI-RADS 1 not BI-RADS 1 asymmetry level 4", BIRADS, "A"),
    (": left Level C both this", ACR, "D"),
    ("Level 1 benign option 2", LEVELS, "F"),
    ("Level D ** mammogram both tell", ACR, "B"),
    ("extremely . distortion 2 Normal distortion 5 Level 2", LEVELS, "C"),
    ("F ** answer CC asymmetry Level 3 extremely is", LEVELS, "D"),
    ("3 Level 4 I Level 1", LEVELS, "E"),
    ("ß Dense-glandular Fatty-glandular is I", TISSUE, "A"),
    ("is answer extremely is no", BIRADS, "E"),
    ("it dense . glandular", BIRADS, "E"),
    (") - Normal mass CC left Level 3", LEVELS, "A"),
    ("view cannot I 中 Normal : ( Level 4 ) 3", LEVELS, "A"),
    ("ü İ ** Dense-glandular Fatty-glandular A", TISSUE, "A"),
    ("(", {"A": "Right", "B": "Left"}, None),  # nothing left after processing: all 0
    ("ß İ", BIRADS, None),
    ("option 中", ACR, None),
    ("both shows BI-RADS 2 E tell 中 CC BI-RADS 3", BIRADS, None),
    ("mammogram normal - MLO both tell Level B Level D it", ACR, None),
]


@pytest.mark.parametrize(("response", "options", "expected"), FUZZY_STAGE,
                         ids=[r[0][:30] for r in FUZZY_STAGE])
def test_mammovqa_fuzzy_stage_decisions_are_fuzzywuzzys(response, options, expected):
    from medvqa.reading._mammovqa import _difflib_pick

    assert _difflib_pick(response.lower(), options) is None, "decided before the fuzzy stage"
    assert make_parser("mammovqa").parse(response, options, "single").choice == expected


@pytest.mark.parametrize(("response", "options", "expected"), FUZZY_STAGE,
                         ids=[r[0][:30] for r in FUZZY_STAGE])
def test_fuzzy_stage_rows_are_what_fuzzywuzzy_decides(fuzzywuzzy, response, options, expected):
    assert _reference_decision(fuzzywuzzy, response, options) == expected


_SOUP = st.sampled_from("left right yes no A B C D E F the answer is option level 4 5 1 2 3 mass "
                        "benign malignant fatty dense glandular I cannot tell : . , or not it "
                        "BI-RADS MLO CC view both İ é ß 中 - ( ) **".split(" "))


@settings(max_examples=150, deadline=None)
@given(options=st.sampled_from([LEVELS, ACR, BIRADS, TISSUE, {"A": "Yes", "B": "No"}]),
       words=st.lists(_SOUP, min_size=1, max_size=8), named=st.lists(st.integers(0, 5),
                                                                    max_size=2))
def test_mammovqa_decisions_equal_fuzzywuzzys(fuzzywuzzy, options, words, named):
    # Word soups with option texts: about one in six reaches the fuzzy stage.
    texts = list(options.values())
    response = " ".join([*words, *(texts[i % len(texts)] for i in named)])
    assert make_parser("mammovqa").parse(response, options, "single").choice == \
        _reference_decision(fuzzywuzzy, response, options)
