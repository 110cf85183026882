from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from medvqa.benchmark import validate_benchmark
from medvqa.store import ImageStore


def _lines(bench: Path) -> list[dict]:
    return [json.loads(x) for x in (bench / "items.jsonl").read_text().splitlines()]


def _write_lines(bench: Path, rows: list[dict], extra: str = "") -> None:
    (bench / "items.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows) + extra)


def test_clean_benchmark_has_no_problems(bench: Path) -> None:
    report = validate_benchmark(bench)
    assert report.ok, [str(p) for p in report.problems]
    assert report.n_items == 12
    assert report.n_images == 12


def test_every_problem_is_reported_at_once(bench: Path) -> None:
    rows = _lines(bench)
    store = ImageStore(bench)
    # missing image
    missing = rows[0]["images"][0]
    (bench / missing).unlink()
    # corrupt image whose name is its true hash (only "corrupt" applies)
    good = (bench / rows[1]["images"][0]).read_bytes()
    rows[1]["images"] = [store.add_bytes(good[: len(good) // 3], ".jpeg")]
    # misnamed image: valid bytes under another digest
    wrong = bench / "images" / "00" / ("0" * 64 + ".jpeg")
    wrong.parent.mkdir(parents=True, exist_ok=True)
    wrong.write_bytes(good)
    rows[2]["images"] = ["images/00/" + "0" * 64 + ".jpeg"]
    # duplicate id
    rows[3]["id"] = rows[4]["id"]
    # answer not among options
    rows[5]["answer"] = "E"
    _write_lines(bench, rows, extra="{not json\n")
    # unknown template; items_sha256 now also mismatches
    card = json.loads((bench / "benchmark.json").read_text())
    card["prompt_template"] = "defualt"
    (bench / "benchmark.json").write_text(json.dumps(card))

    report = validate_benchmark(bench)
    text = "\n".join(str(p) for p in report.problems)
    fields = {p.field for p in report.problems}
    assert "prompt_template" in fields and "Did you mean 'default'" in text
    assert "items_sha256" in fields
    assert any(
        p.field == "id" and p.line == 5 and "duplicate" in p.message for p in report.problems
    )
    assert any(p.field == "answer" and p.line == 6 for p in report.problems)
    assert any(p.field == "(json)" and p.line == 13 for p in report.problems)
    assert any(p.line == 1 and "file is missing" in p.message for p in report.problems)
    assert any(p.line == 2 and "corrupt image" in p.message for p in report.problems)
    assert any(p.line == 3 and "SHA-256" in p.message for p in report.problems)
    assert len(report.problems) == 8, text
    assert all(str(p).startswith(str(bench)) for p in report.problems)


def test_missing_meta_field_for_template_is_reported(tmp_path: Path, bench_factory) -> None:
    bench = bench_factory(tmp_path / "b", n=3)
    card = json.loads((bench / "benchmark.json").read_text())
    card["prompt_template"] = "lmod"
    (bench / "benchmark.json").write_text(json.dumps(card))
    report = validate_benchmark(bench)
    # lmod either renders these items or names what is missing: never a crash.
    assert all(p.field in {"prompt"} for p in report.problems)


def test_validate_cli_exit_codes(bench: Path) -> None:
    ok = subprocess.run(
        [sys.executable, "-m", "medvqa.cli", "validate", str(bench)], capture_output=True, text=True
    )
    assert ok.returncode == 0, ok.stderr
    assert "no problems" in ok.stdout
    rows = _lines(bench)
    rows[1]["id"] = rows[0]["id"]
    rows[2]["answer"] = "Z"
    _write_lines(bench, rows)
    bad = subprocess.run(
        [sys.executable, "-m", "medvqa.cli", "validate", str(bench)], capture_output=True, text=True
    )
    assert bad.returncode == 2
    assert "duplicate id" in bad.stdout and "'Z' is not among" in bad.stdout
    assert "items_sha256" in bad.stdout
