"""``medvqa filter guessable`` (PathMMU): drop items text-only models answer without the image."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "llm"))
from _scripted import ScriptedServer  # noqa: E402

from medvqa.benchmark import validate_benchmark  # noqa: E402
from medvqa.curate._guessable import GuessableConfig, filter_guessable, parse_filter_spec  # noqa: E402
from medvqa.schema import (  # noqa: E402
    BENCHMARK_FILE,
    Benchmark,
    CreatedWith,
    Item,
    read_jsonl,
    write_json,
    write_jsonl,
)
from medvqa.store import ImageStore  # noqa: E402


@pytest.fixture()
def bench(tmp_path: Path, data_dir: Path) -> Path:
    """Ten real VQA-RAD closed questions (with their images) as a BENCH/, plus one open one."""
    rows = json.loads((data_dir / "vqa_rad" / "VQA_RAD Dataset Public.json").read_text())
    folder = data_dir / "vqa_rad" / "VQA_RAD Image Folder"
    out = tmp_path / "bench"
    store = ImageStore(out)
    items = []
    closed = [
        r
        for r in rows
        if r["answer_type"] == "CLOSED"
        and r["answer"].lower() in {"yes", "no"}
        and (folder / r["image_name"]).is_file()
    ]
    for n, r in enumerate(closed[:10]):
        items.append(
            Item(
                id=f"q{r['qid']}",
                images=[store.add_file(folder / r["image_name"])],
                question=r["question"],
                options={"A": "Yes", "B": "No"},
                answer="A" if r["answer"].lower() == "yes" else "B",
                question_type="yesno",
                source="vqa_rad",
                split="train" if n < 4 else "test",
                case_id=r["image_name"],
            )
        )
    items.append(
        Item(id="open1", question="What organ is shown?", answer="lung", question_type="open")
    )
    digest = write_jsonl(out / "items.jsonl", items)
    write_json(
        out / BENCHMARK_FILE,
        Benchmark(name="t", created_with=CreatedWith(tool_version="0"), items_sha256=digest),
    )
    return out


def _answers(bench: Path) -> dict[str, str]:
    return {
        i.question: i.options[i.answer]
        for i in read_jsonl(bench / "items.jsonl", Item)
        if i.options
    }


def test_drops_items_enough_text_only_models_answer(tmp_path: Path, bench: Path) -> None:
    gold = _answers(bench)
    questions = sorted(gold)
    # "oracle" knows every answer; "half" knows the first five questions and says No otherwise
    oracle = ScriptedServer(lambda s, p: next(gold[q] for q in gold if q in p))
    half = ScriptedServer(lambda s, p: next((gold[q] for q in questions[:5] if q in p), "B"))
    with oracle, half:
        models = [oracle.spec("oracle"), half.spec("half"), "random"]
        res = filter_guessable(GuessableConfig(bench, tmp_path / "out", models, min_correct=2))
        assert all(r.n_images == 0 for r in oracle.received + half.received)  # text only
        assert len(oracle.received) == 10  # the open item is never asked
    dropped = [json.loads(x) for x in (tmp_path / "out" / "dropped.jsonl").read_text().splitlines()]
    for d in dropped:
        assert len(d["correct_models"]) >= 2 and "without the image" in d["reason"]
        assert set(d["answers"]) == set(models)
    kept = list(read_jsonl(tmp_path / "out" / "items.jsonl", Item))
    assert res.kept == len(kept) and res.dropped == len(dropped) and res.kept + res.dropped == 11
    assert res.per_model_correct[oracle.spec("oracle")] == 10
    assert res.dropped >= 5  # oracle plus half agree on at least the first five
    assert "open1" in {i.id for i in kept}
    assert validate_benchmark(tmp_path / "out").ok
    counts = Benchmark.model_validate_json((tmp_path / "out" / BENCHMARK_FILE).read_text()).counts
    assert counts["filtered_guessable"] == res.dropped


def test_baselines_work_and_min_correct_is_respected(tmp_path: Path, bench: Path) -> None:
    res = filter_guessable(
        GuessableConfig(bench, tmp_path / "o", ["random", "frequent"], min_correct=2)
    )
    dropped = [json.loads(x) for x in (tmp_path / "o" / "dropped.jsonl").read_text().splitlines()]
    assert all(set(d["correct_models"]) == {"random", "frequent"} for d in dropped)
    assert res.kept + res.dropped == 11


def test_writing_over_the_input_is_refused(bench: Path) -> None:
    from medvqa.errors import BadInputError

    with pytest.raises(BadInputError, match="new folder"):
        filter_guessable(GuessableConfig(bench, bench, ["random"], 1))


def test_filter_spec_parsing() -> None:
    assert parse_filter_spec("guessable:a,b,c:2") == (["a", "b", "c"], 2)
    assert parse_filter_spec("guessable:a,b") == (["a", "b"], 2)
