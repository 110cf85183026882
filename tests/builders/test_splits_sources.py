"""Splits on real builds: whole sources held out as external, a fixed-size test_tiny, no case in
two splits, and the guessability filter hook with the random and frequent baselines."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from benchcheck import cases_by_split, check_bench

from medvqa.curate import build_curated
from medvqa.recipes import BuildConfig, build_benchmark

RECIPE = """
name: crc_external
type: classify
sources:
  - dataset: Kather-2016
    license: CC BY 4.0
    reader: image_folder
    path: kather_texture_2016_samples/Kather_texture_2016_image_tiles_5000
  - dataset: NCT-CRC-HE-100K
    license: CC BY 4.0
    reader: image_folder
    path: nct_crc_he_100k_samples/NCT-CRC-HE-100K
    split: external
topics:
  - name: tissue
    column: label
    questions: ["Which tissue does this H&E tile show?"]
    label_map: {01_TUMOR: tumour, 02_STROMA: stroma, 04_LYMPHO: lymphocytes, 05_DEBRIS: debris,
                07_ADIPOSE: adipose, 08_EMPTY: background, TUM: tumour, STR: stroma,
                LYM: lymphocytes, DEB: debris, ADI: adipose, BACK: background}
    ignore: [03_COMPLEX, 06_MUCOSA, MUC, MUS, NORM]
test_tiny: 4
"""


def test_external_source_held_out(tmp_path: Path, data_dir: Path) -> None:
    (tmp_path / "r.yaml").write_text(RECIPE)
    build_benchmark(BuildConfig(str(tmp_path / "r.yaml"), tmp_path / "b", data_root=data_dir))
    _, items = check_bench(tmp_path / "b")
    by_source = {
        s: Counter(i.split for i in items if i.source == s) for s in {i.source for i in items}
    }
    assert by_source["NCT-CRC-HE-100K"] == {"external": 6}
    assert "external" not in by_source["Kather-2016"]
    assert sum(by_source["Kather-2016"].values()) == 18
    assert by_source["Kather-2016"]["test_tiny"] == 4


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_test_tiny_fixed_size_and_no_leaks(seed: int, tmp_path: Path, data_dir: Path) -> None:
    build_benchmark(BuildConfig("mini_mias", tmp_path / "m", seed=seed, data_root=data_dir))
    _, items = check_bench(tmp_path / "m")
    splits = Counter(i.split for i in items)
    assert splits["test_tiny"] == 10  # the recipe's test_tiny
    assert not {c: s for c, s in cases_by_split(items).items() if len(s) > 1}
    # A film's image, finding and normal-crop questions stay together.
    films = {}
    for it in items:
        films.setdefault(it.case_id, set()).add(it.split)
    assert all(len(s) == 1 for s in films.values())


def test_guessable_filter_hook(tmp_path: Path, data_dir: Path) -> None:
    build_benchmark(BuildConfig("lc25000_lung", tmp_path / "all", seed=0, data_root=data_dir))
    n_all = len(check_bench(tmp_path / "all")[1])
    build_curated(
        BuildConfig(
            "lc25000_lung",
            tmp_path / "f",
            seed=0,
            data_root=data_dir,
            filter="guessable:random,frequent:1",
        )
    )
    meta, kept = check_bench(tmp_path / "f")
    dropped = [
        json.loads(line) for line in (tmp_path / "f" / "dropped.jsonl").read_text().splitlines()
    ]
    assert len(kept) + len(dropped) == n_all
    assert meta.counts["filtered_guessable"] == len(dropped) > 0
    for row in dropped:
        assert row["correct_models"] and set(row["answers"]) == {"random", "frequent"}
    # frequent answers from the train split: every frequent "correct" is the train majority.
    kept_ids = {i.id for i in kept}
    assert not kept_ids & {row["item_id"] for row in dropped}
    # With both models required, fewer items are dropped than with either.
    build_curated(
        BuildConfig(
            "lc25000_lung",
            tmp_path / "g",
            seed=0,
            data_root=data_dir,
            filter="guessable:random,frequent",
        )
    )
    both = (tmp_path / "g" / "dropped.jsonl").read_text().splitlines()
    assert len(both) < len(dropped)
