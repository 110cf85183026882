"""Untrusted names in the Markdown report render as the literal text, never as links or HTML."""

from __future__ import annotations

import html
import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from medvqa._markdown import md_escape
from medvqa.models import ModelConfig
from medvqa.report._render import write_report
from medvqa.run import RunConfig, run_benchmark
from medvqa.schema import file_sha256
from medvqa.score import ScoreConfig, score_run

EVIL = [
    "[click me](javascript:alert(1))",
    "![pixel](http://tracker.example/p.png?u=1)",
    "<img src=x onerror=alert(1)>",
    "<script>alert(1)</script>",
    "https://phish.example/login www.phish.example a|b",
]
_MD = MarkdownIt("commonmark", {"html": True}).enable("table")


def _text(rendered: str) -> str:
    import re

    return html.unescape(re.sub(r"<[^>]+>", "", rendered)).strip()


_PIECES = list("ab <>[]()!*_`#|&;:/.@\\-+~{}=\"'\n") + ["www.", "http://", "&amp;", "**"]


@given(st.lists(st.sampled_from(_PIECES), max_size=30).map("".join))
def test_escaped_text_renders_as_itself(text: str) -> None:
    rendered = _MD.renderInline(md_escape(text))
    assert "<a " not in rendered and "<img" not in rendered and "<script" not in rendered
    assert _text(rendered) == " ".join(text.split())


def test_report_markdown_holds_no_live_link_image_or_html(bench: Path, tmp_path: Path) -> None:
    lines = (bench / "items.jsonl").read_text().splitlines()
    for i, line in enumerate(lines):
        item = json.loads(line)
        item["category"] = EVIL[i % len(EVIL)]
        lines[i] = json.dumps(item)
    (bench / "items.jsonl").write_text("\n".join(lines) + "\n")
    card = json.loads((bench / "benchmark.json").read_text())
    card["name"] = "lung <b>[x](http://evil.example)</b>"
    card["items_sha256"] = file_sha256(bench / "items.jsonl")
    (bench / "benchmark.json").write_text(json.dumps(card))
    run = tmp_path / "run"
    run_benchmark(RunConfig(bench_dir=bench, out_dir=run, model=ModelConfig(spec="random")))
    score_run(ScoreConfig(bench, run, resamples=99))
    _, md = write_report([run], tmp_path / "report.html")
    text = md.read_text()
    rendered = _MD.render(text)
    for tag in ("<a ", "<img", "<script", "<b>"):
        assert tag not in rendered
    for name in EVIL:  # still readable as text
        assert " ".join(name.split()) in html.unescape(rendered.replace("\\", ""))
