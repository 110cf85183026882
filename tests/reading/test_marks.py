"""Marked lists and forms: rows read by their marks, uncertain rows never read as an answer."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from medvqa.reading import make_parser
from medvqa.reading._marks import read_marks

BIR = {"A": "BI-RADS 2", "B": "BI-RADS 3", "C": "BI-RADS 4", "D": "BI-RADS 5"}
YN = {"A": "Yes", "B": "No"}
PTX = "Is there a pneumothorax?"


def test_a_line_of_several_marks_is_one_row_a_mark_with_its_group_named_once() -> None:
    got = read_marks("Category:  [ ] 2   [ ] 3   [x] 4   [ ] 5")
    assert got is not None and got.labels == ["Category: 4"]
    assert read_marks("Type:  I \u2610   II \u2611   III \u2610").labels == ["Type: II"]
    two = read_marks("Pick:  (\u25cf) A  (\u25cf) B  ( ) C")
    assert two is not None and two.labels == ["A", "B"]


def test_an_uncertain_row_is_read_as_a_hedge_and_the_reader_abstains() -> None:
    got = read_marks("[x] Mass\n[ ] Cyst\n[?] Calcification")
    assert got is not None and got.labels == ["Mass", "possibly Calcification"]
    parser = make_parser("strict")
    assert parser.parse("A \u2713   B ?   C \u2717", BIR, "single").choice is None


def test_negative_rows_are_set_aside_for_the_checks_after_the_reading() -> None:
    parser = make_parser("strict")
    listed = "A. BI-RADS 2\nB. BI-RADS 3\n\u2192 C. BI-RADS 4\nD. BI-RADS 5"
    assert parser.parse(listed, BIR, "single").choice == "C"
    assert read_marks(listed).rejected == [(0, 12), (13, 25), (41, 53)]
    assert parser.parse("A. Yes\nB. No   \u2190", YN, "yesno", question=PTX).choice == "B"


def test_a_form_of_findings_is_answered_by_the_asked_finding_s_row() -> None:
    parser = make_parser("strict")
    form = "Effusion:  \u2611 Present  \u2610 Absent\nPneumothorax:  \u2610 Present  \u2611 Absent"
    assert parser.parse(form, YN, "yesno", question=PTX).choice == "B"
    assert parser.parse(form, YN, "yesno", question="Is there an effusion?").choice == "A"
    after = "\u2610 Yes \u2611 No \u2014 Effusion\n\u2611 Yes \u2610 No \u2014 Pneumothorax"
    assert parser.parse(after, YN, "yesno", question=PTX).choice == "A"


_MARKS = st.sampled_from(["[x]", "[ ]", "(\u25cf)", "( )", "\u2611", "\u2610", "?"])


@given(st.lists(st.tuples(_MARKS, st.sampled_from(["2", "3", "4", "5"])), min_size=2,
                max_size=4, unique_by=lambda r: r[1]))
def test_a_form_is_read_only_when_one_row_alone_is_marked(rows) -> None:
    text = "Category:  " + "   ".join(f"{mark} {value}" for mark, value in rows)
    got = make_parser("strict").parse(text, BIR, "single")
    marked = [v for mark, v in rows if mark in ("[x]", "(\u25cf)", "\u2611")]
    unsure = any(mark == "?" for mark, _ in rows)
    if got.choice is not None:
        assert not unsure and marked == [BIR[got.choice].split()[-1]]
