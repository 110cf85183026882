"""A reasoning model's thinking is kept raw in predictions.jsonl and ignored by the parser."""

from __future__ import annotations

from pathlib import Path

from medvqa.models import ModelConfig
from medvqa.run import RunConfig, run_benchmark
from medvqa.schema import Prediction, RunInfo, read_json, read_jsonl
from medvqa.score import ScoreConfig, score_run
from medvqa.testing import ChatServer


def _thinker(prompt: str, body: dict) -> str:
    return "<think>A is tempting, but the nuclei say otherwise.</think> B"


def test_thinking_is_kept_raw_and_not_parsed(bench: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    with ChatServer(reply=_thinker) as server:
        model = ModelConfig(spec=f"openai:m@{server.url}", reasoning=True, max_tokens=512)
        summary = run_benchmark(RunConfig(bench_dir=bench, out_dir=run, model=model, limit=3))
    assert summary.sent == 3
    assert read_json(run / "run.json", RunInfo).model_params["reasoning"] is True
    score_run(ScoreConfig(bench_dir=bench, run_dir=run, resamples=99))
    preds = list(read_jsonl(run / "predictions.jsonl", Prediction))
    assert all(p.response.startswith("<think>A is tempting") for p in preds)
    assert [p.choice for p in preds] == ["B"] * 3


def _thinker_tentative(prompt: str, body: dict) -> str:
    return "<think>Looking at it, the answer is A... no, the glands say otherwise.</think>\nB"


def test_thinking_is_set_aside_even_when_run_json_does_not_say_reasoning(
        bench: Path, tmp_path: Path) -> None:
    # A tentative "the answer is A" inside the trace must never be read, whatever run.json says.
    run = tmp_path / "run"
    with ChatServer(reply=_thinker_tentative) as server:
        model = ModelConfig(spec=f"openai:m@{server.url}", max_tokens=512)
        run_benchmark(RunConfig(bench_dir=bench, out_dir=run, model=model, limit=3))
    assert not read_json(run / "run.json", RunInfo).model_params.get("reasoning")
    score_run(ScoreConfig(bench_dir=bench, run_dir=run, resamples=99))
    preds = list(read_jsonl(run / "predictions.jsonl", Prediction))
    assert all(p.response.startswith("<think>") for p in preds)
    assert [p.choice for p in preds] == ["B"] * 3
