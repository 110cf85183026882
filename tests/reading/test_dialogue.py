"""Dialogues (``structural.dialogue``): speakers' lines found, their answers set aside only
where a final answer follows them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from medvqa.reading import make_parser
from medvqa.reading._book import book
from medvqa.reading._dialogue import speaker_lines

CXR = {"A": "Pleural effusion", "B": "Pneumothorax", "C": "Pulmonary oedema", "D": "Normal"}
_ROLES = ["Resident", "Attending", "Dr Lee", "**Fellow**", "Reader 2", "Consultant (chest)"]


def test_speakers_lines_are_found_where_two_speakers_talk():
    body = "Resident: I'd call it C.\nAttending: look again.\nFinal answer: B"
    assert [label for _, _, label in speaker_lines(body, book())] == ["resident", "attending"]
    assert speaker_lines("Resident: C.\nResident: B.", book()) == []  # one speaker
    assert speaker_lines("Answer: C\nReason: the margin\nImpression: B", book()) == []


@settings(max_examples=60, deadline=None)
@given(first=st.sampled_from(_ROLES), second=st.sampled_from(_ROLES),
       early=st.sampled_from("ACD"), final=st.sampled_from(["Final answer (consensus): B",
                                                             "**Answer: B**", "Final answer: B"]))
def test_a_final_answer_after_the_dialogue_stands(first, second, early, final):
    if first.strip("*").split()[0] == second.strip("*").split()[0]:
        second = "Attending" if "Attending" not in first else "Resident"
    body = (f"{first}: I'd call this {CXR[early].lower()} ({early}).\n{second}: look again, the "
            f"pleural line is there.\n{first}: agreed.\n\n{final}")
    assert make_parser("strict").parse(body, CXR, "single").choice == "B"


@settings(max_examples=40, deadline=None)
@given(early=st.sampled_from("ACD"))
def test_speakers_who_disagree_without_a_final_answer_leave_it_open(early):
    body = f"Resident: I'd call it {early}.\nAttending: I'd call it B."
    assert make_parser("strict").parse(body, CXR, "single").invalid
