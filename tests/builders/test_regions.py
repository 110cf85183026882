"""Regions (LMOD): boxes ≥ threshold kept, unique IDs, distinct colours drawn, answer = IDs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from benchcheck import check_bench
from PIL import Image

from medvqa.benchmark import load_template, render_prompt, validate_benchmark
from medvqa.builders._draw import PALETTE, Region, draw_regions, text_mask
from medvqa.builders._regions import region_ids
from medvqa.recipes import BuildConfig, build_benchmark
from medvqa.schema import Item


@pytest.fixture(scope="module")
def regions(tmp_path_factory: pytest.TempPathFactory, data_dir: Path) -> Path:
    out = tmp_path_factory.mktemp("regions") / "b"
    build_benchmark(BuildConfig("mini_mias_regions", out, seed=0, data_root=data_dir))
    return out


def _items(bench: Path) -> list[Item]:
    return check_bench(bench)[1]


def test_only_boxes_over_threshold_are_kept(regions: Path) -> None:
    for it in _items(regions):
        for reg in it.meta["regions"]:
            x0, y0, x1, y1 = reg["box"]
            assert (x1 - x0) * (y1 - y0) >= 0.01 * 1024 * 1024 - 1e-6
    # mdb132 has two CIRC boxes (radius 52 and 18); only the larger covers 1 % of the film.
    (mdb132,) = [i for i in _items(regions) if i.id.endswith("mdb132")]
    assert len(mdb132.meta["regions"]) == 1


def test_lmod_threshold_keeps_fewer(tmp_path: Path, data_dir: Path) -> None:
    recipe = (Path(__file__).parents[2] / "src/medvqa/recipes/mini_mias_regions.yaml").read_text()
    (tmp_path / "r.yaml").write_text(
        recipe.replace("region_min_area: 0.01", "region_min_area: 0.10")
    )
    build_benchmark(BuildConfig(str(tmp_path / "r.yaml"), tmp_path / "b", data_root=data_dir))
    items = _items(tmp_path / "b")
    assert [i.case_id for i in items] == ["mdb148"]  # radius 174: the only box over 10 %


def test_answer_is_the_set_of_region_ids(regions: Path) -> None:
    items = _items(regions)
    assert items
    for it in items:
        ids = [r["id"] for r in it.meta["regions"]]
        assert it.question_type == "region" and it.options == {}
        assert sorted(ids, key=int) == it.answer
        assert len(set(ids)) == len(ids)
        assert len({r["colour"] for r in it.meta["regions"]}) == len(ids)


def test_ids_are_not_always_one(regions: Path) -> None:
    firsts = {it.answer[0] for it in _items(regions)}
    assert len(firsts) > 3  # "Region ID: 1" is not a free answer


def test_boxes_are_drawn_in_their_colour(regions: Path) -> None:
    for it in _items(regions)[:5]:
        arr = np.asarray(Image.open(regions / it.images[0]))
        assert arr.ndim == 3 and arr.shape[2] == 3
        reg = it.meta["regions"][0]
        x0, y0, x1, y1 = (round(v) for v in reg["box"])
        colour = tuple(int(reg["colour"][k : k + 2], 16) for k in (1, 3, 5))
        edge = arr[(y0 + y1) // 2, x0]  # middle of the left edge
        assert tuple(edge) == colour


def test_lmod_prompt_renders(regions: Path) -> None:
    template = load_template("lmod")
    it = _items(regions)[0]
    prompt = render_prompt(it, template)
    assert "mediolateral oblique" in prompt and "spiculated mass" in prompt
    assert prompt.endswith("Region ID: xxx; Type: xxx.")


def test_regions_bench_validates(regions: Path) -> None:
    report = validate_benchmark(regions)
    assert report.ok, report.problems


def test_draw_regions_label_pixels() -> None:
    image = Image.new("L", (200, 100), 128)
    out = draw_regions(image, [Region("47", PALETTE[1], 50, 40, 150, 90)])
    arr = np.asarray(out)
    assert out.mode == "RGB" and tuple(arr[65, 50]) == (0x3C, 0xB4, 0x4B)
    ink = text_mask("47", 1)
    assert ink.shape == (7, 11) and ink.any()
    assert tuple(arr[10, 10]) == (128, 128, 128)  # untouched outside the boxes


def test_region_ids_distinct_and_seeded() -> None:
    ids = region_ids(40, 3, "x")
    assert len(set(ids)) == 40 and ids == region_ids(40, 3, "x")
    assert ids != region_ids(40, 4, "x")
    assert all(1 <= int(i) <= 120 for i in ids)
