"""``medvqa train lora``: SmolLM2 overfits a tiny set; the tiny VLM trains; bad targets exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from medvqa.cli import _app as cli
from medvqa.cli import main
from medvqa.models import ModelConfig
from medvqa.reading import make_parser
from medvqa.run import RunConfig, run_benchmark
from medvqa.schema import Item, Prediction, RunInfo, read_json, read_jsonl
from medvqa.testing import write_text_bench, write_tiny_vlm
from medvqa.train import LoraTrainConfig, train_lora

pytestmark = pytest.mark.slow


def _accuracy(bench: Path, run: Path) -> float:
    items = {it.id: it for it in read_jsonl(bench / "items.jsonl", Item)}
    parser = make_parser("strict")
    right = 0
    for p in read_jsonl(run / "predictions.jsonl", Prediction):
        item = items[p.item_id]
        got = parser.parse(p.response or "", item.options, item.question_type).choice
        right += got == item.answer
    return right / len(items)


def test_smollm2_overfits_and_the_adapter_answers_better(tmp_path: Path) -> None:
    bench = write_text_bench(tmp_path / "bench", 4)  # answers D, D, A, D
    # 12 full-batch steps at lr 1.5e-3: the loss falls smoothly (3.98 → 0.19 measured) and the
    # tuned model answers at least the majority letter (0.75); untuned SmolLM2 answers B or C.
    result = train_lora(LoraTrainConfig(
        bench_dir=bench, model="smollm2", out_dir=tmp_path / "adapter", lr=1.5e-3, alpha=16,
        batch_size=4, epochs=12, device="cpu"))[0]
    assert result.steps == 12
    assert result.last_loss < 0.3 * result.first_loss
    assert (tmp_path / "adapter" / "adapter_config.json").is_file()
    record = json.loads((tmp_path / "adapter" / "medvqa_lora.json").read_text())
    assert record["losses"] == result.losses
    accuracy = {}
    for name, extra in (("base", {}), ("tuned", {"adapter": str(tmp_path / "adapter")})):
        run_benchmark(RunConfig(bench_dir=bench, out_dir=tmp_path / name,
                                model=ModelConfig(spec="smollm2", max_tokens=4, extra=extra)))
        accuracy[name] = _accuracy(bench, tmp_path / name)
    assert accuracy["tuned"] >= 0.75 and accuracy["tuned"] > accuracy["base"]
    tuned = read_json(tmp_path / "tuned" / "run.json", RunInfo)
    assert "adapter" in tuned.model_params  # the adapter is part of the cache key


@pytest.fixture(scope="module")
def tiny_vlm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tiny_vlm(tmp_path_factory.mktemp("vlm"))


def test_tiny_vlm_trains_one_adapter_per_question_type(tiny_vlm: Path, tmp_path: Path) -> None:
    from _train_bench import write_train_bench

    bench = write_train_bench(tmp_path / "bench", 2, splits=("train",))
    with pytest.raises(SystemExit) as exc:
        main(["train", "lora", str(bench), "--model", f"hf:{tiny_vlm}", "--out",
              str(tmp_path / "ad"), "--by", "question_type", "--batch-size", "2",
              "--max-steps", "2", "--lr", "1e-3", "--device", "cpu",
              "--target", "answer+explanation"])
    assert exc.value.code == 0
    for qtype in ("single", "yesno"):
        record = json.loads((tmp_path / "ad" / qtype / "medvqa_lora.json").read_text())
        assert record["steps"] == 2 and record["items"] == 6
    with pytest.raises(SystemExit) as exc:
        main(["run", str(bench), "--model", f"hf:{tiny_vlm}", "--adapter",
              str(tmp_path / "ad" / "single"), "--out", str(tmp_path / "run"),
              "--max-tokens", "2", "--limit", "2"])
    assert exc.value.code == 0
    preds = list(read_jsonl(tmp_path / "run" / "predictions.jsonl", Prediction))
    assert len(preds) == 2 and all(p.error is None for p in preds)


def test_missing_target_module_is_one_line_exit_2(tiny_vlm: Path, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli._err, "width", 1000)
    bench = write_text_bench(tmp_path / "bench", 2)
    with pytest.raises(SystemExit) as exc:
        main(["train", "lora", str(bench), "--model", f"hf:{tiny_vlm}", "--out",
              str(tmp_path / "ad"), "--target-modules", "no_such_proj", "--device", "cpu"])
    err = capsys.readouterr().err.strip()
    assert exc.value.code == 2 and len(err.splitlines()) == 1 and "no_such_proj" in err
    assert not (tmp_path / "ad").exists()
