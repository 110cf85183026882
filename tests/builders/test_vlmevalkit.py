"""VLMEvalKit TSV: export → import gives the same items and image bytes; plain VLMEvalKit TSVs
(index references, image lists, no medvqa columns) import; bad rows are named."""

from __future__ import annotations

import base64
import csv
import json
from pathlib import Path

import pytest
from benchcheck import check_bench, load

from medvqa.builders import BuildConfig, build_benchmark
from medvqa.builders._vlmevalkit import export_vlmevalkit, image_strings, parse_answer

IMPORT = """
name: {name}
type: vlmevalkit
sources:
  - dataset: {name}
    license: as exported
    reader: table
    path: {tsv}
"""


@pytest.fixture(scope="module")
def benches(tmp_path_factory: pytest.TempPathFactory, data_dir: Path) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("vlm")
    out = {}
    for name in ("vqa_rad", "mini_mias_regions", "idrid_dr_grade"):
        out[name] = root / name
        build_benchmark(BuildConfig(name, out[name], seed=0, data_root=data_dir))
    return out


@pytest.mark.parametrize("name", ["vqa_rad", "mini_mias_regions", "idrid_dr_grade"])
def test_round_trip(name: str, benches: dict[str, Path], tmp_path: Path) -> None:
    result = export_vlmevalkit(benches[name], tmp_path / f"{name}.tsv")
    _, original = load(benches[name])
    assert result.items == len(original)
    (tmp_path / "r.yaml").write_text(IMPORT.format(name=name, tsv=f"{name}.tsv"))
    back = build_benchmark(
        BuildConfig(str(tmp_path / "r.yaml"), tmp_path / "back", data_root=tmp_path)
    )
    assert not back.problems
    _, again = check_bench(tmp_path / "back")
    assert [i.model_dump() for i in again] == [i.model_dump() for i in original]
    assert (tmp_path / "back" / "items.jsonl").read_bytes() == (
        benches[name] / "items.jsonl"
    ).read_bytes()


def test_export_columns(benches: dict[str, Path], tmp_path: Path) -> None:
    export_vlmevalkit(benches["idrid_dr_grade"], tmp_path / "x.tsv")
    with (tmp_path / "x.tsv").open(newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    assert list(rows[0])[:9] == ["index", "image", "question", "hint", "A", "B", "C", "D", "E"]
    assert rows[0]["index"] == "1" and rows[0]["answer"] in "ABCDE"
    assert base64.b64decode(rows[0]["image"])[:2] == b"\xff\xd8"  # the original JPEG bytes


def _b64(path: Path) -> str:
    return base64.b64encode(path.read_bytes()).decode()


def test_plain_vlmevalkit_tsv(tmp_path: Path, data_dir: Path) -> None:
    imgs = sorted((data_dir / "lc25000_lung_224" / "lung_image_sets" / "lung_n").iterdir())[:2]
    rows = [
        ["index", "image", "question", "hint", "A", "B", "C", "answer", "category", "split"],
        [
            "10",
            _b64(imgs[0]),
            "Which tissue?",
            "H&E stain",
            "tumour",
            "benign",
            "",
            "B",
            "lung",
            "dev",
        ],
        ["11", "10", "Same image: which tissue?", "", "tumour", "benign", "", "B", "lung", ""],
        [
            "12",
            json.dumps([_b64(imgs[0]), _b64(imgs[1])]),
            "Do both look benign?",
            "",
            "Yes",
            "No",
            "",
            "A",
            "lung",
            "",
        ],
        ["13", "bm90IGFuIGltYWdl", "Broken image row", "", "x", "y", "", "A", "lung", ""],
        [
            "14",
            _b64(imgs[1]),
            "Which are benign?",
            "",
            "left",
            "right",
            "neither",
            "A,B",
            "lung",
            "",
        ],
    ]
    with (tmp_path / "plain.tsv").open("w", newline="") as fh:
        csv.writer(fh, delimiter="\t", lineterminator="\n").writerows(rows)
    (tmp_path / "r.yaml").write_text(IMPORT.format(name="plain", tsv="plain.tsv"))
    result = build_benchmark(
        BuildConfig(str(tmp_path / "r.yaml"), tmp_path / "b", data_root=tmp_path)
    )
    assert [str(p).split(": ")[0] for p in result.problems] == ["plain.tsv:5"]
    assert "unreadable image" in str(result.problems[0])
    _, items = check_bench(tmp_path / "b")
    by = {i.id: i for i in items}
    assert by["plain/10"].images == by["plain/11"].images  # index reference resolved
    assert by["plain/10"].meta["hint"] == "H&E stain" and by["plain/10"].options == {
        "A": "tumour",
        "B": "benign",
    }
    assert by["plain/12"].question_type == "yesno" and len(by["plain/12"].images) == 2
    assert by["plain/14"].question_type == "multi" and by["plain/14"].answer == ["A", "B"]


def test_answer_and_image_cells() -> None:
    assert parse_answer("AC", "multi", {"A": "x", "B": "y", "C": "z"}) == ["A", "C"]
    assert parse_answer("C, A", "multi", {"A": "x", "C": "z"}) == ["A", "C"]
    assert parse_answer("7,12", "region", {}) == ["7", "12"]
    assert image_strings("") == []
    assert image_strings("abc") == ["abc"]
