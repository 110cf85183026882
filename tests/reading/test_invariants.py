"""No false credit by construction: metamorphic invariants over the whole labelled corpus.

For every response the strict reader credits with X and every other option Y, offering Y beside
X — "X or Y" in every language of the table, "X/Y", "between X and Y", "X, although Y cannot be
excluded", a revision to Y after the answer, a trailing doubt in every language, two answer tags
— never leaves the credit on X; negating X never leaves it; a yes word followed by the question's
finding stated absent is not credited. The transforms' words come from the rule table.
"""

from __future__ import annotations

import json
import re
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from medvqa._resources import shipped_text
from medvqa.reading import Kind, make_parser
from medvqa.reading._phrases import expansions
from medvqa.reading.rules import RULES


def _rows() -> list[dict]:
    text = shipped_text("resources", "answers", "labelled_responses.jsonl")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _parse(text: str, row: dict):
    return make_parser("strict").parse(text, row["options"], row["question_type"],
                                       question=row.get("question") or "")


@cache
def _credited() -> tuple[tuple[dict, str], ...]:
    """(row, X) for every single or yes/no row read as its intended letter X."""
    return tuple((r, r["intended"]) for r in _rows()
                 if isinstance(r["intended"], str) and r["question_type"] != "multi"
                 and _parse(r["response"], r).choice == r["intended"])


def _phrases(kind: Kind, rule_id: str | None = None) -> list[str]:
    """Each phrase of ``kind`` written out (its first form), gaps left out."""
    return [expansions(p)[0] for r in RULES if r.kind is kind
            and (rule_id is None or r.id == rule_id) for p in r.phrases if "..." not in p]


_OR_WORDS = ["or", *_phrases(Kind.ALTERNATIVE, "alternative.other-languages")]
#: One doubt per language of the table (its first plain phrase).
_DOUBTS = sorted({r.lang: expansions(r.phrases[0])[0]
                  for r in reversed(RULES) if r.kind is Kind.HEDGE and r.lang != "*"}.items())
_REVISIONS = _phrases(Kind.REVISION, "revision.change-of-mind")


def _offers(row: dict, x: str, y: str) -> list[tuple[str, str]]:
    """The transforms of a credited response that offer ``y`` beside ``x``."""
    tx, ty = row["options"][x], row["options"][y]
    out = [(f"or:{w}", f"{tx} {w} {ty}") for w in _OR_WORDS]
    out += [("or-letters", f"{x} or {y}"), ("slash", f"{x}/{y}"), ("slash-text", f"{tx}/{ty}"),
            ("between", f"Somewhere between {tx} and {ty}."),
            ("not-excluded", f"{tx}, although {ty} cannot be excluded."),
            ("json-slash", json.dumps({"answer": f"{x}/{y}"})),
            ("two-tags", f"<answer>{x}</answer>\n<answer>{y}</answer>")]
    out += [(f"revision:{w}", f"{row['response']}\n\n{w.capitalize()}: on second look, {ty}.")
            for w in _REVISIONS[:6]]
    out += [("revision-letter", f"{row['response']}\n\nEdit: on second look, {y}.")]
    return out


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_offering_another_option_never_leaves_the_credit(data):
    row, x = data.draw(st.sampled_from(_credited()))
    y = data.draw(st.sampled_from(sorted(set(row["options"]) - {x})))
    for name, text in _offers(row, x, y):
        assert _parse(text, row).choice != x, (name, text, row["options"])


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_a_trailing_doubt_in_any_language_leaves_no_credit(data):
    row, x = data.draw(st.sampled_from(_credited()))
    lang, doubt = data.draw(st.sampled_from(_DOUBTS))
    text = f"{row['response']}\n\n{doubt}."
    assert _parse(text, row).choice != x, (lang, text)


def test_negating_the_chosen_option_never_leaves_it():
    for row, x in _credited():
        text = f"Not {row['options'][x]}."
        assert _parse(text, row).choice != x, text


_ASKED = re.compile(r"^(?:is|are) there (?:an? |any )?(.+?)\??$", re.IGNORECASE)


def test_a_yes_contradicted_by_the_finding_after_it_is_not_credited():
    asked = [(r, m.group(1)) for r, x in _credited()
             if r["question_type"] == "yesno" and (m := _ASKED.match(r.get("question") or ""))]
    assert asked, "the corpus asks presence questions"
    for row, finding in asked:
        text = f"Yes. No {finding} is seen."
        assert _parse(text, row).choice is None, (text, row["question"])


def test_the_corpus_is_large_enough_to_mean_something():
    assert len(_credited()) >= 400
