"""The review app in a real headless Chromium: log in, accept, edit, reject, adjudicate, sit two
exam items, export; then the exported benchmark, changelog, agreement statistics and the exam's
RUN/ are checked against hand-computed values."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from medvqa.cli import app as cli
from medvqa.review import ReviewStore, load_bench
from medvqa.review._app import AppConfig, create_app
from medvqa.review._server import BackgroundServer

pytestmark = pytest.mark.slow
CHROMIUM = "/usr/bin/chromium"


def tree_digest(root: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        if p.is_file():
            h.update(str(p.relative_to(root)).encode() + p.read_bytes())
    return h.hexdigest()


def run_cli(*args: str) -> None:
    code = cli(args=list(args), prog_name="medvqa", standalone_mode=False)
    assert code in (None, 0)


@pytest.fixture
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian chromium is not installed (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        yield b
        b.close()


def test_review_exam_and_export_in_chromium(browser, bench, tmp_path):
    before = tree_digest(bench)
    db = str(tmp_path / "review.sqlite")
    store = ReviewStore(db)
    b = load_bench(bench)
    token = store.add_reviewer("alice", "admin", [b.key])
    store.add_reviewer("bob", "reviewer", [b.key])
    bob = store.reviewer_by_name("bob")
    for i, (item, verdict, reason) in enumerate([("r0", "accept", None),
                                                  ("r1", "reject", "wrong_answer"),
                                                  ("r2", "reject", "guessable")]):
        store.record_decision(nonce=f"bob{i}", bench=b.key, item_id=item, reviewer=bob,
                              kind="review", verdict=verdict, reason=reason)
    runs = tmp_path / "runs"
    app = create_app(AppConfig([bench], db, per_item=2, runs_dir=runs), store)
    shots = Path(os.environ.get("MEDVQA_TEST_ARTEFACTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)

    with BackgroundServer(app) as url:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(f"{url}/")
        page.fill("#token", token)
        page.click("#login")
        page.click("text=Review next item")
        # r0: a greyscale mammogram with a region box → window/level controls appear.
        page.wait_for_selector("figure.viewer[data-ready]")
        assert page.inner_text("#item-id") == "r0"
        assert page.get_attribute("figure.viewer", "data-ready") == "grey"
        assert page.is_visible(".wl")
        page.fill(".win", "120")  # a narrower window redraws the canvas
        page.evaluate("document.activeElement.blur()")  # shortcuts are off while typing
        zoom = page.inner_text(".zoomlevel")
        page.keyboard.press("+")
        assert page.inner_text(".zoomlevel") != zoom
        page.keyboard.press("0")
        assert page.inner_text(".zoomlevel") == zoom
        assert "benign mass" in page.inner_text("mark")
        assert "judge1" in page.inner_text("table.judges")
        page.screenshot(path=str(shots / "review_page.png"), full_page=True)
        progress = page.inner_text("#progress")
        assert progress.startswith("Item 1 of ") and "0 reviewed by you" in progress
        page.keyboard.press("a")  # accept (keyboard shortcut)
        page.wait_for_url("**/item?id=r1*")
        # The key press was saved, and says so; the counter moved on.
        assert page.inner_text("#saved") == "Saved: item r0 accepted."
        assert "1 reviewed by you" in page.inner_text("#progress")
        # r1: edit.
        page.keyboard.press("e")
        page.fill("#edit-question", "Which breast density category is shown?")
        page.fill("#edit-opt-C", "extremely dense")
        page.fill("#edit-answer", "C")
        page.fill("#edit-explanation", "Mostly dense fibroglandular tissue.")
        page.click("#save-edit")
        page.wait_for_url("**/item?id=r2*")
        assert page.inner_text("#saved") == "Saved: item r1 edited and accepted."
        # r2: the hostile item renders as text; reject it.
        assert "<script>alert('x')</script>" in page.inner_text("#question")
        page.select_option("#reason", "guessable")
        page.click("#reject")
        page.wait_for_url("**/item?id=r3*")
        # Adjudication: alice (edit) and bob (reject) disagree on r1.
        page.goto(f"{url}/admin")
        page.click("#queue-0")
        card = page.locator("section.adjudicate")
        assert card.count() == 1 and "r1" in card.inner_text()
        card.locator("select[name=verdict]").select_option("accept")
        card.locator("select[name=version]").select_option("1")
        card.locator("input[name=note]").fill("edited answer is right")
        card.locator("button[type=submit]").click()
        page.wait_for_selector("#queue-empty")
        page.goto(f"{url}/admin")
        page.screenshot(path=str(shots / "admin_page.png"), full_page=True)
        # Human exam on test_tiny: t0 right (A), t1 wrong (A; gold B). No answer is shown.
        page.goto(f"{url}/exam/0/test_tiny")
        assert page.locator(".tick, li.correct, table.judges, #edit-answer").count() == 0
        page.wait_for_selector("figure.viewer[data-ready]")
        page.screenshot(path=str(shots / "exam_page.png"))
        page.check("#opt-A")
        page.click("#submit-answer")
        page.wait_for_selector("text=question 2 of 2")
        page.check("#opt-A")
        page.click("#submit-answer")
        page.wait_for_selector("#run-dir")
        run_dir = Path(page.inner_text("#run-dir"))

    # Export and check against hand-computed values.
    out = tmp_path / "BENCH_v2"
    run_cli("review", "export", str(bench), "-o", str(out), "--db", db, "--resamples", "200")
    assert tree_digest(bench) == before  # the original is untouched
    items = [json.loads(x) for x in (out / "items.jsonl").read_text().splitlines()]
    assert [i["id"] for i in items] == ["r0", "r1"]
    assert items[0] == json.loads((bench / "items.jsonl").read_text().splitlines()[0])
    assert items[1]["question"] == "Which breast density category is shown?"
    assert items[1]["answer"] == "C" and items[1]["options"]["C"] == "extremely dense"
    assert items[1]["meta"]["explanation"] == "Mostly dense fibroglandular tissue."
    for i in items:
        assert all((out / p).is_file() for p in i["images"])
    log = {e["item_id"]: e for e in map(json.loads, (out / "changelog.jsonl").read_text()
                                        .splitlines())}
    assert log["r0"]["change"] == "accepted" and log["r0"]["by"] == ["alice", "bob"]
    assert log["r1"]["change"] == "edited" and log["r1"]["adjudicated"] is True
    assert log["r1"]["edited_by"] == "alice" and log["r1"]["note"] == "edited answer is right"
    assert log["r1"]["fields"]["answer"] == ["B", "C"]
    assert set(log["r1"]["fields"]) == {"question", "options", "answer", "explanation"}
    assert log["r2"]["change"] == "removed" and log["r2"]["reason"] == "guessable"
    assert {log[k]["change"] for k in ("r3", "t0", "t1")} == {"left_out"}
    assert "| r2 | removed | alice, bob | Guessable from the text alone" in (
        out / "CHANGELOG.md").read_text()
    card_v2 = json.loads((out / "benchmark.json").read_text())
    assert card_v2["version"] == "2.0" and card_v2["counts"]["items"] == 2
    stats = card_v2["review"]["stats"]
    keep = stats["keep"]
    # alice keeps r0, r1, rejects r2; bob keeps r0 only → agreement (1 + 0 + 1) / 3; Cohen's κ:
    # po = 2/3, pe = 2/3·1/3 + 1/3·2/3 = 4/9 → κ = (2/9)/(5/9) = 0.4.
    assert keep["percent_agreement"]["value"] == pytest.approx(2 / 3, abs=1e-6)
    assert keep["cohen_kappa"]["alice|bob"]["value"] == pytest.approx(0.4)
    assert stats["status"] == {"incomplete": 3, "kept": 2, "rejected": 1}
    # Judges (threshold 4) vs experts (r0 kept, r1 kept, r2 rejected): judge1 keeps r0, r1;
    # judge2 keeps r2 only → agreement 1 and 0; κ 1 and (0 − 4/9)/(5/9) = −0.8.
    assert stats["judges"]["judge1"]["percent_agreement"]["value"] == 1.0
    assert stats["judges"]["judge1"]["cohen_kappa"]["value"] == pytest.approx(1.0)
    assert stats["judges"]["judge2"]["percent_agreement"]["value"] == 0.0
    assert stats["judges"]["judge2"]["cohen_kappa"]["value"] == pytest.approx(-0.8)
    run_cli("validate", str(out))

    # The exam is a RUN/ of model human:alice that `medvqa score` and `report` accept.
    assert run_dir == runs / "human_alice--test_tiny"
    run_info = json.loads((run_dir / "run.json").read_text())
    assert run_info["model"] == "human:alice"
    run_cli("score", str(bench), str(run_dir), "--resamples", "99")
    metrics = json.loads((run_dir / "metrics.json").read_text())
    assert metrics["conditions"]["clean"]["overall"]["accuracy"]["value"] == 0.5
    run_cli("report", str(run_dir), "-o", str(tmp_path / "report.html"))
    assert "human:alice" in (tmp_path / "report.html").read_text()
