"""``medvqa review`` commands: add-reviewer, stats, export guards, exam runs; module doctests."""

from __future__ import annotations

import doctest
import json

import pytest

from medvqa.cli import main
from medvqa.review import (
    ReviewStore,
    _agreement,
    _criteria,
    _db,
    _edit,
    _exam,
    _export,
    _resolve,
    _security,
    load_bench,
    write_exam_run,
)


def cli(*args, capsys=None):
    with pytest.raises(SystemExit) as exc:
        main(list(args))
    return exc.value.code


@pytest.mark.parametrize("module", [_agreement, _criteria, _db, _edit, _export, _exam, _resolve,
                                    _security])
def test_doctests(module):
    assert doctest.testmod(module).failed == 0


def test_add_reviewer_prints_a_token_that_logs_in(bench, tmp_path, capsys):
    db = str(tmp_path / "c.sqlite")
    assert cli("review", "add-reviewer", "ann", "--role", "admin", "--bench", str(bench),
               "--db", db) == 0
    token = capsys.readouterr().out.strip().splitlines()[-1]
    r = ReviewStore(db).reviewer_by_token(token)
    assert r is not None and r.name == "ann" and r.role == "admin"
    assert ReviewStore(db).benches_of(r) == {load_bench(bench).key}
    assert cli("review", "add-reviewer", "ann", "--db", db) == 2  # exists already
    other = bench.parent / "OTHER"
    other.mkdir()
    for f in ("items.jsonl", "benchmark.json"):
        (other / f).write_bytes((bench / f).read_bytes())
    (other / "benchmark.json").write_text((bench / "benchmark.json").read_text().replace(
        "reviewtest", "othertest"))
    capsys.readouterr()
    assert cli("review", "add-reviewer", "ann", "--bench", str(other), "--db", db) == 0
    assert "assigned" in capsys.readouterr().out
    assert len(ReviewStore(db).benches_of(r)) == 2
    assert cli("review", "add-reviewer", "bo", "--role", "god", "--db", db) == 2


def test_default_database_lies_beside_the_benchmark(bench, capsys):
    assert cli("review", "add-reviewer", "x", "--bench", str(bench)) == 0
    assert (bench.parent / "BENCH.review.sqlite").is_file()
    assert not any(p.suffix == ".sqlite" for p in bench.rglob("*"))


def test_stats_command_writes_json(bench, tmp_path, capsys):
    db = str(tmp_path / "s.sqlite")
    store = ReviewStore(db)
    key = load_bench(bench).key
    for name in ("a", "b"):
        store.add_reviewer(name, "reviewer", [key])
    for i, r in enumerate(store.reviewers()):
        for item in ("r0", "r1"):
            store.record_decision(nonce=f"{i}{item}", bench=key, item_id=item, reviewer=r,
                                  kind="review", verdict="accept" if item == "r0" or i else
                                  "reject", reason="ambiguous")
    out = tmp_path / "stats.json"
    assert cli("review", "stats", str(bench), "--db", db, "-o", str(out),
               "--resamples", "50") == 0
    stats = json.loads(out.read_text())
    assert stats["keep"]["percent_agreement"]["value"] == 0.5
    assert stats["status"]["disputed"] == 1
    assert "Krippendorff" in capsys.readouterr().out


def test_export_refuses_to_overwrite(bench, tmp_path, capsys):
    db = str(tmp_path / "e.sqlite")
    ReviewStore(db)  # a database, so the folder is what is refused
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("keep me")
    assert cli("review", "export", str(bench), "-o", str(tmp_path / "full"), "--db", db) == 2
    assert "exists and is not empty" in capsys.readouterr().err
    assert (tmp_path / "full" / "x").read_text() == "keep me"
    assert cli("review", "export", str(bench), "-o", str(bench), "--db", db) == 2
    assert "is the benchmark being reviewed" in capsys.readouterr().err


def test_unanswered_exam_items_are_errors_not_wrong_answers(bench, tmp_path, capsys):
    db = str(tmp_path / "x.sqlite")
    store = ReviewStore(db)
    b = load_bench(bench)
    store.add_reviewer("Dr Who", "reviewer", [b.key])
    who = store.reviewers()[0]
    store.record_answer(nonce="n1", bench=b.key, split="test_tiny", item_id="t1", reviewer=who,
                        answer="B", latency_s=3.5)
    assert cli("review", "exam", str(bench), "--split", "test_tiny", "--db", db, "--runs",
               str(tmp_path / "runs"), "--write-runs") == 0
    run = tmp_path / "runs" / "human_Dr_Who--test_tiny"
    preds = [json.loads(x) for x in (run / "predictions.jsonl").read_text().splitlines()]
    assert preds[0]["item_id"] == "t0" and preds[0]["error"] == "not answered"
    assert preds[1]["response"] == "B" and preds[1]["latency_s"] == 3.5
    assert json.loads((run / "run.json").read_text())["counts"] == {
        "requests": 2, "answered": 1, "errors": 1}
    assert cli("score", str(bench), str(run), "--resamples", "99") == 0
    metrics = json.loads((run / "metrics.json").read_text())
    assert metrics["conditions"]["clean"]["overall"]["accuracy"]["value"] == 1.0
    assert write_exam_run(b, store, who, "test_tiny", tmp_path / "again").is_dir()


def test_exam_on_an_empty_split_is_bad_input(bench, tmp_path):
    assert cli("review", "exam", str(bench), "--split", "val", "--db",
               str(tmp_path / "v.sqlite"), "--write-runs") == 2
