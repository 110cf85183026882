"""Endpoint hygiene for the HTTP backends: URLs checked, secrets redacted, Retry-After read.

Three things a hosted or self-hosted endpoint can do to a run that no user asked for:

* a URL with credentials (``http://user:secret@host/v1``) would put the secret into run.json,
  the cache key and every error message, and send it as HTTP basic auth: it is refused before
  anything is recorded or sent, with a line saying to name an environment variable with
  ``--api-key-env`` instead. Only ``http`` and ``https`` are accepted.
* a key in the URL's query (``…/v1?api_key=…``, ``?key=…``: some hosted endpoints take it so)
  is sent as given, but every recorded form of the URL — run.json, the cache key, the console,
  error messages — shows ``[redacted]`` for the value of a query parameter whose name says it
  is a credential (:func:`redact_url_query`), and the value is a secret redacted from answers.
* an error body may echo the request's ``Authorization`` header or the key: recorded error
  text goes through :func:`redact_secrets` first. A successful answer may echo the key too (a
  proxy that reflects the request, a model asked to repeat its headers): the key's exact value
  is removed from every answer before it is returned, hence before the cache, the journal or
  predictions.jsonl can store it (:func:`redact_known`; the answer is otherwise untouched).
* ``Retry-After`` (seconds or an HTTP date) says when to come back: :func:`retry_after_seconds`
  reads it; the retry loop waits that long, capped (``RetryPolicy.max_retry_after_s``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import datetime, timezone
from email.utils import parsedate_to_datetime
from urllib.parse import urlsplit

from medvqa.errors import UsageError

#: Schemes an HTTP backend may be pointed at.
ALLOWED_SCHEMES = frozenset({"http", "https"})
#: What replaces a secret in recorded text.
REDACTED = "[redacted]"

_USERINFO = re.compile(r"(?P<scheme>[a-zA-Z][a-zA-Z0-9+.-]*://)(?P<userinfo>[^/@\s]*@)")
# "Authorization: Bearer x", "x-api-key": "x", api_key=x, "token": "x" … (header or JSON shapes).
_AUTH_VALUE = re.compile(
    r"""(?P<name>authorization|proxy-authorization|x-api-key|api[-_]?key|access[-_]?token|"""
    r"""token|secret|password)(?P<sep>["']?\s*[:=]\s*["']?)(?P<value>(?:bearer\s+|basic\s+)?"""
    r"""[^\s"',;}]+)""",
    re.IGNORECASE,
)
# ?api_key=x, &key=x, &sig=x … in a URL: the value of a parameter named like a credential.
_QUERY_SECRET = re.compile(
    r"(?P<name>[?&][^=&#\s]*(?:key|token|secret|passw|sig|auth|credential)[^=&#\s]*=)"
    r"(?P<value>[^&#\s]+)",
    re.IGNORECASE,
)
_BEARER = re.compile(r"\b(?P<kind>bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}", re.IGNORECASE)


def strip_userinfo(text: str) -> str:
    """``text`` with the ``user:password@`` part of every URL in it removed.

    >>> strip_userinfo("openai:m@http://me:s3cret@127.0.0.1:8000/v1")
    'openai:m@http://127.0.0.1:8000/v1'
    """
    return _USERINFO.sub(lambda m: m.group("scheme"), text)


def redact_url_query(text: str) -> str:
    """``text`` with the value of every credential-like query parameter of its URLs redacted.

    >>> redact_url_query("openai:m@https://h.example/v1?api-version=2&api_key=sk-123")
    'openai:m@https://h.example/v1?api-version=2&api_key=[redacted]'
    """
    return _QUERY_SECRET.sub(lambda m: m.group("name") + REDACTED, text)


def query_secrets(url: str) -> tuple[str, ...]:
    """The values :func:`redact_url_query` hides in ``url`` (secrets to remove from answers).

    >>> query_secrets("http://h/v1?key=abc123&lang=en")
    ('abc123',)
    """
    return tuple(m.group("value") for m in _QUERY_SECRET.finditer(url))


def with_path(url: str, path: str) -> str:
    """``url`` with ``path`` appended to its path, its query kept after it.

    >>> with_path("https://h.example/v1?key=abc", "/chat/completions")
    'https://h.example/v1/chat/completions?key=abc'
    """
    parts = urlsplit(url)
    return parts._replace(path=parts.path.rstrip("/") + path).geturl()


def check_endpoint_url(url: str, key_env: str) -> None:
    """Refuse an endpoint URL that carries credentials or is not ``http(s)``.

    Args:
        url: the base URL from the model spec ("" = the backend's default).
        key_env: the environment variable the backend reads the key from (for the message).

    Raises:
        UsageError: one line naming the problem; the secret itself is never repeated.

    """
    if not url:
        return
    parts = urlsplit(url)
    shown = strip_userinfo(url)
    if parts.scheme.lower() not in ALLOWED_SCHEMES:
        raise UsageError(
            f"--model endpoint {shown}: scheme {parts.scheme or '(none)'!r} is not supported; "
            "use an http:// or https:// URL"
        )
    if parts.username is not None or parts.password is not None:
        raise UsageError(
            f"--model endpoint {shown}: credentials in the URL are refused (they would be "
            f"recorded in run.json); put the key in an environment variable and name it with "
            f"--api-key-env (default {key_env})"
        )
    if not parts.hostname:
        raise UsageError(f"--model endpoint {shown}: no host name")


def redact_known(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every exact occurrence of each secret (4 characters or more) replaced.

    Used on successful answers, where ``Authorization``-like words may be the model's own text
    and only the key itself must go.

    >>> redact_known("your key is sk-abc123, thanks", ["sk-abc123"])
    'your key is [redacted], thanks'
    """
    for secret in secrets:
        if secret and len(secret) >= 4 and secret in text:
            text = text.replace(secret, REDACTED)
    return text


def redact_secrets(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with keys, ``Authorization``-like values and URL credentials replaced.

    Args:
        text: an error message or response excerpt about to be recorded.
        secrets: exact values to remove wherever they appear (the API key in use).

    >>> redact_secrets('{"error": "bad header Authorization: Bearer sk-abc123456789"}')
    '{"error": "bad header Authorization: [redacted]"}'
    """
    text = redact_known(text, secrets)
    text = _AUTH_VALUE.sub(lambda m: m.group("name") + m.group("sep") + REDACTED, text)
    text = _BEARER.sub(REDACTED, text)
    return redact_url_query(strip_userinfo(text))


def retry_after_seconds(value: str | None, now: datetime | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or an HTTP date).

    None when absent or unreadable; never negative (a date in the past is 0).

    >>> retry_after_seconds("5")
    5.0
    >>> retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT",
    ...                     datetime(2015, 10, 21, 7, 27, 30, tzinfo=timezone.utc))
    30.0
    """
    if value is None or not value.strip():
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    now = now or datetime.now(timezone.utc)
    return max(0.0, (when - now).total_seconds())


_LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})


def missing_key_problem(
    spec: str, api_key_env: str, environ: Mapping[str, str]
) -> str | None:
    """Why a run of ``spec`` would send no key where one is needed, or None.

    A key is needed when the user named a variable (``--api-key-env NAME``: it must be set), and
    for a hosted API: the backend's default URL, or any ``https`` URL of a host that is not
    the loopback interface. A self-hosted ``http`` server (vLLM, Ollama) may run without a key.

    Args:
        spec: the ``--model`` string.
        api_key_env: the ``--api-key-env`` value ("" = the backend's default variable).
        environ: the environment to look in (the CLI passes ``os.environ``).

    """
    from medvqa.models._spec import parse_model_spec

    try:
        parsed = parse_model_spec(spec)
    except ValueError:
        return None
    defaults = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}
    if parsed.kind not in defaults:
        return None
    name = api_key_env or defaults[parsed.kind]
    if environ.get(name):
        return None
    url = parsed.base_url
    parts = urlsplit(url) if url else None
    hosted = parts is None or (
        parts.scheme == "https" and (parts.hostname or "") not in _LOOPBACK
        and not (parts.hostname or "").startswith("127.")
    )
    if api_key_env:
        return f"--api-key-env {api_key_env}: the variable is not set (or empty)"
    if hosted:
        where = strip_userinfo(url) if url else f"the default {parsed.kind} API"
        return (f"{where} needs an API key and ${name} is not set; set it, or name the "
                "variable that holds the key with --api-key-env")
    return None
