"""The case-sensitive twins of the cue patterns find what the originals find on lower-case ASCII."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from medvqa.score.parsers import _cues

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
