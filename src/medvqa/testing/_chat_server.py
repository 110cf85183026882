"""A real OpenAI-compatible chat-completions server on the loopback interface.

medvqa's HTTP path is tested and benchmarked against a server that speaks the protocol over a
real socket, never against a patched client. This one answers ``POST /v1/chat/completions`` and
``GET /v1/models`` on 127.0.0.1 with a configurable latency, counts requests per prompt, keeps
the images and headers it received (so a test can check what was sent) and can answer scripted
HTTP statuses for prompts that contain a marker (429/500 for retry tests).

Two ways to run it: :class:`ChatServer` in a background thread of the calling process (tests),
or :class:`ChatServerProcess` in a child process (``python -m medvqa.testing``), which leaves
the calling process's core to the client when ``medvqa bench`` measures throughput.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from aiohttp import web

Reply = Callable[[str, dict[str, Any]], "str | None"]
FailBody = Callable[[Mapping[str, str]], Any]


def first_letter_reply(prompt: str, body: dict[str, Any]) -> str:
    """Answer ``A`` whatever was asked (a fixed, parseable answer)."""
    return "A"


def _prompt_and_images(body: dict[str, Any]) -> tuple[str, list[str]]:
    """Return the last user message's text and images as ``data:`` URLs (either API's parts)."""
    content = body["messages"][-1]["content"]
    if isinstance(content, str):
        return content, []
    text = "".join(p.get("text", "") for p in content if p.get("type") == "text")
    images = [p["image_url"]["url"] for p in content if p.get("type") == "image_url"]
    images += [f"data:{p['source']['media_type']};base64,{p['source']['data']}"
               for p in content if p.get("type") == "image"]
    return text, images


class ChatServer:
    """Chat-completions (and Anthropic Messages) server in a background thread.

    Use as a context manager. ``POST /v1/chat/completions`` answers in the OpenAI format,
    ``POST /v1/messages`` in Anthropic's.

    Args:
        latency_s: seconds to wait before each answer (``asyncio.sleep``, so concurrent
            requests overlap as they would on a real inference server).
        fail: prompt substring → HTTP statuses returned on successive matching requests,
            before normal answers resume.
        reply: ``fn(prompt, body) -> text`` for successful answers (default: ``"A"``); None
            answers ``content: null`` with ``finish_reason: "length"``.
        parse: decode each request body (needed for counts, images, replies and ``fail``);
            off, the server reads the body and answers ``"A"`` at once (throughput benches).
        fail_headers: headers sent with every scripted failure (e.g. ``Retry-After``).
        fail_body: ``fn(request_headers) -> JSON`` body of scripted failures (e.g. one that
            echoes the ``Authorization`` header, as some servers do).
        port: port to listen on (0: any free port).

    Attributes:
        counts: requests received per prompt text.
        images: image URLs received, in arrival order.
        headers: the API key header values received (``Authorization`` or ``x-api-key``).
        bodies: the decoded request bodies, in arrival order.
        arrivals: ``time.monotonic()`` of each request's arrival, in order.
        in_flight: requests being answered now.
        peak_in_flight: the most requests that were being answered at once.

    """

    def __init__(
        self,
        latency_s: float = 0.0,
        fail: dict[str, list[int]] | None = None,
        reply: Reply = first_letter_reply,
        parse: bool = True,
        fail_headers: dict[str, str] | None = None,
        fail_body: FailBody | None = None,
        port: int = 0,
    ):
        self.latency_s = latency_s
        self.fail = {k: list(v) for k, v in (fail or {}).items()}
        self.reply = reply
        self.parse = parse
        self.fail_headers = dict(fail_headers or {})
        self.fail_body = fail_body
        self.arrivals: list[float] = []
        self.in_flight = 0
        self.peak_in_flight = 0
        self.counts: Counter[str] = Counter()
        self.images: list[str] = []
        self.headers: list[str] = []
        self.bodies: list[dict[str, Any]] = []
        self.port = port
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._runner: web.AppRunner | None = None
        self._fixed = _answer("A")

    @property
    def url(self) -> str:
        """Base URL, e.g. ``http://127.0.0.1:53211/v1``."""
        return f"http://127.0.0.1:{self.port}/v1"

    async def _chat(self, request: web.Request) -> web.Response:
        return await self._answer(request, _answer)

    async def _messages(self, request: web.Request) -> web.Response:
        return await self._answer(request, _anthropic_answer)

    async def _answer(
        self, request: web.Request, encode: Callable[[str | None], bytes]
    ) -> web.Response:
        self.in_flight += 1
        self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
        try:
            return await self._respond(request, encode)
        finally:
            self.in_flight -= 1

    async def _respond(
        self, request: web.Request, encode: Callable[[str | None], bytes]
    ) -> web.Response:
        raw = await request.read()
        self.arrivals.append(time.monotonic())
        arrived = time.monotonic()
        if not self.parse:
            await self._wait_latency(arrived)
            return web.Response(body=self._fixed, content_type="application/json")
        body = json.loads(raw)
        prompt, images = _prompt_and_images(body)
        self.counts[prompt] += 1
        self.images.extend(images)
        self.bodies.append(body)
        for header in ("Authorization", "x-api-key"):
            if header in request.headers:
                self.headers.append(request.headers[header])
        for marker, statuses in self.fail.items():
            if marker in prompt and statuses:
                body = (self.fail_body(request.headers) if self.fail_body is not None
                        else {"error": {"message": "scripted"}})
                return web.json_response(body, status=statuses.pop(0), headers=self.fail_headers)
        await self._wait_latency(arrived)
        return web.Response(body=encode(self.reply(prompt, body)), content_type="application/json")

    async def _wait_latency(self, arrived: float) -> None:
        """Sleep until ``latency_s`` has passed since ``arrived``, re-reading it as it goes.

        A test may lower ``latency_s`` while requests wait (to hold a run open until something
        else has happened, then let it finish at once), so the wait is taken in short steps.
        """
        while (left := arrived + self.latency_s - time.monotonic()) > 0:
            await asyncio.sleep(min(left, 0.05))

    async def _models(self, request: web.Request) -> web.Response:
        return web.json_response({"object": "list", "data": [{"id": "test", "object": "model"}]})

    def _app(self) -> web.Application:
        app = web.Application(client_max_size=256 << 20)
        app.router.add_post("/v1/chat/completions", self._chat)
        app.router.add_post("/v1/messages", self._messages)
        app.router.add_get("/v1/models", self._models)
        return app

    def _serve(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._runner = web.AppRunner(self._app(), access_log=None)
        self._loop.run_until_complete(self._runner.setup())
        site = web.TCPSite(self._runner, "127.0.0.1", self.port, backlog=1024)
        self._loop.run_until_complete(site.start())
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self._ready.set()
        self._loop.run_forever()

    def __enter__(self) -> ChatServer:
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("chat server did not start within 10 s")
        return self

    def __exit__(self, *exc: object) -> None:
        if self._runner is not None:
            asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)


