"""Fixtures of the runner tests: small benchmarks built from real LC25000 lung tiles."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from medvqa.models import GenerateRequest, GenerateResponse, TransientModelError


class ScriptedBackend:
    """An in-process backend for engine tests: answers "A", counts calls, fails on script.

    ``fail[item_id]`` is a list of exceptions raised on successive calls for that item.
    """

    def __init__(self, batch_size: int = 1, latency_s: float = 0.0, fail=None, text_only=False):
        self.name = "scripted"
        self.params = {"answer": "A"}
        self.info = {"text_only": text_only}
        self.batch_size = batch_size
        self.latency_s = latency_s
        self.fail = {k: list(v) for k, v in (fail or {}).items()}
        self.calls: dict[str, int] = {}
        self.batches: list[int] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.images_seen = 0

    async def start(self) -> None:
        return None

    async def generate(self, requests: Sequence[GenerateRequest]) -> list[GenerateResponse]:
        self.batches.append(len(requests))
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            for r in requests:
                self.calls[r.item_id] = self.calls.get(r.item_id, 0) + 1
                self.images_seen += len(r.images)
            await asyncio.sleep(self.latency_s)
            for r in requests:
                script = self.fail.get(r.item_id)
                if script:
                    raise script.pop(0)
            return [GenerateResponse(text="A", latency_s=self.latency_s) for _ in requests]
        finally:
            self.in_flight -= 1

    async def aclose(self) -> None:
        return None


@pytest.fixture
def transient() -> type[TransientModelError]:
    return TransientModelError


@pytest.fixture
def scripted():
    """The :class:`ScriptedBackend` class."""
    return ScriptedBackend
