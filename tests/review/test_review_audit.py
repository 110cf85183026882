"""The reader-audit pages of the review app over HTTP: the reader's decision hidden until read,
escaped responses with reasoning collapsed, retried posts stored once, 403 without access,
the admins' disputed readings, agreement (κ) in `review stats`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from _audit_run import audit_run, human_reading
from _lung_bench import make_bench
from _review_client import form_tokens, login, make_client

from medvqa.errors import BadInputError
from medvqa.review import (
    AdjudicateConfig,
    AuditStore,
    StatsConfig,
    load_bench,
    queue_run,
    review_stats,
)
from medvqa.review._audit_store import Question, check_reading
from medvqa.review._routes_audit import segments

QID = re.compile(r'name="question_id" value="(\d+)"')


@pytest.fixture
def app(tmp_path: Path):
    bench = make_bench(tmp_path / "bench", 30)
    run = audit_run(bench, tmp_path / "run")
    db = str(tmp_path / "review.sqlite")
    client, store = make_client(bench, db)
    b = load_bench(bench)
    # The whole run is queued, so each of its ten response texts is: a smaller sample's draw
    # follows the reader's strata and would change with any rule that moves a response.
    queue_run(b, AuditStore(store), run, AdjudicateConfig(sample=30, seed=1, readers=2))
    tokens = {"ana": store.add_reviewer("ana", "reviewer", [b.key]),
              "ben": store.add_reviewer("ben", "reviewer", [b.key]),
              "boss": store.add_reviewer("boss", "admin", [b.key]),
              "eve": store.add_reviewer("eve", "reviewer", [])}
    return client, store, b, tokens


def _read(client, answer=None, nonce=None):
    page = client.get("/a/0/next")
    assert page.status_code == 200, page.text
    csrf, form_nonce = form_tokens(page.text)
    qid = QID.search(page.text).group(1)
    response = re.search(r'<div class="response" id="response">(.*?)</div>', page.text,
                         re.S).group(1)
    return page, {"csrf": csrf, "nonce": nonce or form_nonce, "question_id": qid,
                  "kind": "reading", "pick": answer or "A"}, response


def test_the_reading_page_hides_the_reader_until_read(app):
    client, store, b, tokens = app
    login(client, tokens["ana"])
    assert "Read responses (10 queued)" in client.get("/").text
    page, form, _ = _read(client)
    assert "reader-decisions" not in page.text and ">rules<" not in page.text
    assert 'data-key="?"' in page.text and 'data-key="!"' in page.text
    posted = client.post("/a/0/read", data=form, follow_redirects=False)
    assert posted.status_code == 303
    revealed = client.get(posted.headers["location"])
    assert "reader-decisions" in revealed.text and ">rules<" in revealed.text


def test_responses_are_escaped_and_reasoning_collapsed(app):
    client, store, b, tokens = app
    login(client, tokens["ana"])
    audit = AuditStore(store)
    seen = set()
    for _ in range(10):
        page, form, response = _read(client)
        q = audit.questions(b.key)[int(form["question_id"])]
        seen.add(q.response)
        assert "<script>" not in response
        if q.response.startswith("<think>"):
            assert '<details class="reasoning">' in response and "&lt;think&gt;" in response
        verdict, choice = human_reading(q.response)
        form["pick"] = choice or {"no_answer": "__no_answer", "refusal": "__refusal"}[verdict]
        assert client.post("/a/0/read", data=form).status_code == 200
    assert any(r.startswith("Final answer: <b>") for r in seen)
    assert "Nothing left to read" in client.get("/a/0/next").text


def test_a_retried_post_is_stored_once(app):
    client, store, b, tokens = app
    login(client, tokens["ana"])
    _, form, _ = _read(client)
    for _ in range(3):
        client.post("/a/0/read", data=form)
    rows = AuditStore(store).readings(b.key)[int(form["question_id"])]
    assert len(rows) == 1


def test_a_reviewer_without_the_benchmark_gets_403(app):
    client, store, b, tokens = app
    login(client, tokens["eve"])
    assert client.get("/a/0/next").status_code == 403
    assert client.get("/a/0/q/1").status_code == 403
    login(client, tokens["ana"])
    assert client.get("/admin/0/readings").status_code == 403  # admins only


def test_bad_readings_are_refused(app):
    client, store, b, tokens = app
    login(client, tokens["ana"])
    _, form, _ = _read(client)
    assert client.post("/a/0/read", data={**form, "pick": "Z"}).status_code == 400
    assert client.post("/a/0/read", data={**form, "csrf": "x"}).status_code == 403
    assert client.post("/a/0/read", data={**form, "kind": "adjudication"}).status_code == 403


def test_two_readers_disagree_then_an_admin_decides_and_stats_give_kappa(app):
    client, store, b, tokens = app
    audit = AuditStore(store)
    for who, flip in (("ana", False), ("ben", True)):
        login(client, tokens[who])
        for k in range(4):
            _, form, _ = _read(client, nonce=f"{who}{k}")
            q = audit.questions(b.key)[int(form["question_id"])]
            verdict, choice = human_reading(q.response)
            if flip and k == 0:
                choice, verdict = (None, "no_answer") if choice else ("A", "answer")
            form["pick"] = choice or "__" + verdict
            client.post("/a/0/read", data=form)
    outcomes = audit.outcomes(b.key)
    assert sum(o.status == "disputed" for o in outcomes.values()) == 1
    stats = review_stats(b, store, StatsConfig(resamples=50))
    assert stats["readings"]["n"] == 4 and stats["readings"]["status"]["disputed"] == 1
    assert "ana|ben" in stats["readings"]["cohen_kappa"]
    login(client, tokens["boss"])
    queue = client.get("/admin/0/readings")
    assert queue.status_code == 200 and "Disputed readings" in queue.text
    csrf, nonce = form_tokens(queue.text)
    qid = QID.search(queue.text).group(1)
    done = client.post("/a/0/read", data={"csrf": csrf, "nonce": nonce, "question_id": qid,
                                          "kind": "adjudication", "pick": "__no_answer"},
                       follow_redirects=False)
    assert done.status_code == 303
    assert AuditStore(store).outcomes(b.key)[int(qid)].status == "adjudicated"
    assert "No reading awaits adjudication" in client.get("/admin/0/readings").text


def test_a_multi_answer_reading_is_a_set():
    q = Question(1, "k", "i", "Which?", "multi", {"A": "x", "B": "y", "C": "z"}, "A and C")
    assert check_reading(q, "answer", ["C", "A", "C"]) == ["A", "C"]
    assert check_reading(q, "no_answer", []) is None
    with pytest.raises(BadInputError):
        check_reading(q, "answer", ["D"])
    single = Question(1, "k", "i", "Which?", "single", {"A": "x", "B": "y"}, "A")
    with pytest.raises(BadInputError, match="one option"):
        check_reading(single, "answer", ["A", "B"])


def test_reasoning_segments_cover_the_response():
    text = "<think>A? B?</think>So: B <reasoning>check</reasoning> final B"
    parts = segments(text)
    assert "".join(t for _, t in parts) == text
    assert [k for k, _ in parts] == ["reasoning", "text", "reasoning", "text"]
    assert segments("B <think>cut off") == [("text", "B "), ("reasoning", "<think>cut off")]
