"""Helpers for driving the review app over HTTP in tests (a real ASGI app via TestClient)."""

from __future__ import annotations

import re
from pathlib import Path

from medvqa.review import ReviewStore
from medvqa.review._app import AppConfig, create_app

CSRF = re.compile(r'name="csrf" value="([^"]+)"')
NONCE = re.compile(r'name="nonce" value="([^"]+)"')


def make_client(bench: Path, db: str, **cfg):
    from fastapi.testclient import TestClient

    store = ReviewStore(db)
    app = create_app(AppConfig([bench], db, **cfg), store)
    return TestClient(app), store


def login(client, token: str):
    page = client.get("/login")
    csrf = CSRF.search(page.text).group(1)
    return client.post("/login", data={"token": token, "csrf": csrf}, follow_redirects=False)


def form_tokens(html: str) -> tuple[str, str]:
    return CSRF.search(html).group(1), NONCE.search(html).group(1)
