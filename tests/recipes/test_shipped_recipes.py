"""Every shipped recipe builds from the repository's real data into a valid BENCH/."""

from __future__ import annotations

from pathlib import Path

import pytest
from benchcheck import cases_by_split, check_bench, letter_balance_p, tree_digest

from medvqa.builders import shipped_recipes
from medvqa.recipes import BuildConfig, build_benchmark

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


@pytest.mark.parametrize(
    "name", ["idrid_dr_grade", "lc25000_lung", "vqa_rad", "mini_mias", "mini_mias_regions"]
)
def test_same_seed_is_byte_identical(name: str, built: dict[str, Path], tmp_path: Path,
                                     data_dir: Path) -> None:
    build_benchmark(BuildConfig(name, tmp_path / "again", seed=0, data_root=data_dir))
    assert tree_digest(tmp_path / "again") == tree_digest(built[name])


def test_other_seed_changes_items(built: dict[str, Path], tmp_path: Path, data_dir: Path) -> None:
    build_benchmark(BuildConfig("lc25000_lung", tmp_path / "s1", seed=1, data_root=data_dir))
    a = (built["lc25000_lung"] / "items.jsonl").read_bytes()
    assert (tmp_path / "s1" / "items.jsonl").read_bytes() != a


@pytest.mark.parametrize("name", RECIPES)
def test_shipped_recipe_passes_medvqa_validate(name: str, built: dict[str, Path]) -> None:
    from medvqa.benchmark import validate_benchmark

    report = validate_benchmark(built[name])
    assert report.ok, [str(p) for p in report.problems][:5]


#: PathMMU keeps the published option order (questions unmodified), so its letters are the paper's.
KEEPS_ORDER = {"pathmmu_socialpath"}


@pytest.mark.parametrize("name", sorted(set(RECIPES) - KEEPS_ORDER))
def test_shipped_recipe_answer_letters_balanced(name: str, built: dict[str, Path]) -> None:
    """Chi-square test of answer letters against uniform, per topic and option count."""
    _, items = check_bench(built[name])
    groups: dict[tuple[str, int], list] = {}
    for it in items:
        if it.question_type in {"single", "yesno", "grade"}:
            groups.setdefault((it.category, len(it.options)), []).append(it)
    for key, members in groups.items():
        if len(members) >= 2 * key[1]:
            assert letter_balance_p(members) > 0.05, key
