"""The case-sensitive twins of the cue patterns find what the originals find on lower-case ASCII."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from medvqa.reading import _cues

_TWINS = {name[:-6]: getattr(_cues, name) for name in dir(_cues) if name.endswith("_ASCII")
          and isinstance(getattr(_cues, name), re.Pattern)}
# Words from the cue lists and plain prose, so that the patterns have something to match.
_WORDS = sorted(_cues.NEG_WORDS | _cues.HEDGE_TRIGGERS | _cues.REFUSAL_TRIGGERS
                | _cues.DISCUSSED_WORDS | {"ruled", "out", "excluded", "is", "be", "been", "wait",
                                           "actually", "let", "me", "reconsider", "only", "doubt",
                                           "shows", "means", "the", "mass", "effusion", "e"})
_GLUE = [" ", ", ", ". ", "; ", "-", "'", "\n", " ) ", "*", "n't "]


def test_every_twin_drops_only_the_case_flag_of_a_lower_case_pattern() -> None:
    assert set(_TWINS) >= {"NEG_BEFORE", "NEG_AFTER", "NEG_AFTER_VERB", "NEG_STOP",
                           "NOT_NEGATIONS", "REVISION", "DEFERRAL"}
    for name, twin in _TWINS.items():
        original = getattr(_cues, name)
        assert original.flags & re.IGNORECASE and not twin.flags & re.IGNORECASE
        assert twin.pattern == original.pattern
        # Upper-case letters outside escapes (\b, \S …) would make the twin miss matches.
        literal = re.sub(r"\\.", "", original.pattern)
        assert literal == literal.lower(), name


@pytest.mark.parametrize("name", sorted(_TWINS))
@settings(max_examples=300, deadline=None)
@given(parts=st.lists(st.tuples(st.sampled_from(_WORDS), st.sampled_from(_GLUE)), max_size=12))
def test_twin_matches_equal_the_original_on_lower_case_ascii(name: str, parts) -> None:
    text = "".join(w + g for w, g in parts).lower()
    original, twin = getattr(_cues, name), _TWINS[name]
    assert [m.span() for m in twin.finditer(text)] == [m.span() for m in original.finditer(text)]


def test_non_ascii_text_keeps_the_folding_original() -> None:
    # "ſ" (long s) folds to "s" under IGNORECASE only: why the twins are used on ASCII alone.
    text = "ab\u017fence of a mass"
    assert _cues.NEG_BEFORE.search(text) is not None
    assert _cues.NEG_BEFORE_ASCII.search(text) is None


@pytest.mark.parametrize("name", ["REVISION", "DEFERRAL"])
@settings(max_examples=300, deadline=None)
@given(parts=st.lists(st.tuples(st.sampled_from(_WORDS + ["re-evaluate", "letting", "hmmm",
                                                          "iwait", "2wait", "_wait"]),
                                st.sampled_from(_GLUE)), max_size=12),
       pos=st.integers(0, 6))
def test_a_word_start_search_finds_the_twins_first_match(name: str, parts, pos: int) -> None:
    text = "".join(w + g for w, g in parts).lower()
    twin, fast = getattr(_cues, f"{name}_ASCII"), getattr(_cues, f"{name}_WORDS")
    got, want = fast.search(text, pos), twin.search(text, pos)
    assert (got and got.span()) == (want and want.span())


@pytest.mark.parametrize("check,table,triggers", [
    (_cues.refuses, _cues.REFUSAL_BY_WORD, _cues.REFUSAL_TRIGGERS),
    (_cues.hedges, _cues.HEDGE_BY_WORD, _cues.HEDGE_TRIGGERS)])
@settings(max_examples=400, deadline=None)
@given(parts=st.lists(st.tuples(st.sampled_from(_WORDS + ["i", "am", "sorry", "to", "say",
                                                          "rule", "determine", "be", "either",
                                                          "or", "possibly", "scan", "i'm"]),
                                st.sampled_from(_GLUE)), max_size=14))
def test_refusal_and_hedge_cues_read_by_word_start_are_their_sub_patterns(check, table, triggers,
                                                                         parts) -> None:
    # On lower-case ASCII text: the sub-patterns of the trigger words present, as before.
    text = "".join(w + g for w, g in parts).lower()
    words = _cues.word_set(text)
    want = any(table[w].search(text) for w in words & triggers if w in table)
    assert check(text, words) == want


def test_a_word_start_pattern_must_open_every_alternative_with_a_word() -> None:
    with pytest.raises(ValueError, match="not opened by"):
        _cues.WordStart(r"\bnot\b|n't\b")
    with pytest.raises(ValueError, match="word character"):
        _cues.WordStart(r"\b(?:'s|not)")
    # An optional opening group is not spread (its alternatives would not be the pattern's),
    # so the alternative does not open with a word character.
    with pytest.raises(ValueError, match="word character"):
        _cues.spread_word_start(r"\b(?:a\s+)?note")


def test_a_cue_found_through_another_trigger_of_its_alternative_is_still_found() -> None:
    # "perhaps" is no word of this text ("able'perhaps" is), but "sure" selects the whole
    # alternative maybe|perhaps|…|unsure, as it did before the alternatives were spread.
    text = "sure able'perhaps "
    assert _cues.HEDGE.search(text) is not None
    assert _cues.hedges(text, _cues.word_set(text))
