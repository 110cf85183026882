"""Bad input: one line naming file and row, item skipped and counted; --strict exits 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from benchcheck import check_bench
from PIL import Image

from medvqa.cli import main
from medvqa.errors import BadInputError
from medvqa.recipes import BuildConfig, build_benchmark

RECIPE = """
name: bad
type: classify
sources:
  - dataset: toy
    license: CC0
    reader: table
    path: imgs
    labels: [labels.csv]
    image_column: file
    box_format: xywh
    box_columns: [x, y, w, h]
topics:
  - name: kind
    column: kind
    questions: ["What kind?"]
    label_map: {a: alpha, b: beta}
  - name: finding
    column: kind
    level: finding
    questions: ["Which finding?"]
    label_map: {a: alpha, b: beta}
"""


@pytest.fixture()
def toy(tmp_path: Path) -> Path:
    imgs = tmp_path / "imgs"
    imgs.mkdir()
    for i in range(6):
        Image.new("RGB", (32, 32), (i * 40, 0, 0)).save(imgs / f"ok{i}.png")
    (imgs / "broken.png").write_bytes(b"not an image at all")
    rows = ["file,kind,x,y,w,h"]
    rows += [f"ok{i}.png,{'ab'[i % 2]},2,2,8,8" for i in range(4)]
    rows += [
        "broken.png,a,,,,",  # line 6: unreadable image
        "missing.png,b,,,,",  # line 7: label row with no image
        "ok4.png,zebra,,,,",  # line 8: unknown label
        "ok5.png,a,20,20,30,30",  # line 9: box outside the image
    ]
    (tmp_path / "labels.csv").write_text("\n".join(rows) + "\n")
    (tmp_path / "bad.yaml").write_text(RECIPE)
    return tmp_path


def test_bad_rows_skipped_and_named(toy: Path) -> None:
    result = build_benchmark(BuildConfig(str(toy / "bad.yaml"), toy / "out", data_root=toy))
    lines = [str(p) for p in result.problems]
    assert any(line.startswith("labels.csv:6") and "unreadable image" in line for line in lines)
    assert any(line.startswith("labels.csv:7") and "no image" in line for line in lines)
    assert any(
        line.startswith("labels.csv:8") and "unknown label 'zebra'" in line for line in lines
    )
    assert any(line.startswith("labels.csv:9") and "outside" in line for line in lines)
    meta, items = check_bench(toy / "out")
    assert meta.counts["skipped"] == len(result.problems) >= 4
    kinds = [i for i in items if i.category == "kind"]
    assert len(kinds) == 5  # ok0..ok3 and ok5; broken, missing, zebra skipped
    assert len([i for i in items if i.category == "finding"]) == 4


def test_strict_raises(toy: Path) -> None:
    with pytest.raises(BadInputError, match="labels.csv:6"):
        build_benchmark(BuildConfig(str(toy / "bad.yaml"), toy / "out", data_root=toy, strict=True))
    assert not (toy / "out").exists()


def test_strict_cli_exit_2(toy: Path) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["build", str(toy / "bad.yaml"), "-o", str(toy / "o"),
              "--data-root", str(toy), "--strict"])
    assert exc.value.code == 2


def test_unknown_recipe_exit_1(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["build", "idrid_dr_grad", "-o", str(tmp_path / "o")])
    assert exc.value.code == 1


def test_bad_recipe_field_named(toy: Path) -> None:
    (toy / "typo.yaml").write_text(RECIPE.replace("image_column", "image_colum"))
    with pytest.raises(BadInputError, match="image_colum"):
        build_benchmark(BuildConfig(str(toy / "typo.yaml"), toy / "out", data_root=toy))


SIZES = """
name: sizes
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
max_image_pixels: 1000
"""


@pytest.mark.parametrize("oversized", ["skip", "downscale"])
def test_image_above_the_recipes_pixel_cap_is_skipped_or_downscaled(
    tmp_path: Path, oversized: str
) -> None:
    imgs = tmp_path / "imgs"
    imgs.mkdir()
    for i in range(4):
        Image.new("RGB", (16, 16), (i * 40, 0, 0)).save(imgs / f"s{i}.png")
    Image.new("RGB", (80, 40), (0, 90, 0)).save(imgs / "big.png")  # 3,200 pixels
    rows = ["file,kind", *[f"s{i}.png,{'ab'[i % 2]}" for i in range(4)], "big.png,a"]
    (tmp_path / "labels.csv").write_text("\n".join(rows) + "\n")
    (tmp_path / "r.yaml").write_text(SIZES + f"oversized_images: {oversized}\n")
    result = build_benchmark(BuildConfig(str(tmp_path / "r.yaml"), tmp_path / "out",
                                         data_root=tmp_path))
    meta, items = check_bench(tmp_path / "out")
    sizes = sorted(Image.open(tmp_path / "out" / i.images[0]).size for i in items)
    if oversized == "skip":
        (line,) = [str(p) for p in result.problems]
        assert line.startswith("labels.csv:6") and "80 × 40 pixels" in line
        assert "above the cap of 1,000" in line and "oversized_images: downscale" in line
        assert len(items) == 4 and meta.counts["skipped"] == 1
    else:
        assert not result.problems and len(items) == 5
        assert sizes[-1] == (44, 22) and 44 * 22 <= 1000  # aspect kept, within the cap
