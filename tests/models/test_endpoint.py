"""Endpoint hygiene: URL checks, secret redaction, Retry-After, when a key is required."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from email.utils import format_datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from medvqa.errors import UsageError
from medvqa.models._endpoint import (
    REDACTED,
    check_endpoint_url,
    missing_key_problem,
    redact_secrets,
    retry_after_seconds,
)


@pytest.mark.parametrize("url,fragment", [
    ("ftp://127.0.0.1/v1", "scheme 'ftp'"),
    ("http://bob:pw1234@127.0.0.1:8000/v1", "credentials in the URL are refused"),
    ("http://token@127.0.0.1:8000/v1", "credentials in the URL are refused"),
    ("http:///v1", "no host name"),
])
def test_bad_endpoint_urls_are_refused_without_echoing_secrets(url: str, fragment: str) -> None:
    with pytest.raises(UsageError, match=fragment) as info:
        check_endpoint_url(url, "OPENAI_API_KEY")
    assert "pw1234" not in str(info.value) and "token@" not in str(info.value)


def test_good_endpoint_urls_pass() -> None:
    for url in ("", "http://127.0.0.1:8000/v1", "https://api.example.org/v1"):
        check_endpoint_url(url, "OPENAI_API_KEY")


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_", min_size=8, max_size=40))
def test_redaction_removes_the_key_in_any_shape(key: str) -> None:
    shapes = [f"Authorization: Bearer {key}", f'"x-api-key": "{key}"', f"api_key={key}",
              f"token={key}", f"echo {key} back"]
    for text in shapes:
        assert key not in redact_secrets(text, [key])
        assert REDACTED in redact_secrets(text, [key])


def test_redaction_keeps_ordinary_text() -> None:
    text = '{"error": {"message": "max_tokens must be <= 4096", "type": "invalid"}}'
    assert redact_secrets(text) == text


def test_retry_after_seconds_and_dates() -> None:
    now = datetime(2026, 1, 1, 12, 0, 0, tzinfo=timezone.utc)
    assert retry_after_seconds("7", now) == 7.0
    assert retry_after_seconds(format_datetime(now + timedelta(seconds=30), usegmt=True),
                               now) == 30.0
    assert retry_after_seconds(format_datetime(now - timedelta(hours=1), usegmt=True), now) == 0
    assert retry_after_seconds(None) is None and retry_after_seconds("soon") is None


def test_a_key_is_required_for_hosted_apis_only() -> None:
    env: dict[str, str] = {}
    assert missing_key_problem("openai:gpt-4o", "", env)  # default hosted URL
    assert missing_key_problem("anthropic:claude", "", env)
    assert missing_key_problem("openai:m@https://llm.example.org/v1", "", env)
    assert missing_key_problem("openai:m@http://gpu-box.lan:8000/v1", "", env) is None
    assert missing_key_problem("openai:m@https://127.0.0.1:8000/v1", "", env) is None
    assert missing_key_problem("openai:gpt-4o", "", {"OPENAI_API_KEY": "k"}) is None
    assert missing_key_problem("random", "", env) is None
    named = missing_key_problem("openai:m@http://127.0.0.1:8000/v1", "MY_KEY", env)
    assert named is not None and "--api-key-env MY_KEY" in named
