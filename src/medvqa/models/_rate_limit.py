"""Client-side rate limits for hosted APIs: requests per minute and tokens per minute.

Two token buckets, each holding ten seconds' worth of its allowance (so a run starts without a
full minute's burst that a strict server would answer with 429s) and refilled continuously.
A request waits until both buckets hold enough. Tokens are estimated before sending, as the
request's ``max_tokens`` plus a quarter of its prompt's characters plus 85 per image (OpenAI's
low-detail image cost), because the true count is known only after the answer.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

#: Seconds of allowance a bucket holds.
BURST_S = 10.0
#: Tokens counted per image in the estimate.
IMAGE_TOKENS = 85


def estimate_tokens(prompt: str, n_images: int, max_tokens: int) -> int:
    """Tokens a request is counted as before it is sent.

    >>> estimate_tokens("x" * 400, 1, 64)
    249
    """
    return len(prompt) // 4 + IMAGE_TOKENS * n_images + max_tokens


class _Bucket:
    def __init__(self, per_min: float, now: float):
        self.rate = per_min / 60.0
        self.capacity = max(1.0, per_min * BURST_S / 60.0)
        self.level = self.capacity
        self.stamp = now

    def wait_for(self, amount: float, now: float) -> float:
        """Seconds until ``amount`` is available (0 = take it now)."""
        self.level = min(self.capacity, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        need = min(amount, self.capacity) - self.level
        return 0.0 if need <= 0 else need / self.rate

    def take(self, amount: float) -> None:
        self.level -= min(amount, self.capacity)


class RateLimiter:
    """Waits so that requests stay under ``requests_per_min`` and ``tokens_per_min``.

    Args:
        requests_per_min: most requests per minute (0 = unlimited).
        tokens_per_min: most estimated tokens per minute (0 = unlimited).
        clock: monotonic seconds (injectable for tests).
        sleep: async sleep (injectable for tests).
    """

    def __init__(
        self,
        requests_per_min: float = 0.0,
        tokens_per_min: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], object] = asyncio.sleep,
    ):
        now = clock()
        self._requests = _Bucket(requests_per_min, now) if requests_per_min > 0 else None
        self._tokens = _Bucket(tokens_per_min, now) if tokens_per_min > 0 else None
        self._clock, self._sleep = clock, sleep
        self._lock = asyncio.Lock()
        self.waited_s = 0.0

    @property
    def active(self) -> bool:
        """Whether any limit is set."""
        return self._requests is not None or self._tokens is not None

    async def acquire(self, tokens: int = 0) -> None:
        """Wait until one request of ``tokens`` estimated tokens may go, then count it."""
        if not self.active:
            return
        async with self._lock:  # first come, first served
            while True:
                now = self._clock()
                wait = max(
                    self._requests.wait_for(1, now) if self._requests else 0.0,
                    self._tokens.wait_for(tokens, now) if self._tokens else 0.0,
                )
                if wait <= 0:
                    break
                self.waited_s += wait
                await self._sleep(wait)  # type: ignore[misc]
            if self._requests:
                self._requests.take(1)
            if self._tokens:
                self._tokens.take(tokens)
