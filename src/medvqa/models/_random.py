"""``random``: a seeded uniform guess over the options — the chance baseline every table needs.

The draw depends only on (seed, item id, condition), so a resumed or repeated run answers
identically whatever order requests arrive in; the response cache keys on the item id too
(``models._cache``), so two items whose requests look alike (a text-only model under ``noise``)
each keep their own draw. Latency is recorded as 0, so two runs of the same command write the
same predictions.jsonl byte for byte, under every condition.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from medvqa.models._base import GenerateRequest, GenerateResponse, ModelConfig
from medvqa.rng import rng_for


class RandomModel:
    """Uniform over options; multi → a uniformly random non-empty subset; open → empty answer."""

    batch_size = 1024

    def __init__(self, config: ModelConfig):
        self.name = "random"
        self.seed = config.seed
        self.params: dict[str, Any] = {"seed": config.seed}
        self.info: dict[str, Any] = {"text_only": True, "baseline": "uniform random choice"}

    async def start(self) -> None:
        """Nothing to load."""

    async def aclose(self) -> None:
        """Nothing to release."""

    def answer(self, request: GenerateRequest) -> str:
        """The seeded guess for one request."""
        letters = list(request.options)
        if not letters:
            return ""
        rng = rng_for(self.seed, request.item_id, request.condition)
        if request.question_type == "multi":
            # Uniform over the 2^k - 1 non-empty subsets: draw a non-zero bit mask.
            mask = int(rng.integers(1, 2 ** len(letters)))
            return ", ".join(c for i, c in enumerate(letters) if mask >> i & 1)
        return letters[int(rng.integers(len(letters)))]

    async def generate(self, requests: Sequence[GenerateRequest]) -> list[GenerateResponse]:
        """Answer every request at once (no I/O)."""
        # Latency 0: a baseline does no I/O, and a measured time would make two runs of the
        # same command differ byte for byte.
        return [GenerateResponse(text=self.answer(r), latency_s=0.0) for r in requests]
