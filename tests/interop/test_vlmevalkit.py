"""VLMEvalKit TSV: export → import gives the same items and image bytes; plain VLMEvalKit TSVs
(index references, image lists, no medvqa columns) import; bad rows are named."""

from __future__ import annotations

import base64
import csv
import json
from pathlib import Path

import pytest
from benchcheck import check_bench, load

from medvqa.interop._export_vlmevalkit import export_vlmevalkit
from medvqa.interop._import_vlmevalkit import image_strings, parse_answer
from medvqa.recipes import BuildConfig, build_benchmark

IMPORT = """
name: {name}
type: vlmevalkit
sources:
  - dataset: {name}
    license: as exported
    reader: table
    path: {tsv}
    labels: {labels}
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
    assert result.items == len(original) and not result.no_image
    labels = [f.path.name for f in result.files]
    (tmp_path / "r.yaml").write_text(IMPORT.format(name=name, tsv=labels[0],
                                                   labels=json.dumps(labels)))
    back = build_benchmark(
        BuildConfig(str(tmp_path / "r.yaml"), tmp_path / "back", data_root=tmp_path)
    )
    assert not back.problems
    _, again = check_bench(tmp_path / "back")
    assert sorted((i.model_dump() for i in again), key=lambda d: d["id"]) == sorted(
        (i.model_dump() for i in original), key=lambda d: d["id"])
    if len(labels) == 1:
        assert (tmp_path / "back" / "items.jsonl").read_bytes() == (
            benches[name] / "items.jsonl"
        ).read_bytes()


def test_export_columns(benches: dict[str, Path], tmp_path: Path) -> None:
    export_vlmevalkit(benches["idrid_dr_grade"], tmp_path / "x.tsv")
    with (tmp_path / "x.tsv").open(newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    # No all-empty optional column (hint, l2-category): VLMEvalKit would tabulate it.
    assert list(rows[0]) == ["index", "image", "question", "A", "B", "C", "D", "E", "answer",
                             "category", "split", "id", "question_type", "case_id", "source",
                             "meta"]
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
    (tmp_path / "r.yaml").write_text(IMPORT.format(name="plain", tsv="plain.tsv", labels="[]"))
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


def _vlmevalkit_options(row: object) -> dict[str, str]:
    """VLMEvalKit's MCQ prompt rule: option columns A…Z that pandas did not read as missing."""
    import string

    import pandas as pd

    return {c: row[c] for c in string.ascii_uppercase  # type: ignore[index]
            if c in row and not pd.isna(row[c])}  # type: ignore[operator,index]


def test_open_items_go_to_their_own_file_read_as_vlmevalkit_does(
        benches: dict[str, Path], tmp_path: Path) -> None:
    import pandas as pd

    result = export_vlmevalkit(benches["vqa_rad"], tmp_path / "VQA_RAD.tsv")
    kinds = {f.kind: f for f in result.files}
    assert kinds["MCQ"].path.name == "VQA_RAD.tsv"
    assert kinds["VQA"].path.name == "VQA_RAD_open.tsv"
    mcq = pd.read_csv(kinds["MCQ"].path, sep="\t")  # VLMEvalKit's load() for a TSV
    vqa = pd.read_csv(kinds["VQA"].path, sep="\t")
    assert set(mcq["question_type"]) == {"yesno"} and set(vqa["question_type"]) == {"open"}
    assert "A" not in vqa.columns and "l2-category" not in mcq.columns
    assert all(set(_vlmevalkit_options(r).values()) == {"Yes", "No"} for _, r in mcq.iterrows())
    _, items = load(benches["vqa_rad"])
    gold = {i.id: i.answer for i in items if i.question_type == "open"}
    assert dict(zip(vqa["id"], vqa["answer"].astype(str), strict=True)) == gold


