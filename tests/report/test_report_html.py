"""``medvqa report`` on real scored runs: Markdown and HTML hold the figures of metrics.json,
the page renders offline in a real headless Chromium with no console error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
MEDVQA = str(Path(sys.executable).parent / "medvqa")
CHROMIUM = Path("/usr/bin/chromium")


def _cli(*args: str) -> None:
    proc = subprocess.run([MEDVQA, *args], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> dict[str, Path]:
    """lc25000_lung built from data/, random and frequent runs scored, one report of both."""
    root = tmp_path_factory.mktemp("report")
    _cli("build", "lc25000_lung", "-o", str(root / "bench"), "--data-root", str(REPO / "data"))
    runs = []
    for model in ("random", "frequent"):
        _cli("run", str(root / "bench"), "-m", model, "-o", str(root / model))
        _cli("score", str(root / "bench"), str(root / model), "--resamples", "999")
        runs.append(str(root / model))
    _cli("report", *runs, "-o", str(root / "report.html"))
    return {"html": root / "report.html", "md": root / "report.md",
            "random": root / "random", "frequent": root / "frequent"}


def _fmt(mv: dict, units: int = 1000) -> str:
    """value [low, high], the method's tag (W, B, …) and † on fewer than 30 units."""
    from medvqa.stats import METHOD_TAG

    lo, hi = mv["ci"]
    tag = METHOD_TAG.get(mv.get("method") or "", "")
    return (f"{mv['value']:.3f} [{lo:.3f}, {hi:.3f}]" + (f" {tag}" if tag else "")
            + ("†" if units < 30 else ""))


def test_markdown_leaderboard_holds_the_metrics(report):
    md = report["md"].read_text()
    for model in ("random", "frequent"):
        overall = json.loads((report[model] / "metrics.json").read_text())[
            "conditions"]["clean"]["overall"]
        board = md.split("### Leaderboard", 1)[1]
        row = next(line for line in board.splitlines() if line.startswith(f"| {model}"))
        for key in ("accuracy", "weighted_accuracy", "macro_f1", "invalid_rate"):
            assert _fmt(overall[key], overall["units"]) in row
        assert f"{overall['random_baseline']:.3f}" in row


def test_methods_paragraph_states_how_to_reproduce(report):
    md = report["md"].read_text()
    methods = md.split("## Methods", 1)[1]
    for fact in ("strict", "999 resamples", "seed 0", "resampling items"):
        assert fact in methods


def test_html_is_self_contained(report):
    html = report["html"].read_text()
    assert "<svg" in html and "<style>" in html
    for remote in ('src="http', "href=\"http", "@import", "<script src"):
        assert remote not in html


@pytest.mark.slow
def test_report_renders_in_chromium_with_the_metrics(report):
    if not CHROMIUM.exists():
        pytest.skip("needs /usr/bin/chromium (Debian package `chromium`; CI installs it)")
    sync_api = pytest.importorskip("playwright.sync_api")
    errors: list[str] = []
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                     args=["--no-sandbox", "--disable-background-networking"])
        try:
            page = browser.new_page()
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("request", lambda r: errors.append(f"request {r.url}")
                    if not r.url.startswith(("file:", "data:", "about:")) else None)
            page.goto(report["html"].as_uri())
            rows = page.eval_on_selector_all(
                "table.leaderboard tbody tr",
                "trs => trs.map(tr => Array.from(tr.cells).map(td => td.innerText.trim()))")
            svgs = page.locator("figure svg").count()
            box = page.locator("figure svg").first.bounding_box()
        finally:
            browser.close()
    assert errors == []
    assert svgs >= 1 and box is not None and box["width"] > 50 and box["height"] > 50
    by_model = {r[0].removesuffix("(text only)").strip(): r for r in rows}
    for model in ("random", "frequent"):
        overall = json.loads((report[model] / "metrics.json").read_text())[
            "conditions"]["clean"]["overall"]
        cells = by_model[model]
        assert cells[1].split(" of ")[0] == str(overall["n"])
        assert cells[2] == _fmt(overall["accuracy"], overall["units"])
        assert cells[5] == _fmt(overall["invalid_rate"], overall["units"])
