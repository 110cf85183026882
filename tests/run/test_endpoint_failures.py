"""Endpoints that fail in the ways real ones do, served by the real loopback chat server."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime
from pathlib import Path

import pytest
from _http import CountingServer

from medvqa.errors import BadInputError
from medvqa.models import ModelConfig
from medvqa.run import RunConfig, run_benchmark
from medvqa.schema import Prediction, read_jsonl


def _config(bench: Path, out: Path, url: str, **kw) -> RunConfig:
    return RunConfig(bench_dir=bench, out_dir=out, model=ModelConfig(spec=f"openai:t@{url}"), **kw)


def _preds(run: Path) -> dict[str, Prediction]:
    return {p.item_id: p for p in read_jsonl(run / "predictions.jsonl", Prediction)}


def test_content_null_is_an_error_naming_the_finish_reason(bench: Path, tmp_path: Path) -> None:
    def reply(prompt: str, body: dict) -> str | None:
        return None if "[lung-001]" in prompt else "A"

    with CountingServer(reply=reply) as server:
        run_benchmark(_config(bench, tmp_path / "run", server.url))
    p = _preds(tmp_path / "run")["lung-001"]
    assert p.response is None and "content is null" in p.error and "'length'" in p.error
    assert _preds(tmp_path / "run")["lung-002"].response == "A"


def test_anthropic_reply_without_text_is_an_error(bench: Path, tmp_path: Path) -> None:
    def reply(prompt: str, body: dict) -> str | None:
        return None if "[lung-001]" in prompt else "B"

    with CountingServer(reply=reply) as server:
        spec = f"anthropic:claude-test@{server.url}"
        run_benchmark(RunConfig(bench_dir=bench, out_dir=tmp_path / "run", limit=3,
                                model=ModelConfig(spec=spec)))
    preds = _preds(tmp_path / "run")
    assert preds["lung-001"].response is None and "'max_tokens'" in preds["lung-001"].error
    assert preds["lung-002"].response == "B"


def test_a_refusal_is_the_answer_not_an_error(bench: Path, tmp_path: Path) -> None:
    from aiohttp import web

    class Refusing(CountingServer):
        async def _chat(self, request: web.Request) -> web.Response:
            await request.read()
            return web.json_response({"choices": [{"index": 0, "finish_reason": "stop",
                                                   "message": {"role": "assistant",
                                                               "content": None,
                                                               "refusal": "I cannot help."}}]})

    with Refusing() as server:
        run_benchmark(_config(bench, tmp_path / "run", server.url, limit=2))
    assert all(p.response == "I cannot help." and p.error is None
               for p in _preds(tmp_path / "run").values())


@pytest.mark.parametrize("status", [401, 403])
def test_auth_failure_stops_the_run_at_once(bench: Path, tmp_path: Path, status: int) -> None:
    with CountingServer(fail={"": [status] * 100}) as server:
        with pytest.raises(BadInputError, match=f"refused the key: HTTP {status}"):
            run_benchmark(_config(bench, tmp_path / "run", server.url, concurrency=2,
                                  max_retries=4, backoff_s=0.001))
        sent = len(server.arrivals)
    assert sent <= 3  # not 12 items x 5 attempts


def test_auth_failure_with_verbose_logging_is_one_line(bench: Path, tmp_path: Path) -> None:
    """-v used to add an asyncio shutdown traceback ("closed database"): the lookup task that
    was still running when the run stopped read the cache after it was closed."""
    with CountingServer(fail={"": [401] * 100}) as server:
        proc = subprocess.run(
            [sys.executable, "-m", "medvqa.cli", "-v", "run", str(bench), "-m",
             f"openai:t@{server.url}", "-o", str(tmp_path / "run"), "--split", "all"],
            capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert "refused the key: HTTP 401" in proc.stderr
    assert "Traceback" not in proc.stderr and "closed database" not in proc.stderr
    assert "ERROR" not in proc.stderr, proc.stderr


def test_every_request_failing_exits_non_zero(bench: Path, tmp_path: Path) -> None:
    with CountingServer(fail={"": [500] * 100}) as server:
        proc = subprocess.run(
            [sys.executable, "-m", "medvqa.cli", "run", str(bench), "-m", f"openai:t@{server.url}",
             "-o", str(tmp_path / "run"), "--max-retries", "0", "--split", "all"],
            capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "every request of this run failed (12)" in proc.stderr
    assert len(_preds(tmp_path / "run")) == 12  # recorded, so --retry-errors can ask again


def test_image_errors_equal_to_answers_are_not_every_request_failing(
    bench_factory, tmp_path: Path, capsys
) -> None:
    """Two items whose image does not load (never sent) and two answered: exit 0, not 2."""
    from medvqa.cli import main

    bench = bench_factory(tmp_path / "bench", 4)
    items = [json.loads(line) for line in (bench / "items.jsonl").read_text().splitlines()]
    for item in items[:2]:
        (bench / item["images"][0]).write_bytes(b"not an image at all")
    with CountingServer() as server, pytest.raises(SystemExit) as exit_info:
        main(["run", str(bench), "-m", f"openai:t@{server.url}", "-o", str(tmp_path / "run"),
              "--split", "all"])
    out = capsys.readouterr()
    assert exit_info.value.code == 0, out.out + out.err
    assert "every request" not in out.err
    preds = _preds(tmp_path / "run")
    assert sum(p.error is None for p in preds.values()) == 2
    assert sum(p.error is not None for p in preds.values()) == 2


def test_run_stops_when_the_first_requests_all_fail(bench_factory, tmp_path: Path) -> None:
    bench = bench_factory(tmp_path / "bench", 30)
    with CountingServer(fail={"": [503] * 1000}) as server:
        with pytest.raises(BadInputError, match="first 5 requests sent all failed"):
            run_benchmark(_config(bench, tmp_path / "run", server.url, concurrency=1,
                                  max_retries=0, stop_after_failures=5))
        sent = len(server.arrivals)
    assert 5 <= sent <= 7


def _gap(bench: Path, out: Path, retry_after: str, **kw) -> float:
    with CountingServer(fail={"[lung-000]": [429]}, fail_headers={"Retry-After": retry_after}
                        ) as server:
        run_benchmark(_config(bench, out, server.url, limit=1, backoff_s=0.01, **kw))
        first, second = server.arrivals
    assert _preds(out)["lung-000"].response == "A"
    return second - first


def test_retry_after_in_seconds_is_honoured(bench: Path, tmp_path: Path) -> None:
    assert _gap(bench, tmp_path / "run", "1") >= 0.95


def test_retry_after_as_a_date_is_honoured_and_capped(bench: Path, tmp_path: Path) -> None:
    soon = format_datetime(datetime.now(timezone.utc) + timedelta(seconds=3), usegmt=True)
    assert _gap(bench, tmp_path / "a", soon) >= 1.0  # whole seconds: at least 2 s minus rounding
    later = format_datetime(datetime.now(timezone.utc) + timedelta(hours=1), usegmt=True)
    gap = _gap(bench, tmp_path / "b", later, max_retry_after_s=0.5)
    assert 0.45 <= gap < 2.0


def test_a_second_run_on_the_same_folder_is_refused_naming_the_holder(
    bench: Path, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    command = [sys.executable, "-m", "medvqa.cli", "run", str(bench), "-o", str(out),
               "--concurrency", "1", "--split", "all"]
    # Every answer waits until the second run has been refused, so the first run still holds
    # the folder however slowly the second one starts; then the answers come at once.
    with CountingServer(latency_s=45.0) as server:  # under the 60 s request timeout
        first = subprocess.Popen(command + ["-m", f"openai:t@{server.url}"],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        holder = out / ".lock.holder.json"
        deadline = time.monotonic() + 60
        while not holder.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        second = subprocess.run(command + ["-m", f"openai:t@{server.url}"],
                                capture_output=True, text=True, timeout=120)
        server.latency_s = 0.0
        first.communicate(timeout=120)
        received = sum(server.counts.values())
    assert json.loads(holder.read_text())["pid"] == first.pid if holder.exists() else True
    assert second.returncode == 2, second.stderr
    assert f"pid {first.pid}" in second.stderr and "another `medvqa run`" in second.stderr
    assert first.returncode == 0 and received == 12
    assert not holder.exists()  # released when the first run ended
