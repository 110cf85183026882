"""Caps on what a client may post to the review app: the body's size, file parts, fields.

Every form of the app is a few short fields (a CSRF token, a nonce, a verdict, a note of at most
2,000 characters, an edited question with its options), so a request body larger than
:data:`MAX_BODY_BYTES` is refused with 413 before any of it is parsed, whatever the route, and
a form with a file part is refused with 400: no form of the app uploads a file. Without these
caps Starlette spools any multipart file part to disk in full before the route even looks at
the form (a 10 MB part was read, then answered 404).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

#: Largest request body the app reads, in bytes (its largest form, an edit, is a few KB).
MAX_BODY_BYTES = 256 * 1024
#: Most fields one form may carry (an edit has about a dozen).
MAX_FORM_FIELDS = 64

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class BodyLimit:
    """ASGI middleware: a body over ``max_bytes`` is answered 413 and never handed on.

    The declared ``Content-Length`` is checked first; a body sent without one (chunked) is
    read up to the cap and replayed to the app, so no route ever sees more than ``max_bytes``.

    Args:
        app: the ASGI app to protect.
        max_bytes: the cap in bytes.

    """

    def __init__(self, app: Any, max_bytes: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Message, receive: Receive, send: Send) -> None:
        """Serve one request (non-HTTP scopes and bodiless methods pass straight through)."""
        if scope["type"] != "http" or scope["method"] in {"GET", "HEAD", "OPTIONS"}:
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._refuse(send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._refuse(send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send) -> None:
        text = f"request body too large (at most {self.max_bytes} bytes)".encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                (b"content-length", str(len(text)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": text})


async def read_form(request: Any) -> Any:
    """The posted form, with no file part and at most :data:`MAX_FORM_FIELDS` fields.

    A form that breaks either cap is answered 400 by Starlette (its ``MultiPartException``).
    """
    return await request.form(max_files=0, max_fields=MAX_FORM_FIELDS,
                              max_part_size=MAX_BODY_BYTES)
