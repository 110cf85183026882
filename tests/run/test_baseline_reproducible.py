"""The baselines under every control: the same command gives the same bytes, and chance is chance.

Sixty items with one templated question and five options: under ``noise`` (and the other
image controls) a text-only model's requests look alike, so a cache keyed without the item id
handed every item the first item's draw (issue 39: ``C`` for all 60).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from _lung_bench import LUNG, make_bench

from medvqa.models import ModelConfig
from medvqa.run import RunConfig, run_benchmark
from medvqa.schema import Item
from medvqa.store import ImageStore

CONDITIONS = ["clean", "blind", "noise", "text-only", "corrupt:jpeg@1-2", "swap", "permute"]
OPTIONS = {"A": "adenocarcinoma", "B": "benign", "C": "squamous", "D": "normal", "E": "necrosis"}


@pytest.fixture(scope="module")
def alike(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("alike") / "B"
    store = ImageStore(root)
    files = sorted((LUNG / "lung_n").glob("*.jpeg"))
    items = [Item(id=f"q{i:03d}", images=[store.add_file(files[i % len(files)])],
                  question="What tissue does this H&E tile show?", options=dict(OPTIONS),
                  answer="B", question_type="single", category="lung", case_id=f"c{i}",
                  source="LC25000", split="test" if i % 5 else "train") for i in range(60)]
    return make_bench(root, items=items)


def _run(bench: Path, out: Path, model: str) -> bytes:
    run_benchmark(RunConfig(bench_dir=bench, out_dir=out, model=ModelConfig(spec=model),
                            conditions=list(CONDITIONS)))
    return (out / "predictions.jsonl").read_bytes()


@pytest.mark.parametrize("model", ["random", "frequent"])
def test_two_fresh_runs_write_the_same_bytes(model: str, alike: Path, tmp_path: Path) -> None:
    assert _run(alike, tmp_path / "a", model) == _run(alike, tmp_path / "b", model)


def test_random_guesses_every_option_under_every_condition(alike: Path, tmp_path: Path) -> None:
    _run(alike, tmp_path / "r", "random")
    by: dict[str, Counter[str]] = {}
    for line in (tmp_path / "r" / "predictions.jsonl").read_text().splitlines():
        pred = json.loads(line)
        by.setdefault(pred["condition"], Counter())[pred["response"]] += 1
    assert len(by) >= len(CONDITIONS)
    for condition, counts in by.items():
        # 60 uniform draws over 5 letters: each letter is drawn (P(miss) < 1e-5 per letter)
        # and none takes more than half.
        assert set(counts) == set(OPTIONS), (condition, counts)
        assert max(counts.values()) <= 30, (condition, counts)