def test_split_filter_missing_text_warning_and_imageless_items(tmp_path: Path,
                                                               bench_factory) -> None:
    from medvqa.schema import Item, read_jsonl, write_jsonl

    bench = bench_factory(tmp_path / "b", n=6)
    items = [i.model_copy(update={"split": "test"})
             for i in read_jsonl(bench / "items.jsonl", Item)]
    items[0] = items[0].model_copy(update={"options": {"A": "None", "B": "benign", "C": "NA"},
                                           "answer": "B"})
    items[1] = items[1].model_copy(update={"images": []})
    items[2] = items[2].model_copy(update={"split": "val"})
    write_jsonl(bench / "items.jsonl", items)
    result = export_vlmevalkit(bench, tmp_path / "x.tsv", splits=["test"])
    assert result.na_options == [items[0].id] and result.text_only == [items[1].id]
    assert result.items == 5 and not result.no_image  # 6 items, one in val
    with (tmp_path / "x.tsv").open(newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    assert items[2].id not in {r["id"] for r in rows} and rows[0]["A"] == "None"
    assert items[1].id not in {r["id"] for r in rows}  # in x_text.tsv, without an image
    with pytest.raises(Exception, match="no items in split"):
        export_vlmevalkit(bench, tmp_path / "y.tsv", splits=["external"])


def test_benchmark_without_images_exports_what_vlmevalkit_loads(tmp_path: Path) -> None:
    """Image-less choice items: a TSV with option columns and no image column, which
    VLMEvalKit's build_dataset loads as CustomTextMCQDataset; open ones are left out, named."""
    import pandas as pd

    from medvqa.schema import Item, read_jsonl, write_jsonl
    from medvqa.testing import write_text_bench

    bench = write_text_bench(tmp_path / "b", 4)
    items = list(read_jsonl(bench / "items.jsonl", Item))
    items[3] = items[3].model_copy(update={"question_type": "open", "options": {},
                                           "answer": "a free text"})
    write_jsonl(bench / "items.jsonl", items)
    result = export_vlmevalkit(bench, tmp_path / "T.tsv")
    assert [f.kind for f in result.files] == ["text MCQ"] and result.items == 3
    assert result.no_image == [items[3].id] and not (tmp_path / "T.tsv").exists()
    data = pd.read_csv(tmp_path / "T_text.tsv", sep="\t")  # VLMEvalKit's load() for a TSV
    # vlmeval.dataset.build_dataset's rule for a custom TSV: a text MCQ dataset.
    assert "A" in data and "B" in data and "image" not in data and "image_path" not in data
    assert "question" in [c.lower() for c in data.columns]
    assert list(data["id"]) == [i.id for i in items[:3]]


def test_the_export_takes_the_default_split_as_run_does(tmp_path: Path) -> None:
    from _lung_bench import make_bench

    from medvqa.interop import export_benchmark
    from medvqa.interop._exporters import ExportConfig

    bench = make_bench(tmp_path / "bench")  # 9 test items, 3 train
    summary = export_benchmark("vlmevalkit", ExportConfig(bench, tmp_path / "t.tsv"))
    with (tmp_path / "t.tsv").open(newline="") as fh:
        assert {r["split"] for r in csv.DictReader(fh, delimiter="\t")} == {"test"}
    assert "split test" in summary.wrote[0]
    export_benchmark("vlmevalkit", ExportConfig(bench, tmp_path / "a.tsv", splits=("all",)))
    with (tmp_path / "a.tsv").open(newline="") as fh:
        assert len(list(csv.DictReader(fh, delimiter="\t"))) == 12


def test_options_that_skip_a_letter_keep_their_columns(tmp_path: Path, bench_factory) -> None:
    """A source's options A, B, D (OmniMedVQA leaves an empty option out) are written to
    columns A, B and D — not A, B, C, which lost D's text and made the answer D no column."""
    import pandas as pd

    from medvqa.schema import Item, read_jsonl, write_jsonl

    bench = bench_factory(tmp_path / "b", n=4)
    items = [i.model_copy(update={"split": "test"})
             for i in read_jsonl(bench / "items.jsonl", Item)]
    items[0] = items[0].model_copy(update={
        "options": {"A": "adenocarcinoma", "B": "benign", "D": "squamous cell carcinoma"},
        "answer": "D"})
    write_jsonl(bench / "items.jsonl", items)
    export_vlmevalkit(bench, tmp_path / "x.tsv")
    rows = pd.read_csv(tmp_path / "x.tsv", sep="\t")  # VLMEvalKit's load() for a TSV
    first = rows[rows["id"] == items[0].id].iloc[0]
    assert _vlmevalkit_options(first) == items[0].options and first["answer"] == "D"
    second = rows[rows["id"] == items[1].id].iloc[0]
    assert _vlmevalkit_options(second) == items[1].options
