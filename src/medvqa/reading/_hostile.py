"""Hostile responses the reader must decide without an exception: one invalid decision each.

A response of 1 MB, JSON nested 10,000 deep (arrays, objects, never closed), binary garbage,
NUL bytes, lone surrogates and values that are not text. The tests decide each with every
style; ``medvqa bench --only extraction`` times the strict reader on them (at most 50 ms each).
"""

from __future__ import annotations

import random

__all__ = ["hostile_responses"]


def hostile_responses(seed: int = 0) -> dict[str, object]:
    """Name → hostile response (seeded: the same bytes every call)."""
    rng = random.Random(seed)
    garbage = bytes(rng.randrange(256) for _ in range(4096)).decode("latin-1")
    return {
        "1 MB of text": "The answer is B. " * (1_000_000 // 17),
        "JSON arrays 10,000 deep": "[" * 10_000 + "]" * 10_000,
        "JSON objects 10,000 deep": '{"a":' * 10_000 + "1" + "}" * 10_000,
        "JSON 10,000 deep, never closed": '{"answer": ' * 10_000,
        "binary garbage (4 KB)": garbage,
        "binary garbage (1 MB)": garbage * 256,
        "NUL bytes": "\x00" * 64,
        "a lone surrogate": "\ud800\udfff\ud800",
        "an integer": 12345,
        "None": None,
        "bytes": b"B",
        "a list": ["B"],
    }
