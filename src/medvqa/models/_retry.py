"""How failed requests are retried: the one place the retry defaults are stated.

A light module (a dataclass only): run, LLM settings and the command line's help read its
defaults at start-up.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RetryPolicy:
    """How failed requests are retried.

    Attributes:
        max_retries: retries after the first attempt for transient errors (0 = no retry).
        backoff_s: first wait in seconds; doubles with each retry.
        max_backoff_s: cap on one backoff wait, in seconds.
        timeout_s: per-request timeout in seconds (a batch gets ``timeout_s`` per request).
        seed: seeds the jitter.
        max_retry_after_s: most seconds waited when the endpoint sends ``Retry-After``
            (seconds or an HTTP date): the wait is ``max(backoff, min(Retry-After, this))``.

    """

    max_retries: int = 4
    backoff_s: float = 0.5
    max_backoff_s: float = 30.0
    timeout_s: float = 60.0
    seed: int = 0
    max_retry_after_s: float = 120.0
