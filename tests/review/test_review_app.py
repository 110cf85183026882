"""The review app over HTTP: login, CSRF, escaping, image routes, sessions, rate limit, roles."""

from __future__ import annotations

import os
import time

import pytest
from _review_client import form_tokens, login, make_client

from medvqa.review import load_bench


@pytest.fixture
def app(bench, tmp_path):
    client, store = make_client(bench, str(tmp_path / "r.sqlite"), per_item=1)
    key = load_bench(bench).key
    tokens = {"ann": store.add_reviewer("ann", "reviewer", [key]),
              "adm": store.add_reviewer("adm", "admin", []),
              "out": store.add_reviewer("out", "reviewer", [])}
    return client, store, tokens, key


def test_anonymous_user_is_sent_to_login_and_cannot_write(app):
    client, store, tokens, key = app
    assert client.get("/b/0/next", follow_redirects=False).headers["location"] == "/login"
    r = client.post("/b/0/decide", data={"item_id": "r0", "action": "accept"},
                    follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/login"
    assert store.decisions(key) == []


def test_token_is_stored_hashed(app):
    client, store, tokens, _ = app
    with store.db.read() as c:
        hashes = [r.token_hash for r in c.execute(store.t["reviewers"].select())]
    assert tokens["ann"] not in hashes and len(hashes[0]) == 64


def test_decision_needs_the_session_csrf_token(app):
    client, store, tokens, key = app
    assert login(client, tokens["ann"]).status_code == 303
    page = client.get("/b/0/item?id=r0")
    _, nonce = form_tokens(page.text)
    r = client.post("/b/0/decide", data={"item_id": "r0", "action": "accept", "nonce": nonce,
                                         "csrf": "forged"})
    assert r.status_code == 403
    r = client.post("/b/0/decide", data={"item_id": "r0", "action": "accept", "nonce": nonce})
    assert r.status_code == 403
    assert store.decisions(key) == []


def test_login_form_needs_its_csrf_token(app):
    client, _, tokens, _ = app
    r = client.post("/login", data={"token": tokens["ann"], "csrf": "x"}, follow_redirects=False)
    assert r.status_code == 403


def test_repost_of_a_form_is_recorded_once(app):
    client, store, tokens, key = app
    login(client, tokens["ann"])
    csrf, nonce = form_tokens(client.get("/b/0/item?id=r1").text)
    data = {"item_id": "r1", "action": "reject", "reason": "ambiguous", "note": "two readings",
            "nonce": nonce, "csrf": csrf}
    assert client.post("/b/0/decide", data=data, follow_redirects=False).status_code == 303
    assert client.post("/b/0/decide", data=data, follow_redirects=False).status_code == 303
    ds = store.decisions(key)
    assert [(d.item_id, d.verdict, d.reason, d.note) for d in ds] == [
        ("r1", "reject", "ambiguous", "two readings")]


def test_rejection_needs_a_known_reason(app):
    client, store, tokens, key = app
    login(client, tokens["ann"])
    csrf, nonce = form_tokens(client.get("/b/0/item?id=r1").text)
    r = client.post("/b/0/decide", data={"item_id": "r1", "action": "reject", "reason": "meh",
                                         "nonce": nonce, "csrf": csrf})
    assert r.status_code == 400 and store.decisions(key) == []


def test_other_reason_needs_free_text(app):
    client, store, tokens, key = app
    login(client, tokens["ann"])
    csrf, nonce = form_tokens(client.get("/b/0/item?id=r1").text)
    data = {"item_id": "r1", "action": "reject", "reason": "other", "nonce": nonce, "csrf": csrf}
    assert client.post("/b/0/decide", data=data).status_code == 400
    data["note"] = "duplicate of r0"
    assert client.post("/b/0/decide", data=data, follow_redirects=False).status_code == 303
    assert [(d.reason, d.note) for d in store.decisions(key)] == [("other", "duplicate of r0")]


def test_benchmark_text_is_escaped(app):
    client, _, tokens, _ = app
    login(client, tokens["ann"])
    html = client.get("/b/0/item?id=r2").text
    assert "<script>alert" not in html
    assert html.count("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;") >= 2  # question, option
    assert "script-src 'self'" in client.get("/b/0/item?id=r2").headers[
        "content-security-policy"]


def test_edit_keeps_the_original_and_numbers_versions(app, bench):
    client, store, tokens, key = app
    login(client, tokens["ann"])
    csrf, nonce = form_tokens(client.get("/b/0/item?id=r1").text)
    r = client.post("/b/0/decide", data={
        "item_id": "r1", "action": "edit", "question": "Which breast density category?",
        "opt_A": "fatty", "opt_B": "glandular", "opt_C": "extremely dense", "answer": "C",
        "explanation": "Mostly dense tissue.", "nonce": nonce, "csrf": csrf},
        follow_redirects=False)
    assert r.status_code == 303
    (v,) = store.versions(key, "r1")
    assert v["version"] == 1 and v["reviewer"] == "ann"
    assert '"answer":"C"' in v["item_json"]
    assert load_bench(bench).items["r1"].answer == "B"  # items.jsonl untouched
    page = client.get("/b/0/item?id=r1").text
    assert "edited version 1" in page and "extremely dense" in page


def test_edit_with_answer_outside_options_is_refused(app):
    client, store, tokens, key = app
    login(client, tokens["ann"])
    csrf, nonce = form_tokens(client.get("/b/0/item?id=r1").text)
    r = client.post("/b/0/decide", data={
        "item_id": "r1", "action": "edit", "question": "Q?", "opt_A": "a", "opt_B": "b",
        "opt_C": "c", "answer": "Z", "nonce": nonce, "csrf": csrf})
    assert r.status_code == 400 and "answer" in r.text
    assert store.versions(key, "r1") == [] and store.decisions(key) == []


def test_image_route_serves_only_item_images_inside_bench(app, bench, tmp_path):
    client, _, tokens, _ = app
    login(client, tokens["ann"])
    rel = load_bench(bench).items["r0"].images[0]
    ok = client.get(f"/img/0/{rel}")
    assert ok.status_code == 200 and ok.content == (bench / rel).read_bytes()
    secret = tmp_path / "secret.txt"
    secret.write_text("top secret")
    for attempt in ("../secret.txt", "..%2Fsecret.txt", "%2e%2e/secret.txt", "benchmark.json",
                    "items.jsonl", "../r.sqlite", f"images/../../{secret.name}",
                    str(secret), "images/../benchmark.json"):
        r = client.get(f"/img/0/{attempt}")
        # 422: the client normalised ``..`` away and the path no longer names a benchmark.
        assert r.status_code in (404, 422), attempt
        assert b"top secret" not in r.content


def test_symlinked_image_pointing_outside_bench_is_refused(tmp_path):
    from _review_fixtures import write_review_bench

    bench = write_review_bench(tmp_path / "B")
    rel = load_bench(bench).items["r0"].images[0]
    outside = tmp_path / "outside.jpg"
    outside.write_bytes(b"not yours")
    (bench / rel).unlink()
    os.symlink(outside, bench / rel)
    client, store = make_client(bench, str(tmp_path / "s.sqlite"))
    login(client, store.add_reviewer("z", "admin"))
    assert client.get(f"/img/0/{rel}").status_code == 404


def test_unassigned_reviewer_sees_nothing(app):
    client, _, tokens, _ = app
    login(client, tokens["out"])
    assert "reviewtest" not in client.get("/").text
    assert client.get("/b/0/item?id=r0").status_code == 404
    assert client.get("/admin").status_code == 403


def test_admin_sees_progress(app):
    client, _, tokens, _ = app
    login(client, tokens["adm"])
    html = client.get("/admin").text
    assert "reviewtest" in html and "Per category" in html and "mammo" in html


def test_sessions_expire(bench, tmp_path):
    client, store = make_client(bench, str(tmp_path / "e.sqlite"), session_ttl_s=1.0)
    login(client, store.add_reviewer("e", "admin"))
    assert client.get("/admin").status_code == 200
    time.sleep(1.2)
    assert client.get("/admin", follow_redirects=False).status_code == 303


def test_login_is_rate_limited(app):
    client, _, tokens, _ = app
    codes = [login(client, "wrong-token").status_code for _ in range(5)]
    assert codes == [401] * 5
    assert login(client, tokens["ann"]).status_code == 429  # even the right token must wait


def test_logout_ends_the_session(app):
    client, _, tokens, _ = app
    login(client, tokens["adm"])
    csrf, _ = form_tokens(client.get("/admin").text + 'name="nonce" value="x"')
    assert client.post("/logout", data={"csrf": csrf}, follow_redirects=False).status_code == 303
    assert client.get("/admin", follow_redirects=False).status_code == 303


def test_exam_server_hides_review_pages_and_answers(bench, tmp_path):
    client, store = make_client(bench, str(tmp_path / "x.sqlite"), exam_split="test_tiny")
    login(client, store.add_reviewer("ex", "reviewer", [load_bench(bench).key]))
    assert client.get("/b/0/item?id=t0").status_code == 404
    assert client.get("/b/0/next").status_code == 404
    page = client.get("/exam/0/test_tiny")
    assert page.status_code == 200 and "Which organ" in page.text
    assert "correct" not in page.text and "judge1" not in page.text
    assert "/exam/0/test_tiny" in client.get("/").text


def test_large_bodies_and_file_parts_are_refused_before_the_route_reads_them(app):
    """A 10 MB multipart part used to be read in full (then 404); now 413 on any route."""
    client, store, tokens, key = app
    big = {"file": ("scan.bin", b"\0" * (10 << 20), "application/octet-stream")}
    assert client.post("/login", files=big).status_code == 413
    assert client.post("/b/99/decide", files=big).status_code == 413
    assert login(client, tokens["ann"]).status_code == 303

    def chunks():  # no Content-Length: counted as it arrives
        for _ in range(40):
            yield b"x" * (64 << 10)

    r = client.post("/b/0/decide", content=chunks(),
                    headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 413
    page = client.get("/b/0/item?id=r0")
    csrf, nonce = form_tokens(page.text)
    fields = {"item_id": "r0", "action": "accept", "nonce": nonce, "csrf": csrf}
    r = client.post("/b/0/decide", data=fields, files={"f": ("a.txt", b"tiny", "text/plain")})
    assert r.status_code == 400  # no form of the app uploads a file
    assert store.decisions(key) == []
    r = client.post("/b/0/decide", data=fields, follow_redirects=False)
    assert r.status_code == 303 and len(store.decisions(key)) == 1  # a normal form still works
