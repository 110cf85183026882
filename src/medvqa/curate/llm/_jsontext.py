"""Find the JSON object in a model's reply (bare, fenced in ```json, or after some prose)."""

from __future__ import annotations

import json
from typing import Any


def extract_json(text: str) -> Any:
    r"""The first complete JSON object or array in ``text``.

    Models often wrap JSON in a Markdown fence or add a sentence before it; this scans for the
    first ``{`` or ``[`` from which :func:`json.JSONDecoder.raw_decode` reads a whole value. A
    value that runs to the end of the text unfinished stops the scan, so the inner object of a
    truncated reply is never mistaken for the reply.

    >>> extract_json('Sure! ```json\\n{"a": 1}\\n```')
    {'a': 1}

    Raises:
        ValueError: no complete JSON object or array is present (e.g. a reply cut short).
    """
    decoder = json.JSONDecoder()
    for start, ch in enumerate(text):
        if ch in "{[":
            try:
                value, _ = decoder.raw_decode(text, start)
            except json.JSONDecodeError:
                rest = text[start:]
                if rest.count("{") + rest.count("[") > rest.count("}") + rest.count("]"):
                    # Cut short (e.g. by max_tokens): an inner object is not the answer.
                    raise ValueError("no complete JSON object in the reply (cut short)") from None
                continue
            return value
    raise ValueError("no complete JSON object in the reply")
