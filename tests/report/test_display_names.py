"""Issue 23.18: every model has a short display name in the leaderboard, plots, confusion titles
and the console; the full spec is in the methods; two runs of one name are told apart."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from medvqa.cli import main
from medvqa.models import ModelConfig
from medvqa.report._render import write_report
from medvqa.run import RunConfig, run_benchmark
from medvqa.schema import Item
from medvqa.score import ScoreConfig, score_run

SPEC = "supervised:demo-out/runs/idrid_dr_grade--supervised_small-cnn"


def _grade_bench(make_bench, root: Path) -> Path:
    """20 grading items (confusion matrices are drawn for grades), no images."""
    grades = {k: f"grade {i}" for i, k in enumerate("ABCDE")}
    items = [Item(id=f"g{i:02d}", question=f"[g{i:02d}] Which grade?", options=dict(grades),
                  answer="ABCDE"[i % 5], question_type="grade", category="dr", split="test")
             for i in range(20)]
    return make_bench(root, items=items)


def _run(bench: Path, out: Path, **kw) -> Path:
    run_benchmark(RunConfig(bench_dir=bench, out_dir=out, model=ModelConfig(spec="random"), **kw))
    return out


def _as_an_old_classifier_run(run: Path) -> None:
    """run.json as the demo's classifier wrote it before display names (spec, arch, no name)."""
    info = json.loads((run / "run.json").read_text())
    info["model"], info["model_info"]["arch"] = SPEC, "small-cnn"
    info["model_info"]["text_only"] = False
    info.pop("display_name", None)
    (run / "run.json").write_text(json.dumps(info))


def test_a_classifier_is_shown_by_its_architecture_and_its_spec_only_in_the_methods(
        bench_factory, tmp_path: Path, capsys) -> None:
    bench = _grade_bench(bench_factory, tmp_path / "bench")
    run = _run(bench, tmp_path / "cnn")
    _as_an_old_classifier_run(run)
    with pytest.raises(SystemExit) as done:
        main(["score", str(bench), str(run), "--resamples", "99"])
    assert done.value.code == 0
    assert "small-cnn (supervised) on lung-test" in capsys.readouterr().out
    html, md = write_report([run], tmp_path / "r.html")
    text, page = md.read_text(), html.read_text()
    assert "| small-cnn (supervised) |" in text
    body, methods = text.split("## Methods", 1)
    # The spec is in the who/what/how table above the leaderboard and in the methods only.
    box, tables = body.split("### Leaderboard", 1)
    assert f"| small-cnn (supervised) | {SPEC} |" in box
    assert "demo-out/runs" not in tables and f"small-cnn (supervised): {SPEC}" in methods
    assert "Confusion matrix: small-cnn (supervised)" in page
    assert page.count("demo-out/runs/idrid_dr_grade--supervised_small-cnn") == 2


def test_two_runs_with_one_display_name_are_told_apart(bench_factory, tmp_path: Path) -> None:
    bench = _grade_bench(bench_factory, tmp_path / "bench")
    runs = [_run(bench, tmp_path / name, seed=seed) for name, seed in (("a", 0), ("b", 1))]
    for run in runs:
        score_run(ScoreConfig(bench, run, resamples=99))
    _, md = write_report(runs, tmp_path / "r.html")
    text = md.read_text()
    assert "| random (a) |" in text and "| random (b) |" in text
    assert "Models (as named in the tables: full spec): random (a): random; random (b): " \
        "random." in text


def test_one_name_for_two_specs_is_given_with_its_benchmark_in_the_methods(
        bench_factory, tmp_path: Path) -> None:
    runs = []
    for name in ("one", "two"):
        bench = _grade_bench(bench_factory, tmp_path / name)
        card = json.loads((bench / "benchmark.json").read_text())
        card["name"] = name
        (bench / "benchmark.json").write_text(json.dumps(card))
        run = _run(bench, tmp_path / f"runs-{name}" / "cnn")
        _as_an_old_classifier_run(run)
        info = json.loads((run / "run.json").read_text())
        info["model"] = f"{SPEC}-{name}"
        (run / "run.json").write_text(json.dumps(info))
        score_run(ScoreConfig(bench, run, resamples=99))
        runs.append(run)
    _, md = write_report(runs, tmp_path / "r.html")
    body, methods = md.read_text().split("## Methods", 1)
    assert body.count("| small-cnn (supervised) | 20 of 20 |") == 2  # one a benchmark
    assert "(cnn)" not in body  # no suffix: each is alone in its benchmark
    assert f"small-cnn (supervised) on one: {SPEC}-one; small-cnn (supervised) on two: " \
        f"{SPEC}-two." in methods
