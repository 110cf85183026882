"""``frequent``: answer the option whose text was the most frequent gold answer in train.

This is PathMMU's frequent-choice baseline: it measures how far answer-prior knowledge alone
goes. Ties between option texts break by the option's display order; when no option text was
ever a train answer, the most frequent gold letter of train is used (then "A").
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from medvqa.errors import BadInputError
from medvqa.models._base import GenerateRequest, GenerateResponse, ModelConfig
from medvqa.schema import ITEMS_FILE, Item, read_jsonl


def train_answer_counts(items_path: Path) -> tuple[Counter[str], Counter[str]]:
    """Counts of gold answer texts (normalised) and gold letters over the train split."""
    texts: Counter[str] = Counter()
    letters: Counter[str] = Counter()
    for item in read_jsonl(items_path, Item, errors=[]):
        if item.split != "train":
            continue
        if item.options:
            for letter in item.answer_letters:
                texts[_norm(item.options.get(letter, ""))] += 1
                letters[letter] += 1
        elif isinstance(item.answer, str):
            texts[_norm(item.answer)] += 1
    return texts, letters


def _counts_digest(texts: Counter[str], letters: Counter[str]) -> str:
    canonical = json.dumps([sorted(texts.items()), sorted(letters.items())])
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


class FrequentModel:
    """Most frequent train answer text among the item's options."""

    batch_size = 1024

    def __init__(self, config: ModelConfig, bench_dir: Path | None):
        if bench_dir is None:
            raise BadInputError("model 'frequent' needs a benchmark with a train split")
        self.texts, self.letters = train_answer_counts(Path(bench_dir) / ITEMS_FILE)
        if not self.texts:
            raise BadInputError(
                f"model 'frequent': {Path(bench_dir) / ITEMS_FILE} has no train split to count"
            )
        self.name = "frequent"
        # The answers depend on the train split, so its counts are part of the cache identity.
        digest = _counts_digest(self.texts, self.letters)
        self.params: dict[str, Any] = {"train_counts_sha256": digest}
        self.info: dict[str, Any] = {
            "text_only": True,
            "baseline": "most frequent train answer text",
            "train_answers": sum(self.texts.values()),
        }

    async def start(self) -> None:
        """Counts are computed in the constructor."""

    async def aclose(self) -> None:
        """Nothing to release."""

    def answer(self, request: GenerateRequest) -> str:
        """The option whose text is most frequent in train."""
        if not request.options:
            return self.texts.most_common(1)[0][0]
        best = max(request.options.items(), key=lambda kv: self.texts.get(_norm(kv[1]), 0))
        if self.texts.get(_norm(best[1]), 0) > 0:
            return best[0]
        for letter, _ in self.letters.most_common():
            if letter in request.options:
                return letter
        return next(iter(request.options))

    async def generate(self, requests: Sequence[GenerateRequest]) -> list[GenerateResponse]:
        """Answer every request at once (no I/O)."""
        # Latency 0: a baseline does no I/O, and a measured time would make two runs of the
        # same command differ byte for byte.
        return [GenerateResponse(text=self.answer(r), latency_s=0.0) for r in requests]
