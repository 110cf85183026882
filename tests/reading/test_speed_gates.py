"""The hot path's gates decide nothing: each says "cannot" only where the check it skips finds
nothing. Each gate is compared with the check it guards, on generated texts."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from medvqa.reading._book import _PLAIN_TOKEN, _TOKEN, _TOKENS_SEEN, book, word_tokens
from medvqa.reading._conditioned import conditioned_at, may_be_conditioned
from medvqa.reading._coordinated import _BEFORE, _JOIN_ENDS, _JOINS, last_mention
from medvqa.reading._locate import _NOT_A_STOP, _STOP_LEN, _is_abbreviation
from medvqa.reading._offers import (
    _LABELLED_LETTER,
    _LONE_LINE,
    labelled_letters,
    may_hold_lone_line,
)
from medvqa.reading._options import bag_letters, bag_mentions, bag_windows, option_set
from medvqa.reading._own_turn import one_line_own, own_turn
from medvqa.reading._phrases import expansions
from medvqa.reading._polarity import Polarity
from medvqa.reading._quick import (
    _SIGN,
    _STRUCTURE,
    _STRUCTURE_CHAR,
    _ascii_letters,
    _signed,
    _structured,
    within,
)
from medvqa.reading._scan import Reading, scan
from medvqa.reading._strict_checks import (
    _MARKER_CONDITIONS,
    _MARKER_NEGATIONS,
    clause_may_hold,
)
from medvqa.reading._variants import _FEW_WRITTEN, _written_in
from medvqa.reading.rules import Kind

_OPTIONS = (("A", "Total lung collapse"), ("B", "Squamous cell carcinoma"),
            ("C", "Benign lung tissue"), ("D", "Large cell carcinoma"))
_WORDS = ["lung", "lungs", "collapse", "collapsed", "total", "squamous", "cell", "cells",
          "carcinoma", "benign", "tissue", "tissues", "large", "of", "the", "left", "and", "or",
          "vs", "vs.", "versus", "to", "&", "+", "/", "A", "B", "answer", "final", "say", "pick",
          "answers", "_answer", "choice:", "option", "\u017fay", "\u0130", ",", ".", "\n"]
_texts = st.lists(st.sampled_from(_WORDS), max_size=16).map(" ".join)


@settings(max_examples=600, deadline=None)
@given(text=_texts, cuts=st.lists(st.tuples(st.integers(0, 80), st.integers(0, 12)),
                                  max_size=3))
def test_bag_gates_find_what_the_windows_find(text, cuts):
    """The anchors' gate (taken spans blanked) passes over no option named by its words."""
    ix = option_set(_OPTIONS)
    taken = sorted({(a, min(a + n, len(text)), frozenset("A")) for a, n in cuts})
    assert bag_mentions(text, ix, taken) == bag_windows(text.lower(), ix, taken), (text, taken)
    named = {k for _, _, ks in bag_windows(text.lower(), ix, []) for k in ks}
    assert named <= bag_letters(text, ix), text
    assert named - {"B"} <= bag_letters(text, ix, frozenset("B")), text


@settings(max_examples=600, deadline=None)
@given(text=_texts, at=st.integers(0, 120))
def test_the_join_gate_skips_no_join(text, at):
    """Where the character before a mention cannot end a join, the join pattern finds none."""
    start = min(at, len(text))
    last = text[max(0, start - 40):start].rstrip(" \t")[-1:]
    if last.isascii() and last.lower() not in _JOIN_ENDS:
        assert _BEFORE.search(text, max(0, start - 40), start) is None, (text, start)


def test_the_join_gate_is_derived_from_the_joins():
    assert all(re.fullmatch("(?i)" + _BEFORE.pattern, f"word {w}") for w in _JOINS)


@settings(max_examples=600, deadline=None)
@given(text=_texts)
def test_a_one_word_marker_is_a_whole_word_only_among_the_words(text):
    """The markers' gate: a one-word key is bounded in a text only where it is one of its words."""
    lowered = text.lower()
    words = word_tokens(lowered)
    for kind in (Kind.ANSWER_MARKER, Kind.ANSWER_PICK):
        for key in book().sources(kind):
            if not key.isalnum():
                continue
            bounded = any((i == 0 or not lowered[i - 1].isalnum()) and (
                i + len(key) >= len(lowered) or not lowered[i + len(key)].isalnum())
                for i in (m.start() for m in re.finditer(re.escape(key), lowered)))
            assert bounded == (key in words), (text, key)


