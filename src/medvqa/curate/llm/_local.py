"""``--local-only``: refuse any model that would send text off this machine.

Hospitals cannot send reports to an outside API (seed 003 ran open-weights models on premise).
The check runs on the model spec alone, before any backend is built, so nothing is sent and no
connection is attempted: ``random``, ``frequent``, ``smollm2`` and ``hf:`` run in-process;
``openai:MODEL@URL`` is allowed only when the URL's host is a loopback address (127.0.0.0/8,
::1) or ``localhost`` — a vLLM or Ollama server on this machine. Host names are not resolved
(a DNS answer can change between the check and the request), so ``myserver`` is refused even
if it points at 127.0.0.1; name the address instead.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from medvqa.errors import BadInputError
from medvqa.models import BACKENDS, parse_model_spec

#: spec kinds that never leave the process (the backend table's ``local`` column).
IN_PROCESS_KINDS = frozenset(prefix for prefix, row in BACKENDS.rows().items()
                             if getattr(row, "local", False))


def is_loopback_host(host: str) -> bool:
    """True for ``localhost``, ``*.localhost`` and literal loopback addresses.

    >>> [is_loopback_host(h) for h in ("127.0.0.1", "::1", "localhost", "10.0.0.2", "example.org")]
    [True, True, True, False, False]
    """
    host = host.strip().strip("[]").rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_local(spec: str) -> None:
    """Raise unless model ``spec`` keeps all text on this machine (see module docstring).

    Raises:
        BadInputError: the spec names a remote endpoint, an API, or no base URL at all (which
            would mean the public OpenAI API).
    """
    try:
        parsed = parse_model_spec(spec)
    except ValueError as exc:
        raise BadInputError(str(exc)) from None
    if parsed.kind in IN_PROCESS_KINDS:
        return
    if parsed.kind == "openai":
        if not parsed.base_url:
            raise BadInputError(
                f"--local-only: {spec!r} has no @BASE_URL and would go to the public OpenAI API; "
                "use a local server, e.g. openai:MODEL@http://127.0.0.1:8000/v1"
            )
        host = urlsplit(parsed.base_url).hostname or ""
        if not is_loopback_host(host):
            raise BadInputError(
                f"--local-only: refusing {parsed.base_url} (host {host or '?'} is not a loopback "
                "address); reports may only go to a server on this machine (127.0.0.1, ::1, "
                "localhost)"
            )
        return
    raise BadInputError(f"--local-only: model kind {parsed.kind!r} sends text to an outside API")
