"""``medvqa serve``: start a server, wait for /v1/models, print the spec (a stand-in server)."""

from __future__ import annotations

import importlib.util
import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from medvqa.errors import BadInputError
from medvqa.models._serve import launch_argv, ready_model, start_server

STANDIN = f"{sys.executable} -m medvqa.testing --port {{port}} --delay 0.5"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_waits_for_readiness_then_gives_the_spec() -> None:
    port = _free_port()
    argv = launch_argv("vllm", "m", "127.0.0.1", port, [], sys.executable, STANDIN)
    url = f"http://127.0.0.1:{port}/v1"
    assert ready_model(url) is None
    server = start_server(argv, url, timeout_s=30, poll_s=0.1)
    try:
        assert server.spec == f"openai:test@{url}" and ready_model(url) == "test"
    finally:
        server.stop()
    assert server.process.poll() is not None


def test_a_server_that_never_becomes_ready_is_stopped_with_one_line() -> None:
    argv = [sys.executable, "-c", "import time; time.sleep(120)"]
    started = time.monotonic()
    with pytest.raises(BadInputError, match="did not answer .* within 1 s and was stopped"):
        start_server(argv, f"http://127.0.0.1:{_free_port()}/v1", timeout_s=1, poll_s=0.1)
    assert time.monotonic() - started < 20


def test_a_server_that_exits_says_why() -> None:
    argv = [sys.executable, "-c", "import sys; print('CUDA out of memory'); sys.exit(3)"]
    with pytest.raises(BadInputError, match="exited with code 3 .*CUDA out of memory"):
        start_server(argv, f"http://127.0.0.1:{_free_port()}/v1", timeout_s=30, poll_s=0.1)


@pytest.mark.skipif(importlib.util.find_spec("vllm") is not None, reason="vLLM is installed")
def test_missing_vllm_is_one_line_exit_2() -> None:
    proc = subprocess.run([sys.executable, "-m", "medvqa.cli", "serve", "vllm", "some/model"],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "COLUMNS": "300"})
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "pip install 'medvqa[vllm]'" in proc.stderr


def test_cli_prints_the_spec_and_stops_its_server_on_sigterm() -> None:
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "medvqa.cli", "serve", "vllm", "m", "--port", str(port),
         "--command", STANDIN, "--timeout", "60"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().strip()
        assert line == f"openai:test@http://127.0.0.1:{port}/v1"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0
        assert ready_model(f"http://127.0.0.1:{port}/v1", timeout_s=1) is None
    finally:
        if proc.poll() is None:
            proc.kill()
