"""The strict parser's speed shortcuts decide as the full reading does (hypothesis).

Each shortcut (a mention read without its clause where no clause test is cued, a segment's
reading remembered, an abbreviation walk cut short) is switched off by a test double and the
decision compared with the shortcut's.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from medvqa.reading import (
    _locate,
    _quick,
    _reading,
    _strict,
    clear_caches,
    compiled_rules,
    make_parser,
)
from medvqa.reading._cues import NEG_STARTS, WORD, may_start_negation, word_tokens
from medvqa.reading._reading import option_set, scan

_POOL = ["Left", "Right", "Pleural effusion", "Pneumothorax", "Pulmonary oedema", "Normal",
         "Adenocarcinoma", "Squamous cell carcinoma", "Hepatocellular carcinoma", "Glaucoma",
         "Non-glaucoma", "Fatty-glandular", "Fatty", "Mass", "Stage 2", "Yes", "No"]
# Plain words and every cue of a clause test (questions, concessions, negations, discussion),
# letters in and out of letter positions, markers and punctuation.
_WORDS = ["the", "image", "shows", "a", "with", "in", "field", "12", "and", "is", "most",
          "consistent", "likely", "of", "dense", "pleural effusion", "pneumothorax", "edema",
          "so", "benign", "normal", "left", "right", "mass", "fatty", "non-glaucoma", "B", "A",
          "C", "(B)", "B.", "B:", "answer", "Answer:", "The answer is", "option", "I would say",
          "not", "no", "n't", "never", "ruled", "out", "excluded", "unlikely", "incorrect",
          "wrong", "absent", "less", "false", "negative", "eliminated", "improbable", "?",
          "although", "though", "despite", "albeit", "would", "if", "typically", "doubt",
          "denied", "lacking", "without", "-", ",", ".", ";", ":", "\n", "Final answer:", "yes",
          "E. coli", "e.g.", "approx.", "Dr.", "fig.", "\u00e9", "Stage 2", "hepatitis E",
          "inconsistent", "incompatible", "rejected", "dismissed", "excludable", "neg",
          "hardly", "vs", "versus", "mimicking", "fails to", "than", "anything but",
          "considered and", "which is", "|", "=", "no evidence", "[ ]", "\u2610", "\u274c",
          "least likely", "distractor", "0", "(-)", "by elimination", "no longer", "resolved"]
_texts = st.lists(st.sampled_from(_POOL), min_size=2, max_size=5, unique=True)
_sentence = st.lists(st.sampled_from(_WORDS), min_size=1, max_size=24).map(" ".join)


def _options(texts: list[str]) -> dict[str, str]:
    return dict(zip("ABCDE", texts, strict=False))


@settings(max_examples=500, deadline=None)
@given(text=_sentence, texts=_texts, qtype=st.sampled_from(["single", "multi", "yesno"]))
def test_a_mention_without_clause_cues_reads_as_with_its_clause(text, texts, qtype,
                                                               monkeypatch_module):
    ix = option_set(tuple(_options(texts).items()))
    fast = scan(text, ix, qtype)
    # Every text cued: the clause ends are always computed.
    monkeypatch_module.setattr(_reading, "_clause_cued", lambda lowered: True)
    try:
        full = scan(text, ix, qtype)
    finally:
        monkeypatch_module.undo()
    assert fast == full, text


@settings(max_examples=300, deadline=None)
@given(text=_sentence, texts=_texts, qtype=st.sampled_from(["single", "multi", "yesno"]),
       question=st.sampled_from(["", "Is there a pneumothorax?", "Is it normal?"]))
def test_a_remembered_segment_reads_as_a_fresh_one(text, texts, qtype, question):
    ix = option_set(tuple(_options(texts).items()))
    segment = "Answer: " + text
    first = _strict._scan_segment(segment, ix, qtype, question)
    again = _strict._scan_segment(segment, ix, qtype, question)
    assert first == again == scan(segment, ix, qtype, question)


@settings(max_examples=300, deadline=None)
@given(word=st.text(alphabet=st.sampled_from(list("abcdegilmnoprstvxyzEIB.\u0130")), max_size=14),
       before=st.sampled_from(["", " ", "is ", "x"]))
def test_the_short_abbreviation_walk_agrees_with_the_whole_walk(word, before):
    text = before + word + "."
    dot = len(text) - 1
    start = dot
    while start > 0 and (text[start - 1].isalpha() or text[start - 1] == "."):
        start -= 1
    whole = text[start:dot].lower()
    assert _locate._is_abbreviation(text, dot) == (len(whole) == 1
                                                   or whole in _locate._NOT_A_STOP)


@settings(max_examples=300, deadline=None)
@given(words=st.lists(st.sampled_from(_WORDS), min_size=1, max_size=24), texts=_texts,
       question=st.sampled_from(["", "Is there a pneumothorax?"]))
def test_the_strict_parser_decides_the_same_warm_and_cold(words, texts, question):
    options = _options(texts)
    text = " ".join(words)
    qtype = "yesno" if {"Yes", "No"} <= set(texts) else "single"
    forms = (text, "Final answer: " + text, text + "\nAnswer: B", "So I would say " + text)
    clear_caches()
    cold = [make_parser("strict").parse(t, options, qtype, question=question) for t in forms]
    warm = [make_parser("strict").parse(t, options, qtype, question=question) for t in forms]
    assert cold == warm


@pytest.fixture(scope="module")
def monkeypatch_module():
    """A monkeypatch that hypothesis may share between the examples of one test.

    Only on the rules from source: compiled rule modules call each other directly, so a
    function replaced in a module would go unused and the test could not fail. Where the
    rules are compiled, ``test_compiled_rules`` runs these tests from source instead.
    """
    if compiled_rules()[0]:
        pytest.skip("replaces a rule function, which compiled rules do not look up: run from "
                    "source by test_compiled_rules")
    mp = pytest.MonkeyPatch()
    yield mp
    mp.undo()


@settings(max_examples=500, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("abdeiklnorstuxc'/ ?<>{}[]()|\\\n:\"*_`#.")
                                              + list("AB1é\u00e9\u0130\u017f-")), max_size=40))
def test_substring_tests_agree_with_their_definitions(text):
    lone = re.search(r"(?<![A-Za-z0-9])[A-Z](?![A-Za-z0-9])", text) is not None
    if text.isascii():  # (quick readings are of ASCII texts only)
        assert _quick._structure_or_capital(text) == (
            not _quick._STRUCTURE.isdisjoint(text) or lone)
    lowered = text.lower()
    tokens = WORD.findall(lowered)  # first the WORD tokens, then parts of joined ones
    assert [w.decode() for w in word_tokens(lowered)][:len(tokens)] == tokens
    words = {w.decode() for w in word_tokens(text)}  # with the parts of joined tokens
    starts = any(w.startswith(NEG_STARTS) for w in words)
    assert not starts or may_start_negation(text)
    assert starts == (_reading._NEG_START.search(text) is not None)


@pytest.mark.parametrize("first", ["", "Is there a pleural effusion?"])
def test_a_yes_no_reading_remembered_for_one_question_is_not_reused_for_another(first):
    """A finding answers a yes/no question only when it is what was asked: the memo of a
    reading made without the question, or for another one, must not decide this one."""
    yes_no = {"A": "Yes", "B": "No"}
    text = "A pneumothorax is seen."
    asked = "Is there a pneumothorax?"
    clear_caches()
    fresh = make_parser("strict").parse(text, yes_no, "yesno", question=asked)
    clear_caches()
    make_parser("strict").parse(text, yes_no, "yesno", question=first)
    after = make_parser("strict").parse(text, yes_no, "yesno", question=asked)
    assert after == fresh
    assert fresh.choice == "A"


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("HCCPENSDRAMDhcpe (),.")), max_size=30),
       texts=st.lists(st.sampled_from(_POOL + ["Pulmonary embolism", "Basal cell carcinoma",
                                               "Age-related macular degeneration"]),
                      min_size=2, max_size=5, unique=True))
def test_the_abbreviation_pattern_finds_what_a_test_per_abbreviation_finds(text, texts):
    phrases = option_set(tuple(_options(texts).items())).phrases
    each = any(a in text for a in phrases.abbreviations)
    assert (phrases.written is not None and phrases.written.search(text) is not None) == each


# The rest of a response beside a marked letter: plain words, option texts, every cue a quick
# reading must see (negations, hedges, discussion, markers, capitals, letters, explanations),
# colons and parentheses.
_REST_PLAIN = ["the", "nuclei", "in", "field", "9", "show", "marked", "atypia", "mucin", "glands",
               "so", "this", "is", "consistent", "with", "and", ",", ".", ":", "(field 3)",
               "(b)", "pleural effusion", "pneumothorax", "fatty", "mass", "normal", "left",
               "right", "adenocarcinoma", "e.g.", "-", "Field", "The"]
_REST_CUES = ["(B)", "(adenocarcinoma)", "(see", "notes)", "not", "no", "n't", "ruled out",
              "excluded", "unlikely", "maybe", "would", "if", "although", "wait", "actually",
              "answer", "option", "Answer:", "Final answer:", "the answer is", "B", "A", "C",
              "E", "B.", "C:", "it is", "therefore", "Explanation:", "reason:", "I", "E. coli",
              "denied", "lacking", "?", "Stage 2", "hepatitis E", "respuesta:", "say",
              "let me", "take a closer look", "more time", "before answering",
              # negations a quick reading accepts apart from every mention, and their reach
              "no", "no atypia", "never", "without", "none", "nothing", "neither", "nor",
              "absence of", "absent", "wrongly", "unless likely", "is", "clearly", "been",
              ") no", "seems", "pleural effusion no", "is never", "non-glaucoma",
              # statuses after a label and adverbs before a negation (rule 16)
              "- none", ", none", "- no", "-> no", "highly", "very", "truly", "much", "does",
              "none seen", ", no.", "; none",
              # this round's negations and hedges (rules 8, 16, 17)
              "inconsistent with", "is incompatible", "was considered and rejected", "- neg",
              ", which is absent", "hardly", "versus", "vs", "mimicking", "fails to show",
              "more likely than", "anything but", ": no evidence", "questionable", "my guess",
              "consider", "low confidence", "may represent"]
_REST = _REST_PLAIN * 8 + _REST_CUES
_rest = st.lists(st.sampled_from(_REST), min_size=3, max_size=20).map(" ".join)


def _marked_forms(letter: str, rest: str) -> list[str]:
    """A letter in each marked position a quick reading accepts, beside ``rest``."""
    tail = rest.rstrip(" .")
    return [f"The answer is {letter}. {rest}", f"The answer is {letter}. {rest.capitalize()}",
            f"{letter}: {rest}",
            f"{tail[:1].upper()}{tail[1:]} option {letter}.", f"{tail} option {letter}",
            f"{rest.capitalize()}.", f"{rest} and more."]  # the last two: plain, no letter


@settings(max_examples=800, deadline=None)
@given(rest=_rest, texts=_texts, letter=st.sampled_from(list("ABCDEF")),
       qtype=st.sampled_from(["single", "grade"]))
def test_a_marked_letter_read_quickly_reads_as_the_full_reading(rest, texts, letter, qtype,
                                                                monkeypatch_module):
    """The quick reading of a letter in a marked position (and of a plain sentence) decides
    as the full reading: the quick path switched off, every form read again."""
    options = _options(texts)
    forms = _marked_forms(letter, rest)
    clear_caches()
    quick = [make_parser("strict").parse(t, options, qtype) for t in forms]
    monkeypatch_module.setattr(_strict, "quick_read", lambda text, ix: None)
    try:
        clear_caches()
        full = [make_parser("strict").parse(t, options, qtype) for t in forms]
    finally:
        monkeypatch_module.undo()
    assert quick == full, forms


@pytest.mark.parametrize(("text", "choice"), [
    ("The answer is B. The glands in field 9 show keratin pearls and marked atypia.", "B"),
    ("B: squamous cell carcinoma. The nuclei show intercellular bridges (field 12).", "B"),
    ("Field 9: mucin in the glands and gland formation, which suggests option A.", "A")])
def test_a_marked_letter_beside_a_plain_sentence_is_read_quickly(text, choice):
    options = {"A": "adenocarcinoma", "B": "squamous cell carcinoma", "C": "benign lung tissue"}
    quick = _quick.quick_read(text, option_set(tuple(options.items())))
    assert quick == make_parser("strict").parse(text, options, "single")
    assert quick is not None and quick.choice == choice


@settings(max_examples=500, deadline=None)
@given(words=st.lists(st.sampled_from(_WORDS + ["nothing", "none", "neither", "nor", "absence",
                                                "no2", "no_x", "no-x", "nonsense", "knot",
                                                "snow", "without", "nor,", "(no)"]),
                      min_size=1, max_size=24))
def test_in_a_text_cued_by_apart_negations_only_neg_before_finds_just_those(words):
    from medvqa.reading._cues import NEG_BEFORE

    lowered = " ".join(words).lower()
    if _quick._cues_of(lowered, lowered) == _quick._NEGATED:
        assert _quick._apart_negations(lowered) == [
            m.span() for m in NEG_BEFORE.finditer(lowered)]
    words_of = "|".join(_quick._APART_WORDS)
    assert _quick._apart_negations(lowered) == [
        m.span() for m in re.finditer(rf"\b(?:{words_of})\b", lowered)]


# What may follow a located answer: asides in brackets, letters in and out of brackets,
# keywords that take a bracketed letter, Markdown, yes/no words, hedges.
_TAIL_PIECES = [" (", "(", "[", ")", "]", "b", "B", "c", "C", "C.", "case 3", "therefore ", "thus ",
                "it is ", "it's ", "**", "_", "`", "\n", ": ", ", ", " or ", " and ", "option ",
                "adenocarcinoma", "squamous cell carcinoma", "yes", "Yes", "no", "so ", ".",
                "see field 9", "maybe", "not", " "]
_TAIL_OPTIONS = {"A": "adenocarcinoma", "B": "squamous cell carcinoma", "C": "benign lung tissue",
                 "D": "large cell carcinoma"}


@settings(max_examples=1500, deadline=None)
@given(pieces=st.lists(st.sampled_from(_TAIL_PIECES), max_size=9),
       lead=st.sampled_from(["\n", "\n\n", "; ", ". ", " "]))
def test_a_tail_passed_over_cannot_change_the_answer(pieces, lead):
    """Where the check after a located answer passes over a tail, reading it finds nothing
    that would undo the answer: no refusal or hedge, no letter position ("Answer: D\n\nC",
    "… D.; C." hold one)."""
    tail = lead + "".join(pieces)
    ix = option_set(tuple(_TAIL_OPTIONS.items()))
    if not _strict._tail_may_matter(tail, False):
        after = scan(tail, ix, "single")
        assert after.verdict not in ("refusal", "hedge"), (tail, after)
        assert not (after.lettered - after.negated), (tail, after)


# What may precede a located answer: option texts (written variously), their abbreviations,
# letters, negations, refusals, keywords that take a letter, Markdown.
_BEFORE_PIECES = ["hepatocellular carcinoma", "Hepatocellular Carcinomas", "HCC", "FNH",
                  "haemangioma", "hemangiomas", "focal nodular hyperplasia", "metastases",
                  "metastasis", "A", "B", "(C)", "d", " not ", " no ", "without ", "excluded",
                  "ruled out", " is unlikely", "unable", "cannot", "the image", "answer is ",
                  "it is ", "therefore ", "**", "_", ", ", ". ", "; ", "\n", " ", "case 3",
                  "liver", "so"]
_BEFORE_OPTIONS = {"A": "Hepatocellular carcinoma", "B": "Haemangioma",
                   "C": "Focal nodular hyperplasia", "D": "Metastasis"}


@settings(max_examples=800, deadline=None)
@given(pieces=st.lists(st.sampled_from(_BEFORE_PIECES), max_size=10),
       chosen=st.sets(st.sampled_from("ABCD"), min_size=1, max_size=2))
def test_a_before_passed_over_cannot_undo_the_answer(pieces, chosen):
    """Where a text before a located answer has a cue but the check passes it over (it does
    not name the chosen option), reading it finds no refusal and no negation of that option."""
    before = "".join(pieces)
    ix = option_set(tuple(_BEFORE_OPTIONS.items()))
    chosen = frozenset(chosen)
    if _strict._before_cued(before) and not _strict._before_may_matter(before, chosen, ix):
        prior = scan(before, ix, "single", hedge=False)
        assert prior.verdict != "refusal", (before, prior)
        assert not (chosen & prior.negated), (before, prior)


@pytest.mark.parametrize("text", [
    "The lung fields were reviewed with care and pneumothorax - none seen anywhere.",
    "The lung fields were reviewed with care and the pneumothorax - no.",
    "After a careful look at both lung fields the pneumothorax -> no."])
def test_a_status_after_a_label_is_never_read_past_quickly(text):
    # "X - none": the status reaches X across the label's mark (rule 16), so the quick reading
    # of a sentence whose only negation is "none" or "no" must not call it apart from X.
    options = {"A": "Pleural effusion", "B": "Pneumothorax", "C": "Normal"}
    quick = _quick.quick_read(text, option_set(tuple(options.items())))
    full = make_parser("strict").parse(text, options, "single")
    assert full.invalid and full.reason == "negated"
    assert quick is None or quick == full
