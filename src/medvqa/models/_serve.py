"""Start an inference server (vLLM, SGLang) and wait until it answers: ``medvqa serve``.

A serving engine batches continuously and keeps the GPU busy, so it is the way to run an
open-weights model over many items (a plain ``generate`` loop reaches a few per cent of a GPU,
measured). This module only launches the engine's own OpenAI-compatible server as a
child process, polls ``GET /v1/models`` until it answers, and returns the ``openai:`` spec to
give ``medvqa run``. The engines are optional extras, never imported here: whether one is
installed is checked with ``importlib.util.find_spec`` and a missing one is one line.
"""

from __future__ import annotations

import importlib.util
import json
import shlex
import subprocess
import time
import urllib.error
import urllib.request
from collections import deque
from dataclasses import dataclass
from threading import Thread

from medvqa.errors import BadInputError


@dataclass(frozen=True)
class Engine:
    """How to launch one engine's OpenAI-compatible server.

    Attributes:
        module: the Python module that must be importable (``""``: an external program).
        argv: the launch command; ``{python}``, ``{model}``, ``{host}``, ``{port}`` filled in.
        install: the one-line install hint.
    """

    module: str
    argv: tuple[str, ...]
    install: str


ENGINES: dict[str, Engine] = {
    "vllm": Engine("vllm", ("{python}", "-m", "vllm.entrypoints.openai.api_server", "--model",
                            "{model}", "--host", "{host}", "--port", "{port}"),
                   "pip install 'medvqa[vllm]' (Linux with a CUDA GPU)"),
    "sglang": Engine("sglang", ("{python}", "-m", "sglang.launch_server", "--model-path",
                                "{model}", "--host", "{host}", "--port", "{port}"),
                     "pip install 'sglang[all]' (Linux with a CUDA GPU)"),
}


@dataclass
class Server:
    """A started server: its process, base URL and the spec to run it with."""

    process: subprocess.Popen[bytes]
    base_url: str
    model_id: str

    @property
    def spec(self) -> str:
        """``openai:MODEL@BASE_URL`` for ``medvqa run --model``."""
        return f"openai:{self.model_id}@{self.base_url}"

    def stop(self, timeout_s: float = 30.0) -> None:
        """Terminate the server (kill it if it does not stop within ``timeout_s``)."""
        stop_process(self.process, timeout_s)


def stop_process(process: subprocess.Popen[bytes], timeout_s: float = 30.0) -> None:
    """Terminate ``process``, then kill it after ``timeout_s`` seconds."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout_s)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def launch_argv(engine: str, model: str, host: str, port: int, args: list[str],
                python: str, command: str = "") -> list[str]:
    """The command line that starts ``engine`` serving ``model`` (or the custom ``command``).

    Raises:
        BadInputError: an unknown engine, or an engine that is not installed.
    """
    fill = {"python": python, "model": model, "host": host, "port": str(port)}
    if command:
        return [part.format(**fill) for part in shlex.split(command)] + list(args)
    if engine not in ENGINES:
        raise BadInputError(f"unknown engine {engine!r}: use {', '.join(ENGINES)} "
                            "(Ollama: see docs/scale-out.md)")
    spec = ENGINES[engine]
    if importlib.util.find_spec(spec.module) is None:
        raise BadInputError(f"{engine} is not installed in this Python: {spec.install}")
    return [part.format(**fill) for part in spec.argv] + list(args)


def ready_model(base_url: str, timeout_s: float = 2.0) -> str | None:
    """The first model id ``GET {base_url}/models`` lists, or None while it does not answer."""
    try:
        with urllib.request.urlopen(f"{base_url}/models", timeout=timeout_s) as resp:  # noqa: S310
            if resp.status != 200:
                return None
            data = json.loads(resp.read())
    except (urllib.error.URLError, OSError, ValueError):
        return None
    models = data.get("data") if isinstance(data, dict) else None
    if not models or not isinstance(models[0], dict):
        return None
    return str(models[0].get("id", ""))


def start_server(argv: list[str], base_url: str, *, timeout_s: float = 600.0,
                 poll_s: float = 0.5) -> Server:
    """Start ``argv`` and wait until ``{base_url}/models`` answers.

    Raises:
        BadInputError: the process exited before it was ready (with its last output line), or
            it did not answer within ``timeout_s`` (it is then stopped).
    """
    try:
        process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    except OSError as exc:
        raise BadInputError(f"cannot start {argv[0]}: {exc.strerror}") from None
    tail: deque[str] = deque(maxlen=20)

    def drain() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            tail.append(line.decode("utf-8", "replace").rstrip())

    Thread(target=drain, daemon=True).start()
    deadline = time.monotonic() + timeout_s
    try:
        while time.monotonic() < deadline:
            model_id = ready_model(base_url)
            if model_id is not None:
                return Server(process, base_url, model_id)
            if process.poll() is not None:
                last = next((t for t in reversed(tail) if t.strip()), "no output")
                raise BadInputError(
                    f"the server exited with code {process.returncode} before it was ready: "
                    f"{last}"
                )
            time.sleep(poll_s)
    except BaseException:  # Ctrl-C or SIGTERM while waiting: never leave the server behind
        stop_process(process, 10)
        raise
    stop_process(process, 10)
    raise BadInputError(
        f"the server did not answer {base_url}/models within {timeout_s:g} s and was stopped; "
        "raise --timeout for a large model, or check its output"
    )
