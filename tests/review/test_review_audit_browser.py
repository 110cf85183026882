"""The reader audit end to end in a real headless Chromium: two reviewers read 20 queued
responses with the keyboard (the reader's decision appears only after each answer), then
`medvqa score --adjudication` uses their readings and the report shows the audit rows."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from _audit_run import RESPONSES, human_reading
from _lung_bench import make_bench
from _medvqa_cli import cli
from test_review_browser import CHROMIUM

from medvqa.review import AuditStore, ReviewStore, load_bench
from medvqa.review._app import AppConfig, create_app
from medvqa.review._server import BackgroundServer
from medvqa.schema import Prediction, RunInfo, file_sha256, read_jsonl, write_json, write_jsonl

pytestmark = pytest.mark.slow
TAG = re.compile(r" \(#\d+\)$")


@pytest.fixture
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian chromium is not installed (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        yield b
        b.close()


def _run(bench: Path, run: Path) -> Path:
    """A run of 40 distinct responses (each a base response of _audit_run and its number)."""
    run.mkdir()
    ids = [json.loads(line)["id"] for line in (bench / "items.jsonl").read_text().splitlines()]
    write_jsonl(run / "predictions.jsonl", [
        Prediction(item_id=i, response=f"{RESPONSES[k % len(RESPONSES)]} (#{k})")
        for k, i in enumerate(ids)])
    write_json(run / "run.json", RunInfo(model="fixed:responses", tool_version="test",
                                         items_sha256=file_sha256(bench / "items.jsonl")))
    return run


def _read_ten(page, url: str, token: str, shots: Path, who: str,
              questions: dict, limit: int = 1000) -> int:
    page.goto(f"{url}/login")
    page.fill("#token", token)
    page.click("#login")
    page.click("text=Read responses")
    read = 0
    while read < limit and page.query_selector("[data-reading-page]") is not None:
        # The reader's decision is not on the page before the answer.
        assert page.query_selector("#reader-decisions") is None
        text = page.inner_text("#response")
        reasoning = page.query_selector("details.reasoning")
        if reasoning is not None:
            assert reasoning.get_attribute("open") is None  # collapsed, openable
            page.click("details.reasoning summary")
            assert reasoning.get_attribute("open") is not None
        response = questions[int(page.inner_text("#question-id"))].response
        assert TAG.sub("", response).split("</think>")[-1].split("<")[0] in text
        verdict, choice = human_reading(TAG.sub("", response))
        if read == 0:
            page.screenshot(path=str(shots / f"audit-{who}-reading.png"), full_page=True)
        page.evaluate("document.activeElement && document.activeElement.blur()")
        with page.expect_navigation():
            page.keyboard.press({"answer": (choice or "").lower(), "no_answer": "?",
                                 "refusal": "!"}[verdict])
        page.wait_for_selector("#reader-decisions")
        assert page.is_visible("#your-reading")
        if read == 0:
            page.screenshot(path=str(shots / f"audit-{who}-revealed.png"), full_page=True)
        read += 1
        if read == limit:  # stop on the answer page: no next response is held for us
            break
        with page.expect_navigation():
            page.keyboard.press("n")
    if read < limit:
        assert page.is_visible("#readings-done")
    return read


def test_two_reviewers_adjudicate_and_the_score_uses_them(browser, tmp_path):
    bench = make_bench(tmp_path / "bench", 40)
    run = _run(bench, tmp_path / "run")
    assert cli("score", str(bench), str(run), "--resamples", "99") == 0
    db = tmp_path / "review.sqlite"
    assert cli("review", "adjudicate", str(bench), str(run), "--db", str(db), "--sample",
               "20", "--seed", "5") == 0
    store = ReviewStore(str(db))
    b = load_bench(bench)
    tokens = [store.add_reviewer(n, "reviewer", [b.key]) for n in ("ana", "ben")]
    shots = Path(os.environ.get("MEDVQA_TEST_ARTEFACTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    app = create_app(AppConfig([bench], str(db)), store)
    with BackgroundServer(app) as url:
        ana = browser.new_page(viewport={"width": 1200, "height": 900})
        ben = browser.new_page(viewport={"width": 1200, "height": 900})
        questions = AuditStore(store).questions(b.key)
        assert len(questions) == 20
        ana_read = _read_ten(ana, url, tokens[0], shots, "ana", questions, limit=10)
        ben_read = _read_ten(ben, url, tokens[1], shots, "ben", questions)
    assert ana_read + ben_read == 20
    assert cli("score", str(bench), str(run), "--resamples", "99", "--adjudication",
               str(db)) == 0
    preds = list(read_jsonl(run / "predictions.jsonl", Prediction))
    readers = {p.read_by for p in preds if p.read_by}
    assert readers == {"human:ana", "human:ben"}
    for p in preds:
        if p.read_by:
            assert p.choice == human_reading(TAG.sub("", p.response))[1]
    audit = json.loads((run / "metrics.json").read_text())["reading"]["audit"]
    clean = audit["conditions"]["clean"]
    assert clean["sampled"] == 20 and clean["adjudicated"] == 20
    assert clean["readers"] == ["ana", "ben"] and clean["prediction_powered"]["value"] is not None
    assert cli("report", str(run), "-o", str(tmp_path / "report.html")) == 0
    page = browser.new_page()
    page.goto((tmp_path / "report.html").as_uri())
    reader_table = page.inner_text("table.reader")
    assert "20 of 20 (ana, ben)" in reader_table
    assert "adjudicated by ana, ben" in page.inner_text("table.leaderboard")
    page.screenshot(path=str(shots / "audit-report.png"), full_page=True)
