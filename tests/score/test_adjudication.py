"""``medvqa score --adjudication``: human readings replace automatic ones, the audit block, PPI;
refused for another benchmark or another run; disputed readings counted, never used."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _audit_run import audit_run, human_reading
from _lung_bench import make_bench
from _medvqa_cli import cli

from medvqa.errors import BadInputError
from medvqa.review import AdjudicateConfig, AuditStore, ReviewStore, load_bench, queue_run
from medvqa.schema import AdjudicationFile, MetricsFile, Prediction, read_json, read_jsonl
from medvqa.score import ScoreConfig, score_run


def _read_all(audit: AuditStore, key: str, reviewer, *, differ: set[int] = frozenset(),
              nonce: str = "n") -> None:
    """``reviewer`` reads every queued response as a careful human (but wrongly in ``differ``)."""
    for k, (qid, q) in enumerate(sorted(audit.questions(key).items())):
        verdict, choice = human_reading(q.response)
        if k in differ:
            verdict, choice = ("no_answer", None) if choice else ("answer", "A")
        assert audit.record_reading(nonce=f"{nonce}{qid}", question_id=qid, reviewer=reviewer,
                                    kind="reading", verdict=verdict, choice=choice)


@pytest.fixture
def audited(tmp_path: Path):
    bench = make_bench(tmp_path / "bench", 60)
    run = audit_run(bench, tmp_path / "run", styles=("mammovqa",))
    b = load_bench(bench)
    store = ReviewStore(str(tmp_path / "review.sqlite"))
    audit = AuditStore(store)
    queued = queue_run(b, audit, run, AdjudicateConfig(sample=30, seed=7))
    store.add_reviewer("ana", "reviewer", [b.key])
    return bench, run, b, store, audit, queued


def test_queue_draws_a_stratified_sample_and_the_disagreements(audited):
    bench, run, b, store, audit, (q,) = audited
    assert q.condition == "clean" and q.responses == 60 and q.sampled == 30
    assert {h: s.population for h, s in q.strata.items()}["invalid"] > 0
    assert sum(s.sampled for s in q.strata.values()) == 30
    assert all(s.sampled <= s.population for s in q.strata.values())
    assert q.disagreements > 0  # strict and mammovqa read some responses differently
    # Identical (options, response) pairs are one question: 10 distinct responses.
    assert audit.count_questions(b.key) == 10
    # Queuing the same responses again adds nothing.
    again = queue_run(b, audit, run, AdjudicateConfig(sample=30, seed=7))
    assert not again[0].new and "queued already" in again[0].notes[0]


def test_human_readings_replace_the_automatic_ones_and_the_audit_is_estimated(audited):
    bench, run, b, store, audit, _ = audited
    _read_all(audit, b.key, store.reviewer_by_name("ana"))
    before = read_json(run / "metrics.json", MetricsFile).conditions["clean"].overall
    file = audit.export(b)
    result = score_run(ScoreConfig(bench, run, resamples=199, adjudication=file,
                                   adjudication_source="review.sqlite"))
    preds = list(read_jsonl(run / "predictions.jsonl", Prediction))
    assert all(p.read_by == "human:ana" for p in preds)
    hedge = next(p for p in preds if p.response == "It could be A or C.")
    assert hedge.invalid and hedge.choice is None and hedge.reader["invalid"]
    trace = next(p for p in preds if p.response.startswith("<think>"))
    assert trace.choice == "C"
    audit_block = result.metrics.reading["audit"]["conditions"]["clean"]
    assert audit_block["sampled"] == 30 and audit_block["adjudicated"] == 30
    assert audit_block["readers"] == ["ana"]
    ppi = audit_block["prediction_powered"]
    assert ppi["ci"][0] <= ppi["value"] <= ppi["ci"][1]
    # Every distinct response was read, so the run's accuracy as scored is the humans' own on
    # every response: the estimate from the sample of 30 covers it; the reader's own accuracy
    # (rules alone) stays beside it.
    human_acc = result.metrics.conditions["clean"].overall.accuracy.value
    assert ppi["ci"][0] <= human_acc <= ppi["ci"][1]
    assert audit_block["reader_accuracy"] == pytest.approx(before.accuracy.value, abs=1e-6)
    for rate in ("agreement", "false_credit_rate", "miss_rate"):
        block = audit_block[rate]
        if block is not None:
            assert block["ci"][0] <= block["value"] <= block["ci"][1]
    # Checked against its model when read back.
    MetricsFile.model_validate_json((run / "metrics.json").read_text())


def test_disputed_readings_are_counted_and_not_used(audited):
    bench, run, b, store, audit, _ = audited
    store.add_reviewer("ben", "reviewer", [b.key])
    _read_all(audit, b.key, store.reviewer_by_name("ana"))
    _read_all(audit, b.key, store.reviewer_by_name("ben"), differ={0, 1}, nonce="b")
    file = audit.export(b)
    assert sum(r.status == "disputed" for r in file.readings.values()) == 2
    score_run(ScoreConfig(bench, run, resamples=99, adjudication=file))
    preds = list(read_jsonl(run / "predictions.jsonl", Prediction))
    disputed = {k for k, r in file.readings.items() if r.status == "disputed"}
    from medvqa.schema import question_key

    items = {i["id"]: i for i in map(json.loads, (bench / "items.jsonl").read_text().splitlines())}
    for p in preds:
        key = question_key("single", items[p.item_id]["options"], p.response)
        assert (p.read_by is None) == (key in disputed)
    metrics = read_json(run / "metrics.json", MetricsFile)
    block = metrics.reading["audit"]["conditions"]["clean"]
    assert block["disputed"] > 0 and block["readers"] == ["ana", "ben"]
    assert any("await adjudication" in n for n in block["notes"])
    # An admin's adjudication ends the dispute.
    store.add_reviewer("boss", "admin", [b.key])
    qid = next(qid for qid, q in audit.questions(b.key).items() if q.qkey in disputed)
    audit.record_reading(nonce="adj", question_id=qid, reviewer=store.reviewer_by_name("boss"),
                         kind="adjudication", verdict="no_answer", choice=None)
    assert audit.export(b).readings[audit.questions(b.key)[qid].qkey].status == "adjudicated"


def test_a_file_of_another_benchmark_is_refused(audited, tmp_path):
    bench, run, b, store, audit, _ = audited
    file = audit.export(b).model_copy(update={"items_sha256": "f" * 64})
    with pytest.raises(BadInputError, match="another benchmark"):
        score_run(ScoreConfig(bench, run, resamples=99, adjudication=file))


def test_a_file_of_another_run_is_refused(audited, tmp_path):
    bench, run, b, store, audit, _ = audited
    file = audit.export(b)
    lines = (run / "predictions.jsonl").read_text().splitlines()
    first = json.loads(lines[0])
    first["response"] = "B"  # the responses changed since the sample was drawn
    (run / "predictions.jsonl").write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
    with pytest.raises(BadInputError, match="no audit of"):
        score_run(ScoreConfig(bench, run, resamples=99, adjudication=file))


def test_partial_audit_gives_no_ppi_until_every_stratum_has_a_reading(audited):
    bench, run, b, store, audit, _ = audited
    ana = store.reviewer_by_name("ana")
    # One reading only: some stratum has none yet.
    qid = audit.next_question(b.key, ana)
    q = audit.questions(b.key)[qid]
    verdict, choice = human_reading(q.response)
    audit.record_reading(nonce="one", question_id=qid, reviewer=ana, kind="reading",
                         verdict=verdict, choice=choice)
    result = score_run(ScoreConfig(bench, run, resamples=99, adjudication=audit.export(b)))
    block = result.metrics.reading["audit"]["conditions"]["clean"]
    assert block["prediction_powered"] is None
    assert any("no prediction-powered estimate" in n for n in block["notes"])
    assert block["pending"] == block["sampled"] - block["adjudicated"]


def test_cli_scores_with_the_database_and_an_exported_file(audited, tmp_path):
    bench, run, b, store, audit, _ = audited
    _read_all(audit, b.key, store.reviewer_by_name("ana"))
    db = tmp_path / "review.sqlite"
    out = tmp_path / "adjudication.json"
    assert cli("review", "export-adjudication", str(bench), "--db", str(db), "-o",
               str(out)) == 0
    AdjudicationFile.model_validate_json(out.read_text())
    assert cli("score", str(bench), str(run), "--resamples", "99", "--adjudication",
               str(out)) == 0
    from_file = json.loads((run / "metrics.json").read_text())["reading"]["audit"]
    assert cli("score", str(bench), str(run), "--resamples", "99", "--adjudication",
               str(db)) == 0
    from_db = json.loads((run / "metrics.json").read_text())["reading"]["audit"]
    assert from_file["conditions"] == from_db["conditions"]
    assert cli("report", str(run), "-o", str(tmp_path / "r.html")) == 0
    html = (tmp_path / "r.html").read_text()
    assert "prediction-powered" in html and "adjudicated by ana" in html
    assert "Angelopoulos" in html  # named in the methods paragraph


def test_an_imported_run_is_audited_like_any_other(tmp_path):
    """An Inspect-style import is an ordinary RUN/: queue, read, score --adjudication."""
    from medvqa.interop import import_predictions  # noqa: F401  (the reader table exists)

    bench = make_bench(tmp_path / "bench", 30)
    run = tmp_path / "imported"
    audit_run(bench, run)
    info = json.loads((run / "run.json").read_text())
    info["model"] = "inspect:openai/some-model"
    info["model_info"] = {"imported_from": {"format": "inspect", "file": "log.eval"}}
    (run / "run.json").write_text(json.dumps(info))
    assert cli("score", str(bench), str(run), "--resamples", "99") == 0
    db = tmp_path / "review.sqlite"
    assert cli("review", "adjudicate", str(bench), str(run), "--db", str(db), "--sample",
               "12") == 0
    store = ReviewStore(str(db))
    b = load_bench(bench)
    store.add_reviewer("ana", "reviewer", [b.key])
    _read_all(AuditStore(store), b.key, store.reviewer_by_name("ana"))
    assert cli("score", str(bench), str(run), "--resamples", "99", "--adjudication",
               str(db)) == 0
    metrics = json.loads((run / "metrics.json").read_text())
    assert metrics["reading"]["audit"]["conditions"]["clean"]["adjudicated"] == 12
