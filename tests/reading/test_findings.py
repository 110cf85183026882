"""Findings that answer a yes/no question: the asked one's label answers, the others do not."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from medvqa.reading._book import book
from medvqa.reading._findings import asked_parts, finding_answers, names_asked

PTX = "Is there a pneumothorax?"


def test_a_label_names_the_asked_finding_or_another() -> None:
    assert names_asked("Pneumothorax", PTX) and names_asked("- Small pneumothorax", PTX)
    assert not names_asked("Pleural effusion", PTX)
    assert not names_asked("Perineural invasion", "Is there lymphovascular invasion?")


def test_only_the_asked_finding_s_parts_of_a_labelled_list_are_read() -> None:
    assert asked_parts("effusion: present; pneumothorax: absent", PTX) == "pneumothorax: absent"
    assert asked_parts("answer: pneumothorax: absent\neffusion: yes", PTX) == \
        "pneumothorax: absent"
    assert asked_parts("pneumothorax: absent", PTX) is None  # one label: read as it stands
    assert asked_parts("right: yes\nleft: no", PTX) is None  # no label names it


def test_a_label_s_state_the_rules_do_not_read_is_no_presence() -> None:
    bk = book()
    assert finding_answers("acl: intact", "Is the ACL torn?", bk) == set()
    assert finding_answers("pneumothorax: present", PTX, bk) == {"yes"}
    assert finding_answers("pneumothorax: absent", PTX, bk) == {"no"}


_OTHERS = st.sampled_from(["effusion", "cardiomegaly", "consolidation", "rib fracture"])
_STATES = st.sampled_from([("present", "yes"), ("absent", "no"), ("yes", "yes"), ("no", "no")])


@given(st.lists(st.tuples(_OTHERS, _STATES), min_size=1, max_size=3, unique_by=lambda r: r[0]),
       _STATES, st.integers(0, 3))
def test_other_findings_in_the_list_never_change_the_answer(others, asked, at) -> None:
    rows = [f"{name}: {state}" for name, (state, _) in others]
    rows.insert(min(at, len(rows)), f"pneumothorax: {asked[0]}")
    assert finding_answers(asked_parts("\n".join(rows), PTX) or "", PTX, book()) == {asked[1]}
