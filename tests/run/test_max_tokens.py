"""The default ``--max-tokens``: 64 for closed questions, LMOD's 512 once a benchmark has open or
region questions; what was used lands in run.json, and ``--max-tokens`` always wins."""

from __future__ import annotations

import json
from pathlib import Path

from _medvqa_cli import cli
from hypothesis import given
from hypothesis import strategies as st

from medvqa.run._max_tokens import (
    CLOSED_MAX_TOKENS,
    GENERATION_MAX_TOKENS,
    GENERATION_TYPES,
    default_max_tokens,
    max_tokens_for,
)
from medvqa.schema import Item, RunInfo, read_json, write_jsonl
from medvqa.testing import ChatServer

TYPES = ["single", "multi", "yesno", "open", "region", "grade"]


@given(st.sets(st.sampled_from(TYPES)))
def test_generation_types_and_only_they_get_the_long_cap(types: set[str]) -> None:
    expected = GENERATION_MAX_TOKENS if types & GENERATION_TYPES else CLOSED_MAX_TOKENS
    assert max_tokens_for(types) == expected


def _open_bench(bench_factory, root: Path) -> Path:
    """The lung benchmark with its last item turned into an open question."""
    bench = bench_factory(root, 6)
    lines = (bench / "items.jsonl").read_text().splitlines()
    last = json.loads(lines[-1]) | {"question_type": "open", "options": {}, "answer": "lung"}
    items = [Item.model_validate_json(x) for x in lines[:-1]] + [Item.model_validate(last)]
    write_jsonl(bench / "items.jsonl", items)
    return bench


def test_the_card_decides_and_items_answer_when_it_is_silent(bench_factory,
                                                              tmp_path: Path) -> None:
    closed = bench_factory(tmp_path / "closed", 6)
    assert default_max_tokens(closed) == CLOSED_MAX_TOKENS
    mixed = _open_bench(bench_factory, tmp_path / "mixed")
    card = json.loads((mixed / "benchmark.json").read_text())
    card["counts"] = {}  # a hand-made card: the items are read instead
    (mixed / "benchmark.json").write_text(json.dumps(card))
    assert default_max_tokens(mixed) == GENERATION_MAX_TOKENS
    card["counts"] = {"by_question_type": {"single": 5, "open": 1}}
    (mixed / "benchmark.json").write_text(json.dumps(card))
    assert default_max_tokens(mixed) == GENERATION_MAX_TOKENS
    assert default_max_tokens(tmp_path / "nowhere") == CLOSED_MAX_TOKENS


def test_run_records_the_cap_it_used(bench_factory, tmp_path: Path) -> None:
    closed = bench_factory(tmp_path / "closed", 6)
    mixed = _open_bench(bench_factory, tmp_path / "mixed")
    with ChatServer() as server:
        spec = f"openai:m@{server.url}"
        for bench, out, extra in ((closed, "a", []), (mixed, "b", []),
                                  (mixed, "c", ["--max-tokens", "20"])):
            assert cli("run", str(bench), "-m", spec, "-o", str(tmp_path / out), "--split", "all",
                       *extra) == 0
        sent = [body["max_tokens"] for body in server.bodies]
    caps = [read_json(tmp_path / out / "run.json", RunInfo).model_params["max_tokens"]
            for out in "abc"]
    assert caps == [CLOSED_MAX_TOKENS, GENERATION_MAX_TOKENS, 20]
    assert sent == [64] * 6 + [512] * 6 + [20] * 6
