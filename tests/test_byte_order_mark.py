"""A JSON, JSON-lines or CSV file that starts with a UTF-8 byte-order mark reads as without it.

Some editors (Notepad, Excel's "CSV UTF-8") start every file they save with ``EF BB BF``. A
user who opens items.jsonl, benchmark.json, a predictions file or a table to import in such an
editor and saves it has changed nothing; each command here reads the file as it read it before.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from _lung_bench import LUNG, make_bench
from _medvqa_cli import cli
from benchcheck import check_bench

from medvqa.schema import Benchmark, Item, file_sha256, iter_json_lines, read_json, read_numbered
from medvqa.schema._jsonl import raw_lines

UTF8_BOM = b"\xef\xbb\xbf"
BOM = UTF8_BOM.decode("utf-8")


def _with_bom(path: Path) -> Path:
    path.write_bytes(UTF8_BOM + path.read_bytes())
    return path


def _restamp(bench: Path) -> None:
    """benchmark.json's items_sha256 after an edit of items.jsonl (as `medvqa validate` asks)."""
    card = json.loads((bench / "benchmark.json").read_text("utf-8"))
    card["items_sha256"] = file_sha256(bench / "items.jsonl")
    (bench / "benchmark.json").write_text(json.dumps(card), "utf-8")


def test_readers_skip_a_leading_mark_and_keep_offsets(tmp_path: Path) -> None:
    bench = make_bench(tmp_path / "b", 3)
    plain = [i.id for _, i in read_numbered(bench / "items.jsonl", Item)]
    _with_bom(bench / "items.jsonl")
    assert [i.id for _, i in read_numbered(bench / "items.jsonl", Item)] == plain
    assert [r.value["id"] for r in iter_json_lines(bench / "items.jsonl")] == plain
    with (bench / "items.jsonl").open("rb") as fh:  # offsets seek to the line, not the mark
        for row in raw_lines(bench / "items.jsonl"):
            fh.seek(row.offset)
            assert fh.readline() == row.raw
    assert read_json(_with_bom(bench / "benchmark.json"), Benchmark).name == "lung-test"


def test_a_mark_inside_a_line_is_still_refused(tmp_path: Path) -> None:
    bench = make_bench(tmp_path / "b", 3)
    lines = (bench / "items.jsonl").read_bytes().splitlines(keepends=True)
    (bench / "items.jsonl").write_bytes(lines[0] + UTF8_BOM + lines[1] + lines[2])
    _restamp(bench)
    assert cli("validate", str(bench)) == 2


def _bench_files(tmp_path: Path) -> list[str]:
    bench = make_bench(tmp_path / "b", 6)
    _with_bom(bench / "items.jsonl")
    _restamp(bench)
    _with_bom(bench / "benchmark.json")
    return ["validate", str(bench)]


def _predictions(tmp_path: Path) -> list[str]:
    bench = make_bench(tmp_path / "b", 6)
    assert cli("run", str(bench), "--model", "random", "--split", "all",
               "--out", str(tmp_path / "r")) == 0
    _with_bom(tmp_path / "r" / "predictions.jsonl")
    return ["score", str(bench), str(tmp_path / "r")]


def _lung_rows(tmp_path: Path) -> list[dict[str, str]]:
    imgs = sorted((LUNG / "lung_n").glob("*.jpeg"))[:2]
    for img in imgs:
        shutil.copy(img, tmp_path / img.name)
    return [{"q": f"Which tissue is tile {n}?", "o1": "benign", "o2": "tumour", "gt": "benign",
             "img": img.name} for n, img in enumerate(imgs)]


MAP = "question=q;answer=gt;image=img;options=o1,o2"


def _table_jsonl(tmp_path: Path) -> list[str]:
    rows = _lung_rows(tmp_path)
    (tmp_path / "t.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    _with_bom(tmp_path / "t.jsonl")
    return ["import", "table", str(tmp_path / "t.jsonl"), "--map", MAP, "--license", "CC0"]


def _table_json(tmp_path: Path) -> list[str]:
    (tmp_path / "t.json").write_text(json.dumps(_lung_rows(tmp_path)), "utf-8")
    _with_bom(tmp_path / "t.json")
    return ["import", "table", str(tmp_path / "t.json"), "--map", MAP, "--license", "CC0"]


def _table_csv(tmp_path: Path) -> list[str]:
    rows = _lung_rows(tmp_path)
    text = "q,o1,o2,gt,img\n" + "".join(",".join(r.values()) + "\n" for r in rows)
    (tmp_path / "t.csv").write_text(text, "utf-8")
    _with_bom(tmp_path / "t.csv")
    return ["import", "table", str(tmp_path / "t.csv"), "--map", MAP, "--license", "CC0"]


def _vqa_rad(tmp_path: Path) -> list[str]:
    rows = [{"qid": n, "image_name": r["img"], "question": r["q"], "answer": "yes",
             "answer_type": "CLOSED", "question_type": "PRES", "phrase_type": "freeform"}
            for n, r in enumerate(_lung_rows(tmp_path))]
    (tmp_path / "vqa.json").write_text(json.dumps(rows), "utf-8")
    _with_bom(tmp_path / "vqa.json")
    return ["import", "vqa_rad", str(tmp_path / "vqa.json"), "--images", str(tmp_path)]


CASES: dict[str, Callable[[Path], list[str]]] = {
    "items.jsonl and benchmark.json": _bench_files,
    "predictions.jsonl": _predictions,
    "import table, JSON lines": _table_jsonl,
    "import table, JSON": _table_json,
    "import table, CSV": _table_csv,
    "import vqa_rad": _vqa_rad,
}


@pytest.mark.parametrize("case", list(CASES), ids=list(CASES))
def test_a_file_saved_with_a_mark_reads_as_without(case: str, tmp_path: Path) -> None:
    argv = CASES[case](tmp_path)
    if argv[0] == "import":
        argv += ["-o", str(tmp_path / "imported")]
    assert cli(*argv) == 0
    if argv[0] == "score":  # every prediction counted: the first line is not a skipped one
        metrics = json.loads((tmp_path / "r" / "metrics.json").read_text("utf-8"))
        assert metrics["n"] == 6
    if argv[0] == "import":
        _, items = check_bench(tmp_path / "imported")
        assert len(items) == 2 and not any(BOM in i.question for i in items)
        assert all(i.question.startswith("Which tissue is tile") for i in items)
