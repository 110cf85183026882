"""Render report sections as self-contained HTML (Jinja2 template) and Markdown."""

from __future__ import annotations

import os
from pathlib import Path

from medvqa import __version__
from medvqa._markdown import md_escape
from medvqa._resources import shipped_text
from medvqa.errors import BadInputError
from medvqa.report._figures import TAG_TEXT, tags_legend
from medvqa.report._header import METHODS_COLUMNS
from medvqa.report._headline import SAMPLE_RULE
from medvqa.report._loaded import load_runs
from medvqa.report._report import (
    COLLAPSE_ROWS,
    COLUMNS,
    HEADERS,
    TRANSPOSE_AFTER,
    BenchmarkSection,
    build_sections,
    methods_text,
)
from medvqa.store import atomic_write_text

_HEADERS = HEADERS  # from the metric registry

#: The report's opening: what medvqa is for, and what the headline table shows.
INTRO = (
    "medvqa asks first whether a model reads the images. For each benchmark the table shows "
    "its most accurate model that was run with an image control, against chance (a uniform "
    "guess) and the most frequent answer, and against its own accuracy with the image taken "
    "away; the verdict follows the Holm-adjusted test of that control (see Methods). "
    "Benchmarks where a model needs the image come first.")
_HEADLINE = ["Benchmark", "Model", "n", "Accuracy [95 % CI]", "Chance", "Frequent",
             "Against the baselines", "Image control (clean − without the image)", "Verdict",
             "Sample"]
_HEADLINE_KEYS = ("benchmark", "model", "n", "accuracy", "random", "frequent", "baselines",
                  "control", "verdict", "sample")


def render_html(sections: list[BenchmarkSection], methods: str,
                builds: list[dict[str, object]] | None = None, items_page: str = "") -> str:
    """The report page; CSS and SVG inline, no external resource.

    ``items_page``: the item view's file name beside the report ("" when none was written);
    each table row and figure then links to the items behind it.
    """
    from jinja2 import Environment, select_autoescape

    from medvqa.report._items_page import items_href

    env = Environment(autoescape=select_autoescape(["html"]), keep_trailing_newline=True)
    env.globals["items"] = (lambda bench, **f: items_href(items_page, bench, **f)) \
        if items_page else None
    template = env.from_string(
        shipped_text("report", "templates", "report.html.j2")
    )
    return template.render(sections=sections, methods=methods, columns=COLUMNS,
                           headers=_HEADERS, version=__version__, builds=builds or [],
                           collapse=COLLAPSE_ROWS, intro=INTRO, transpose=TRANSPOSE_AFTER,
                           methods_columns=METHODS_COLUMNS, sample_rule=SAMPLE_RULE,
                           tags_note=tags_legend(list(TAG_TEXT)))


def _md_table(header: list[str], rows: list[list[object]]) -> list[str]:
    """A Markdown table: header line, separator, one line per row (cells escaped)."""
    return ["| " + " | ".join(md_escape(h) for h in header) + " |", "|---" * len(header) + "|"] + [
        "| " + " | ".join(md_escape(cell) for cell in row) + " |" for row in rows
    ]


