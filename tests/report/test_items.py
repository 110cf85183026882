"""The items behind a report: gathered from real scored runs, written as a page, CSV and JSONL;
models compared on the items all of them answered; one colour per model in every panel."""

from __future__ import annotations

import csv
import json

from medvqa.report._colours import model_styles
from medvqa.report._common import common_set
from medvqa.report._items import Answer, BenchItems, ItemView, gather_items
from medvqa.report._items_page import item_files, render_items_page
from medvqa.report._loaded import load_runs
from medvqa.report._plots import degradation_grid


def test_every_response_is_a_row_of_the_csv_and_jsonl(scored):
    files = item_files(scored["out"])
    with files.csv.open(encoding="utf-8-sig", newline="") as f:
        rows = list(csv.DictReader(f))
    lines = [json.loads(x) for x in files.jsonl.read_text("utf-8").splitlines()]
    # The default split, test: random on its 9 items × 2 conditions; frequent on 6 × clean.
    assert len(rows) == len(lines) == 9 * 2 + 6
    assert {r["split"] for r in rows} == {"test"}
    first = rows[0]
    assert first["benchmark"] == "lung-test" and first["item_id"] == "lung-001"
    assert first["question"].startswith("[lung-001]") and first["gold"] == "B"
    assert first["outcome"] in {"correct", "wrong", "invalid"}
    assert first["why"].startswith("strict reader; rule ")
    assert first["images"].startswith("../bench/images/")
    assert (scored["out"].parent / first["images"]).is_file()


def test_the_report_links_its_rows_and_figures_to_the_item_view(scored):
    html = scored["out"].read_text("utf-8")
    assert 'href="report.items.html#bench=lung-test&amp;model=random"' in html
    assert "items behind this figure" in html
    page = item_files(scored["out"]).html.read_text("utf-8")
    assert "<script src" not in page and "http" not in page.split("<script", 1)[1]


def test_the_leaderboard_ranks_on_the_items_every_model_answered(scored):
    md = scored["out"].with_suffix(".md").read_text("utf-8")
    assert "Ranked on the 6 items every model answered (clean" in md
    assert "Accuracy on the 6 common items [95 % CI]" in md
    assert "### Leaderboard (split: test)" in md
    assert "| Model | Spec | Split | Parser style | Prompt (name, SHA-256) |" in md
    # A text-only baseline's image control is not applicable, not "no evidence".
    controls = md.split("### Controls", 1)[1].split("###", 1)[0]
    assert "not applicable (a text-only model never sees the image)" in controls


def _view(item_id: str, answers: list[Answer], split: str = "test") -> ItemView:
    return ItemView(item_id, "q?", {"A": "a", "B": "b"}, "A", "single", "c", split, item_id,
                    [], "", answers)


def test_the_common_set_is_the_intersection_of_the_answered_items():
    a = [_view(f"i{k}", [Answer("m1", "clean", "A", "A", "correct", ""),
                         *([Answer("m2", "clean", "B", "B", "wrong", "")] if k < 3 else []),
                         *([Answer("m2", "clean", "", "–", "error", "")] if k == 3 else [])])
         for k in range(6)]
    common = common_set(BenchItems("b", a, ["m1", "m2"], ["clean"]), ["m1", "m2"], "clean")
    assert (common.n, common.same, common.sizes) == (3, False, {"m1": 6, "m2": 3})
    assert common.models["m1"].value == 1.0 and common.models["m2"].value == 0.0
    assert common.note().startswith("Ranked on the 3 items every model answered (clean, split test")
    same = common_set(BenchItems("b", a, ["m1"], ["clean"]), ["m1"], "clean")
    assert same.same and same.note() == "Every model answered the same 6 items (clean, split test)."


def test_a_model_missing_from_a_panel_leaves_the_others_their_colours():
    styles = model_styles(["cnn", "smollm2"])
    svg = degradation_grid({"smollm2": {"hue": [0.4, 0.3, None, None, None, 0.2]},
                            "cnn": {"hue": [0.9, 0.8, None, None, None, 0.4],
                                    "jpeg": [0.9, 0.85, None, None, None, 0.6]}},
                           None, "t", styles).lower()
    assert styles["cnn"].colour.lower() in svg and styles["smollm2"].colour.lower() in svg
    assert "#1f77b4" not in svg and "#ff7f0e" not in svg  # matplotlib's own cycle: never


def test_markup_in_a_response_stays_text_in_the_page():
    evil = '</script><script>alert(1)</script><img src=x onerror="alert(2)">'
    item = _view("x<b>", [Answer("m", "clean", evil, "–", "invalid", "why <i>")])
    page = render_items_page([BenchItems("b<i>", [item], ["m"], ["clean"])], {"m": "#000"}, "r")
    data = page.split('id="data">', 1)[1].split("</script>", 1)[0]
    assert "<" not in data and json.loads(data)["benchmarks"][0]["items"][0]["a"][0][2] == evil


def test_a_run_without_its_benchmark_still_shows_its_responses(scored):
    runs = load_runs([scored["root"] / "frequent"])
    got = gather_items(runs, [], scored["out"].parent)
    assert len(got[0].items) == 6
    assert got[0].items[0].question.startswith("(the benchmark was not given")
    assert got[0].items[0].answers[0].why == "strict reader"
