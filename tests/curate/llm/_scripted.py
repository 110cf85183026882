"""A real OpenAI-compatible chat server on 127.0.0.1 whose replies come from a Python function.

Tests drive the builders through the real ``openai:`` backend and this real HTTP server, so
every request goes through ``medvqa.run.complete`` (cache, retries) exactly as in use; only the
model's text is scripted. The server records every request it receives.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from dataclasses import dataclass

from aiohttp import web


@dataclass(frozen=True)
class Received:
    """One request as the server saw it."""

    system: str
    prompt: str
    n_images: int
    body: dict


class ScriptedServer:
    """Answer each chat request with ``reply(system, prompt)``; bind to ``host`` (port 0)."""

    def __init__(self, reply: Callable[[str, str], str], host: str = "127.0.0.1"):
        self.reply = reply
        self.host = host
        self.received: list[Received] = []
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"

    def spec(self, name: str = "scripted") -> str:
        return f"openai:{name}@{self.url}"

    async def _chat(self, request: web.Request) -> web.Response:
        body = await request.json()
        system, prompt, n_images = "", "", 0
        for msg in body["messages"]:
            content = msg["content"]
            if isinstance(content, str):
                text = content
            else:
                text = "".join(p.get("text", "") for p in content if p.get("type") == "text")
                n_images += sum(1 for p in content if p.get("type") == "image_url")
            if msg["role"] == "system":
                system = text
            else:
                prompt = text
        self.received.append(Received(system, prompt, n_images, body))
        return web.json_response(
            {"choices": [{"message": {"content": self.reply(system, prompt)}}]}
        )

    def _serve(self) -> None:
        asyncio.set_event_loop(self._loop)
        app = web.Application()
        app.router.add_post("/v1/chat/completions", self._chat)
        self._runner = web.AppRunner(app)
        self._loop.run_until_complete(self._runner.setup())
        site = web.TCPSite(self._runner, self.host, 0)
        self._loop.run_until_complete(site.start())
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self._ready.set()
        self._loop.run_forever()

    def __enter__(self) -> ScriptedServer:
        self._thread.start()
        assert self._ready.wait(10), "server did not start"
        return self

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
