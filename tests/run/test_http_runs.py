"""Runs against a real HTTP server on 127.0.0.1: retries, unreachable endpoints, SIGKILL."""

from __future__ import annotations

import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from _http import CountingServer, HttpBackend

import medvqa.models
from medvqa.errors import BadInputError
from medvqa.models import ModelConfig
from medvqa.run import RunConfig, run_benchmark
from medvqa.schema import Prediction, RunInfo, read_json, read_jsonl

DRIVER = Path(__file__).with_name("_driver.py")
ID = re.compile(r"\[(lung-\d+)\]")


def _ids(counts: dict[str, int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for prompt, n in counts.items():
        key = ID.search(prompt).group(1)  # type: ignore[union-attr]
        out[key] = out.get(key, 0) + n
    return out


def _config(bench: Path, out: Path, url: str, **kw) -> RunConfig:
    return RunConfig(
        bench_dir=bench, out_dir=out, model=ModelConfig(spec=f"openai:test@{url}"), **kw
    )


def test_429_and_500_retried_then_recorded(bench: Path, tmp_path: Path) -> None:
    fail = {"[lung-001]": [429], "[lung-002]": [500] * 10, "[lung-003]": [400]}
    with CountingServer(fail=fail) as server:
        s = run_benchmark(
            _config(bench, tmp_path / "run", server.url, max_retries=3, backoff_s=0.001),
            backend=HttpBackend(server.url),
        )
        counts = _ids(server.counts)
    assert counts["lung-001"] == 2 and counts["lung-002"] == 4 and counts["lung-003"] == 1
    assert s.errors == 2 and s.predictions == 12
    preds = {p.item_id: p for p in read_jsonl(tmp_path / "run" / "predictions.jsonl", Prediction)}
    assert preds["lung-001"].response == "A"
    assert preds["lung-002"].response is None and "HTTP 500" in preds["lung-002"].error
    assert preds["lung-003"].response is None and "HTTP 400" in preds["lung-003"].error


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_unreachable_endpoint_fails_fast_naming_url(bench: Path, tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    with pytest.raises(BadInputError, match=re.escape(url)):
        run_benchmark(_config(bench, tmp_path / "run", url), backend=HttpBackend(url))
    proc = subprocess.run(
        [sys.executable, str(DRIVER), str(bench), str(tmp_path / "run2"), url, "4"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and url in proc.stderr
    assert not (tmp_path / "run2" / "predictions.jsonl").exists()


def _journaled(run: Path) -> set[str]:
    db = run / "cache.sqlite"
    if not db.exists():
        return set()
    with sqlite3.connect(db) as conn:
        try:
            return {r[0] for r in conn.execute("SELECT item_id FROM predictions")}
        except sqlite3.OperationalError:
            return set()


def _command(how: str, bench: Path, run: Path, url: str, concurrency: int) -> list[str]:
    if how == "driver":  # the runner with the stand-in HTTP backend
        return [sys.executable, str(DRIVER), str(bench), str(run), url, str(concurrency)]
    if not hasattr(medvqa.models, "load_model"):
        pytest.skip("medvqa.models.load_model not written yet")
    return [
        sys.executable, "-m", "medvqa.cli", "run", str(bench), "--model", f"openai:test@{url}",
        "--out", str(run), "--concurrency", str(concurrency),
    ]  # fmt: skip


@pytest.mark.parametrize("how", ["driver", "cli"])
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
def test_killed_run_resumes_without_asking_twice(tmp_path: Path, bench_factory, sig, how) -> None:
    bench = bench_factory(tmp_path / "bench", n=150)
    run = tmp_path / "run"
    concurrency = 8
    with CountingServer(latency_s=0.05) as server:
        cmd = _command(how, bench, run, server.url, concurrency)
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while len(_journaled(run)) < 40 and time.monotonic() < deadline:
            time.sleep(0.02)
        proc.send_signal(sig)
        code = proc.wait(30)
        if how == "cli" and sig == signal.SIGINT:
            assert code == 130
        done_before = _journaled(run)
        asked_before = _ids(server.counts)
        assert 40 <= len(done_before) < 150, "kill should land mid-run"
        if sig == signal.SIGINT:  # an interrupted run leaves a complete, duplicate-free file
            preds = list(read_jsonl(run / "predictions.jsonl", Prediction))
            assert {p.item_id for p in preds} == done_before
            assert read_json(run / "run.json", RunInfo).ended_at is None

        again = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        assert again.returncode == 0, again.stderr
        counts = _ids(server.counts)

    assert set(counts) == {f"lung-{i:03d}" for i in range(150)}
    assert all(counts[i] == 1 for i in done_before), "a committed answer was asked again"
    twice = [i for i, n in counts.items() if n > 1]
    assert set(twice) <= set(asked_before) - done_before and len(twice) <= concurrency
    preds = list(read_jsonl(run / "predictions.jsonl", Prediction))
    assert [p.item_id for p in preds] == [f"lung-{i:03d}" for i in range(150)]
    assert all(p.response == "A" and p.error is None for p in preds)
    assert read_json(run / "run.json", RunInfo).ended_at