def render_markdown(sections: list[BenchmarkSection], methods: str,
                    builds: list[dict[str, object]] | None = None) -> str:
    """The same tables as Markdown (plots are in the HTML)."""
    lines = ["# medvqa report", ""]
    heads = [s.headline for s in sections if s.headline]
    if heads:
        lines += ["## Does a model read the images?", "", md_escape(INTRO), ""] + _md_table(
            _HEADLINE, [[h[k] for k in _HEADLINE_KEYS] for h in heads]) + [""]
    if builds:
        lines += ["## Built benchmarks: kept and dropped", ""] + _md_table(
            ["Benchmark", "Generated", "Kept", "Dropped", "Dropped by reason"],
            [[b["name"], b["generated"], b["kept"], b["dropped"], b["reasons"]] for b in builds],
        ) + [""]
    for s in sections:
        lines += [f"## {md_escape(s.name)}", ""]
        if s.sample and s.sample.too_small:
            lines += [md_escape(f"Sample {s.sample.text()}: {SAMPLE_RULE}"), ""]
        lines += [md_escape(s.summary), ""] + _md_table(
            [h for _, h in METHODS_COLUMNS], [[m[k] for k, _ in METHODS_COLUMNS]
                                              for m in s.methods]) + [""]
        split = " " + md_escape(f"(split: {s.split})") if s.split else ""
        lines += [f"### Leaderboard{split}", ""]
        if s.common:
            lines += [md_escape(s.common.note()), ""]
        common = [f"Accuracy on the {s.common.n} common items [95 % CI]"] \
            if s.ranked_on_common and s.common else []
        lines += _md_table(
            ["Model", *common, "n (all its items)", *(_HEADERS[c] for c in COLUMNS), "Random",
             "Frequent", "Errors"],
            [[r["model"] + (" (text only)" if r["text_only"] else ""),
              *([r["common"] or "–"] if common else []), r["n"],
              *(r[c] for c in COLUMNS), r["random"], r["frequent"], r["errors"]]
             for r in s.leaderboard],
        )
        lines += [md_escape(f"{r['model']}: accuracy, prediction-powered [95 % CI] {r['ppi']}")
                  for r in s.leaderboard if r.get("ppi")]
        lines += [md_escape(n) for n in [*s.notes, s.legend, s.power_line] if n]
        if s.categories:
            header, rows = s.category_table()
            lines += ["", f"### Accuracy per {md_escape(s.by)}{split}", ""] + _md_table(
                header, rows)
        if s.controls:
            lines += ["", f"### Controls (clean − condition){split}", ""] + _md_table(
                ["Model", "Condition", "n", "Clean", "Perturbed", "Δ", "95 % CI",
                 "p (Holm); test", "Verdict"],
                [[c[k] for k in ("model", "condition", "n", "clean", "perturbed", "delta", "ci",
                                 "p", "verdict")] for c in s.controls],
            ) + ([md_escape(s.power_line)] if s.power_line else [])
        if s.reader_rows:
            lines += ["", "### How much is the reader", ""] + _md_table(
                s.reader_header, [list(r) for r in s.reader_rows])
            lines += [f"Read differently by {md_escape(m)}: {md_escape(f)}"
                      for m, f in s.reader_files]
        if s.subgroup_rows:
            lines += ["", "### Subgroups (clean)", ""] + _md_table(
                ["Model", "Grouping", "Accuracy by group", "Test", "p (Holm)"],
                [[g[k] for k in ("model", "grouping", "groups", "test", "p")]
                 for g in s.subgroup_rows],
            )
        if s.failure_rows:
            lines += ["", f"### Failure modes{split}", ""] + _md_table(
                ["Model", "Condition", "n", "Failures", "Abstention rate", "Tags (rules)",
                 "LLM judge"],
                [[f[k] for k in ("model", "condition", "n", "failures", "abstention", "tags",
                                 "judge")] for f in s.failure_rows],
            ) + [md_escape(tags_legend(list(TAG_TEXT)))]
        lines.append("")
    lines += ["## Methods", "", md_escape(methods), ""]
    return "\n".join(lines)


def write_report(run_dirs: list[Path], out: Path, benches: list[Path] | None = None,
                 by: str = "category", items: list[Path] | None = None) -> tuple[Path, Path]:
    """Write ``out`` (HTML) and ``out`` with suffix .md; return both paths.

    ``benches``: BENCH/ folders whose build yield (generated, kept, dropped) is shown.
    ``by`` picks the breakdown of the per-group table (a key of metrics.json's ``by``).
    ``items``: BENCH/ folders whose items (question, options, images) the item view shows
    beside each response (:func:`~medvqa.report._items.gather_items`); the view, a CSV and a
    JSONL of every response are written beside ``out`` (:func:`~medvqa.report._items_page.
    item_files`) whether or not any is given.
    """
    from medvqa.report._builds import build_rows
    from medvqa.report._items import gather_items
    from medvqa.report._items_page import write_items

    builds = build_rows(list(benches or []))
    runs = load_runs([Path(p) for p in run_dirs])
    scored_by = {k for r in runs for c in r.metrics.conditions.values() for k in c.by}
    if by != "category" and by not in scored_by:
        raise BadInputError(f"no run was scored by {by} (run `medvqa score BENCH RUN --by {by}`)")
    gathered = gather_items(runs, [*(benches or []), *(items or [])], Path(out).parent)
    sections = build_sections(runs, by, gathered)
    for s in sections:
        # Linked from where the report is, so the link survives opening it elsewhere.
        s.reader_files = [(m, os.path.relpath(Path(f).resolve(), Path(out).resolve().parent))
                          for m, f in s.reader_files]
    methods = methods_text(runs)
    md_path = Path(out).with_suffix(".md")
    colours = {m: st.colour for m, st in (sections[0].styles if sections else {}).items()}
    files = write_items(gathered, colours, Path(out))
    atomic_write_text(out, render_html(sections, methods, builds, files.html.name))
    atomic_write_text(md_path, render_markdown(sections, methods, builds))
    return Path(out), md_path
