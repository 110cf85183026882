"""Keyword filter (MIRA): word-boundary matching, variants, threshold sweep on the labelled CSV."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from medvqa.curate.llm import (
    KeywordList,
    KeywordMatcher,
    keyword_sweep,
    load_keywords,
    read_labelled,
    term_pattern,
)
from medvqa.curate.llm._texts import resource_path
from medvqa.errors import BadInputError

LABELLED = resource_path("captions", "ir_labelled_sample.csv")


def _matcher(*terms: str) -> KeywordMatcher:
    return KeywordMatcher(KeywordList(name="t", categories={"c": list(terms)}))


def test_shipped_list_has_100_terms_in_5_categories() -> None:
    kw = load_keywords("mira_ir")
    assert len(kw.categories) == 5
    assert len(KeywordMatcher(kw)) == 100


@pytest.mark.parametrize(
    "text", ["two stents", "a Stent-Graft", "stent graft", "stentgraft", "STENTS."]
)
def test_plural_hyphen_and_case_variants_match(text: str) -> None:
    assert _matcher("stent-graft", "stent").count(text) >= 1


def test_y_plural_and_multiword_terms() -> None:
    m = _matcher("artery", "portal vein")
    assert m.count("both arteries and the portal-vein") == 2


@pytest.mark.parametrize("text", ["stentless valve", "the nonstent arm", "stent_x"])
def test_word_boundaries_reject_embedded_terms(text: str) -> None:
    assert _matcher("stent").count(text) == 0


def test_a_term_counts_once_however_often_it_occurs() -> None:
    assert _matcher("coil", "stent").count("coil, coil and more coils") == 1


@given(st.from_regex(r"[a-z]{3,10}", fullmatch=True), st.from_regex(r"[a-z]{1,5}", fullmatch=True))
def test_property_term_inside_a_longer_word_never_matches(term: str, suffix: str) -> None:
    # a suffix that is itself a plural ending may legitimately match (stent + s)
    if suffix in {"s", "es"} or (term.endswith("y") and suffix == "ies"):
        return
    assert not re.search(term_pattern(term), f"x {term}{suffix} y", re.I)


@given(st.from_regex(r"[a-z]{3,10}", fullmatch=True), st.sampled_from([" ", ", ", ". ", "("]))
def test_property_term_between_separators_matches(term: str, sep: str) -> None:
    assert re.search(term_pattern(term), f"start{sep}{term}{sep}end", re.I)


def test_sweep_on_the_labelled_sample_peaks_at_two_terms() -> None:
    rows = keyword_sweep("mira_ir", LABELLED)
    assert [r.k for r in rows] == [1, 2, 3, 4, 5]
    assert max(rows, key=lambda r: r.f1).k == 2  # MIRA's chosen threshold
    assert rows[0].recall == 1.0
    assert all(r.tp + r.fp + r.fn + r.tn == 40 for r in rows)
    assert rows[-1].recall < rows[0].recall


def test_bad_label_names_the_row(tmp_path: Path) -> None:
    bad = tmp_path / "l.csv"
    bad.write_text("caption,label\nstent in artery,1\nsomething,maybe\n")
    with pytest.raises(BadInputError, match=r"l.csv:3: label"):
        read_labelled(bad)


def test_missing_keyword_file_is_bad_input(tmp_path: Path) -> None:
    with pytest.raises(BadInputError, match="not found"):
        load_keywords(tmp_path / "nope.yaml")
