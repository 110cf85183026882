"""What a resumed run needs: its model only when it has something to ask (no weights loaded,
no endpoint needed, for a run whose every request is answered); and ``--force-new`` reuses
nothing, the old cached answers included."""

from __future__ import annotations

from pathlib import Path

import pytest
from _http import CountingServer

from medvqa.errors import BadInputError
from medvqa.models import ModelConfig
from medvqa.run import RunConfig, run_benchmark


def _config(bench: Path, out: Path, url: str, limit: int | None = None) -> RunConfig:
    return RunConfig(bench_dir=bench, out_dir=out, model=ModelConfig(spec=f"openai:test@{url}"),
                     limit=limit)


def test_a_finished_run_resumes_without_its_endpoint(bench: Path, tmp_path: Path) -> None:
    with CountingServer() as server:
        url = server.url
        first = run_benchmark(_config(bench, tmp_path / "run", url, limit=4))
    assert first.sent == 4
    again = run_benchmark(_config(bench, tmp_path / "run", url, limit=4))  # the server is gone
    assert again.sent == 0 and again.already_done == 4 and again.predictions == 4


def test_a_resume_with_work_left_still_needs_it(bench: Path, tmp_path: Path) -> None:
    with CountingServer() as server:
        url = server.url
        run_benchmark(_config(bench, tmp_path / "run", url, limit=4))
    with pytest.raises(BadInputError, match="unreachable"):
        run_benchmark(_config(bench, tmp_path / "run", url, limit=6))


def test_force_new_asks_every_request_again(bench: Path, tmp_path: Path) -> None:
    """``--force-new`` is a new run: the old cache.sqlite answers nothing of it."""
    with CountingServer() as server:
        run_benchmark(_config(bench, tmp_path / "run", server.url, limit=3))
        config = _config(bench, tmp_path / "run", server.url, limit=3)
        config.force_new = True
        again = run_benchmark(config)
        asked = sum(server.counts.values())
    assert again.sent == 3 and again.cached == 0
    assert asked == 6
