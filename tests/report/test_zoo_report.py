"""The report of a model zoo (12 models × 8 conditions): a few figures for all models, long
tables folded, a small self-contained page that Chromium opens, readable Markdown."""

from __future__ import annotations

from pathlib import Path

import pytest

from medvqa.measurements._scale import (
    ZOO_CONDITIONS,
    write_random_run,
    write_scale_bench,
    write_zoo,
)
from medvqa.report._render import write_report
from medvqa.report._report import TRANSPOSE_AFTER, BenchmarkSection
from medvqa.score import ScoreConfig, score_run

CHROMIUM = Path("/usr/bin/chromium")


@pytest.fixture(scope="module")
def zoo(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("zoo")
    bench = write_scale_bench(root / "bench", 900, unique=False)
    run = write_random_run(bench, root / "scored", ("clean", "permute@1"))
    score_run(ScoreConfig(bench, run, resamples=199))
    runs = write_zoo(root / "zoo", run)
    html, md = write_report(runs, root / "report.html")
    return {"html": html, "md": md, "runs": root / "zoo"}


def test_a_zoo_report_is_a_few_figures_and_a_small_page(zoo):
    page = zoo["html"].read_text()
    assert zoo["html"].stat().st_size < 5 * 2**20
    # Accuracy bars, radar per category, one degradation figure, one failure-mode heatmap:
    # not one figure per model.
    assert 3 <= page.count("<figure") <= 6
    assert "Accuracy under corruption (each model)" in page
    assert page.count("<details>") >= 2  # controls and failure modes are long: folded
    assert "Controls: " in page and "rows (click to show)" in page


def test_the_markdown_has_every_model_and_condition_once_per_table(zoo):
    md = zoo["md"].read_text()
    leaderboard = md.split("### Leaderboard", 1)[1].split("### Accuracy per", 1)[0]
    assert sum(line.startswith("| zoo:model-") for line in leaderboard.splitlines()) == 12
    controls = md.split("### Controls", 1)[1].split("###", 1)[0]
    rows = [line for line in controls.splitlines() if line.startswith("| zoo:model-")]
    # 4 shortcut controls, one row for the jpeg curve (severities 3 and 5), the circular row.
    assert len(rows) == 12 * (len(ZOO_CONDITIONS) - 2)
    assert max(len(line) for line in md.splitlines() if line.startswith("|")) < 300


def test_many_groups_turn_the_group_table_on_its_side():
    cats = [f"c{i}" for i in range(TRANSPOSE_AFTER + 5)]
    section = BenchmarkSection("b", categories=cats, category_rows=[
        {"model": m, "cells": [f"{m}{c}" for c in cats]} for m in ("m1", "m2")])
    header, rows = section.category_table()
    assert header == ["Category", "m1", "m2"]
    assert rows[0] == ["c0", "m1c0", "m2c0"] and len(rows) == len(cats)
    few = BenchmarkSection("b", categories=cats[:3], category_rows=section.category_rows)
    assert few.category_table()[0] == ["Model", "c0", "c1", "c2"]


@pytest.mark.slow
def test_the_zoo_page_opens_in_chromium_and_folds_open(zoo):
    if not CHROMIUM.exists():
        pytest.skip("needs /usr/bin/chromium (Debian package `chromium`; CI installs it)")
    sync_api = pytest.importorskip("playwright.sync_api")
    errors: list[str] = []
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=str(CHROMIUM), headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--no-first-run"])
        try:
            page = browser.new_page()
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(zoo["html"].as_uri(), wait_until="load")
            hidden = page.locator("table.controls").is_visible()
            page.locator("details summary").first.click()
            shown = page.locator("details").first.locator("table").is_visible()
            leaders = page.locator("table.leaderboard tbody tr").count()
        finally:
            browser.close()
    assert errors == []
    assert not hidden and shown and leaders == 12
