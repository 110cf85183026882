"""The optimised ``strict`` parser (one combined regex pass, per-option-set tables, a memo of
short responses) against a straightforward re-statement of the same rules."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from medvqa.score.parsers import INVALID, ParsedAnswer, make_parser
from medvqa.score.parsers._strict import _END

# --- the reference: every rule written out plainly, no tables, no caches -------------------

_MARKUP = re.compile(r"[*_`]+")
_BARE = re.compile(r"^[\s(\[{<]*([A-Za-z])[\s)\]}>.:,;!]*$")
_ANSWER_IS = re.compile(
    r"^(?:the\s+)?(?:final\s+|correct\s+|best\s+)?(?:answer|option|choice)\s*(?:is|:|=|-)?\s*"
    r"(?:option\s+)?[(\[]?([A-Za-z])(?![A-Za-z])[)\]]?\s*[.:)]?\s*(.*)$",
    re.IGNORECASE | re.DOTALL,
)
_LETTER_TEXT = re.compile(r"^[(\[]?([A-Z])[)\]]?\s*[:.)\-]\s+(.+)$", re.DOTALL)
_FIELD = re.compile(r"^(?:answer|stage|grade|diagnosis|type|level)\s*[:=]\s*(.+)$", re.IGNORECASE)
_NAMED_LETTER = re.compile(
    r"\(([A-Z])\)|\boption\s+([A-Z])\b|\banswer\s+is\s+\(?([A-Z])\b|\bchoice\s+([A-Z])\b"
)
_SPLIT_MULTI = re.compile(r"\s*(?:,|;|/|\band\b|&|\s)\s*", re.IGNORECASE)
_ANSWERS_ARE = re.compile(r"^(?:the\s+)?(?:correct\s+)?answers?\s*(?:are|is|:)\s*", re.I)
_PUNCT_END = re.compile(r"[\s.!,;:]+$")
_REFUSAL = re.compile(
    r"\b(?:i\s*(?:am|'m)\s+(?:sorry|unable|not able)|i\s+can(?:not|'t|\s+not)|unable\s+to"
    r"|not\s+possible\s+to|cannot\s+(?:be\s+)?determin|can't\s+(?:be\s+)?determin"
    r"|i\s+do(?:\s+not|n't)\s+know|insufficient\s+(?:information|evidence)"
    r"|as\s+an\s+ai|not\s+able\s+to\s+(?:see|view|determine))",
    re.IGNORECASE,
)
_YES = {"yes", "true", "y", "correct", "present", "positive"}
_NO = {"no", "false", "n", "incorrect", "absent", "negative"}


def _clean(text: str) -> str:
    return _PUNCT_END.sub("", _MARKUP.sub("", text).strip())


def _by_text(options: dict[str, str]) -> dict[str, str]:
    return {_clean(v).lower(): k for k, v in options.items()}


def _agrees(rest: str, letter: str, options: dict[str, str]) -> bool:
    other = _by_text(options).get(rest.lower())
    return other is None or other == letter


def _leading(text: str, options: dict[str, str], qtype: str) -> str | None:
    if m := _BARE.match(text):
        letter = m.group(1).upper()
        return letter if letter in options else ""
    if m := _ANSWER_IS.match(text):
        letter, rest = m.group(1).upper(), _clean(m.group(2))
        if letter in options:
            return letter if not rest or _agrees(rest, letter, options) else ""
    if m := _LETTER_TEXT.match(text):
        letter = m.group(1)
        if letter in options:
            return letter if _agrees(_clean(m.group(2)), letter, options) else ""
    if m := _FIELD.match(text):
        text = m.group(1)
    cleaned = _clean(text).lower()
    if cleaned in _by_text(options):
        return _by_text(options)[cleaned]
    if qtype == "yesno":
        first = re.split(r"[\s,.;:!]+", cleaned, maxsplit=1)[0]
        polarity = "yes" if first in _YES else "no" if first in _NO else None
        for letter, text in options.items():
            if polarity and _clean(text).lower() == polarity:
                return letter
    return None


def _named(text: str, options: dict[str, str]) -> set[str]:
    named = {next(g for g in m.groups() if g) for m in _NAMED_LETTER.finditer(text)}
    named &= set(options)
    lowered = text.lower()
    hits = [(k, p) for k, v in options.items() if (p := _clean(v).lower())
            and re.search(rf"(?<!\w){re.escape(p)}(?!\w)", lowered)]
    for letter, phrase in hits:
        if not any(phrase != p and phrase in p for _, p in hits):
            named.add(letter)
    return named


def _multi(text: str, options: dict[str, str]) -> ParsedAnswer:
    if _REFUSAL.search(text):
        return INVALID
    head = re.split(r"[;\n]", text, maxsplit=1)[0]
    if m := _FIELD.match(head):
        head = m.group(1)
    head = _ANSWERS_ARE.sub("", head)
    by_text = _by_text(options)
    phrases = [p.strip() for p in re.split(r"\s*(?:,|;|\band\b)\s*", _clean(head))]
    if phrases and all(p.lower() in by_text for p in phrases if p):
        letters = {by_text[p.lower()] for p in phrases if p}
        return ParsedAnswer(sorted(letters), False) if letters else INVALID
    letters = set()
    for token in [t for t in _SPLIT_MULTI.split(_clean(head)) if t]:
        t = token.strip("()[]{}.:")
        if len(t) == 1 and t.upper() in options:
            letters.add(t.upper())
        else:
            return INVALID
    return ParsedAnswer(sorted(letters), False) if letters else INVALID


def reference_parse(response: str, options: dict[str, str], qtype: str) -> ParsedAnswer:
    """The strict rules as the module docstring states them, one step after another."""
    fast = response.strip()
    if fast in options and qtype != "multi":
        return ParsedAnswer(fast, False)
    text = _MARKUP.sub("", fast).strip()
    if not text:
        return INVALID
    if qtype == "multi":
        return _multi(text, options)
    head = re.split(r"[;\n]", text, maxsplit=1)[0].strip()
    for candidate in dict.fromkeys((head, text)):
        got = _leading(candidate, options, qtype)
        if got is not None:
            return ParsedAnswer(got, False) if got else INVALID
    if _REFUSAL.search(text):
        return INVALID
    named = _named(text, options)
    return ParsedAnswer(named.pop(), False) if len(named) == 1 else INVALID


# --- generated responses from the pieces the rules react to --------------------------------

_TEXTS = ["Left", "Right", "Yes", "No", "benign lung tissue", "lung tissue", "Mass", "**Mass**",
          "Level A", "A", "b", "no change", "Answer", "right."]
_PIECES = ["A", "B", "C", "E", "a", "b", "(B)", "[C]", "**", "_", "`", "Answer", "answer",
           "The answer is", "the correct answer is", "Final answer:", "option", "choice", ":",
           ".", ",", ";", "\n", " ", "  ", "-", ")", "(", "Yes", "no", "True", "Stage:",
           "Diagnosis =", "I cannot determine", "I'm sorry", "and", "&", "/", "left", "Right",
           "benign lung tissue", "lung tissue", "mass", "level a", "\u00a0", "\u2003", "!", "x"]
_options = st.lists(st.sampled_from(_TEXTS), min_size=1, max_size=5).map(
    lambda texts: dict(zip("ABCDE", texts, strict=False)))
_responses = st.lists(st.sampled_from(_PIECES), max_size=9).map(" ".join) | st.lists(
    st.sampled_from(_PIECES), max_size=9).map("".join) | st.text(max_size=30)
_qtypes = st.sampled_from(["single", "yesno", "multi", "grade"])


@settings(max_examples=600, deadline=None)
@given(response=_responses, options=_options, qtype=_qtypes)
def test_strict_equals_the_plain_rules(response, options, qtype):
    parser = make_parser("strict")
    expected = reference_parse(response, options, qtype)
    assert parser.parse(response, options, qtype) == expected
    assert parser.parse(response, options, qtype) == expected  # again, from the memo


@pytest.mark.parametrize("response", [
    "Right.\u00a0.", "Right .\u2003!", "B: Left.\u00a0.", "Answer: B, Left\u2003.",
    "B: Right\n.", "Answer: B.\u3000;", "Answer: Z; B",
    "The answer is z: Right", "A) Left", "Stage: Right ,\u00a0", "Answer: Right", "(B) Right",
    "**B**: Left", "option B or (A)", "It is right, not left", "Yes\u2028no", "answer is B",
])
@pytest.mark.parametrize("qtype", ["single", "yesno", "multi"])
def test_strict_equals_the_plain_rules_on_edge_cases(response, qtype):
    options = {"A": "Left", "B": "Right", "C": "Yes", "D": "No"}
    assert make_parser("strict").parse(response, options, qtype) == \
        reference_parse(response, options, qtype)


def test_trailing_characters_are_exactly_regex_whitespace_and_punctuation():
    spaces = {c for c in map(chr, range(0x110000)) if c.isspace()}
    assert set(_END) == spaces | set(".!,;:")
    assert all(re.fullmatch(r"\s", c) for c in spaces)


def test_strict_equals_the_plain_rules_on_the_bench_mixes():
    from medvqa.bench._scoring import _OPTIONS, realistic_responses, responses

    parser = make_parser("strict")
    for text in realistic_responses(1500, seed=1) + responses(1500, seed=1):
        for qtype in ("single", "multi"):
            assert parser.parse(text, _OPTIONS, qtype) == reference_parse(text, _OPTIONS, qtype)


def test_bench_realistic_mix_is_seeded_and_about_30_percent_distinct():
    from medvqa.bench._scoring import realistic_responses

    mix = realistic_responses(5000, seed=3)
    assert mix == realistic_responses(5000, seed=3)
    assert 0.25 < len(set(mix)) / len(mix) < 0.35
