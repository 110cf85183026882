"""metrics.json says what it was computed from; stale or partial results never pass silently."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from medvqa.errors import BadInputError
from medvqa.models import ModelConfig
from medvqa.report._render import write_report
from medvqa.run import RunConfig, run_benchmark
from medvqa.score import ScoreConfig, compare_runs, score_run
from medvqa.score._provenance import require_fresh_run
from medvqa.testing import ChatServer


def _run(bench: Path, out: Path, model: str = "random", **kw) -> Path:
    run_benchmark(RunConfig(bench_dir=bench, out_dir=out, model=ModelConfig(spec=model), **kw))
    return out


def _score(bench: Path, run: Path, **kw) -> dict:
    score_run(ScoreConfig(bench, run, resamples=99, **kw))
    return json.loads((run / "metrics.json").read_text())


def test_metrics_record_the_run_and_predictions_they_came_from(bench: Path, tmp_path: Path):
    run = _run(bench, tmp_path / "run")
    m = _score(bench, run)
    prov = m["provenance"]
    assert prov["run"]["model"] == "random" and prov["run"]["started_at"]
    import hashlib
    assert prov["predictions_sha256"] == hashlib.sha256(
        (run / "predictions.jsonl").read_bytes()).hexdigest()
    assert prov["benchmark_mismatch_allowed"] is False
    require_fresh_run(run)  # fresh: no error


def test_report_refuses_metrics_of_an_earlier_model(bench: Path, tmp_path: Path):
    run = _run(bench, tmp_path / "run")
    _score(bench, run)
    _run(bench, run, "frequent", force_new=True)
    with pytest.raises(BadInputError, match=r"stale: run.json changed since scoring \(model"):
        write_report([run], tmp_path / "r.html")
    _score(bench, run)
    html, _ = write_report([run], tmp_path / "r.html")
    assert "frequent" in html.read_text()


def test_report_and_compare_refuse_metrics_from_before_retry_errors(
    bench: Path, tmp_path: Path
):
    run = tmp_path / "run"
    with ChatServer(fail={"[lung-003]": [500]}) as server:
        spec = f"openai:t@{server.url}"
        _run(bench, run, spec, max_retries=0)
        m = _score(bench, run)
        assert m["coverage"]["conditions"]["clean"]["errors"] == 1
        _run(bench, run, spec, retry_errors=True)
    with pytest.raises(BadInputError, match="predictions.jsonl changed since scoring"):
        write_report([run], tmp_path / "r.html")
    with pytest.raises(BadInputError, match="stale"):
        require_fresh_run(run)
    m = _score(bench, run)
    assert m["coverage"]["conditions"]["clean"]["errors"] == 0
    assert compare_runs(run, run).n == 12


def test_score_refuses_another_benchmark_unless_told(bench_factory, tmp_path: Path):
    bench = bench_factory(tmp_path / "a", 12)
    run = _run(bench, tmp_path / "run")
    other = bench_factory(tmp_path / "b", 6)
    before = (run / "predictions.jsonl").read_bytes()
    with pytest.raises(BadInputError, match="made for another benchmark"):
        score_run(ScoreConfig(other, run, resamples=99))
    assert not (run / "metrics.json").exists()
    assert (run / "predictions.jsonl").read_bytes() == before  # nothing rewritten
    m = _score(other, run, allow_other_benchmark=True)
    assert m["provenance"]["benchmark_mismatch_allowed"] is True


def test_missing_predictions_are_counted_named_and_shown(bench: Path, tmp_path: Path):
    run = _run(bench, tmp_path / "run")
    lines = (run / "predictions.jsonl").read_text().splitlines(keepends=True)
    kept = [x for i, x in enumerate(lines) if i % 3]  # drop 4 of 12
    (run / "predictions.jsonl").write_text("".join(kept))
    m = _score(bench, run)
    cov = m["coverage"]["conditions"]["clean"]
    assert cov["expected"] == 12 and cov["scored"] == 8 and cov["missing"] == 4
    assert cov["missing_ids"] == ["lung-000", "lung-003", "lung-006", "lung-009"]
    right = sum(json.loads(x)["correct"] for x in (run / "predictions.jsonl").read_text()
                .splitlines())
    assert cov["accuracy_complete_case"] == round(right / 8, 6)
    assert cov["accuracy_all_items"] == round(right / 12, 6)
    _, md = write_report([run], tmp_path / "r.html")
    assert "8 of 12, 4 missing" in md.read_text()


def test_missing_predictions_are_printed_by_score(bench: Path, tmp_path: Path, capsys):
    from medvqa.cli import main

    run = _run(bench, tmp_path / "run")
    lines = (run / "predictions.jsonl").read_text().splitlines(keepends=True)
    (run / "predictions.jsonl").write_text("".join(lines[2:]))
    with pytest.raises(SystemExit) as done:
        main(["score", str(bench), str(run), "--resamples", "99"])
    err = capsys.readouterr().err
    assert done.value.code == 0
    assert "clean: 2 of 12 items have no prediction (lung-000, lung-001)" in " ".join(err.split())


def test_a_limited_run_expects_only_its_selection(bench: Path, tmp_path: Path):
    run = _run(bench, tmp_path / "run", limit=5)
    cov = _score(bench, run)["coverage"]
    assert cov["benchmark_items"] == 12 and cov["selected_items"] == 5
    assert cov["conditions"]["clean"]["missing"] == 0
