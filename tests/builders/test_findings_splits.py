"""Finding crops with same-size normal crops (mini-MIAS), grouped stratified splits, filter spec."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from benchcheck import check_bench
from PIL import Image

from medvqa.builders import Draft, assign_splits
from medvqa.curate._guessable import parse_filter_spec
from medvqa.recipes import BuildConfig, build_benchmark
from medvqa.schema import Item


def test_mini_mias_finding_and_normal_crops(tmp_path: Path, data_dir: Path) -> None:
    build_benchmark(BuildConfig("mini_mias", tmp_path / "m", seed=0, data_root=data_dir))
    _, items = check_bench(tmp_path / "m")
    findings = {i.id: i for i in items if i.category == "finding type"}
    normals = [i for i in findings.values() if "normal_crop_for" in i.meta]
    assert normals
    for n in normals:
        f = findings[f"finding type/{n.meta['normal_crop_for']}"]
        a = Image.open(tmp_path / "m" / f.images[0]).size
        b = Image.open(tmp_path / "m" / n.images[0]).size
        assert a == b
        assert n.options[n.answer] == "normal"
    cats = Counter(i.category for i in items)
    assert set(cats) == {"background tissue", "abnormality", "pathology", "finding type"}


def test_retinamnist_balanced(tmp_path: Path, data_dir: Path) -> None:
    build_benchmark(BuildConfig("retinamnist_dr_grade", tmp_path / "r", seed=0, data_root=data_dir))
    _, items = check_bench(tmp_path / "r")
    assert set(Counter(i.options[i.answer] for i in items).values()) == {92}


def _draft(i: int, case: str, label: str) -> Draft:
    return Draft(Item(id=str(i), question="q", options={"A": "x", "B": "y"}, answer=label,
                      question_type="single", case_id=case, source="s"))


def test_splits_grouped_and_stratified() -> None:
    drafts = [_draft(i, f"c{i // 3}", "AB"[i % 2]) for i in range(600)]
    assign_splits(drafts, {"train": 7, "val": 1, "test": 2}, seed=5, test_tiny=20)
    by_case: dict[str, set[str]] = {}
    for d in drafts:
        by_case.setdefault(d.item.case_id or "", set()).add(d.item.split)
    assert all(len(s) == 1 for s in by_case.values())
    c = Counter(d.item.split for d in drafts)
    assert abs(c["train"] - 420) <= 6 and abs(c["val"] - 60) <= 6
    assert 18 <= c["test_tiny"] <= 20  # whole cases of 3, never more than asked
    per = Counter((d.item.split, d.item.answer) for d in drafts)
    assert abs(per[("train", "A")] - per[("train", "B")]) <= 6


def test_splits_depend_on_seed_only() -> None:
    a = [_draft(i, f"c{i}", "AB"[i % 2]) for i in range(100)]
    b = [_draft(i, f"c{i}", "AB"[i % 2]) for i in range(100)]
    assign_splits(a, {"train": 7, "val": 1, "test": 2}, seed=1)
    assign_splits(b, {"train": 7, "val": 1, "test": 2}, seed=1)
    assert [d.item.split for d in a] == [d.item.split for d in b]


def test_filter_spec() -> None:
    assert parse_filter_spec("guessable:random,frequent") == (["random", "frequent"], 2)
    assert parse_filter_spec("guessable:m1,m2,m3,m4:3") == (["m1", "m2", "m3", "m4"], 3)