def test_the_structure_pattern_is_the_structure_set():
    assert all((_STRUCTURE_CHAR.search(chr(c)) is not None) == (chr(c) in _STRUCTURE)
               for c in range(0x3000))


@given(keys=st.sets(st.sampled_from("ABCDEFIKSZabc1"), min_size=1, max_size=6))
def test_the_letters_of_ascii_words(keys):
    """A one-letter ASCII word is an option letter where the derived set says so."""
    got = _ascii_letters(frozenset(keys))
    for c in map(chr, range(128)):
        assert (c in got) == (c.upper() in keys), c


_CONDITIONS = [expansions(p)[0] for p in book().sources(Kind.CONDITION)]
_conditioned_texts = st.lists(st.sampled_from(_WORDS + _CONDITIONS + ["iffy", "unlessx"]),
                              max_size=20).map(" ".join)


@settings(max_examples=600, deadline=None)
@given(text=_conditioned_texts)
def test_the_condition_gate_skips_no_condition(text):
    """Where the gate says no condition can follow the last mention, none follows it."""
    ix = option_set(_OPTIONS)
    for letter in ix.keys:
        span = last_mention(text, letter, ix)
        if span is not None and not may_be_conditioned(text, span[1], book()):
            assert not conditioned_at(text, span[1], book()), (text, letter)


_NEGATIONS = [expansions(p)[0] for k in (Kind.NEG_BEFORE, Kind.NEG_NOUN, Kind.PLAN)
              for p in book().sources(k)][:60] + _CONDITIONS
_marker_texts = st.lists(st.sampled_from(_WORDS + _NEGATIONS + ["nota", "ifs", "d'if", "x/no"]),
                         max_size=20).map(" ".join)


@settings(max_examples=600, deadline=None)
@given(text=_marker_texts, at=st.integers(0, 200))
def test_the_marker_clause_gate_skips_no_phrase(text, at):
    """Where the gate says the words before a place hold no phrase, no clause before it does."""
    start = min(at, len(text))
    for kinds in (_MARKER_NEGATIONS, _MARKER_CONDITIONS):
        if clause_may_hold(text, start, kinds, book()):
            continue
        begins = [0] + [i + 1 for i, c in enumerate(text[:start]) if c in ".;,!?\n:"]
        for begin in begins:
            fragment = text[begin:start].lower()
            for kind in kinds:
                assert book().search(kind, fragment, word_tokens(fragment)) is None, (
                    text, start, begin, kind)


_SPAN_WORDS = _WORDS + ["SCC", "BLT", "Lung", "lung-tissue", "cell's", "carcinomas", "benign's",
                        "Squamous", "large-cell", "d'", "cellular", "intercellular"]


@settings(max_examples=600, deadline=None)
@given(words=st.lists(st.sampled_from(_SPAN_WORDS), min_size=1, max_size=16),
       head=st.sampled_from(["", "The answer is B. ", "B: ", "C.  ", "B:\n"]),
       tail=st.sampled_from(["", " option D.", "  choice A"]))
def test_spans_within_a_text_are_the_spans_of_its_part(words, head, tail):
    """The options named in a part of a text, from the whole text's spans, are the part's own."""
    ix = option_set(_OPTIONS)
    core = " ".join(words).strip()
    text = head + core + tail
    got = within(text, core, len(head), ix)
    if got is not None:
        assert got == ix.phrases.find(core, core.lower()), (text, core)


def _walked_abbreviation(text: str, dot: int) -> bool:
    """:func:`_is_abbreviation` as it walks back one character at a time (the definition)."""
    limit, start = max(0, dot - _STOP_LEN), dot
    while start > limit and (text[start - 1].isalpha() or text[start - 1] == "."):
        start -= 1
    if start == limit and start and (text[start - 1].isalpha() or text[start - 1] == "."):
        return False
    word = text[start:dot].lower()
    return len(word) == 1 or word in _NOT_A_STOP


@settings(max_examples=600, deadline=None)
@given(text=st.text(alphabet="abeEgiB. 1\u00e9-", max_size=24), at=st.integers(0, 24))
def test_an_abbreviation_is_found_as_by_walking_back(text, at):
    dot = min(at, len(text))
    assert _is_abbreviation(text, dot) == _walked_abbreviation(text, dot), (text, dot)


