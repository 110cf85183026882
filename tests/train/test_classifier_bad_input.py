"""Bad input to ``medvqa train classifier``: one line, exit 2, nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _train_bench import write_train_bench

from medvqa.cli import _app as cli
from medvqa.cli import main


@pytest.fixture(autouse=True)
def _wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rich wraps at 80 columns when captured; widen it so one message stays one line."""
    monkeypatch.setattr(cli._err, "width", 1000)


def _fails(capsys: pytest.CaptureFixture[str], bench: Path, out: Path, *extra: str) -> str:
    with pytest.raises(SystemExit) as exc:
        main(["train", "classifier", str(bench), "--out", str(out), "--image-size", "32",
              "--epochs", "1", "--device", "cpu", *extra])
    err = capsys.readouterr().err.strip()
    assert exc.value.code == 2, err
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert not out.exists()
    return err


def test_no_val_split(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = write_train_bench(tmp_path / "b", 4, splits=("train", "test"))
    assert "split=val" in _fails(capsys, bench, tmp_path / "out")


def test_category_with_one_class(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = write_train_bench(tmp_path / "b", 5, categories=("benign",), one_class=True)
    assert "'benign' has one class" in _fails(capsys, bench, tmp_path / "out")


def test_image_that_fails_to_load(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = write_train_bench(tmp_path / "b", 5)
    first = json.loads((bench / "items.jsonl").read_text().splitlines()[0])
    (bench / first["images"][0]).write_bytes(b"not a jpeg")
    err = _fails(capsys, bench, tmp_path / "out")
    assert "items.jsonl:1" in err and first["images"][0] in err


def test_weights_of_another_architecture(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    import torch

    from medvqa.models._vision_nets import build_trunk

    bench = write_train_bench(tmp_path / "b", 5)
    torch.save(build_trunk("small-cnn")[0].state_dict(), tmp_path / "cnn.pt")
    err = _fails(capsys, bench, tmp_path / "out", "--arch", "resnet18",
                 "--weights", str(tmp_path / "cnn.pt"))
    assert "not resnet18 weights" in err


def test_unknown_arch_and_missing_gpu(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import torch

    bench = write_train_bench(tmp_path / "b", 5)
    assert "--arch" in _fails(capsys, bench, tmp_path / "out", "--arch", "vgg")
    if not torch.cuda.is_available():
        assert "CUDA" in _fails(capsys, bench, tmp_path / "out", "--device", "cuda")


@pytest.mark.skipif("not __import__('torch').cuda.is_available()", reason="needs a CUDA GPU")
def test_trains_on_a_gpu(tmp_path: Path) -> None:
    bench = write_train_bench(tmp_path / "b", 6)
    with pytest.raises(SystemExit) as exc:
        main(["train", "classifier", str(bench), "--out", str(tmp_path / "gpu"),
              "--image-size", "32", "--epochs", "2", "--device", "cuda"])
    assert exc.value.code == 0
    assert (tmp_path / "gpu" / "classifier" / "weights.safetensors").is_file()


@pytest.mark.parametrize(("model", "needle"), [("random", "only hf:PATH and smollm2"),
                                               ("smollm2", "not a peft adapter folder")])
def test_bad_adapter(tmp_path: Path, capsys: pytest.CaptureFixture[str], model: str,
                     needle: str) -> None:
    bench = write_train_bench(tmp_path / "b", 2)
    (tmp_path / "empty").mkdir()
    with pytest.raises(SystemExit) as exc:
        main(["run", str(bench), "--model", model, "--adapter", str(tmp_path / "empty"),
              "--out", str(tmp_path / "run")])
    err = capsys.readouterr().err.strip()
    assert exc.value.code == 2 and len(err.splitlines()) == 1 and needle in err
    assert not (tmp_path / "run").exists()
