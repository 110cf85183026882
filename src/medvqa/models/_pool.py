"""``openai:`` over several servers of one model: least-outstanding dispatch, out and back in.

Each base URL gets its own :class:`~medvqa.models._openai_compat.OpenAICompatModel` (its own
connection pool, and whatever retry handling that client does). A request goes to the healthy
endpoint with the fewest requests in flight (ties: the one used longest ago), so a slow server
gets less work without any tuning. An endpoint that refuses connections, or fails
:data:`FAILS_TO_REMOVE` times in a row with a transient error, is taken out; a background probe
asks its ``/models`` every :data:`PROBE_S` seconds (doubling to :data:`PROBE_MAX_S`) and puts it
back on the first answer. A request whose endpoint could not be connected to is sent again at
once to another endpoint; other failures go back to the runner's retry policy. The pool also
applies the client-side rate limits and passes ``top_p`` through; which URL answered is not part
of the cache key (every endpoint serves the same model).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import aiohttp

from medvqa.models._base import (
    EndpointUnreachableError,
    GenerateRequest,
    GenerateResponse,
    ModelConfig,
    TransientModelError,
)
from medvqa.models._endpoint import redact_url_query, with_path
from medvqa.models._openai_compat import OpenAICompatModel
from medvqa.models._rate_limit import RateLimiter, estimate_tokens

log = logging.getLogger(__name__)

FAILS_TO_REMOVE = 3
PROBE_S = 0.5
PROBE_MAX_S = 30.0


@dataclass
class Endpoint:
    """One server of the pool and its state."""

    client: OpenAICompatModel
    up: bool = True
    outstanding: int = 0
    fails: int = 0
    sent: int = 0
    last_used: float = 0.0
    removals: int = 0
    probe: asyncio.Task[None] | None = field(default=None, repr=False)

    @property
    def url(self) -> str:
        """Its base URL as recorded and shown (a key in its query redacted)."""
        return redact_url_query(self.client.base_url)


#: Messages of failures where the server went away (refused, reset, disconnected): the request
#: is sent to another endpoint at once instead of waiting for the runner's backoff.
GONE = ("cannot connect", "ClientOSError", "ServerDisconnectedError", "ClientConnectorError")


def _unreachable(exc: Exception) -> bool:
    return any(g in str(exc) for g in GONE)


class EndpointPool:
    """One ``openai:`` model served by several base URLs (see module docstring).

    Args:
        config: the model config (``endpoints``, rate limits, ``top_p`` and ``reasoning`` apply).
        model: the model name sent in each body.
        urls: the base URLs.
    """

    batch_size = 1

    def __init__(self, config: ModelConfig, model: str, urls: Sequence[str]):
        extra = dict(config.extra)
        if config.top_p is not None:
            extra["top_p"] = config.top_p
        child = replace(config, extra=extra)
        self.endpoints = [Endpoint(OpenAICompatModel(child, model, u)) for u in urls]
        first = self.endpoints[0].client
        self.name = redact_url_query(config.spec)
        self.params: dict[str, Any] = dict(first.params)
        if config.reasoning:
            self.params["reasoning"] = True
        self.info: dict[str, Any] = {
            "text_only": False,
            "endpoint": redact_url_query(first.base_url),
            "endpoints": [e.url for e in self.endpoints],
            **({"requests_per_min": config.requests_per_min} if config.requests_per_min else {}),
            **({"tokens_per_min": config.tokens_per_min} if config.tokens_per_min else {}),
            "sent_per_endpoint": {e.url: 0 for e in self.endpoints},
        }
        self.max_tokens = config.max_tokens
        self.limiter = RateLimiter(config.requests_per_min, config.tokens_per_min)

    def __repr__(self) -> str:
        return f"EndpointPool({[e.url for e in self.endpoints]!r})"

    async def start(self) -> None:
        """Start every endpoint; unreachable ones start out of the pool, unless all are."""
        failures = []
        for e in self.endpoints:
            try:
                await e.client.start()
            except EndpointUnreachableError as exc:
                failures.append(str(exc))
                self._take_out(e)
        if len(failures) == len(self.endpoints):
            await self.aclose()
            raise EndpointUnreachableError("; ".join(failures))

    async def aclose(self) -> None:
        """Stop probes and close every session; record per-endpoint counts in ``info``."""
        for e in self.endpoints:
            if e.probe is not None:
                e.probe.cancel()
                with contextlib.suppress(BaseException):
                    await e.probe
                e.probe = None
            await e.client.aclose()
        if self.limiter.active:
            self.info["rate_limit_wait_s"] = round(self.limiter.waited_s, 3)

    def pick(self) -> Endpoint | None:
        """The healthy endpoint with the fewest requests in flight (None if none is up)."""
        up = [e for e in self.endpoints if e.up]
        return min(up, key=lambda e: (e.outstanding, e.last_used)) if up else None

    async def generate(self, requests: Sequence[GenerateRequest]) -> list[GenerateResponse]:
        """Answer each request on the least-busy healthy endpoint."""
        return [await self._one(r) for r in requests]

    async def _one(self, request: GenerateRequest) -> GenerateResponse:
        await self.limiter.acquire(
            estimate_tokens(request.prompt, len(request.images), self.max_tokens)
        )
        tried: set[str] = set()
        while True:
            e = self.pick()
            if e is None or e.url in tried:
                down = ", ".join(x.url for x in self.endpoints if not x.up)
                raise TransientModelError(f"no endpoint available (out of the pool: {down})")
            tried.add(e.url)
            e.outstanding += 1
            e.last_used = time.monotonic()
            try:
                out = await e.client.generate([request])
            except TransientModelError as exc:
                e.fails += 1
                if _unreachable(exc) or e.fails >= FAILS_TO_REMOVE:
                    self._take_out(e)
                if _unreachable(exc):
                    continue  # never reached the server: send it elsewhere at once
                raise
            finally:
                e.outstanding -= 1
            e.fails = 0
            e.sent += 1
            self.info["sent_per_endpoint"][e.url] = e.sent
            return out[0]

    def _take_out(self, e: Endpoint) -> None:
        if not e.up and e.probe is not None:
            return
        e.up = False
        e.removals += 1
        log.warning("endpoint %s taken out of the pool; probing it", e.url)
        e.probe = asyncio.ensure_future(self._probe(e))

    async def _probe(self, e: Endpoint) -> None:
        """Ask ``/models`` until it answers 200, then put the endpoint back."""
        wait = PROBE_S
        timeout = aiohttp.ClientTimeout(total=5)
        while True:
            await asyncio.sleep(wait)
            try:
                async with aiohttp.ClientSession(timeout=timeout) as session, session.get(
                    with_path(e.client.base_url, "/models"), headers=e.client._headers
                ) as resp:
                    if resp.status == 200:
                        if e.client._session is None:
                            await e.client.start()
                        e.up, e.fails, e.probe = True, 0, None
                        log.warning("endpoint %s is back in the pool", e.url)
                        return
            except (aiohttp.ClientError, asyncio.TimeoutError, OSError,
                    EndpointUnreachableError):
                pass
            wait = min(PROBE_MAX_S, wait * 2)
