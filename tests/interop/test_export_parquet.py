"""Parquet export (Hugging Face datasets layout): one file per split, lossless rows, image bytes
unchanged, feature metadata for datasets; and the ``medvqa export`` command."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
import typer
from benchcheck import load
from PIL import Image
from typer.testing import CliRunner

from medvqa.cli._export import export_command
from medvqa.interop._export_parquet import export_parquet, row_item
from medvqa.recipes import BuildConfig, build_benchmark


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory, data_dir: Path) -> Path:
    out = tmp_path_factory.mktemp("pq") / "lc"
    build_benchmark(BuildConfig("lc25000_lung", out, seed=0, data_root=data_dir))
    return out


def test_one_file_per_split_lossless(bench: Path, tmp_path: Path) -> None:
    res = export_parquet(bench, tmp_path / "hf")
    _, items = load(bench)
    files = sorted(p.name for p in (tmp_path / "hf" / "data").iterdir())
    assert files == [f"{s}-00000-of-00001.parquet" for s in sorted(res.rows)]
    back = []
    for split in res.rows:
        table = pq.read_table(tmp_path / "hf" / "data" / f"{split}-00000-of-00001.parquet")
        assert set(table.column("split").to_pylist()) == {split}
        for row in table.to_pylist():
            for img in row["images"]:
                assert hashlib.sha256(img["bytes"]).hexdigest() == Path(img["path"]).stem
            back.append(row_item(row))
    assert sorted(i.model_dump_json() for i in back) == sorted(i.model_dump_json() for i in items)


def test_feature_metadata_and_card(bench: Path, tmp_path: Path) -> None:
    export_parquet(bench, tmp_path / "hf")
    schema = pq.read_schema(tmp_path / "hf" / "data" / "train-00000-of-00001.parquet")
    features = json.loads(schema.metadata[b"huggingface"])["info"]["features"]
    assert features["images"] == [{"_type": "Image"}]
    card = (tmp_path / "hf" / "README.md").read_text()
    assert "- split: test_tiny\n    path: data/test_tiny-*" in card
    assert "informal free use" in card


def test_deterministic_bytes(bench: Path, tmp_path: Path) -> None:
    export_parquet(bench, tmp_path / "a")
    export_parquet(bench, tmp_path / "b")
    for p in (tmp_path / "a" / "data").iterdir():
        assert p.read_bytes() == (tmp_path / "b" / "data" / p.name).read_bytes()


def test_refuses_to_replace_other_folders(bench: Path, tmp_path: Path) -> None:
    (tmp_path / "keep").mkdir()
    (tmp_path / "keep" / "notes.txt").write_text("mine")
    with pytest.raises(Exception, match="not a Parquet export"):
        export_parquet(bench, tmp_path / "keep")
    assert (tmp_path / "keep" / "notes.txt").read_text() == "mine"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".keep")]


def test_export_command(bench: Path, tmp_path: Path) -> None:
    app = typer.Typer()
    app.command()(export_command)
    runner = CliRunner()
    res = runner.invoke(app, [str(bench), "--format", "vlmevalkit", "-o", str(tmp_path / "x.tsv")])
    assert res.exit_code == 0, res.output
    assert "rows" in res.output and (tmp_path / "x.tsv").is_file()
    res = runner.invoke(app, [str(bench), "--format", "parquet", "-o", str(tmp_path / "hf")])
    assert res.exit_code == 0 and (tmp_path / "hf" / "README.md").is_file()
    res = runner.invoke(app, [str(bench), "--format", "csv", "-o", str(tmp_path / "y")])
    assert res.exit_code != 0


def test_hugging_face_datasets_loads_the_folder(
    bench: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    datasets = pytest.importorskip("datasets")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    export_parquet(bench, tmp_path / "hf")
    loaded = datasets.load_dataset(str(tmp_path / "hf"), cache_dir=str(tmp_path / "cache"))
    _, items = load(bench)
    assert sum(len(split) for split in loaded.values()) == len(items)
    row = loaded["test"][0]
    item = next(i for i in items if i.id == row["id"])
    image = row["images"][0]  # decoded by datasets' Image feature
    assert image.size == Image.open(bench / item.images[0]).size
    assert row["question"] == item.question


@pytest.mark.parametrize("how", ["path", "data_dir"])
def test_datasets_loads_exactly_medvqas_splits(how: str, tmp_path: Path,
                                               bench_factory) -> None:
    import datasets

    from medvqa.schema import Item, read_jsonl, write_jsonl

    bench = bench_factory(tmp_path / "b", n=10)
    names = ["train", "val", "test", "test_tiny", "external"]
    items = [i.model_copy(update={"split": names[k % 5]})
             for k, i in enumerate(read_jsonl(bench / "items.jsonl", Item))]
    write_jsonl(bench / "items.jsonl", items)
    export_parquet(bench, tmp_path / "hf")
    kwargs = ({"path": str(tmp_path / "hf")} if how == "path"
              else {"path": "parquet", "data_dir": str(tmp_path / "hf")})
    ds = datasets.load_dataset(**kwargs, cache_dir=str(tmp_path / "cache"))
    assert sorted(ds) == sorted(names)
    for split in names:
        rows = list(ds[split].cast_column("images", datasets.Sequence(datasets.Image(
            decode=False))))
        assert sorted(r["id"] for r in rows) == sorted(i.id for i in items if i.split == split)
        back = {r["id"]: row_item(r) for r in rows}
        assert all(back[i.id] == i for i in items if i.split == split)
    first = ds["external"][0]["images"][0]
    assert first.size == Image.open(bench / items[4].images[0]).size  # decodes as an image
