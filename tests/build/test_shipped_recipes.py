"""Every shipped recipe builds from the repository's real data into a valid BENCH/."""

from __future__ import annotations

from pathlib import Path

import pytest
from benchcheck import cases_by_split, check_bench, tree_digest

from medvqa.build import BuildConfig, build_benchmark, shipped_recipes

RECIPES = sorted(shipped_recipes())
#: Imports keep their published splits, where one image may carry train and test questions.
PUBLISHED_SPLITS = {"vqa_rad", "pathmmu_socialpath"}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, data_dir: Path) -> dict[str, Path]:
    out = {}
    root = tmp_path_factory.mktemp("shipped")
    for name in RECIPES:
        out[name] = root / name
        build_benchmark(BuildConfig(name, out[name], seed=0, data_root=data_dir))
    return out


@pytest.mark.parametrize("name", RECIPES)
def test_shipped_recipe_builds_valid_bench(name: str, built: dict[str, Path]) -> None:
    meta, items = check_bench(built[name])
    assert items, name
    assert meta.created_with.recipe == name
    assert meta.counts["skipped"] == 0


@pytest.mark.parametrize("name", RECIPES)
def test_shipped_recipe_has_provenance(name: str, built: dict[str, Path]) -> None:
    _, items = check_bench(built[name])
    for it in items:
        assert it.meta.get("source_file") or it.meta.get("image_missing"), it.id
        assert it.meta.get("label_rows") or it.meta.get("source_file"), it.id


@pytest.mark.parametrize("name", sorted(set(RECIPES) - PUBLISHED_SPLITS))
def test_shipped_recipe_no_case_leaks(name: str, built: dict[str, Path]) -> None:
    _, items = check_bench(built[name])
    leaks = {c: s for c, s in cases_by_split(items).items() if len(s) > 1}
    assert not leaks


@pytest.mark.parametrize("name", ["idrid_dr_grade", "lc25000_lung", "vqa_rad"])
def test_same_seed_is_byte_identical(name: str, built: dict[str, Path], tmp_path: Path,
                                     data_dir: Path) -> None:
    build_benchmark(BuildConfig(name, tmp_path / "again", seed=0, data_root=data_dir))
    assert tree_digest(tmp_path / "again") == tree_digest(built[name])


def test_other_seed_changes_items(built: dict[str, Path], tmp_path: Path, data_dir: Path) -> None:
    build_benchmark(BuildConfig("lc25000_lung", tmp_path / "s1", seed=1, data_root=data_dir))
    a = (built["lc25000_lung"] / "items.jsonl").read_bytes()
    assert (tmp_path / "s1" / "items.jsonl").read_bytes() != a
