"""Concurrent writers on SQLite (WAL) and on a real PostgreSQL server on loopback: no decision
is lost or duplicated, edits get distinct version numbers, the HTTP load test holds."""

from __future__ import annotations

import threading

import pytest

from medvqa.measurements._review import make_load_bench, run_load
from medvqa.review import ReviewStore, load_bench
from medvqa.testing import PostgresServer, postgres_bin


@pytest.fixture(scope="module")
def pg_url():
    if postgres_bin() is None:
        pytest.skip("PostgreSQL server binaries are absent (apt-get install postgresql)")
    with PostgresServer() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request, tmp_path):
    if request.param == "sqlite":
        return str(tmp_path / "c.sqlite")
    url = request.getfixturevalue("pg_url")
    # one database per test: drop what an earlier test left
    store = ReviewStore(url)
    store.db.engine.dispose()
    from medvqa.review._db import make_metadata

    make_metadata().drop_all(store.db.engine)
    return url


def _hammer(n_threads: int, fn) -> None:
    start = threading.Barrier(n_threads)
    errors: list[BaseException] = []

    def run(i):
        start.wait()
        try:
            fn(i)
        except BaseException as exc:  # noqa: BLE001 - re-raised below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_concurrent_decisions_none_lost_none_duplicated(db, bench):
    b = load_bench(bench)
    store = ReviewStore(db)
    for i in range(8):
        store.add_reviewer(f"r{i}", "reviewer", [b.key])
    people = store.reviewers()

    def work(i):
        for k, item in enumerate(b.items):
            for _ in range(2):  # every post is sent twice (a retry): recorded once
                store.record_decision(nonce=f"{i}-{k}", bench=b.key, item_id=item,
                                      reviewer=people[i], kind="review", verdict="accept")

    _hammer(8, work)
    rows = store.decisions(b.key)
    assert len(rows) == 8 * len(b.items)
    assert len({(d.reviewer, d.item_id) for d in rows}) == len(rows)


def test_concurrent_edits_get_distinct_versions(db, bench):
    b = load_bench(bench)
    store = ReviewStore(db)
    store.add_reviewer("e", "reviewer", [b.key])
    who = store.reviewers()[0]
    got: list[int] = []
    lock = threading.Lock()

    def work(i):
        item = b.items["r1"].model_copy(update={"question": f"version from thread {i}?"})
        v = store.add_version(b.key, "r1", item.model_dump_json(), who)
        with lock:
            got.append(v)

    _hammer(6, work)
    assert sorted(got) == [1, 2, 3, 4, 5, 6]
    assert [v["version"] for v in store.versions(b.key, "r1")] == [1, 2, 3, 4, 5, 6]


@pytest.mark.slow
def test_http_load_small(db, tmp_path):
    bench = make_load_bench(tmp_path / "LOAD", 10)
    r = run_load(bench, db, reviewers=6, per_reviewer=10, backend=db.split(":")[0])
    assert r.errors == []
    assert (r.stored, r.lost, r.duplicated) == (60, 0, 0)
    assert len(r.latencies_ms) == 60
