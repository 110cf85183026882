import pytest

from medvqa.benchmark import PromptError, list_templates, load_template, render_prompt
from medvqa.schema import Item


def _item(**kw):
    base = dict(id="a", question="Which breast is shown?", options={"A": "Left", "B": "Right"},
                answer="B", question_type="single")
    base.update(kw)
    return Item(**base)


def test_mammovqa_single_choice_prompt_is_the_published_text():
    text = render_prompt(_item(), load_template("mammovqa"))
    assert text == (
        "This is a mammography-related medical question with several options, only one of which "
        "is correct. Select the correct answer and respond with just the chosen option, without "
        "any further explanation. ### Question: Which breast is shown? ### Options: A: Left, "
        "B: Right. ### Answer:"
    )


def test_mammovqa_multi_and_yesno_variants():
    t = load_template("mammovqa")
    multi = render_prompt(_item(question_type="multi", answer=["A"]), t)
    assert "one or more of which may be correct" in multi
    yesno = render_prompt(
        _item(question_type="yesno", options={"A": "Yes", "B": "No"}, answer="A"), t
    )
    assert "with 'Yes' or 'No' options. Respond with only 'Yes' or 'No'" in yesno


def test_pathmmu_prompt_lists_options_in_parentheses():
    text = render_prompt(_item(), load_template("pathmmu"))
    assert text.splitlines()[1:3] == ["(A) Left", "(B) Right"]
    assert text.endswith("Answer with the option's letter from the given choices directly.")


def test_lmod_prompts_take_fields_from_meta():
    t = load_template("lmod")
    item = _item(question_type="grade", options={"A": "1", "B": "2"}, answer="A",
                 meta={"prompt_key": "glaucoma", "image_type": "a color fundus photograph"})
    assert render_prompt(item, t).endswith(
        "Follow the format: GLAUCOMA / NON-GLAUCOMA; Explanation: <JUSTIFICATION>.")
    with pytest.raises(PromptError, match="image_type"):
        render_prompt(_item(meta={"prompt_key": "staging"}), t)


def test_unknown_template_suggests_a_close_name():
    with pytest.raises(PromptError, match="Did you mean 'mammovqa'"):
        load_template("mammovq")
    assert {"default", "mammovqa", "pathmmu", "lmod"} <= set(list_templates())
