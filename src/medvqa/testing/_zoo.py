"""A zoo of models with known abilities behind a real loopback chat server.

:func:`write_zoo_bench` writes a text benchmark of simulated items (``medvqa.irt``'s
simulation: known discriminations, difficulties, distractor attractions, planted wrong keys);
:class:`ZooReply` is a :class:`~medvqa.testing.ChatServer` reply that answers as a model of
ability θ would, θ read from the requested model name (``zoo-0.75`` → 0.75). So a whole
calibration and an adaptive run go through the real runner, HTTP client, cache and scorer, and
the truth is known.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np

from medvqa.irt import SimulatedItems, sigmoid, simulate_items
from medvqa.rng import rng_for
from medvqa.schema import Benchmark, CreatedWith, Item, write_json, write_jsonl

LETTERS = "ABCDE"
_ITEM = re.compile(r"\[q(\d+)\]")


def zoo_model(theta: float) -> str:
    """The model name that answers with ability ``theta``."""
    return f"zoo{theta:+.3f}"


def write_zoo_bench(root: Path, items: SimulatedItems, name: str = "zoo") -> Path:
    """A BENCH/ of the simulated ``items`` (option 0 is the true answer; the key may be moved)."""
    root.mkdir(parents=True, exist_ok=True)
    rows = []
    for i in range(len(items)):
        k = int(items.options[i])
        options = {LETTERS[j]: f"option {j} of item {i}" for j in range(k)}
        rows.append(Item(
            id=f"q{i:05d}", images=[], question=f"[q{i:05d}] Which option is right?",
            options=options, answer=LETTERS[int(items.key[i])],
            question_type="yesno" if k == 2 else "single", category=f"k{k}",
            case_id=f"case{int(items.cases[i])}", source="simulated", split="test"))
    sha = write_jsonl(root / "items.jsonl", rows)
    write_json(root / "benchmark.json", Benchmark(
        name=name, created_with=CreatedWith(tool_version="test"), items_sha256=sha))
    return root


class ZooReply:
    """Answers each question as a model of the requested ability would (deterministically).

    Args:
        items: the simulated items the benchmark was written from.
        seed: seed of every model's draws.
    """

    def __init__(self, items: SimulatedItems, seed: int = 0) -> None:
        self.items = items
        self.seed = seed

    def __call__(self, prompt: str, body: dict[str, Any]) -> str:
        """The answer letter, as text."""
        model = str(body.get("model", "zoo+0.000"))
        theta = float(model[3:]) if model.startswith("zoo") else 0.0
        found = _ITEM.search(prompt)
        if found is None:
            return "I cannot tell."
        i = int(found.group(1))
        rng = rng_for(self.seed, model, i)
        knows = rng.random() < float(sigmoid(np.array(self.items.a[i] * (theta - self.items.b[i]))))
        if knows:
            return f"Answer: {LETTERS[0]}"
        attraction = self.items.attraction[i, : int(self.items.options[i])]
        pick = int(rng.choice(len(attraction), p=attraction / attraction.sum()))
        return f"Answer: {LETTERS[max(pick, 1)]}"


def zoo_items(n: int, seed: int = 0, flipped: float = 0.0, case_size: int = 1) -> SimulatedItems:
    """Simulated items for a zoo benchmark (seeded)."""
    return simulate_items(n, rng_for(seed, "zoo-items"), flipped=flipped, case_size=case_size)
