"""The three demo recipes: IDRiD grade (balanced), LC25000 tissue class, VQA-RAD import."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from benchcheck import check_bench, letter_balance_p

from medvqa.recipes import BuildConfig, build_benchmark


@pytest.fixture(scope="module")
def idrid(tmp_path_factory: pytest.TempPathFactory, data_dir: Path) -> Path:
    out = tmp_path_factory.mktemp("p1") / "idrid"
    build_benchmark(BuildConfig("idrid_dr_grade", out, seed=0, data_root=data_dir))
    return out


def test_idrid_grades_are_balanced(idrid: Path) -> None:
    _, items = check_bench(idrid)
    grades = Counter(i.options[i.answer] for i in items)
    assert set(grades) == {"0", "1", "2", "3", "4"}
    assert len(set(grades.values())) == 1


def test_idrid_grade_options_in_order(idrid: Path) -> None:
    _, items = check_bench(idrid)
    assert all(list(i.options.values()) == ["0", "1", "2", "3", "4"] for i in items)
    assert all(i.question_type == "grade" for i in items)


def test_idrid_train_and_test_sets_kept_apart(idrid: Path) -> None:
    _, items = check_bench(idrid)
    assert len({i.case_id for i in items}) == len(items)  # IDRiD_005 is in both sets


def test_lc25000_classes_and_letter_balance(tmp_path: Path, data_dir: Path) -> None:
    build_benchmark(BuildConfig("lc25000_lung", tmp_path / "b", seed=3, data_root=data_dir))
    _, items = check_bench(tmp_path / "b")
    texts = Counter(i.options[i.answer] for i in items)
    assert set(texts) == {"adenocarcinoma", "benign lung tissue", "squamous cell carcinoma"}
    assert letter_balance_p(items) > 0.05
    assert len({i.question for i in items}) > 1  # several phrasings


def test_splits_roughly_7_1_2(tmp_path: Path, data_dir: Path) -> None:
    build_benchmark(BuildConfig("lc25000_lung", tmp_path / "b", seed=0, data_root=data_dir))
    _, items = check_bench(tmp_path / "b")
    c = Counter(i.split for i in items)
    assert c["test_tiny"] == 15
    assert c["train"] == pytest.approx(105, abs=6)
    assert c["val"] == pytest.approx(15, abs=4)
    assert c["test"] + c["test_tiny"] == pytest.approx(30, abs=5)


def test_vqa_rad_import(tmp_path: Path, data_dir: Path) -> None:
    build_benchmark(BuildConfig("vqa_rad", tmp_path / "v", seed=0, data_root=data_dir))
    _, items = check_bench(tmp_path / "v")
    assert len(items) == 304
    yesno = [i for i in items if i.question_type == "yesno"]
    assert yesno and all(set(i.options.values()) == {"Yes", "No"} for i in yesno)
    assert all(i.meta["answer_type"] == "CLOSED" for i in yesno)
    opens = [i for i in items if i.question_type == "open"]
    assert opens and all(i.options == {} for i in opens)
    for it in items:
        assert it.case_id == Path(it.meta["source_file"]).name
        assert it.split == ("test" if it.meta["phrase_type"].startswith("test") else "train")
    assert letter_balance_p(yesno) > 0.05
