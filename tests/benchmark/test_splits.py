"""The one default split: test where a benchmark has one, every split where it has none."""

from __future__ import annotations

from _lung_bench import make_bench

from medvqa.benchmark import chosen_split, has_split
from medvqa.schema import Item


def test_the_default_is_test_where_the_benchmark_has_it(tmp_path):
    bench = make_bench(tmp_path / "b")  # 3 in 4 items are test, the rest train
    assert has_split(bench, "test") and has_split(bench, "train") and not has_split(bench, "val")
    assert chosen_split(bench, None) == "test"
    assert chosen_split(bench, "train") == "train"
    assert chosen_split(bench, "all") is None


def test_a_benchmark_without_test_is_used_whole(tmp_path):
    items = [Item(id=f"i{k}", question="q?", options={"A": "a", "B": "b"}, answer="A",
                  question_type="single", split="val") for k in range(3)]
    bench = make_bench(tmp_path / "b", items=items)
    assert chosen_split(bench, None) is None
