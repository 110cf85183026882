"""A real OpenAI-style HTTP server and client backend for the runner's crash and retry tests.

Stand-ins until ``medvqa.testing`` and the ``openai`` backend exist; they speak just enough
of ``/v1/chat/completions`` for the runner: the server counts requests per prompt, sleeps a
configurable latency, and can answer scripted 429/500 statuses.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections import Counter
from collections.abc import Sequence

import aiohttp
from aiohttp import web

from medvqa.models import (
    EndpointUnreachableError,
    GenerateRequest,
    GenerateResponse,
    ModelRequestError,
    TransientModelError,
)


class CountingServer:
    """aiohttp server in a background thread on 127.0.0.1.

    Args:
        latency_s: sleep before each answer.
        fail: prompt substring -> list of HTTP statuses returned on successive requests.
    """

    def __init__(self, latency_s: float = 0.0, fail: dict[str, list[int]] | None = None):
        self.latency_s = latency_s
        self.fail = {k: list(v) for k, v in (fail or {}).items()}
        self.counts: Counter[str] = Counter()
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    async def _chat(self, request: web.Request) -> web.Response:
        body = await request.json()
        content = body["messages"][-1]["content"]
        if isinstance(content, str):
            prompt = content
        else:  # OpenAI content parts: text and image_url in any order
            prompt = next(p["text"] for p in content if p.get("type") == "text")
        self.counts[prompt] += 1
        for marker, statuses in self.fail.items():
            if marker in prompt and statuses:
                return web.json_response({"error": "scripted"}, status=statuses.pop(0))
        await asyncio.sleep(self.latency_s)
        return web.json_response({"choices": [{"message": {"content": "A"}}]})

    async def _counts(self, request: web.Request) -> web.Response:
        return web.json_response(dict(self.counts))

    async def _models(self, request: web.Request) -> web.Response:
        return web.json_response({"data": [{"id": "test"}]})

    def _serve(self) -> None:
        asyncio.set_event_loop(self._loop)
        app = web.Application(client_max_size=64 << 20)
        app.router.add_post("/v1/chat/completions", self._chat)
        app.router.add_get("/v1/models", self._models)
        app.router.add_get("/counts", self._counts)
        self._runner = web.AppRunner(app)
        self._loop.run_until_complete(self._runner.setup())
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        self._loop.run_until_complete(site.start())
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self._ready.set()
        self._loop.run_forever()

    def __enter__(self) -> CountingServer:
        self._thread.start()
        self._ready.wait(10)
        return self

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)


class HttpBackend:
    """Minimal chat-completions client (one request per call)."""

    batch_size = 1

    def __init__(self, base_url: str):
        self.base_url = base_url
        self.name = f"http@{base_url}"
        self.params = {"temperature": 0}
        self.info = {"text_only": False}
        self._session: aiohttp.ClientSession | None = None

    async def start(self) -> None:
        self._session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))
        try:
            async with self._session.get(f"{self.base_url}/models") as resp:
                await resp.read()
        except aiohttp.ClientConnectionError as exc:
            raise EndpointUnreachableError(f"cannot connect to {self.base_url}: {exc}") from None

    async def generate(self, requests: Sequence[GenerateRequest]) -> list[GenerateResponse]:
        assert self._session is not None
        (req,) = requests
        t = time.perf_counter()
        body = {"model": "test", "messages": [{"role": "user", "content": req.prompt}]}
        async with self._session.post(f"{self.base_url}/chat/completions", json=body) as resp:
            data = json.loads(await resp.read())
            if resp.status == 429 or resp.status >= 500:
                raise TransientModelError(f"HTTP {resp.status} from {self.base_url}")
            if resp.status >= 400:
                raise ModelRequestError(f"HTTP {resp.status} from {self.base_url}")
        text = data["choices"][0]["message"]["content"]
        return [GenerateResponse(text=text, latency_s=time.perf_counter() - t)]

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()
