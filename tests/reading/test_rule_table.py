"""The rule table: every row well formed, every example decided as it says on every path, and
every phrase needed (leaving it out changes an example's decision, quick path and full)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from medvqa.reading import RULES, Kind
from medvqa.reading._book import RuleBook
from medvqa.reading._phrases import compile_phrase, expansions
from medvqa.reading._strict import StrictParser
from medvqa.reading.rules import OPTION_SETS

WORDED = [r for r in RULES if r.kind is not Kind.STRUCTURAL]


def _parsed(parser: StrictParser, example):
    return parser.parse(example.response, OPTION_SETS[example.options], example.qtype,
                        question=example.question)


def _decision(parser: StrictParser, example) -> object:
    got = _parsed(parser, example)
    if got.invalid:
        return None
    return tuple(got.choice) if isinstance(got.choice, list) else got.choice


def _changed(parser: StrictParser, example) -> bool:
    """Whether the decision (the choice, or the reason of an abstention) differs."""
    full = _parsed(StrictParser(quick=False), example)
    got = _parsed(parser, example)
    return (got.choice, got.reason) != (full.choice, full.reason)


def test_ids_are_unique_and_named_by_their_kind_group():
    ids = [r.id for r in RULES]
    assert len(ids) == len(set(ids))
    assert all("." in i and i == i.lower() for i in ids)


def test_every_rule_has_an_example_and_every_worded_rule_words():
    for r in RULES:
        assert r.doc.strip(), r.id
        assert r.examples or r.counter or r.id in ("structural.not-text", "structural.too-long")
    for r in WORDED:
        assert r.phrases, r.id
        assert r.examples, r.id


@pytest.mark.parametrize("rule", WORDED, ids=[r.id for r in WORDED])
def test_every_phrase_compiles_and_matches_its_own_forms(rule):
    for source in rule.phrases:
        phrase = compile_phrase(source)
        for text in expansions(source):
            if "..." in source:
                continue
            assert phrase.pattern.search(text.lower()), (rule.id, source, text)


EXAMPLES = [(r.id, e, "example") for r in RULES for e in r.examples] + [
    (r.id, e, "counter") for r in RULES for e in r.counter]


@pytest.mark.parametrize(("rule_id", "example", "role"), EXAMPLES,
                         ids=[f"{i}:{e.response[:40]!r}" for i, e, _ in EXAMPLES])
def test_every_example_is_decided_as_it_says_on_both_paths(rule_id, example, role):
    expected = example.expected
    assert _decision(StrictParser(), example) == expected, (rule_id, example.response)
    assert _decision(StrictParser(quick=False), example) == expected, (rule_id, "full path")


@pytest.mark.parametrize("rule", WORDED, ids=[r.id for r in WORDED])
def test_every_phrase_changes_a_decision_when_left_out(rule):
    """Leaving any one phrase out of the table changes one of its rule's examples, on the quick
    path and on the full reading: no word of the table is idle, and no gate hides one."""
    idle = []
    for source in rule.phrases:
        book = RuleBook(without=frozenset({source}))
        for quick in (True, False):
            parser = StrictParser(book, quick=quick)
            if not any(_changed(parser, e) for e in rule.examples):
                idle.append((source, "quick" if quick else "full"))
    assert not idle, f"{rule.id}: phrases that decide none of its examples: {idle}"


def _table_words() -> list[str]:
    from medvqa.reading._phrases import phrase_words

    return sorted({w for r in WORDED for p in r.phrases for w in phrase_words(p)
                   if w.isascii() and w.isalpha()})


_TABLE_WORDS = _table_words()
_PLAIN = ["pneumothorax", "pleural", "effusion", "normal", "oedema", "pulmonary", "the", "field",
          "nuclei", "show", "in", "with", "line", "apex", "sharp", "left", "lung", "film",
          "edge", "visible", "large", "small", "seen", "here", "on", "of", ",", "."]


@settings(max_examples=1500, deadline=None)
@given(words=st.lists(st.sampled_from(_PLAIN), min_size=10, max_size=24),
       cues=st.lists(st.tuples(st.integers(0, 24), st.sampled_from(_TABLE_WORDS)), max_size=2))
def test_the_quick_path_decides_as_the_full_reading(words, cues):
    """A plain sentence the fast path reads is read the same way by the full reading."""
    for at, word in cues:
        words.insert(min(at, len(words)), word)
    text = " ".join(words).replace(" ,", ",").replace(" .", ".")
    options = OPTION_SETS["CXR"]
    quick = StrictParser().parse(text, options, "single")
    full = StrictParser(quick=False).parse(text, options, "single")
    assert (quick.choice, quick.reason) == (full.choice, full.reason), (text, quick, full)
