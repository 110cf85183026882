"""MammoVQA JSON import: questions kept, options shuffled with the seed, exams, bad rows.

The fixture ``fixtures/mammovqa_mini_mias.json`` is written in the published MammoVQA layout
(id → Path, Question topic, Question type, Question, Options, Answer, Dataset) over real
mini-MIAS films, with answers taken from mini-MIAS's Info.txt; its last two rows are bad on
purpose (an answer outside the options, a missing image).
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
from benchcheck import check_bench, tree_digest

from medvqa.benchmark import load_template, render_prompt, validate_benchmark
from medvqa.recipes import BuildConfig, build_benchmark

FIXTURE = Path(__file__).parent / "fixtures" / "mammovqa_mini_mias.json"
RECIPE = """
name: mammovqa_mini
type: mammovqa
prompt_template: mammovqa
sources:
  - dataset: MammoVQA
    license: CC BY-NC 4.0 (MammoVQA); images MIAS research licence
    reader: table
    path: mini_mias/all-mias
    labels: [mammovqa.json]
"""


@pytest.fixture()
def root(tmp_path: Path, data_dir: Path) -> Path:
    # A copy: a link out of the recipe's folder is refused (the path guard holds for recipes).
    shutil.copytree(data_dir / "mini_mias", tmp_path / "mini_mias")
    (tmp_path / "mammovqa.json").write_bytes(FIXTURE.read_bytes())
    (tmp_path / "r.yaml").write_text(RECIPE)
    return tmp_path


def _build(root: Path, out: str = "out", seed: int = 0):  # noqa: ANN202
    result = build_benchmark(
        BuildConfig(str(root / "r.yaml"), root / out, seed=seed, data_root=root)
    )
    return result, check_bench(root / out)[1]


def test_questions_and_options_kept(root: Path) -> None:
    _, items = _build(root)
    source = json.loads(FIXTURE.read_text())
    assert len(items) == len(source) - 2
    for it in items:
        row = source[it.id.split("/")[1]]
        assert it.question == row["Question"]
        assert sorted(it.options.values()) == sorted(row["Options"])
        answers = row["Answer"] if isinstance(row["Answer"], list) else [row["Answer"]]
        assert sorted(it.options[a] for a in it.answer_letters) == sorted(answers)
        assert it.category == row["Question topic"]


def test_question_types_mapped(root: Path) -> None:
    _, items = _build(root)
    kinds = Counter(i.question_type for i in items)
    assert kinds == {"single": 10, "multi": 5, "yesno": 6}
    assert all(isinstance(i.answer, list) for i in items if i.question_type == "multi")


def test_exams_are_multi_image_and_one_case(root: Path) -> None:
    _, items = _build(root)
    exams = [i for i in items if i.meta["level"] == "exam"]
    assert len(exams) == 2
    assert all(len(i.images) == 2 for i in exams)
    assert {i.case_id for i in exams} == {"MIAS-060", "MIAS-100"}
    assert exams[0].meta["mammovqa"]["Patient ID"] == "MIAS-060"


def test_bad_rows_named(root: Path) -> None:
    result, _ = _build(root)
    lines = sorted(str(p) for p in result.problems)
    assert len(lines) == 2
    assert lines[0].startswith("mammovqa.json:22:") and "not among the Options" in lines[0]
    assert lines[1].startswith("mammovqa.json:23:") and "mdb999.jpg not found" in lines[1]


def test_seeded_and_letters_spread(root: Path) -> None:
    _, a = _build(root, "a", seed=0)
    _, b = _build(root, "b", seed=0)
    _, c = _build(root, "c", seed=1)
    assert tree_digest(root / "a") == tree_digest(root / "b")
    assert [i.options for i in a] != [i.options for i in c]
    bg = [i for i in a if i.category == "Background tissue" and i.meta["level"] == "image"]
    assert len(Counter(i.answer for i in bg)) == 3  # balanced positions use every letter


def test_published_prompt_renders(root: Path) -> None:
    _, items = _build(root)
    it = next(i for i in items if i.question_type == "single")
    prompt = render_prompt(it, load_template("mammovqa"))
    assert f"### Question: {it.question} ### Options: A: " in prompt
    assert validate_benchmark(root / "out").ok
