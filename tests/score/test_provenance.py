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
    assert compare_runs(run, run, bench_dir=bench).n == 12


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


def _two_test_splits(bench: Path) -> tuple[int, int]:
    """Relabel half of the test items ``test_tiny``; return the (test, test_tiny) counts."""
    from medvqa.schema import file_sha256

    rows = [json.loads(x) for x in (bench / "items.jsonl").read_text().splitlines()]
    for i, row in enumerate(rows):
        if row["split"] == "test" and i % 2:
            row["split"] = "test_tiny"
    (bench / "items.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    card = json.loads((bench / "benchmark.json").read_text())
    card["items_sha256"] = file_sha256(bench / "items.jsonl")
    (bench / "benchmark.json").write_text(json.dumps(card))
    return (sum(r["split"] == "test" for r in rows), sum(r["split"] == "test_tiny" for r in rows))


def test_a_run_resumed_on_another_split_counts_what_each_condition_asked(bench_factory,
                                                                          tmp_path: Path):
    """Issue 23.10: the demo's supervised run showed "30 of 15 (benchmark 150)".

    Asked on test (clean, blind), then on test_tiny (clean only): each condition is counted
    against the items asked of it, never against the last selection alone.
    """
    bench = bench_factory(tmp_path / "bench", 24)
    n_test, n_tiny = _two_test_splits(bench)
    run = _run(bench, tmp_path / "run", split="test", conditions=["clean", "blind"])
    _run(bench, run, split="test_tiny", conditions=["clean"])
    cov = _score(bench, run)["coverage"]
    assert cov["selected_items"] == n_test + n_tiny
    clean, blind = cov["conditions"]["clean"], cov["conditions"]["blind"]
    assert (clean["expected"], clean["scored"], clean["missing"]) == (n_test + n_tiny,) * 2 + (0,)
    assert (blind["expected"], blind["scored"], blind["missing"]) == (n_test, n_test, 0)
    assert clean["accuracy_all_items"] == clean["accuracy_complete_case"]
    _, md = write_report([run], tmp_path / "r.html")
    assert f"| {n_test + n_tiny} of {n_test + n_tiny} (benchmark 24) |" in md.read_text()


def test_a_run_json_from_before_asked_counts_answered_items_as_asked(bench_factory,
                                                                      tmp_path: Path):
    """An older run.json records only the last selection: n never exceeds its "of"."""
    bench = bench_factory(tmp_path / "bench", 24)
    n_test, n_tiny = _two_test_splits(bench)
    run = _run(bench, tmp_path / "run", split="test", conditions=["clean", "blind"])
    _run(bench, run, split="test_tiny", conditions=["clean", "blind"])
    info = json.loads((run / "run.json").read_text())
    info.pop("asked", None)
    (run / "run.json").write_text(json.dumps(info))
    cov = _score(bench, run)["coverage"]["conditions"]
    for cond in ("clean", "blind"):
        assert (cov[cond]["expected"], cov[cond]["scored"]) == (n_test + n_tiny,) * 2
