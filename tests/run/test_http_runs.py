"""Runs of the real ``openai:`` backend against a real HTTP server on 127.0.0.1: retries,
unreachable endpoints, SIGKILL/SIGINT and resume, images as data URLs, API keys kept secret."""

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
from _http import CountingServer

from medvqa.errors import BadInputError
from medvqa.models import ModelConfig
from medvqa.run import RunConfig, run_benchmark
from medvqa.schema import Prediction, RunInfo, read_json, read_jsonl

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
            _config(bench, tmp_path / "run", server.url, max_retries=3, backoff_s=0.001)
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
        run_benchmark(_config(bench, tmp_path / "run", url))
    proc = subprocess.run(
        _command(bench, tmp_path / "run2", url, 4), capture_output=True, text=True, timeout=60
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


def _command(bench: Path, run: Path, url: str, concurrency: int) -> list[str]:
    return [
        sys.executable, "-m", "medvqa.cli", "run", str(bench), "--model", f"openai:test@{url}",
        "--out", str(run), "--concurrency", str(concurrency), "--split", "all",
    ]  # fmt: skip


class SlowingServer(CountingServer):
    """Answers at ``latency_s`` until ``fast`` requests have arrived, then at ``slow_s``.

    So a run killed after its 40th answer is still mid-run however late the kill lands: at
    0.05 s an answer the whole run takes about a second, which a loaded host can spend before
    the test's poll sees the 40th answer.
    """

    def __init__(self, fast: int, slow_s: float, latency_s: float):
        super().__init__(latency_s=latency_s)
        self.fast = fast
        self.slow_s = slow_s

    async def _respond(self, request, encode):  # type: ignore[no-untyped-def]
        if len(self.arrivals) >= self.fast:
            self.latency_s = self.slow_s
        return await super()._respond(request, encode)


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
def test_killed_run_resumes_without_asking_twice(tmp_path: Path, bench_factory, sig) -> None:
    bench = bench_factory(tmp_path / "bench", n=150)
    run = tmp_path / "run"
    concurrency = 8
    with SlowingServer(fast=60, slow_s=2.0, latency_s=0.05) as server:
        cmd = _command(bench, run, server.url, concurrency)
        # A child inherits an ignored SIGINT (and then rightly keeps ignoring it, as a job started
        # in the background does): some library in a test worker may have left it ignored. The
        # run stands for one started from a terminal, so it starts with SIGINT's default.
        inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        finally:
            signal.signal(signal.SIGINT, inherited)
        deadline = time.monotonic() + 60
        while len(_journaled(run)) < 40 and time.monotonic() < deadline:
            time.sleep(0.02)
        proc.send_signal(sig)
        code = proc.wait(30)
        server.fast, server.latency_s = 10**9, 0.05  # the resumed run at full speed
        if sig == signal.SIGINT:  # (its output says where the interrupt went, if it fails)
            err = proc.stderr.read().decode() if proc.stderr else ""
            assert code == 130, f"SIGINT in the test worker: {inherited!r}\n{err[-4000:]}"
            kept = len(list(read_jsonl(run / "predictions.jsonl", Prediction)))
            assert f"interrupted after {kept} of 150 predictions" in " ".join(err.split())
            assert "run the same command to resume" in " ".join(err.split())
            assert "Traceback" not in err
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
    assert set(twice) <= set(asked_before) - done_before, "only uncommitted answers are asked again"
    if sig == signal.SIGINT:  # answers that arrived before the interrupt are kept in the cache
        assert len(twice) <= concurrency, "only the requests in flight are asked again"
    preds = list(read_jsonl(run / "predictions.jsonl", Prediction))
    assert [p.item_id for p in preds] == [f"lung-{i:03d}" for i in range(150)]
    assert all(p.response == "A" and p.error is None for p in preds)
    assert read_json(run / "run.json", RunInfo).ended_at


def test_images_sent_once_encoded_as_data_urls(bench: Path, tmp_path: Path) -> None:
    import base64

    from medvqa.schema import Item

    items = {i.id: i for i in read_jsonl(bench / "items.jsonl", Item)}
    with CountingServer() as server:
        s = run_benchmark(_config(bench, tmp_path / "run", server.url))
        bodies = list(server.bodies)
    assert s.sent == 12 and len(bodies) == 12
    for body in bodies:
        parts = body["messages"][-1]["content"]
        text = next(p["text"] for p in parts if p["type"] == "text")
        (url,) = [p["image_url"]["url"] for p in parts if p["type"] == "image_url"]
        item = items[ID.search(text).group(1)]  # type: ignore[union-attr]
        head, _, data = url.partition(",")
        assert head == "data:image/jpeg;base64"
        assert base64.b64decode(data) == (bench / item.images[0]).read_bytes()
        assert body["model"] == "test" and body["temperature"] == 0.0


def test_api_key_sent_as_header_and_written_nowhere(
    bench: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = "sk-medvqa-test-4f1c9a"
    monkeypatch.setenv("MEDVQA_TEST_KEY", secret)
    run = tmp_path / "run"
    with CountingServer(fail={"[lung-004]": [400]}) as server:
        cmd = _command(bench, run, server.url, 4) + ["--api-key-env", "MEDVQA_TEST_KEY"]
        cmd.insert(cmd.index("run"), "--verbose")  # debug logging must not show the key either
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        headers = list(server.headers)
    assert proc.returncode == 0, proc.stderr
    assert headers and set(headers) == {f"Bearer {secret}"}
    for f in run.iterdir():
        assert secret.encode() not in f.read_bytes(), f"API key leaked into {f.name}"
    assert secret not in proc.stdout + proc.stderr


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
def test_api_key_echoed_in_an_answer_is_stored_nowhere(
    bench: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """An endpoint that reflects the key in a 200 answer: redacted before cache and files."""
    import sqlite3

    secret = "sk-medvqa-echo-9b2e7d"
    monkeypatch.setenv("MEDVQA_TEST_KEY", secret)

    def echo(prompt: str, body: dict) -> str:
        return f"A. (request authorised with Bearer {secret}; key={secret})"

    run = tmp_path / "run"
    with CountingServer(reply=echo) as server:
        run_benchmark(RunConfig(bench_dir=bench, out_dir=run, limit=3, model=ModelConfig(
            spec=f"{kind}:test@{server.url}", api_key_env="MEDVQA_TEST_KEY")))
    preds = list(read_jsonl(run / "predictions.jsonl", Prediction))
    assert len(preds) == 3 and all(p.response and "[redacted]" in p.response for p in preds)
    assert all(p.response.startswith("A. (request authorised") for p in preds)
    for f in run.iterdir():
        assert secret.encode() not in f.read_bytes(), f"API key leaked into {f.name}"
    with sqlite3.connect(run / "cache.sqlite") as db:  # the page bytes, and every row's text
        rows = [r for t in ("responses", "predictions") for r in db.execute(f"SELECT * FROM {t}")]
    assert rows and not any(secret in str(r) for r in rows)


def test_anthropic_messages_api(
    bench: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import base64

    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-77")
    with CountingServer(fail={"[lung-002]": [529]}) as server:
        s = run_benchmark(RunConfig(bench_dir=bench, out_dir=tmp_path / "run", backoff_s=0.001,
                                    model=ModelConfig(spec=f"anthropic:claude-test@{server.url}")))
        bodies, headers, images = list(server.bodies), list(server.headers), list(server.images)
    assert s.errors == 0 and s.predictions == 12  # 529 "overloaded" was retried
    assert set(headers) == {"sk-ant-test-77"}
    body = bodies[0]
    assert body["model"] == "claude-test" and "seed" not in body
    parts = body["messages"][0]["content"]
    assert [p["type"] for p in parts] == ["image", "text"]
    assert base64.b64decode(images[0].partition(",")[2])[:2] == b"\xff\xd8"  # the JPEG itself
    preds = list(read_jsonl(tmp_path / "run" / "predictions.jsonl", Prediction))
    assert all(p.response == "A" for p in preds)


def test_non_web_images_are_sent_as_png(tmp_path: Path, data_dir: Path, bench_factory) -> None:
    import base64
    import io

    from PIL import Image

    from medvqa.schema import Item
    from medvqa.store import ImageStore

    tiff = next((data_dir / "nct_crc_he_100k_samples").rglob("*.tif"))
    rel = ImageStore(tmp_path / "b").add_file(tiff)
    item = Item(id="t", images=[rel], question="[lung-000] Which tissue?",
                options={"A": "tumour", "B": "stroma"}, answer="A", question_type="single")
    bench = bench_factory(tmp_path / "b", items=[item])
    with CountingServer() as server:
        run_benchmark(_config(bench, tmp_path / "run", server.url))
        (url,) = server.images
    head, _, data = url.partition(",")
    assert head == "data:image/png;base64"
    png = Image.open(io.BytesIO(base64.b64decode(data)))
    assert png.size == Image.open(tiff).size
    assert png.convert("RGB").tobytes() == Image.open(tiff).convert("RGB").tobytes()
