"""irt fit, adaptive runs, score, report, audit and the review queue on a loopback zoo.

The models are real HTTP endpoints (a loopback chat server answering as models of known
ability would), run, scored and calibrated through the command line.
"""

from __future__ import annotations

import json

import pytest

from medvqa.cli import main
from medvqa.testing import ChatServer, ZooReply, write_zoo_bench, zoo_items, zoo_model

THETAS = (-1.2, -0.6, -0.2, 0.2, 0.6, 1.2)


def _cli(*args: str) -> int:
    with pytest.raises(SystemExit) as done:
        main(list(args))
    return int(done.value.code or 0)


@pytest.fixture(scope="module")
def zoo(tmp_path_factory):
    root = tmp_path_factory.mktemp("zoo")
    items = zoo_items(80, seed=3, flipped=0.05, case_size=2)
    bench = write_zoo_bench(root / "bench", items)
    with ChatServer(reply=ZooReply(items)) as server:
        runs = []
        for theta in THETAS:
            out = root / f"run{theta:+.1f}"
            assert _cli("run", str(bench), "--model", f"openai:{zoo_model(theta)}@{server.url}",
                        "-o", str(out)) == 0
            assert _cli("score", str(bench), str(out), "--resamples", "99") == 0
            runs += ["--runs", str(out)]
        irt = root / "irt.json"
        assert _cli("irt", "fit", str(bench), *runs, "-o", str(irt), "--to-review") == 0
        yield root, bench, irt, server


def test_fit_writes_a_calibration_of_every_item(zoo) -> None:
    from medvqa.schema import IrtCalibration, read_json

    _, bench, irt, _ = zoo
    cal = read_json(irt, IrtCalibration)
    assert len(cal.items) == 80 and len(cal.models) == len(THETAS)
    thetas = [m.theta for m in cal.models]
    assert thetas == sorted(thetas)  # the zoo's order of ability is found
    assert cal.cv is not None and cal.cv.log_loss["2pl"] < cal.cv.log_loss["baseline"]
    assert cal.interval_inflation >= 1.0


def test_to_review_puts_flagged_items_first_in_the_queue(zoo) -> None:
    from medvqa.review import load_bench
    from medvqa.schema import FLAGGED_FILE, FlaggedItem, read_jsonl

    _, bench, _, _ = zoo
    flagged = list(read_jsonl(bench / FLAGGED_FILE, FlaggedItem))
    assert flagged and all(f.reasons for f in flagged)
    loaded = load_bench(bench)
    order = loaded.queue_order()
    assert order[: len(flagged)] == [i for i in loaded.items if i in loaded.flags]


def test_adaptive_run_resumes_and_score_reports_the_estimate(zoo) -> None:
    root, bench, irt, server = zoo
    out = root / "adaptive"
    args = ("run", str(bench), "--model", f"openai:{zoo_model(0.4)}@{server.url}", "-o",
            str(out), "--adaptive", str(irt), "--target-se", "0.06")
    assert _cli(*args) == 0
    first = json.loads((out / "run.json").read_text())["adaptive"]
    sent = sum(server.counts.values())
    assert _cli(*args) == 0
    again = json.loads((out / "run.json").read_text())["adaptive"]
    assert again["asked_ids"] == first["asked_ids"] and sum(server.counts.values()) == sent
    assert 0 < len(first["asked_ids"]) < 80 and first["stop"] == "target"
    assert _cli("score", str(bench), str(out), "--resamples", "99") == 0
    metrics = json.loads((out / "metrics.json").read_text())
    ad = metrics["adaptive"]
    assert ad["recomputed"] and ad["asked"] == len(first["asked_ids"])
    assert ad["accuracy"] == pytest.approx(first["estimate"]["accuracy"])
    assert metrics["coverage"]["conditions"]["clean"]["missing"] == 0
    assert _cli("report", str(out), "-o", str(root / "r.html")) == 0
    assert "adaptive estimate of the accuracy" in (root / "r.md").read_text()


def test_unreachable_target_stops_at_the_budget_with_a_note(zoo, capsys) -> None:
    root, bench, irt, server = zoo
    out = root / "budget"
    capsys.readouterr()
    assert _cli("run", str(bench), "--model", f"openai:{zoo_model(0.0)}@{server.url}", "-o",
                str(out), "--adaptive", str(irt), "--target-se", "0.0001", "--budget",
                "7") == 0
    text = capsys.readouterr().out
    assert "target SE 0.0001 not reached" in text
    assert json.loads((out / "run.json").read_text())["adaptive"]["stop"] == "budget"


def test_audit_carries_the_item_quality(zoo) -> None:
    root, bench, irt, _ = zoo
    target = root / "audit.json"
    assert _cli("audit", str(bench), "--irt", str(irt), "-o", str(target), "--no-html",
                "--fail-on", "never") == 0
    audit = json.loads(target.read_text())
    assert audit["irt"]["models"] == len(THETAS)
    assert any(f["check"] == "item-quality" for f in audit["findings"])


def test_grader_agrees_with_score(zoo) -> None:
    from medvqa.irt._grade import Grader
    from medvqa.schema import Item, Prediction, read_jsonl

    root, bench, _, _ = zoo
    items = {it.id: it for it in read_jsonl(bench / "items.jsonl", Item)}
    grader = Grader("strict")
    preds = list(read_jsonl(root / "run+0.2" / "predictions.jsonl", Prediction))
    assert all(grader.correct(items[p.item_id], p.response or "") == p.correct for p in preds)
