"""``openai:`` over several loopback servers: least outstanding, out of the pool and back in."""

from __future__ import annotations

import asyncio
import socket
import time

import pytest

from medvqa.models import ModelConfig, RateLimiter, load_model
from medvqa.models._base import GenerateRequest
from medvqa.models._pool import EndpointPool
from medvqa.testing import ChatServer


def _reqs(n: int, tag: str = "q") -> list[GenerateRequest]:
    return [GenerateRequest(item_id=f"{tag}{i}", condition="clean", prompt=f"{tag} {i}",
                            options={"A": "x", "B": "y"}) for i in range(n)]


def _pool(*urls: str, **kw) -> EndpointPool:
    spec = f"openai:m@{urls[0]}"
    model = load_model(ModelConfig(spec=spec, endpoints=tuple(urls[1:]), timeout_s=5, **kw))
    assert isinstance(model, EndpointPool)
    return model


async def _ask(pool: EndpointPool, reqs: list[GenerateRequest]) -> list[str | None]:
    out = await asyncio.gather(*(pool.generate([r]) for r in reqs))
    return [o[0].text for o in out]


def test_least_outstanding_sends_more_to_the_faster_server() -> None:
    with ChatServer(latency_s=0.01) as fast, ChatServer(latency_s=0.15) as slow:
        pool = _pool(slow.url, fast.url)

        async def go() -> list[str | None]:
            await pool.start()
            gate = asyncio.Semaphore(4)  # 4 in flight, a new one as soon as one returns

            async def one(r: GenerateRequest) -> str | None:
                async with gate:
                    return (await pool.generate([r]))[0].text

            try:
                return list(await asyncio.gather(*(one(r) for r in _reqs(32))))
            finally:
                await pool.aclose()

        assert asyncio.run(go()) == ["A"] * 32
        sent = pool.info["sent_per_endpoint"]
        assert sent[fast.url] + sent[slow.url] == 32 and sent[fast.url] > 2 * sent[slow.url]
        assert sum(fast.counts.values()) == sent[fast.url]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_failed_endpoint_is_taken_out_probed_and_put_back() -> None:
    port = _free_port()
    with ChatServer() as steady:
        first = ChatServer(port=port)
        first.__enter__()
        pool = _pool(first.url, steady.url)

        async def go() -> None:
            await pool.start()
            try:
                assert await _ask(pool, _reqs(6, "a")) == ["A"] * 6
                assert sum(first.counts.values()) > 0
                first.__exit__(None, None, None)
                # Refused connections are sent on to the other server at once: nothing lost.
                assert await _ask(pool, _reqs(6, "b")) == ["A"] * 6
                assert not pool.endpoints[0].up
                with ChatServer(port=port) as again:
                    deadline = time.monotonic() + 10
                    while not pool.endpoints[0].up and time.monotonic() < deadline:
                        await asyncio.sleep(0.05)
                    assert pool.endpoints[0].up
                    assert await _ask(pool, _reqs(6, "c")) == ["A"] * 6
                    assert sum(again.counts.values()) > 0
            finally:
                await pool.aclose()

        asyncio.run(go())


def test_all_endpoints_down_at_start_is_unreachable() -> None:
    from medvqa.models import EndpointUnreachableError

    pool = _pool(f"http://127.0.0.1:{_free_port()}/v1", f"http://127.0.0.1:{_free_port()}/v1")
    with pytest.raises(EndpointUnreachableError, match="cannot reach"):
        asyncio.run(pool.start())


def test_parameters_are_sent_and_recorded() -> None:
    with ChatServer() as server:
        pool = _pool(server.url, temperature=0.7, top_p=0.9, seed=5, max_tokens=12,
                     reasoning=True)

        async def go() -> None:
            await pool.start()
            await _ask(pool, _reqs(1))
            await pool.aclose()

        asyncio.run(go())
        body = server.bodies[0]
        assert (body["temperature"], body["top_p"], body["seed"], body["max_tokens"]) == (
            0.7, 0.9, 5, 12)
        assert "reasoning" not in body and pool.params["reasoning"] is True
        assert pool.params["top_p"] == 0.9


def test_rate_limit_spaces_requests() -> None:
    clock = [0.0]
    slept: list[float] = []

    async def sleep(s: float) -> None:
        slept.append(s)
        clock[0] += s

    limiter = RateLimiter(requests_per_min=60, clock=lambda: clock[0], sleep=sleep)

    async def go() -> None:
        for _ in range(15):
            await limiter.acquire()

    asyncio.run(go())
    # 10 s of burst (10 requests), then one per second.
    assert clock[0] == pytest.approx(5.0) and len(slept) == 5


def test_token_limit_counts_estimates() -> None:
    clock = [0.0]

    async def sleep(s: float) -> None:
        clock[0] += s

    limiter = RateLimiter(tokens_per_min=600, clock=lambda: clock[0], sleep=sleep)

    async def go() -> None:
        for _ in range(4):
            await limiter.acquire(50)  # bucket of 100 tokens, refilled at 10/s

    asyncio.run(go())
    assert clock[0] == pytest.approx(10.0)
