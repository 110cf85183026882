from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from medvqa.benchmark import ImageInput
from medvqa.models import GenerateRequest, GenerateResponse, ResponseCache, cache_key, request_key
from medvqa.run import JournalRow, PredictionJournal
from medvqa.schema import ABSENT_WHEN_NULL, Prediction, read_jsonl


def test_cache_round_trip_and_wal(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    with ResponseCache(path) as cache:
        cache.put_many(
            "m",
            [
                ("k1", GenerateResponse(text="A", latency_s=0.25)),
                ("k2", GenerateResponse(text=None, latency_s=1.0, error="HTTP 500")),
            ],
        )
    with ResponseCache(path) as cache:  # reopened: survives the process's connection
        got = cache.get_many(["k1", "k2", "k3"])
        assert got["k1"] == GenerateResponse(text="A", latency_s=0.25)
        assert got["k2"].error == "HTTP 500" and got["k2"].text is None
        assert "k3" not in got
        assert set(cache.get_many(["k1", "k2"], include_errors=False)) == {"k1"}
        cache.put_many("m", [("k2", GenerateResponse(text="B", latency_s=0.5))])
        assert cache.get("k2", include_errors=False) == GenerateResponse(text="B", latency_s=0.5)
        assert len(cache) == 2
    mode = sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_cache_key_covers_every_answer_changing_input() -> None:
    base = dict(
        model="m", params={"t": 0}, system=None, prompt="p", image_sha256s=["a"], condition="clean",
        item_id="i",
    )
    k = cache_key(**base)
    for change in (
        {"model": "n"},
        {"params": {"t": 1}},
        {"system": "s"},
        {"prompt": "q"},
        {"image_sha256s": ["b"]},
        {"image_sha256s": []},
        {"condition": "blind"},
        {"item_id": "j"},  # the random baseline's draw depends on it
    ):
        assert cache_key(**(base | change)) != k, change
    # params order does not matter (canonical JSON)
    assert cache_key(**(base | {"params": {"a": 1, "b": 2}})) == cache_key(
        **(base | {"params": {"b": 2, "a": 1}})
    )
    img = ImageInput(data=b"x", mime="image/png", sha256="a")
    req = GenerateRequest(item_id="i", condition="clean", prompt="p", images=(img,))
    assert request_key("m", {"t": 0}, req) == k


def test_journal_exactly_once_in_benchmark_order(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    with PredictionJournal(path) as j:
        j.add_many([JournalRow("b", "clean", 2, 0, "A", 0.1, None)])
        j.add_many([JournalRow("a", "blind", 1, 1, None, 0.0, "boom")])
        j.add_many([JournalRow("a", "clean", 1, 0, "C", 0.1, None)])
        j.add_many([JournalRow("b", "clean", 2, 0, "B", 0.2, None)])  # replaces, never duplicates
        assert j.is_done("a", "blind") and not j.is_done("a", "blind", include_errors=False)
        assert j.counts() == (3, 1)
        assert j.first_errors() == ["boom"]
        n = j.export(tmp_path / "predictions.jsonl")
    assert n == 3
    preds = list(read_jsonl(tmp_path / "predictions.jsonl", Prediction))
    assert [(p.item_id, p.condition, p.response) for p in preds] == [
        ("a", "clean", "C"),
        ("a", "blind", None),
        ("b", "clean", "B"),
    ]
    first = json.loads((tmp_path / "predictions.jsonl").read_text().splitlines()[0])
    # "sent" appears only where a backend recorded what it was given, "extracted_by" only where
    # an extractor read the answer.
    assert list(first) == [f for f in Prediction.model_fields if f not in ABSENT_WHEN_NULL]
    assert not list(tmp_path.glob(".predictions*"))
