"""Login rate limiting and CSRF checks for the review app.

Sessions live in the database (see :class:`~medvqa.review._store.ReviewStore`); the cookie is
random and only its hash is stored, so a database leak opens no session. Every form post
carries the session's CSRF token (the login form a pre-session token, double-submitted as a
cookie); a mismatch is refused with 403.
"""

from __future__ import annotations

import hmac
import threading
import time
from collections import deque


class LoginLimiter:
    """At most ``attempts`` failed logins per client per ``window_s`` seconds (sliding window).

    >>> lim = LoginLimiter(attempts=2, window_s=60)
    >>> lim.failed("ip", now=0.0); lim.failed("ip", now=1.0)
    >>> lim.blocked("ip", now=2.0), lim.blocked("ip", now=61.5)
    (True, False)
    """

    def __init__(self, attempts: int = 5, window_s: float = 60.0):
        self.attempts = attempts
        self.window_s = window_s
        self._fails: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _trim(self, key: str, now: float) -> deque[float]:
        q = self._fails.setdefault(key, deque())
        while q and q[0] <= now - self.window_s:
            q.popleft()
        return q

    def blocked(self, key: str, now: float | None = None) -> bool:
        """Whether this client must wait before trying again."""
        now = time.monotonic() if now is None else now
        with self._lock:
            return len(self._trim(key, now)) >= self.attempts

    def failed(self, key: str, now: float | None = None) -> None:
        """Record a failed attempt."""
        now = time.monotonic() if now is None else now
        with self._lock:
            self._trim(key, now).append(now)


def same_token(expected: str | None, given: str | None) -> bool:
    """Constant-time comparison of two CSRF tokens; a missing one never matches."""
    if not expected or not given:
        return False
    return hmac.compare_digest(expected.encode("utf-8"), given.encode("utf-8"))
