import re
from pathlib import Path

import pytest

from medvqa.benchmark import PromptError, list_templates, load_template, render_prompt
from medvqa.errors import BadInputError
from medvqa.schema import Item, load_prompt_file


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


@pytest.mark.parametrize("shipped", [
    "answer/default.yaml", "answer/lmod.yaml", "answer/mammovqa.yaml", "answer/pathmmu.yaml",
    "extract.yaml", "failure_judge.yaml", "llm_builders.yaml"])
def test_every_shipped_prompt_file_reads_through_the_one_loader(shipped: str) -> None:
    read = load_prompt_file(None, shipped=shipped, what="prompt")
    assert read.version >= 1 and read.source == f"medvqa:prompts/{shipped}" and read.fields


@pytest.mark.parametrize(("text", "line"), [
    ("- a\n- b\n", "the judge prompt must be a YAML mapping"),
    ("version: 1\nsystem: ''\n", "judge prompt: missing field 'system'"),
    ("version: one\nsystem: x\n", "judge prompt: field 'version' is not a number"),
    ("version: 1\nsystem: &a x\n", "an anchor (&a) is not read"),
])
def test_a_bad_prompt_file_is_one_line_naming_file_and_field(tmp_path, text: str,
                                                             line: str) -> None:
    path = tmp_path / "p.yaml"
    path.write_text(text)
    with pytest.raises(BadInputError) as caught:
        load_prompt_file(path, shipped="failure_judge.yaml", what="judge prompt",
                         required=("system",))
    message = str(caught.value)
    assert "p.yaml" in message and line in message and "\n" not in message


#: Modules that name the prompts folder: the loader, and the listing of shipped answer
#: templates. The extractor's loader in ``medvqa.reading`` is the one left to move onto
#: :func:`~medvqa.schema.load_prompt_file` (that package is being reworked elsewhere).
_NAMES_PROMPTS = {"schema/_prompt_file.py", "benchmark/_prompts.py", "reading/_extract_prompt.py"}


def test_prompt_files_are_read_in_one_place() -> None:
    src = Path(__file__).resolve().parents[1] / "src" / "medvqa"
    naming = {str(p.relative_to(src)) for p in src.rglob("*.py")
              if re.search(r"shipped_(path|text)\(\s*\"prompts\"", p.read_text("utf-8"))}
    assert naming == _NAMES_PROMPTS
