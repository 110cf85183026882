"""Send rendered requests to a backend: cache first, bounded concurrency, retries, batching.

:func:`complete_requests` is the async engine under ``medvqa run`` and :func:`complete` its
synchronous wrapper for the LLM builders, judges and the guessability filter. The pipeline:

1. a producer pulls requests in chunks in a worker thread (so building them — rendering, image
   reads, perturbations — overlaps with requests in flight; the iterable must tolerate being
   advanced from a thread other than the event loop's, one chunk at a time), looks each chunk
   up in the cache in one query and hands hits straight to the output, misses to a bounded
   work queue (so a 100,000-request stream is never held in memory);
2. ``ceil(concurrency / batch_size)`` workers take up to ``batch_size`` requests each, call
   ``backend.generate`` under a timeout, retry :class:`TransientModelError` with exponential
   backoff and jitter (tenacity), record :class:`ModelRequestError` at once, and stop the whole
   call on :class:`EndpointUnreachableError`;
3. the consumer drains whatever has arrived, writes it to the cache in one small transaction and
   yields it as a list, so a SIGKILL loses only the requests still in flight.

The jitter is a pure function of (seed, request key, attempt), so two runs back off alike.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import math
import time
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tenacity import AsyncRetrying, RetryCallState, retry_if_exception_type, stop_after_attempt

from medvqa.errors import BadInputError
from medvqa.models._base import (
    EndpointUnreachableError,
    GenerateRequest,
    GenerateResponse,
    ModelBackend,
    ModelConfig,
    ModelError,
    ModelRequestError,
    TransientModelError,
)
from medvqa.models._cache import ResponseCache, request_key
from medvqa.models._retry import RetryPolicy

#: Most requests looked up in the cache per query.
LOOKUP_CHUNK = 256
#: Seconds of request building after which a chunk is handed on early (so the first requests
#: go out at once even when building each one is slow, e.g. perturbing large images).
CHUNK_BUDGET_S = 0.02


def _take(
    source: Iterator[tuple[int, GenerateRequest]], name: str, params: dict[str, Any]
) -> list[tuple[int, GenerateRequest, str]]:
    """Take the next requests from ``source``, with their cache keys.

    Up to :data:`LOOKUP_CHUNK` of them, fewer once :data:`CHUNK_BUDGET_S` has passed; an empty
    list when ``source`` is exhausted.
    """
    chunk: list[tuple[int, GenerateRequest, str]] = []
    deadline = time.perf_counter() + CHUNK_BUDGET_S
    for idx, req in source:
        chunk.append((idx, req, request_key(name, params, req)))
        if len(chunk) >= LOOKUP_CHUNK or time.perf_counter() > deadline:
            break
    return chunk


@dataclass(frozen=True, slots=True)
class Completion:
    """One finished request.

    Attributes:
        index: position of the request in the input (0-based).
        request: the request.
        key: its cache key.
        response: the response (``text`` None and ``error`` set when it failed).
        cached: True when the response came from the cache and nothing was sent.
        attempts: how many times it was sent (0 when cached).

    """

    index: int
    request: GenerateRequest
    key: str
    response: GenerateResponse
    cached: bool
    attempts: int = 0




class _Jitter:
    """Tenacity wait: ``min(cap, base * 2**(n-1)) * u`` with ``u`` in [0.5, 1) from a hash.

    When the failed attempt carried a ``Retry-After`` (``TransientModelError.retry_after_s``),
    at least that long, capped at ``RetryPolicy.max_retry_after_s``.
    """

    def __init__(self, policy: RetryPolicy, key: str):
        self.policy = policy
        self.key = key

    def __call__(self, state: RetryCallState) -> float:
        n = state.attempt_number
        digest = hashlib.sha256(f"{self.policy.seed}:{self.key}:{n}".encode()).digest()
        u = 0.5 + 0.5 * int.from_bytes(digest[:8], "big") / 2**64
        wait = min(self.policy.max_backoff_s, self.policy.backoff_s * 2 ** (n - 1)) * u
        exc = state.outcome.exception() if state.outcome is not None else None
        asked = getattr(exc, "retry_after_s", None)
        if asked is not None:
            wait = max(wait, min(float(asked), self.policy.max_retry_after_s))
        return float(wait)


class _End:
    """Marks the end of the output stream."""


async def _call_with_retries(
    backend: ModelBackend, batch: list[tuple[int, GenerateRequest, str]], policy: RetryPolicy
) -> tuple[list[GenerateResponse], int]:
    """Responses for one batch, and the number of attempts made."""
    reqs = [r for _, r, _ in batch]
    timeout = policy.timeout_s * len(reqs)
    started = time.perf_counter()
    attempts = 0
    try:
        async for attempt in AsyncRetrying(
            stop=stop_after_attempt(policy.max_retries + 1),
            wait=_Jitter(policy, batch[0][2]),
            retry=retry_if_exception_type(TransientModelError),
            reraise=True,
        ):
            with attempt:
                attempts += 1
                try:
                    out = await asyncio.wait_for(backend.generate(reqs), timeout)
                except asyncio.TimeoutError:
                    raise TransientModelError(f"timed out after {timeout:g} s") from None
        if len(out) != len(reqs):
            raise ModelRequestError(f"backend returned {len(out)} responses for {len(reqs)}")
        return list(out), attempts
    except EndpointUnreachableError:
        raise
    except TransientModelError as exc:
        message = f"{exc} (gave up after {attempts} attempts)"
    except ModelError as exc:
        message = str(exc) or type(exc).__name__
    latency = time.perf_counter() - started
    return [GenerateResponse(text=None, latency_s=latency, error=message) for _ in reqs], attempts


def _drain(out: asyncio.Queue[Any]) -> list[Completion]:
    """The completions left in ``out`` (what a stopped caller never received)."""
    left: list[Completion] = []
    while not out.empty():
        got = out.get_nowait()
        if isinstance(got, Completion):
            left.append(got)
    return left


async def complete_requests(
    backend: ModelBackend,
    requests: Iterable[GenerateRequest],
    cache: ResponseCache | None = None,
    *,
    concurrency: int = 16,
    policy: RetryPolicy | None = None,
    reuse_errors: bool = True,
) -> AsyncIterator[list[Completion]]:
    """Answer ``requests``, yielding completions in batches as they arrive.

    The backend must already be started. Completions come in arrival order; use
    :attr:`Completion.index` to put them back in input order.

    Args:
        backend: a started model backend.
        requests: requests to answer; consumed lazily (may be a generator).
        cache: where to look up and store responses; None sends everything.
        concurrency: most requests in flight at once.
        policy: retries, backoff and timeout.
        reuse_errors: serve recorded errors from the cache; False asks them again.

    Yields:
        Non-empty lists of completions, already written to the cache.

    Raises:
        EndpointUnreachableError: the endpoint went away; nothing more is sent.

    """
    policy = policy or RetryPolicy()
    concurrency = max(1, concurrency)
    batch_size = max(1, int(getattr(backend, "batch_size", 1) or 1))
    # A backend that bounds its own requests in flight (the Ray executor) takes ``queue_ahead``
    # more, so it never waits for this loop to hand it the next one.
    ahead = max(0, int(getattr(backend, "queue_ahead", 0) or 0))
    n_workers = max(1, math.ceil((concurrency + ahead) / batch_size))
    name, params = backend.name, dict(backend.params)
    work: asyncio.Queue[tuple[int, GenerateRequest, str] | None] = asyncio.Queue(
        maxsize=concurrency * 2
    )
    out: asyncio.Queue[Completion | _End | BaseException] = asyncio.Queue(
        maxsize=max(LOOKUP_CHUNK * 4, concurrency * 4)
    )

    async def produce() -> None:
        starting = getattr(backend, "ensure_started", None)
        source = iter(enumerate(requests))
        pending = asyncio.ensure_future(asyncio.to_thread(_take, source, name, params))
        try:
            while chunk := await pending:
                # Build the next chunk (prompts, image reads, perturbations) in a worker thread
                # while this one is looked up and sent: OpenCV and zlib release the GIL, so
                # preparing images overlaps with requests in flight instead of stalling them.
                pending = asyncio.ensure_future(asyncio.to_thread(_take, source, name, params))
                hits = (
                    cache.get_many([k for _, _, k in chunk], include_errors=reuse_errors)
                    if cache is not None
                    else {}
                )
                for idx, req, key in chunk:
                    hit = hits.get(key)
                    if hit is not None:
                        await out.put(Completion(idx, req, key, hit, cached=True))
                    else:
                        if starting is not None:  # a backend started at its first request
                            await starting()
                            starting = None
                        await work.put((idx, req, key))
        finally:
            # Never leave a worker thread inside the caller's generator after returning.
            with contextlib.suppress(BaseException):
                await asyncio.shield(pending)
        for _ in range(n_workers):
            await work.put(None)

    async def work_loop() -> None:
        finished = False
        while not finished:
            first = await work.get()
            if first is None:
                return
            batch = [first]
            while len(batch) < batch_size:
                try:
                    nxt = work.get_nowait()
                except asyncio.QueueEmpty:
                    break
                if nxt is None:
                    finished = True
                    break
                batch.append(nxt)
            responses, attempts = await _call_with_retries(backend, batch, policy)
            if stopping:  # cancelled, but wait_for (Python < 3.12) may have swallowed it
                return
            for (idx, req, key), resp in zip(batch, responses, strict=True):
                await out.put(Completion(idx, req, key, resp, cached=False, attempts=attempts))

    stopping = False

    async def supervise() -> None:
        nonlocal stopping
        tasks = [asyncio.ensure_future(produce()),
                 *(asyncio.ensure_future(work_loop()) for _ in range(n_workers))]
        try:
            await asyncio.gather(*tasks)
        except BaseException as exc:  # noqa: BLE001 - handed to the consumer, which re-raises
            # gather() leaves the other tasks running: stop them before the caller closes the
            # cache and the backend they use (else they fail at shutdown, "closed database").
            stopping = True
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            if isinstance(exc, asyncio.CancelledError):
                raise
            await out.put(exc)
            return
        await out.put(_End())

    task = asyncio.ensure_future(supervise())
    try:
        done = False
        while not done:
            got = [await out.get()]
            while True:
                try:
                    got.append(out.get_nowait())
                except asyncio.QueueEmpty:
                    break
            batch_out: list[Completion] = []
            failure: BaseException | None = None
            for g in got:
                if isinstance(g, Completion):
                    batch_out.append(g)
                elif isinstance(g, _End):
                    done = True
                else:
                    failure = g
            if cache is not None:
                cache.put_many(name, [(c.key, c.response) for c in batch_out if not c.cached])
            if batch_out:
                yield batch_out
            if failure is not None:
                raise failure
    finally:
        if not task.done():
            task.cancel()
            try:
                await task
            except BaseException:  # noqa: BLE001, S110 - cancelled on purpose
                pass
        # The caller stopped early (SIGINT, an error): answers that arrived but were not handed
        # out yet go to the cache, so a rerun is served them instead of asking again; only the
        # requests still in flight (at most ``concurrency``) are asked twice.
        if cache is not None:
            arrived = _drain(out)
            with contextlib.suppress(Exception):
                cache.put_many(name, [(c.key, c.response) for c in arrived if not c.cached])


async def acomplete(
    backend: ModelBackend,
    requests: Sequence[GenerateRequest],
    cache: ResponseCache | None = None,
    *,
    concurrency: int = 16,
    policy: RetryPolicy | None = None,
    reuse_errors: bool = False,
) -> list[GenerateResponse]:
    """All responses for ``requests`` in input order (an already started backend)."""
    results: list[GenerateResponse | None] = [None] * len(requests)
    async for batch in complete_requests(
        backend, requests, cache, concurrency=concurrency, policy=policy, reuse_errors=reuse_errors
    ):
        for c in batch:
            results[c.index] = c.response
    return [r for r in results if r is not None]


def complete(
    config: ModelConfig,
    requests: Sequence[GenerateRequest],
    cache_path: str | Path | None,
    concurrency: int = 16,
    max_retries: int = RetryPolicy.max_retries,
    *,
    backoff_s: float = RetryPolicy.backoff_s,
    reuse_errors: bool = False,
    backend: ModelBackend | None = None,
) -> list[GenerateResponse]:
    """Answer ``requests`` synchronously, in input order, with the run's cache and retries.

    Loads the backend from ``config`` (unless one is given), starts it, answers, closes it.
    Must not be called from a running event loop (use :func:`acomplete` there).

    Args:
        config: model to use; its ``timeout_s`` and ``seed`` set the timeout and jitter seed.
        requests: rendered requests.
        cache_path: SQLite cache file (shared with ``medvqa run``'s format); None for no cache.
        concurrency: most requests in flight.
        max_retries: retries of transient errors before the error is recorded.
        backoff_s: first backoff wait in seconds.
        reuse_errors: return cached errors instead of asking again.
        backend: an unstarted backend to use instead of loading one from ``config``.

    Returns:
        One response per request; failed ones have ``text`` None and ``error`` set.

    Raises:
        BadInputError: the endpoint is unreachable (the message names the URL) or the model
            spec is invalid.

    """
    policy = RetryPolicy(
        max_retries=max_retries, backoff_s=backoff_s, timeout_s=config.timeout_s, seed=config.seed
    )

    async def go() -> list[GenerateResponse]:
        model = backend if backend is not None else load_backend(config, None)
        cache = ResponseCache(cache_path) if cache_path is not None else None
        try:
            try:
                await model.start()
                return await acomplete(
                    model,
                    requests,
                    cache,
                    concurrency=concurrency,
                    policy=policy,
                    reuse_errors=reuse_errors,
                )
            except EndpointUnreachableError as exc:
                raise BadInputError(f"model endpoint unreachable: {exc}") from None
        finally:
            await model.aclose()
            if cache is not None:
                cache.close()

    return asyncio.run(go())


def load_backend(config: ModelConfig, bench_dir: Path | None) -> ModelBackend:
    """``medvqa.models.load_model``, with spec errors turned into BadInputError."""
    from medvqa.models._endpoint import redact_secrets
    from medvqa.models._load import load_model

    try:
        return load_model(config, bench_dir=bench_dir)
    except (ValueError, KeyError) as exc:
        raise BadInputError(
            redact_secrets(f"--model {config.spec!r}: {exc}")
        ) from None
