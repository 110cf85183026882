"""The report's table of LLM-built benchmarks: generations, kept items, drops by reason."""

from __future__ import annotations

import json

import pytest

from medvqa.errors import BadInputError
from medvqa.report._builds import build_rows
from medvqa.report._render import render_html, render_markdown


def _bench(root, counts, name="captions"):
    root.mkdir(parents=True)
    (root / "benchmark.json").write_text(json.dumps({"name": name, "counts": counts}))
    return root


def test_kept_and_dropped_counts_are_shown(tmp_path):
    b = _bench(tmp_path / "cap", {"items": 3, "generated": 8, "dropped_total": 5,
                                  "dropped": {"generate:no_json": 2, "judge:low_score": 3}})
    rows = build_rows([b])
    assert rows == [{"name": "captions", "path": str(b), "generated": 8, "kept": 3, "dropped": 5,
                     "reasons": "generate:no_json 2, judge:low_score 3"}]
    md = render_markdown([], "m", rows)
    assert "| captions | 8 | 3 | 5 | generate:no_json 2, judge:low_score 3 |" in md
    html = render_html([], "m", [dict(rows[0], name="<b>x</b>")])
    assert "&lt;b&gt;x&lt;/b&gt;" in html and "<b>x</b>" not in html


def test_a_folder_without_benchmark_json_is_bad_input(tmp_path):
    with pytest.raises(BadInputError, match="benchmark.json"):
        build_rows([tmp_path])
