"""The model's own turn: invented examples and the user's lines are never read as its answer."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from medvqa.reading import make_parser
from medvqa.reading._own_turn import own_turn

PE = {"A": "Pleural effusion", "B": "Pneumothorax", "C": "Normal"}


def test_a_continuation_after_the_answer_is_cut() -> None:
    assert own_turn("A, C\n\n---\nCase 12\nFindings: B") == "A, C"
    assert own_turn("B\n\nQuestion: Is the heart enlarged?\nAnswer: no") == "B"
    assert own_turn("B<|endofchunk|>Question: next\nAnswer: C") == "B"
    assert own_turn("D</s><s>[INST] <image> Next image [/INST]") == "D"


def test_a_response_opening_on_another_question_is_all_invented() -> None:
    text = "Question: Is there cardiomegaly?\nAnswer: No"
    assert own_turn(text, "Is there a pneumothorax?") == ""
    assert own_turn(text, "Is there cardiomegaly on this film?") == text


def test_only_the_assistant_s_lines_of_a_transcript_are_read() -> None:
    got = own_turn("User: I think it is a pneumothorax.\nAssistant: That is reasonable.")
    assert "pneumothorax" not in got and "reasonable" in got
    answered_first = "B\n\nUser: thanks! And the next one?\nAssistant: A"
    assert own_turn(answered_first) == "B"


def test_the_strict_reader_credits_no_invented_answer() -> None:
    parser = make_parser("strict")
    got = parser.parse("The apex is clear.\n\nExample 5:\nQuestion: Which?\nAnswer: B", PE,
                       "single")
    assert got.choice is None and got.rule == "structural.continuation"
    assert parser.parse("B\n\n---\nCase 3\nAnswer: A", PE, "single").choice == "B"


@given(st.text(max_size=200))
def test_own_turn_only_takes_away(text: str) -> None:
    got = own_turn(text)
    assert len(got) <= len(text)
    assert set(got.split()) <= set(text.split()) | {""}


def test_an_invented_example_that_asks_the_item_s_question_again_is_read_beside_it() -> None:
    from medvqa.reading._own_turn import reasked_answers

    asked = "Is there a pneumothorax?"
    text = "Answer: Yes\nQuestion: Is there an effusion?\nAnswer: No\nQuestion: " + asked + \
        "\nAnswer: No"
    assert reasked_answers(text, asked) == ["Answer: No"]
    # an example on another image asks its own case's question
    assert reasked_answers("Yes\n\nExample 2\nImage: <image>\nQuestion: " + asked +
                           "\nAnswer: No", asked) == []
    parser = make_parser("strict")
    yes_no = {"A": "Yes", "B": "No"}
    again = parser.parse(text, yes_no, "yesno", question=asked)
    assert again.choice is None and again.rule == "structural.continuation"
    same = parser.parse(text.replace("Answer: No", "Answer: Yes"), yes_no, "yesno",
                        question=asked)
    assert same.choice == "A"


def test_a_challenge_the_model_wrote_and_answered_is_returned():
    from medvqa.reading._own_turn import invented_replies

    text = ("A<|im_end|>\n<|im_start|>user\nAre you sure?<|im_end|>\n"
            "<|im_start|>assistant\nSorry, it's B.<|im_end|>")
    assert invented_replies(text) == ["Sorry, it's B."]
    # a new question the model invented is another item's: its reply is not returned
    assert invented_replies("B\nUser: Next question, which side?\nAssistant: A") == []
