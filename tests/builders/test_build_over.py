"""``build -o`` over a benchmark: refused without ``--force`` and the old one left as it was;
with ``--force`` replaced whole; and a new benchmark's folder and files follow the umask."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from PIL import Image

from medvqa.cli import main
from medvqa.errors import BadInputError
from medvqa.recipes import BuildConfig, build_benchmark

RECIPE = """
name: toy
type: classify
sources:
  - dataset: toy
    license: CC0
    reader: table
    path: imgs
    labels: [labels.csv]
    image_column: file
topics:
  - name: kind
    column: kind
    questions: ["What kind?"]
    label_map: {a: alpha, b: beta}
"""


@pytest.fixture()
def toy(tmp_path: Path) -> Path:
    imgs = tmp_path / "imgs"
    imgs.mkdir()
    for i in range(4):
        Image.new("RGB", (16, 16), (i * 50, 0, 0)).save(imgs / f"i{i}.png")
    (tmp_path / "labels.csv").write_text(
        "file,kind\n" + "".join(f"i{i}.png,{'ab'[i % 2]}\n" for i in range(4)))
    (tmp_path / "toy.yaml").write_text(RECIPE)
    return tmp_path


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_a_second_build_is_refused_and_the_benchmark_kept(toy: Path) -> None:
    out = toy / "bench"
    build_benchmark(BuildConfig(str(toy / "toy.yaml"), out, data_root=toy))
    (out / "audit.json").write_text("{}\n")  # what a rebuild would delete
    before = _files(out)
    with pytest.raises(BadInputError, match="a benchmark is already there; .*--force"):
        build_benchmark(BuildConfig(str(toy / "toy.yaml"), out, seed=1, data_root=toy))
    assert _files(out) == before
    assert not list(toy.glob(".bench.*"))


def test_force_replaces_it_whole(toy: Path) -> None:
    out = toy / "bench"
    build_benchmark(BuildConfig(str(toy / "toy.yaml"), out, data_root=toy))
    (out / "audit.json").write_text("{}\n")
    with pytest.raises(SystemExit) as done:
        main(["build", str(toy / "toy.yaml"), "-o", str(out), "--data-root", str(toy),
              "--force"])
    assert done.value.code == 0
    assert not (out / "audit.json").exists()
    assert (out / "items.jsonl").is_file()


def test_an_empty_folder_is_built_into_without_force(toy: Path) -> None:
    (toy / "bench").mkdir()
    build_benchmark(BuildConfig(str(toy / "toy.yaml"), toy / "bench", data_root=toy))
    assert (toy / "bench" / "items.jsonl").is_file()


@pytest.mark.parametrize("mask", [0o022, 0o077, 0o002])
def test_the_benchmark_follows_the_umask(toy: Path, mask: int) -> None:
    old = os.umask(mask)
    try:
        out = toy / f"bench-{mask:o}"
        build_benchmark(BuildConfig(str(toy / "toy.yaml"), out, data_root=toy))
    finally:
        os.umask(old)
    assert stat.S_IMODE(out.stat().st_mode) == 0o777 & ~mask
    for path in out.rglob("*"):
        want = (0o777 if path.is_dir() else 0o666) & ~mask
        assert stat.S_IMODE(path.stat().st_mode) == want, path
