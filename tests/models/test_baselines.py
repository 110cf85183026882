"""The baseline backends: seeded uniform ``random`` and PathMMU's ``frequent``."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

import pytest
from scipy.stats import chisquare

from medvqa.errors import BadInputError
from medvqa.models import GenerateRequest, ModelConfig, load_model, parse_model_spec
from medvqa.schema import Benchmark, CreatedWith, Item, write_json, write_jsonl

OPTIONS = {"A": "benign", "B": "malignant", "C": "normal", "D": "indeterminate"}


def _requests(n: int, qtype: str = "single", condition: str = "clean") -> list[GenerateRequest]:
    return [GenerateRequest(item_id=f"q{i}", condition=condition, prompt="?", options=OPTIONS,
                            question_type=qtype) for i in range(n)]


def _answers(spec: str, requests: list[GenerateRequest], seed: int = 0, bench: Path | None = None):
    model = load_model(ModelConfig(spec=spec, seed=seed), bench)
    return [r.text for r in asyncio.run(model.generate(requests))]


def test_random_is_uniform_over_options() -> None:
    counts = Counter(_answers("random", _requests(4000)))
    assert set(counts) == set(OPTIONS)
    assert chisquare(list(counts.values())).pvalue > 1e-3


def test_random_depends_on_seed_item_and_condition_only() -> None:
    reqs = _requests(200)
    assert _answers("random", reqs) == _answers("random", reqs)
    assert _answers("random", reqs[::-1]) == _answers("random", reqs)[::-1]  # order-free
    assert _answers("random", reqs, seed=1) != _answers("random", reqs)
    assert _answers("random", _requests(200, condition="blind")) != _answers("random", reqs)


def test_random_multi_is_a_non_empty_subset() -> None:
    for text in _answers("random", _requests(300, "multi")):
        letters = text.split(", ")
        assert letters and set(letters) <= set(OPTIONS) and len(set(letters)) == len(letters)


def _bench(root: Path, train_answers: list[str]) -> Path:
    items = [Item(id=f"t{i}", question="?", options=OPTIONS, answer=a, question_type="single",
                  split="train") for i, a in enumerate(train_answers)]
    items.append(Item(id="x", question="?", options=OPTIONS, answer="A", question_type="single"))
    sha = write_jsonl(root / "items.jsonl", items)
    write_json(root / "benchmark.json", Benchmark(name="b", items_sha256=sha,
                                                  created_with=CreatedWith(tool_version="t")))
    return root


def test_frequent_answers_the_most_frequent_train_answer_text(tmp_path: Path) -> None:
    bench = _bench(tmp_path, ["B", "B", "C", "A"])  # "malignant" twice
    shuffled = {"A": "normal", "B": "indeterminate", "C": "malignant", "D": "benign"}
    req = GenerateRequest(item_id="x", condition="clean", prompt="?", options=shuffled)
    assert _answers("frequent", [req], bench=bench) == ["C"]  # by text, not by letter


def test_frequent_cache_identity_follows_the_train_split(tmp_path: Path) -> None:
    a = load_model(ModelConfig(spec="frequent"), _bench(tmp_path / "a", ["B", "B"]))
    b = load_model(ModelConfig(spec="frequent"), _bench(tmp_path / "b", ["C", "C"]))
    assert a.params != b.params  # so a cached answer is never reused for another train split


def test_frequent_without_train_split_is_bad_input(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    bench = _bench(tmp_path / "b", [])
    with pytest.raises(BadInputError, match="no train split"):
        load_model(ModelConfig(spec="frequent"), bench)


def test_model_specs() -> None:
    spec = parse_model_spec("openai:qwen2.5-vl-7b@http://127.0.0.1:8000/v1")
    assert (spec.kind, spec.name, spec.base_url) == ("openai", "qwen2.5-vl-7b",
                                                     "http://127.0.0.1:8000/v1")
    with pytest.raises(ValueError, match="Did you mean 'random'"):
        parse_model_spec("randon")
    with pytest.raises(BadInputError, match="Did you mean"):
        load_model(ModelConfig(spec="opneai:x"))
