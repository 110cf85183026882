"""An answer given only as code: the value the program ends with, never a branch."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from medvqa.reading import make_parser
from medvqa.reading._code_answer import code_answer

CXR = {"A": "Pleural effusion", "B": "Pneumothorax", "C": "Pulmonary oedema", "D": "Normal"}
_FORMS = ['print("{}")', "echo '{}'", 'answer <- "{}"', 'const answer = "{}";',
          "SELECT '{}' AS answer;", 'return "{}"']


@given(st.sampled_from("ABCD"), st.sampled_from(_FORMS))
def test_each_output_form_reads_its_letter(letter, form):
    text = "```\n" + form.format(letter) + "\n```"
    assert code_answer(text) == letter
    assert make_parser("strict").parse(text, CXR, "single").choice == letter


@given(st.lists(st.sampled_from("ABCD"), min_size=2, max_size=4))
def test_the_last_assignment_is_what_the_program_ends_with(letters):
    code = "\n".join(f'answer = "{x}"' for x in letters)
    assert code_answer(f"```python\n{code}\nprint(answer)\n```") == letters[-1]


@pytest.mark.parametrize("code", [
    "answer = 'B' if width > 5 else 'A'",
    "if apex_clear:\n    answer = 'D'\nelse:\n    answer = 'B'",
    "answer = None  # TODO: decide between 'A' and 'B'",
])
def test_a_branch_or_no_value_reads_nothing(code):
    assert code_answer(f"```python\n{code}\n```") is None


def test_prose_that_speaks_of_the_options_answers_instead_of_the_code():
    text = "It could be a pleural effusion or a pneumothorax.\n```python\nprint('B')\n```"
    assert make_parser("strict").parse(text, CXR, "single").choice is None


def test_a_truth_value_answers_a_yes_no_question():
    text = "```python\ndef has_fracture(film):\n    return False\n```"
    got = make_parser("strict").parse(text, {"A": "Yes", "B": "No"}, "yesno",
                                      question="Is there a fracture?")
    assert got.choice == "B"
