"""The review web app: FastAPI, server-rendered Jinja2 templates, a little vanilla JavaScript.

``create_app(config)`` builds the app; the routes live in ``_routes_review.py`` (login, review,
images), ``_routes_admin.py`` (progress, adjudication) and ``_routes_exam.py`` (human exam); the
settings and shared state in ``_state.py``.
"""

from __future__ import annotations

from typing import Any

from medvqa._optional import optional_import
from medvqa.review._limits import BodyLimit
from medvqa.review._state import HERE, AppConfig, AppState
from medvqa.review._store import ReviewStore

__all__ = ["AppConfig", "create_app"]


def create_app(config: AppConfig, store: ReviewStore | None = None) -> Any:
    """The FastAPI application for ``config``."""
    fastapi = optional_import("fastapi")
    staticfiles = optional_import("fastapi.staticfiles")
    from medvqa.review import _routes_admin, _routes_audit, _routes_exam, _routes_review

    app = fastapi.FastAPI(title="medvqa review", docs_url=None, redoc_url=None,
                          openapi_url=None)
    app.state.ctx = AppState(config, store)
    app.mount("/static", staticfiles.StaticFiles(directory=str(HERE / "static")), name="static")
    app.include_router(_routes_review.router)
    app.include_router(_routes_admin.router)
    app.include_router(_routes_exam.router)
    app.include_router(_routes_audit.router)
    app.add_middleware(BodyLimit)  # nothing larger than a form is read, on any route
    return app
