"""Per-request random generators derived from (seed, item, condition), so answers survive resume."""

from __future__ import annotations

import hashlib

import numpy as np


def request_rng(seed: int, *parts: str) -> np.random.Generator:
    """A Generator that depends only on ``seed`` and ``parts`` (never on call order)."""
    digest = hashlib.sha256("\x1f".join([str(seed), *parts]).encode("utf-8")).digest()
    return np.random.default_rng(int.from_bytes(digest[:16], "little"))
