"""The report and its item view in a real headless Chromium, from file://: an item opens from
the leaderboard, the filters work, a model has one colour in two panels, no text of a figure
overlaps another, and bad responses (markup, 1 MB, a missing image) never break the page."""

from __future__ import annotations

from pathlib import Path

import pytest

from medvqa.report._items import Answer, BenchItems, ItemView
from medvqa.report._items_page import write_items

pytestmark = pytest.mark.slow
CHROMIUM = Path("/usr/bin/chromium")

#: Pairs of text boxes of one figure that overlap by more than this many square pixels.
OVERLAP_PX2 = 4.0

_OVERLAPS = """(svg, limit) => {
  const boxes = Array.from(svg.querySelectorAll("text")).map(t => t.getBoundingClientRect())
    .filter(b => b.width > 0 && b.height > 0);
  const out = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i], b = boxes[j];
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (w > 0 && h > 0 && w * h > limit) out.push([i, j, w * h]);
  }
  return out;
}"""


@pytest.fixture
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.skip("Debian chromium is not installed (apt-get install chromium)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                              args=["--no-sandbox", "--disable-background-networking"])
        yield b
        b.close()


def _watch(page, errors: list[str]) -> None:
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: (errors.append(f"dialog {d.message}"), d.dismiss()))
    page.on("request", lambda r: errors.append(f"request {r.url}")
            if not r.url.startswith(("file:", "data:", "about:")) else None)


def test_an_item_opens_from_the_leaderboard_and_filters_work(browser, scored):
    errors: list[str] = []
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    _watch(page, errors)
    page.goto(scored["out"].as_uri())
    colour = page.eval_on_selector(
        "table.leaderboard tr:has(a.items:text-is('frequent')) .swatch",
        "e => getComputedStyle(e).backgroundColor")
    overlaps = [page.locator("figure svg").nth(i).evaluate(_OVERLAPS, OVERLAP_PX2)
                for i in range(page.locator("figure svg").count())]
    page.click("table.leaderboard a.items:text-is('frequent')")
    page.wait_for_selector("body[data-ready]")
    assert page.url.split("#")[0].endswith("report.items.html")
    assert page.input_value("#f-model") == "frequent"
    assert page.input_value("#f-condition") == "clean"
    # frequent answered the first 6 items, under clean only.
    assert page.locator("article.item").count() == 6
    models = page.eval_on_selector_all("tr.answer", "rs => rs.map(r => r.dataset.model)")
    assert set(models) == {"frequent"}
    first = page.locator("article.item img").first
    first.scroll_into_view_if_needed()
    page.wait_for_function("() => { const i = document.querySelector('article.item img');"
                           " return i && i.complete && i.naturalWidth > 0; }")
    # The same model, the same colour: leaderboard swatch and item-view swatch.
    assert page.eval_on_selector("tr.answer .swatch",
                                 "e => getComputedStyle(e).backgroundColor") == colour
    page.select_option("#f-outcome", "wrong")
    page.wait_for_selector("body[data-ready]")
    outcomes = page.eval_on_selector_all("tr.answer", "rs => rs.map(r => r.dataset.outcome)")
    shown = page.locator("article.item").count()
    assert "outcome=wrong" in page.url
    assert set(outcomes) <= {"wrong"} and len(outcomes) == shown
    page.select_option("#f-model", "")
    page.select_option("#f-condition", "*")
    page.wait_for_selector("body[data-ready]")
    assert "of " in page.inner_text("#pager .count")
    assert errors == []
    assert [o for o in overlaps if o] == []


def test_markup_long_responses_and_missing_images_never_break_the_page(browser, tmp_path):
    evil = '<script>alert("x")</script><img src=x onerror="alert(2)">'
    huge = "A " * 500_000
    item = ItemView("i<1>", "Which <b>one</b>?", {"A": "<i>a</i>", "B": "b"}, "A", "single",
                    "c", "test", "k", ["", "gone/missing.png"], "source_file: x.csv; label_row: 7",
                    [Answer("m", "clean", evil, "–", "invalid", "strict reader; no_answer"),
                     Answer("m", "blind", huge, "A", "correct", "strict reader")])
    files = write_items([BenchItems("b", [item], ["m"], ["clean", "blind"])], {"m": "#0072B2"},
                        tmp_path / "report.html")
    errors: list[str] = []
    page = browser.new_page()
    _watch(page, errors)
    page.goto(files.html.as_uri() + "#condition=*")
    page.wait_for_selector("body[data-ready]")
    cells = page.locator("td.response")
    assert cells.nth(0).inner_text() == evil  # shown as characters, never run
    assert page.locator("article.item h2").inner_text() == "i<1>"
    assert page.locator(".missing").count() == 2  # no file, and a file that fails to load
    assert "label_row: 7" in page.inner_text(".provenance")
    assert len(cells.nth(1).inner_text()) < 2_000
    page.click("button.showall")
    assert len(cells.nth(1).inner_text()) > 19_000
    assert "more characters" in cells.nth(1).inner_text()
    errors = [e for e in errors if "missing.png" not in e and "ERR_FILE_NOT_FOUND" not in e]
    assert errors == []


_CURVES = """svg => Array.from(svg.querySelectorAll("g[id^='curve:']")).map(g => {
  const path = g.querySelector("path");
  return [g.id, getComputedStyle(path).stroke];
})"""


def test_a_model_keeps_its_colour_in_every_panel_and_no_text_overlaps(browser, tmp_path):
    from medvqa.report._colours import model_styles
    from medvqa.report._plots import degradation_grid

    # smollm2 has no jpeg curve: cnn must keep its own colour there, not take smollm2's.
    styles = model_styles(["smollm2", "cnn"])
    svg = degradation_grid({"smollm2": {"hue": [0.4, 0.3, None, None, None, 0.2]},
                            "cnn": {"hue": [0.9, 0.8, None, None, None, 0.4],
                                    "jpeg": [0.9, 0.85, None, None, None, 0.6]}},
                           1 / 3, "lung: accuracy under corruption", styles)
    page_file = tmp_path / "grid.html"
    page_file.write_text(f"<!DOCTYPE html><html><body>{svg}</body></html>", "utf-8")
    page = browser.new_page()
    page.goto(page_file.as_uri())
    curves = dict(page.locator("svg").first.evaluate(_CURVES))
    overlaps = page.locator("svg").first.evaluate(_OVERLAPS, OVERLAP_PX2)
    assert set(curves) == {"curve:hue:smollm2", "curve:hue:cnn", "curve:jpeg:cnn"}
    assert curves["curve:hue:cnn"] == curves["curve:jpeg:cnn"] != curves["curve:hue:smollm2"]
    hex_cnn = styles["cnn"].colour.lstrip("#")
    rgb = tuple(int(hex_cnn[i:i + 2], 16) for i in (0, 2, 4))
    assert curves["curve:jpeg:cnn"] == f"rgb({rgb[0]}, {rgb[1]}, {rgb[2]})"
    assert overlaps == []