def _answer(text: str | None) -> bytes:
    return json.dumps(
        {
            "object": "chat.completion",
            "model": "test",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                         "finish_reason": "stop" if text is not None else "length"}],
        }
    ).encode()


def _anthropic_answer(text: str | None) -> bytes:
    blocks = [] if text is None else [{"type": "text", "text": text}]
    return json.dumps(
        {"type": "message", "role": "assistant", "model": "test",
         "stop_reason": "end_turn" if text is not None else "max_tokens", "content": blocks}
    ).encode()


class ChatServerProcess:
    """A :class:`ChatServer` (answers ``"A"``, bodies not decoded) in a child process.

    Args:
        latency_s: seconds to wait before each answer.

    """

    def __init__(self, latency_s: float = 0.0):
        self.latency_s = latency_s
        self.port = 0
        self._proc: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        """Base URL of the child's server."""
        return f"http://127.0.0.1:{self.port}/v1"

    def __enter__(self) -> ChatServerProcess:
        cmd = [sys.executable, "-m", "medvqa.testing", "--latency", str(self.latency_s)]
        self._proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline()  # "port N", written once the socket listens
        if not line.startswith("port "):
            self._proc.kill()
            raise RuntimeError(f"chat server process did not start: {line!r}")
        self.port = int(line.split()[1])
        return self

    def __exit__(self, *exc: object) -> None:
        if self._proc is not None:
            self._proc.terminate()
            try:
                self._proc.wait(10)
            except subprocess.TimeoutExpired:
                self._proc.kill()


def serve_forever(latency_s: float, port: int = 0, delay_s: float = 0.0) -> None:
    """Run a non-decoding server until terminated; prints ``port N`` once listening."""
    time.sleep(delay_s)
    with ChatServer(latency_s=latency_s, parse=False, port=port) as server:
        print(f"port {server.port}", flush=True)
        threading.Event().wait()
