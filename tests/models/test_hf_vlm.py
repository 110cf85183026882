"""``hf:PATH`` on a vision-language checkpoint: tiny random models built from a config.

No VLM weights can be downloaded here, so the test writes one of each family (real processor,
real SmolLM2 tokenizer, random weights) and runs the benchmark through it: the images must
reach the model. LLaVA sends one fixed-size image per slot; Idefics3 (SmolVLM's architecture)
tiles each image, so its batches carry five-dimensional pixels and many image tokens.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from medvqa.benchmark import ImageInput
from medvqa.models import GenerateRequest, ModelConfig, load_model
from medvqa.models._hf_vlm import LocalVLM
from medvqa.run import RunConfig, run_benchmark
from medvqa.schema import Prediction, RunInfo, read_json, read_jsonl
from medvqa.testing import write_tiny_vlm
from medvqa.testing._tiny_vlm import FAMILIES

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module", params=FAMILIES)
def checkpoint(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Path:
    return write_tiny_vlm(tmp_path_factory.mktemp("tiny-vlm"), family=request.param)


def _config(checkpoint: Path) -> ModelConfig:
    return ModelConfig(spec=f"hf:{checkpoint}", max_tokens=4, batch_size=3)


def test_vision_checkpoint_gets_the_vlm_backend(checkpoint: Path) -> None:
    model = load_model(_config(checkpoint))
    assert isinstance(model, LocalVLM) and model.info["text_only"] is False


def test_images_change_the_answer(checkpoint: Path, data_dir: Path) -> None:
    model = load_model(_config(checkpoint))
    tiles = sorted((data_dir / "lc25000_lung_224" / "lung_image_sets").rglob("*.jpeg"))
    images = [ImageInput(p.read_bytes(), "image/jpeg", p.stem) for p in (tiles[0], tiles[-1])]
    reqs = [GenerateRequest(item_id=str(i), condition="clean", prompt="Which tissue?",
                            images=(img,)) for i, img in enumerate(images)]
    first = asyncio.run(model.generate(reqs))
    assert [r.text for r in asyncio.run(model.generate(reqs))] == [r.text for r in first]
    # Same prompt, different pixels: with random weights the logits still depend on the image.
    assert first[0].text != first[1].text


def test_run_sends_images_to_the_local_vlm(checkpoint: Path, bench: Path, tmp_path: Path) -> None:
    config = RunConfig(bench_dir=bench, out_dir=tmp_path / "run", model=_config(checkpoint),
                       limit=6)
    summary = run_benchmark(config)
    assert summary.sent == 6 and summary.errors == 0
    assert read_json(tmp_path / "run" / "run.json", RunInfo).model_info["text_only"] is False
    assert len(list(read_jsonl(tmp_path / "run" / "predictions.jsonl", Prediction))) == 6


def test_missing_checkpoint_is_one_clear_error(tmp_path: Path) -> None:
    from medvqa.errors import BadInputError

    with pytest.raises(BadInputError, match="not a local checkpoint"):
        load_model(ModelConfig(spec=f"hf:{tmp_path}/no-such-model"))


def test_batches_grouped_by_length_and_what_was_sent_is_recorded(
    checkpoint: Path, data_dir: Path
) -> None:
    tiles = sorted((data_dir / "lc25000_lung_224" / "lung_image_sets").rglob("*.jpeg"))[:3]
    imgs = [ImageInput(p.read_bytes(), "image/jpeg", p.stem) for p in tiles]
    model = load_model(ModelConfig(spec=f"hf:{checkpoint}", max_tokens=3, batch_size=2,
                                   device="cpu", dtype="float32"))
    assert model.batch_size == 8 and model.info["device"] == "cpu"
    reqs = [GenerateRequest(item_id=str(i), condition="clean", prompt="Q" * (5 + 20 * i),
                            images=tuple(imgs[: 1 + i % 3])) for i in range(5)]
    out = asyncio.run(model.generate(reqs))
    alone = [asyncio.run(model.generate([r]))[0] for r in reqs]
    # Left padding and grouping do not change greedy answers, and every answer is in order.
    assert [r.text for r in out] == [r.text for r in alone]
    assert [r.sent["images"] for r in out] == [1, 2, 3, 1, 2]
    assert all(r.sent["image_sizes"] == [[64, 64]] * r.sent["images"] for r in out)
    assert out[4].sent["prompt_tokens"] > out[0].sent["prompt_tokens"]


def test_run_json_records_placement_and_what_was_sent(checkpoint: Path, bench: Path,
                                                      tmp_path: Path) -> None:
    config = RunConfig(bench_dir=bench, out_dir=tmp_path / "run", limit=4,
                       model=ModelConfig(spec=f"hf:{checkpoint}", max_tokens=2, batch_size=2,
                                         device="cpu", dtype="float32"))
    run_benchmark(config)
    info = read_json(tmp_path / "run" / "run.json", RunInfo).model_info
    assert (info["device"], info["dtype"], info["cache"]) == ("cpu", "float32", "dynamic")
    assert info["sent"]["requests"] == 4 and info["sent"]["images"] == 4
    assert info["sent"]["image_sizes"] == [[64, 64]] and info["sent"]["prompt_tokens_max"] > 0
    preds = list(read_jsonl(tmp_path / "run" / "predictions.jsonl", Prediction))
    assert [p.sent["images"] for p in preds] == [1, 1, 1, 1]
    assert all(p.sent["image_sizes"] == [[64, 64]] and p.sent["prompt_tokens"] > 0 for p in preds)
