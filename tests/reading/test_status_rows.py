"""Each option's status written inline, as single letters or grouped: read as rows."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from medvqa.reading import make_parser
from medvqa.reading._status_rows import as_status_rows

MM = {"A": "Mass", "B": "Calcification", "C": "Architectural distortion", "D": "Asymmetry"}
_statuses = st.lists(st.booleans(), min_size=4, max_size=4).filter(any)


def _chosen(flags: list[bool]) -> list[str]:
    return [k for k, on in zip("ABCD", flags, strict=True) if on]


@given(_statuses, st.sampled_from([("Present", "Absent"), ("T", "F"), ("true", "false")]),
       st.sampled_from([". ", ": ", " - "]))
def test_every_inline_form_reads_the_rows_set(flags, words, sep):
    text = " ".join(f"{k}{sep}{words[0] if on else words[1]}." for k, on in
                    zip("ABCD", flags, strict=True))
    got = make_parser("strict").parse(text, MM, "multi")
    assert got.choice == _chosen(flags), text


@given(_statuses)
def test_the_grouped_form_reads_as_its_rows(flags):
    true = ", ".join(_chosen(flags))
    false = ", ".join(k for k, on in zip("ABCD", flags, strict=True) if not on)
    text = f"True: {true}" + (f"\nFalse: {false}" if false else "")
    rows = as_status_rows(text)
    if false:
        assert rows is not None
        assert make_parser("strict").parse(text, MM, "multi").choice == _chosen(flags)
    else:
        assert rows is None  # one group alone is no table of every option's status


def test_anything_else_leaves_the_text_as_it_is():
    assert as_status_rows("A: no tube over the trachea. B: present.") is None
    assert as_status_rows("A: present. A: absent.") is None  # one option, two statuses
    assert as_status_rows("A: present, B: absent, C: maybe") is None  # a status it does not know


def test_rows_a_line_with_a_reason_after_a_dash_are_rows():
    text = "A) no\nB) YES \u2014 air foci and continuity with the lumen\nC) no\nD) no"
    assert as_status_rows(text) == "A: false\nB: true\nC: false\nD: false"
