"""``medvqa train classifier`` on real lung tiles: an ordinary RUN/, deterministic, resumable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from medvqa.cli import main
from medvqa.conditions import get_condition
from medvqa.schema import Item, Prediction, RunInfo, read_json, read_jsonl
from medvqa.train import ClassifierConfig, TrainEvent, train_classifier

FAST = ["--image-size", "32", "--epochs", "3", "--batch-size", "16", "--device", "cpu"]


def _train(bench: Path, out: Path, *extra: str) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["train", "classifier", str(bench), "--out", str(out), *FAST, *extra])
    assert exc.value.code == 0


@pytest.fixture(scope="module")
def trained(train_bench: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cnn") / "run"
    _train(train_bench, out, "--splits", "test,val")
    return out


def _responses(run: Path) -> list[tuple[str, str, str | None]]:
    rows = read_jsonl(run / "predictions.jsonl", Prediction)
    return [(p.item_id, p.condition, p.response) for p in rows]


def test_writes_an_ordinary_run(trained: Path, train_bench: Path) -> None:
    info = read_json(trained / "run.json", RunInfo)
    assert info.model == f"supervised:{trained}"
    assert info.model_info["text_only"] is False
    items = {json.loads(line)["id"]: json.loads(line)
             for line in (train_bench / "items.jsonl").read_text().splitlines()}
    preds = list(read_jsonl(trained / "predictions.jsonl", Prediction))
    assert {items[p.item_id]["split"] for p in preds} == {"test", "val"}
    assert len(preds) == sum(it["split"] in {"test", "val"} for it in items.values())
    assert all(p.error is None and p.response in items[p.item_id]["options"] for p in preds)
    log = [json.loads(line) for line in
           (trained / "classifier" / "train_log.jsonl").read_text().splitlines()]
    assert [r["epoch"] for r in log] == [1, 2, 3]
    assert {"train_loss", "val_loss", "val_accuracy"} <= set(log[0])
    card = json.loads((trained / "classifier" / "classifier.json").read_text())
    assert card["categories"]["benign"] == ["no", "yes"]
    assert not (trained / "classifier" / "train-state.pt").exists()


def test_same_seed_same_bytes_other_seed_not(trained: Path, train_bench: Path,
                                             tmp_path: Path) -> None:
    _train(train_bench, tmp_path / "again", "--splits", "test,val")
    weights = "classifier/weights.safetensors"
    assert (tmp_path / "again" / weights).read_bytes() == (trained / weights).read_bytes()
    assert _responses(tmp_path / "again") == _responses(trained)
    _train(train_bench, tmp_path / "seed1", "--seed", "1")
    assert (tmp_path / "seed1" / weights).read_bytes() != (trained / weights).read_bytes()


def test_interrupted_training_resumes_to_the_same_weights(trained: Path, train_bench: Path,
                                                          tmp_path: Path) -> None:
    config = ClassifierConfig(bench_dir=train_bench, out_dir=tmp_path / "run", image_size=32,
                              epochs=3, batch_size=16, device="cpu")

    def stop_after_two(event: TrainEvent) -> None:
        if event.kind == "epoch" and event.epoch == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        train_classifier(config, stop_after_two)
    folder = tmp_path / "run" / "classifier"
    assert (folder / "train-state.pt").is_file() and not (folder / "classifier.json").exists()
    result = train_classifier(config)
    assert result.resumed_from == 2 and [r.epoch for r in result.rows] == [1, 2, 3]
    weights = "classifier/weights.safetensors"
    assert (tmp_path / "run" / weights).read_bytes() == (trained / weights).read_bytes()
    again = train_classifier(config)  # finished: reused, not retrained
    assert again.reused and again.card.weights_sha256 == result.card.weights_sha256


def test_controls_run_the_classifier_on_the_perturbed_image(trained: Path,
                                                            train_bench: Path) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["run", str(train_bench), "--model", f"supervised:{trained}", "--out", str(trained),
              "--split", "test", "--conditions", "clean,blind,corrupt:jpeg@5,permute"])
    assert exc.value.code == 0
    items = {json.loads(line)["id"]: json.loads(line)
             for line in (train_bench / "items.jsonl").read_text().splitlines()}
    preds = [p for p in read_jsonl(trained / "predictions.jsonl", Prediction)
             if items[p.item_id]["split"] == "test"]
    by = {(p.item_id, p.condition): p for p in preds}
    assert {p.condition for p in preds} >= {"clean", "blind", "corrupt:jpeg@5", "permute@1"}
    # Blind: one image for every item, so one answer text per category.
    blind = {(items[p.item_id]["category"], items[p.item_id]["options"][p.response])
             for p in preds if p.condition == "blind"}
    assert len(blind) == len({c for c, _ in blind})
    # Permuted options: the same option text is chosen, under another letter.
    permute = get_condition("permute@1")
    for (item_id, cond), p in by.items():
        if cond == "permute@1" and p.response is not None:
            item = Item.model_validate(items[item_id])
            shown = permute.transform_item(item).options
            clean = by[(item_id, "clean")].response
            assert clean is not None and shown[p.response] == item.options[clean]


def test_expert_heads_have_one_trunk_per_category(train_bench: Path, tmp_path: Path) -> None:
    _train(train_bench, tmp_path / "expert", "--heads", "expert", "--epochs", "1")
    from safetensors import safe_open

    with safe_open(str(tmp_path / "expert" / "classifier" / "weights.safetensors"), "pt") as fh:
        trunks = {k.split(".")[1] for k in fh.keys() if k.startswith("trunks.")}  # noqa: SIM118
    assert trunks == {"c0", "c1"}
    assert list(read_jsonl(tmp_path / "expert" / "predictions.jsonl", Prediction))


def test_linear_probe_on_local_resnet18_weights(train_bench: Path, tmp_path: Path) -> None:
    import torch

    from medvqa.models._vision_nets import build_trunk

    torch.manual_seed(3)
    trunk, width = build_trunk("resnet18")
    state = trunk.state_dict() | {"fc.weight": torch.zeros(1000, width),
                                  "fc.bias": torch.zeros(1000)}  # a torchvision-style file
    torch.save(state, tmp_path / "resnet18.pth")
    _train(train_bench, tmp_path / "probe", "--arch", "linear-probe", "--backbone", "resnet18",
           "--weights", str(tmp_path / "resnet18.pth"))
    card = json.loads((tmp_path / "probe" / "classifier" / "classifier.json").read_text())
    assert card["method"] == "linear-probe" and card["arch"] == "resnet18"
    log = (tmp_path / "probe" / "classifier" / "train_log.jsonl").read_text().splitlines()
    assert len(log) == 1 and json.loads(log[0])["val_accuracy"] > 0.5
