"""The review app's settings and shared state: the store, the benchmarks, the templates.

All benchmark text reaches the page through Jinja2 with autoescaping on, and a
Content-Security-Policy allows scripts only from the app itself.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from medvqa._optional import optional_import
from medvqa.review._bench import ReviewBench, load_bench
from medvqa.review._config import AppConfig
from medvqa.review._security import LoginLimiter
from medvqa.review._store import Reviewer, ReviewStore, Session

HERE = Path(__file__).parent
COOKIE = "medvqa_review"
PRE_COOKIE = "medvqa_login_csrf"
CSP = ("default-src 'self'; img-src 'self' data: blob:; script-src 'self'; style-src 'self'; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


class AppState:
    """What every request needs: the store, the benchmarks, the template environment."""

    def __init__(self, config: AppConfig, store: ReviewStore | None = None):
        jinja2 = optional_import("jinja2")
        self.config = config
        self.store = store or ReviewStore(config.db)
        self.benches: list[ReviewBench] = [load_bench(p) for p in config.benches]
        self.limiter = LoginLimiter(config.login_attempts, 60.0)
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(HERE / "templates")),
            autoescape=True,
            undefined=jinja2.StrictUndefined,
        )

    def visible(self, reviewer: Reviewer) -> list[tuple[int, ReviewBench]]:
        """(index, bench) pairs this reviewer may open (admins: all)."""
        if reviewer.role == "admin":
            return list(enumerate(self.benches))
        mine = self.store.benches_of(reviewer)
        return [(i, b) for i, b in enumerate(self.benches) if b.key in mine]

    def bench_for(self, reviewer: Reviewer, index: int) -> ReviewBench | None:
        """Benchmark ``index`` when the reviewer is assigned to it, else None."""
        return dict(self.visible(reviewer)).get(index)

    def render(self, name: str, session: Session | None, **context: Any) -> Any:
        """An HTML response from a template, with the security headers."""
        responses = optional_import("fastapi.responses")
        status = context.pop("status_code", 200)
        html = self.env.get_template(name).render(session=session, **context)
        resp = responses.HTMLResponse(html, status_code=status)
        secure_headers(resp)
        return resp


def secure_headers(resp: Any) -> Any:
    """CSP, no sniffing, no framing, no caching of review pages."""
    resp.headers["Content-Security-Policy"] = CSP
    resp.headers["X-Content-Type-Options"] = "nosniff"
    resp.headers["X-Frame-Options"] = "DENY"
    resp.headers["Referrer-Policy"] = "no-referrer"
    resp.headers.setdefault("Cache-Control", "no-store")
    return resp


def new_nonce() -> str:
    """A fresh id for one form, so a re-posted form is recorded once."""
    return secrets.token_urlsafe(16)
