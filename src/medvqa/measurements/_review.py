"""Load test of the review app: many reviewers deciding at once, on SQLite and on PostgreSQL.

The app runs as ``medvqa review serve`` in a child process on 127.0.0.1; each reviewer is a
thread with its own HTTP client that logs in and loops: GET the next item (the app's
assignment), POST a decision with the page's CSRF token and nonce, and every fifth time posts the
same form again (a retried request). Afterwards the database must hold exactly one row per
(reviewer, item) decided: 0 lost and 0 duplicated. Latency is that of the decision POST.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from medvqa.measurements._figure import BenchFigure

_CSRF = re.compile(r'name="csrf" value="([^"]+)"')
_NONCE = re.compile(r'name="nonce" value="([^"]+)"')
_ITEM = re.compile(r'name="item_id" value="([^"]+)"')
_REASONS = ("not_answerable", "ambiguous", "wrong_answer", "guessable")


@dataclass
class LoadResult:
    """What a load run measured and what the database holds afterwards."""

    backend: str
    reviewers: int
    per_reviewer: int
    expected: int
    stored: int
    lost: int
    duplicated: int
    latencies_ms: list[float] = field(default_factory=list)
    seconds: float = 0.0
    errors: list[str] = field(default_factory=list)

    def p(self, q: float) -> float:
        """Latency percentile in ms."""
        return float(np.percentile(self.latencies_ms, q)) if self.latencies_ms else float("nan")


def make_load_bench(root: Path, n_items: int, seed: int = 0) -> Path:
    """A benchmark of ``n_items`` single-choice items on small seeded random PNG images."""
    import io

    from PIL import Image

    from medvqa.schema import Benchmark, CreatedWith, Item, write_json, write_jsonl
    from medvqa.store import ImageStore

    rng = np.random.default_rng(seed)
    store = ImageStore(root)
    items = []
    for i in range(n_items):
        buf = io.BytesIO()
        Image.fromarray(rng.integers(0, 255, (64, 64), dtype=np.uint8)).save(buf, "PNG")
        rel = store.add_bytes(buf.getvalue(), ".png")
        items.append(Item(id=f"load-{i:04d}", images=[rel], question=f"Item {i}: which?",
                          options={"A": "one", "B": "two"}, answer="A",
                          question_type="single", category=f"c{i % 3}"))
    digest = write_jsonl(root / "items.jsonl", items)
    write_json(root / "benchmark.json", Benchmark(
        name="loadtest", created_with=CreatedWith(tool_version="bench", seed=seed),
        counts={"items": n_items}, items_sha256=digest))
    return root


def _grab(pattern: re.Pattern[str], html: str) -> str:
    m = pattern.search(html)
    return m.group(1) if m else ""


def _reviewer(url: str, token: str, n: int, index: int, lat: list[float],
              errors: list[str]) -> None:
    import httpx

    with httpx.Client(base_url=url, timeout=60) as c:
        page = c.get("/login")
        r = c.post("/login", data={"token": token, "csrf": _grab(_CSRF, page.text)})
        if r.status_code >= 400:
            errors.append(f"login {r.status_code}")
            return
        for k in range(n):
            page = c.get("/b/0/next", follow_redirects=True)
            m = _ITEM.search(page.text)
            if m is None:
                errors.append(f"reviewer {index}: no item left after {k}")
                return
            verdict = "reject" if (index + k) % 3 == 0 else "accept"
            data = {"csrf": _grab(_CSRF, page.text), "item_id": m.group(1),
                    "nonce": _grab(_NONCE, page.text), "action": verdict,
                    "reason": _REASONS[k % len(_REASONS)] if verdict == "reject" else ""}
            for attempt in range(2 if k % 5 == 0 else 1):
                t0 = time.perf_counter()
                r = c.post("/b/0/decide", data=data, follow_redirects=False)
                if attempt == 0:
                    lat.append((time.perf_counter() - t0) * 1000)
                if r.status_code != 303:
                    errors.append(f"decide {r.status_code}: {r.text[:100]}")


def run_load(bench: Path, db: str, reviewers: int, per_reviewer: int,
             backend: str) -> LoadResult:
    """Serve ``bench`` from a child process and drive it with ``reviewers`` threads."""
    from medvqa.review import ReviewStore, free_port, load_bench

    b = load_bench(bench)
    store = ReviewStore(db)
    tokens = [store.add_reviewer(f"rev{i:02d}", "reviewer", [b.key]) for i in range(reviewers)]
    store.db.dispose()
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-c", "from medvqa.cli import main; main()", "review", "serve",
         str(bench), "--db", db, "--port", str(port), "--per-item", str(reviewers)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait(url, proc)
        lat: list[float] = []
        errors: list[str] = []
        threads = [threading.Thread(target=_reviewer, args=(url, t, per_reviewer, i, lat, errors))
                   for i, t in enumerate(tokens)]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        seconds = time.perf_counter() - t0
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    rows = store.decisions(b.key)
    pairs = [(d.reviewer, d.item_id) for d in rows]
    expected = reviewers * per_reviewer
    return LoadResult(backend, reviewers, per_reviewer, expected, len(rows),
                      lost=max(0, expected - len(set(pairs))),
                      duplicated=len(pairs) - len(set(pairs)), latencies_ms=lat,
                      seconds=seconds, errors=errors[:5])


def _wait(url: str, proc: subprocess.Popen[bytes]) -> None:
    import httpx

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            err = proc.stderr.read().decode()[-500:] if proc.stderr else ""
            raise RuntimeError(f"review server exited: {err}")
        try:
            httpx.get(f"{url}/login", timeout=2)
            return
        except httpx.HTTPError:
            time.sleep(0.2)
    raise RuntimeError("review server did not start in 60 s")


def bench_review(quick: bool) -> list[BenchFigure]:
    """20 reviewers × 50 decisions (quick: 5 × 10) on SQLite and, when installed, PostgreSQL."""
    from medvqa.testing import PostgresServer, postgres_bin

    reviewers, per = (5, 10) if quick else (20, 50)
    figures: list[BenchFigure] = []
    with tempfile.TemporaryDirectory() as tmp:
        bench = make_load_bench(Path(tmp) / "BENCH", per)
        results = [run_load(bench, str(Path(tmp) / "r.sqlite"), reviewers, per, "sqlite")]
        if postgres_bin() is not None:
            with PostgresServer() as url:
                results.append(run_load(bench, url, reviewers, per, "postgresql"))
    for r in results:
        label = f"{r.backend}, {r.reviewers} reviewers × {r.per_reviewer} decisions"
        figures += [
            BenchFigure("review", f"decision POST p50 ({label})", round(r.p(50), 1), "ms"),
            BenchFigure("review", f"decision POST p95 ({label})", round(r.p(95), 1), "ms"),
            BenchFigure("review", f"decisions/s ({label})",
                        round(r.expected / r.seconds, 1), "decisions/s"),
            BenchFigure("review", f"lost + duplicated ({label})", r.lost + r.duplicated,
                        "decisions", "0", r.lost + r.duplicated == 0 and not r.errors),
        ]
    return figures