_DISCUSSED = [expansions(p)[0] for p in book().sources(Kind.DISCUSSED_AFTER)]
_polar_texts = st.lists(st.sampled_from(_WORDS + _DISCUSSED + [
    "no", "not", "seen", "but", "though", "it's", "r/o", "-", "->", ";", "would've"]),
    min_size=1, max_size=18).map(" ".join)


@settings(max_examples=400, deadline=None)
@given(text=_polar_texts)
def test_the_discussed_after_gate_changes_no_reading(text):
    """Every mention's state is the same with the gate as with every clause read."""
    ix = option_set(_OPTIONS)
    gated = scan(text, ix, "single", bk=book())
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Polarity, "after_may_discuss", lambda self, start, stop: True)
        full = scan(text, ix, "single", bk=book())
    assert [getattr(gated, a) for a in Reading.__slots__] == [
        getattr(full, a) for a in Reading.__slots__], text


@settings(max_examples=600, deadline=None)
@given(text=st.text(alphabet=st.characters(max_codepoint=127), max_size=40))
def test_the_words_of_an_ascii_text_are_the_patterns_words(text):
    """The byte table's words of an ASCII text are the ones the token patterns find."""
    lowered = text.lower()
    words = frozenset(_PLAIN_TOKEN.findall(lowered))
    if "'" in lowered or "/" in lowered:
        words |= frozenset(_TOKEN.findall(lowered))
    _TOKENS_SEEN.clear()
    assert word_tokens(lowered) == words, text


@settings(max_examples=600, deadline=None)
@given(parts=st.lists(st.text(alphabet="ABCS'", min_size=1, max_size=4), min_size=1,
                      max_size=8),
       text=st.text(alphabet="ABCS's \u017f", max_size=30))
def test_the_abbreviations_loop_finds_what_their_pattern_finds(parts, text):
    pattern = re.compile("|".join(re.escape(p) for p in sorted(parts)))
    assert _written_in(tuple(sorted(parts)), text) == (pattern.search(text) is not None)


def test_an_option_sets_abbreviations_are_looked_for_one_by_one_when_few():
    phrases = option_set(_OPTIONS).phrases
    assert phrases.few_written is not None and len(phrases.few_written) <= _FEW_WRITTEN
    assert phrases.written is not None
    assert set(phrases.few_written) == set(phrases.abbreviations)


_TURN_WORDS = _WORDS + ["Question:", "question", "Q:", "q1.", "QUESTION :", "User:", "user:",
                        "Assistant:", "AI:", "<|user|>", "<|im_start|>", "[INST]", "[/INST]",
                        "<start_of_turn>", "</s>", "Case 3", "---", "Example 2:", ":", "?",
                        "\u017fystem:", "que\u017ftion:", "Is there a mass", "\n"]
_turn_texts = st.lists(st.sampled_from(_TURN_WORDS), max_size=14).map(" ".join)


@settings(max_examples=800, deadline=None)
@given(text=_turn_texts, asked=st.sampled_from(["", "Is there a mass?", "What is shown?"]))
def test_a_plain_line_is_its_own_turn(text, asked):
    """Where the gate says a one-line text is left as it is, own_turn leaves it (the same)."""
    for t in (text, text.replace("\n", " ")):
        if one_line_own(t, asked):
            assert own_turn(t, asked) is t, (t, asked)


@settings(max_examples=600, deadline=None)
@given(text=st.text(alphabet=" \t\n(B).![]xA", max_size=12))
def test_the_lone_line_gate_skips_no_lone_line(text):
    if not may_hold_lone_line(text):
        assert _LONE_LINE.search(text) is None, text


@settings(max_examples=600, deadline=None)
@given(text=st.text(alphabet=" \t:(|-0a1)", max_size=12))
def test_the_sign_gate_is_the_sign_pattern(text):
    assert _signed(text) == (_SIGN.search(text) is not None), text


@settings(max_examples=800, deadline=None)
@given(text=st.text(alphabet="AB(): \t\n.-xy,", max_size=24))
def test_the_labelled_letters_are_the_patterns_matches(text):
    """Without a bracket, colon or line break only a match at the start is looked for."""
    assert [m.span() for m in labelled_letters(text)] == [
        m.span() for m in _LABELLED_LETTER.finditer(text)], text


@settings(max_examples=600, deadline=None)
@given(text=st.text(alphabet=st.characters(max_codepoint=127), max_size=30))
def test_the_structure_bytes_are_the_structure_pattern(text):
    assert _structured(text) == (_STRUCTURE_CHAR.search(text) is not None), text
