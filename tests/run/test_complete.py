from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from medvqa.errors import BadInputError
from medvqa.models import (
    EndpointUnreachableError,
    GenerateRequest,
    ModelConfig,
    ModelRequestError,
    ResponseCache,
    RetryPolicy,
    TransientModelError,
    complete,
    complete_requests,
)

FAST = RetryPolicy(max_retries=2, backoff_s=0.001, timeout_s=5)


def _reqs(n: int) -> list[GenerateRequest]:
    return [
        GenerateRequest(item_id=f"q{i}", condition="clean", prompt=f"question {i}")
        for i in range(n)
    ]


async def _collect(backend, reqs, cache=None, **kw):
    out = []
    async for batch in complete_requests(backend, reqs, cache, **kw):
        assert batch
        out.extend(batch)
    return out


def test_concurrency_is_bounded_and_all_answered(scripted) -> None:
    backend = scripted(latency_s=0.01)
    got = asyncio.run(_collect(backend, _reqs(60), concurrency=7, policy=FAST))
    assert sorted(c.index for c in got) == list(range(60))
    assert backend.max_in_flight == 7
    assert all(c.response.text == "A" and not c.cached for c in got)


def test_batches_for_batch_backends(scripted) -> None:
    backend = scripted(batch_size=4, latency_s=0.01)
    got = asyncio.run(_collect(backend, _reqs(20), concurrency=8, policy=FAST))
    assert len(got) == 20
    assert max(backend.batches) == 4 and sum(backend.batches) == 20


def test_transient_retried_then_recorded_request_error_at_once(scripted) -> None:
    backend = scripted(
        fail={
            "q0": [TransientModelError("HTTP 429")],  # one retry, then fine
            "q1": [TransientModelError("HTTP 500")] * 5,  # more than max_retries
            "q2": [ModelRequestError("HTTP 400 bad image")],  # never retried
        }
    )
    got = {c.request.item_id: c for c in asyncio.run(_collect(backend, _reqs(4), policy=FAST))}
    assert got["q0"].response.text == "A" and backend.calls["q0"] == 2
    assert got["q1"].response.text is None and "HTTP 500" in got["q1"].response.error
    assert backend.calls["q1"] == 3  # 1 + max_retries
    assert got["q2"].response.error == "HTTP 400 bad image" and backend.calls["q2"] == 1
    assert got["q3"].response.error is None


def test_timeout_is_a_transient_error(scripted) -> None:
    backend = scripted(latency_s=0.5)
    policy = RetryPolicy(max_retries=1, backoff_s=0.001, timeout_s=0.05)
    (c,) = asyncio.run(_collect(backend, _reqs(1), policy=policy))
    assert "timed out" in c.response.error and backend.calls["q0"] == 2


def test_cache_lookups_before_sending(tmp_path: Path, scripted) -> None:
    cache = ResponseCache(tmp_path / "c.sqlite")
    first = scripted(fail={"q1": [ModelRequestError("no")]})
    asyncio.run(_collect(first, _reqs(5), cache, policy=FAST))
    again = scripted()
    got = asyncio.run(_collect(again, _reqs(5), cache, policy=FAST))
    assert again.calls == {} and all(c.cached for c in got)
    retry = scripted()
    got = asyncio.run(_collect(retry, _reqs(5), cache, policy=FAST, reuse_errors=False))
    assert retry.calls == {"q1": 1}
    assert len(cache.get_many([c.key for c in got], include_errors=False)) == 5


def test_a_stopped_caller_keeps_the_answers_that_arrived(tmp_path: Path, scripted) -> None:
    """A caller that stops early (SIGINT) loses only the requests still in flight."""
    cache = ResponseCache(tmp_path / "c.sqlite")
    first = scripted(latency_s=0.001)

    async def take_one_then_stop() -> int:
        stream = complete_requests(first, _reqs(60), cache, concurrency=4, policy=FAST)
        got = len(await anext(stream))
        await asyncio.sleep(0.3)  # answers arrive meanwhile and wait to be handed out
        await stream.aclose()
        return got

    handed_out = asyncio.run(take_one_then_stop())
    assert handed_out < 60 and sum(first.calls.values()) > handed_out + 4
    again = scripted()
    asyncio.run(_collect(again, _reqs(60), cache, concurrency=4, policy=FAST))
    assert sum(again.calls.values()) <= 4


def test_unreachable_mid_run_stops_everything(scripted) -> None:
    backend = scripted(fail={"q3": [EndpointUnreachableError("http://127.0.0.1:9/v1")]})
    with pytest.raises(EndpointUnreachableError, match="127.0.0.1:9"):
        asyncio.run(_collect(backend, _reqs(50), concurrency=2, policy=FAST))
    assert len(backend.calls) < 50


def test_complete_sync_keeps_input_order(tmp_path: Path, scripted) -> None:
    backend = scripted(latency_s=0.001)
    out = complete(ModelConfig(spec="random"), _reqs(30), tmp_path / "c.sqlite", backend=backend)
    assert len(out) == 30 and all(r.text == "A" for r in out)
    again = complete(
        ModelConfig(spec="random"), _reqs(30), tmp_path / "c.sqlite", backend=scripted()
    )
    assert again == out


def test_complete_unreachable_is_bad_input(scripted) -> None:
    class Down(scripted):
        async def start(self) -> None:
            raise EndpointUnreachableError("cannot connect to http://127.0.0.1:9/v1")

    with pytest.raises(BadInputError, match=r"http://127.0.0.1:9/v1"):
        complete(ModelConfig(spec="random"), _reqs(3), None, backend=Down())
