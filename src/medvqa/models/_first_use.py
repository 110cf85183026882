"""A backend started at its first request, so a run that asks nothing never loads weights.

A resumed run whose every request is already answered (in its journal or the response cache)
sends nothing; loading SmolLM2 or a local checkpoint for it cost tens of seconds and printed
the loader's output for no answer. :class:`StartOnFirstUse` wraps any backend and starts it
when :meth:`generate` is first called.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from medvqa.models._base import GenerateRequest, GenerateResponse, ModelBackend


class StartOnFirstUse:
    """``backend``, started (once) by the first :meth:`generate` instead of by :meth:`start`.

    Every other attribute is the backend's own, so run.json records what the backend says.

    Args:
        backend: an unstarted backend.
    """

    def __init__(self, backend: ModelBackend) -> None:
        self.backend = backend
        self.started = False
        self._lock = asyncio.Lock()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.backend, name)

    @property
    def name(self) -> str:  # noqa: D102 - the backend's
        return self.backend.name

    @name.setter
    def name(self, value: str) -> None:
        self.backend.name = value

    @property
    def params(self) -> dict[str, Any]:  # noqa: D102 - the backend's
        return self.backend.params

    @params.setter
    def params(self, value: dict[str, Any]) -> None:
        self.backend.params = value

    @property
    def info(self) -> dict[str, Any]:  # noqa: D102 - the backend's
        return self.backend.info

    @info.setter
    def info(self, value: dict[str, Any]) -> None:
        self.backend.info = value

    @property
    def batch_size(self) -> int:  # noqa: D102 - the backend's
        return self.backend.batch_size

    @batch_size.setter
    def batch_size(self, value: int) -> None:
        self.backend.batch_size = value

    async def start(self) -> None:
        """Nothing yet: the backend starts at the first request."""

    async def ensure_started(self) -> None:
        """Start the backend unless it is started.

        The LLM client calls this before the first request that the cache does not answer,
        from one task, so a failed start is raised once, not by every request in flight.
        """
        if not self.started:
            async with self._lock:
                if not self.started:
                    await self.backend.start()
                    self.started = True

    async def generate(self, requests: Sequence[GenerateRequest]) -> list[GenerateResponse]:
        """Start the backend if this is the first request, then answer ``requests``."""
        await self.ensure_started()
        return await self.backend.generate(requests)

    async def aclose(self) -> None:
        """Close the backend (started or not)."""
        await self.backend.aclose()
