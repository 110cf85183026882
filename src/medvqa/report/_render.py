"""Render report sections as self-contained HTML (Jinja2 template) and Markdown."""

from __future__ import annotations

from pathlib import Path

from medvqa import __version__
from medvqa._resources import shipped_text
from medvqa.report._report import COLUMNS, BenchmarkSection, build_sections, load_run, methods_text
from medvqa.store import atomic_write_text

_HEADERS = {
    "accuracy": "Accuracy [95 % CI]",
    "weighted_accuracy": "Weighted acc.",
    "macro_f1": "Macro-F1",
    "invalid_rate": "Invalid rate",
    "valid_accuracy": "Valid acc.",
}


def render_html(sections: list[BenchmarkSection], methods: str) -> str:
    """The report page; CSS and SVG inline, no external resource."""
    from jinja2 import Environment, select_autoescape

    env = Environment(autoescape=select_autoescape(["html"]), keep_trailing_newline=True)
    template = env.from_string(
        shipped_text("report", "templates", "report.html.j2")
    )
    return template.render(sections=sections, methods=methods, columns=COLUMNS,
                           headers=_HEADERS, version=__version__)


def _md_table(header: list[str], rows: list[list[object]]) -> list[str]:
    """A Markdown table: header line, separator, one line per row."""
    return ["| " + " | ".join(header) + " |", "|---" * len(header) + "|"] + [
        "| " + " | ".join(str(cell) for cell in row) + " |" for row in rows
    ]


def render_markdown(sections: list[BenchmarkSection], methods: str) -> str:
    """The same tables as Markdown (plots are in the HTML)."""
    lines = ["# medvqa report", ""]
    for s in sections:
        lines += [f"## {s.name}", ""] + _md_table(
            ["Model", "n", *(_HEADERS[c] for c in COLUMNS), "Random", "Frequent", "Errors"],
            [[r["model"] + (" (text only)" if r["text_only"] else ""), r["n"],
              *(r[c] for c in COLUMNS), r["random"], r["frequent"], r["errors"]]
             for r in s.leaderboard],
        )
        if s.categories:
            lines += ["", "### Accuracy per category", ""] + _md_table(
                ["Model", *s.categories], [[r["model"], *r["cells"]] for r in s.category_rows]
            )
        if s.controls:
            lines += ["", "### Controls (clean − condition)", ""] + _md_table(
                ["Model", "Condition", "n", "Clean", "Perturbed", "Δ", "95 % CI", "McNemar p",
                 "Verdict"],
                [[c[k] for k in ("model", "condition", "n", "clean", "perturbed", "delta", "ci",
                                 "p", "verdict")] for c in s.controls],
            )
        if s.failure_rows:
            lines += ["", "### Failure modes", ""] + _md_table(
                ["Model", "Condition", "n", "Failures", "Abstention rate", "Tags (rules)",
                 "LLM judge"],
                [[f[k] for k in ("model", "condition", "n", "failures", "abstention", "tags",
                                 "judge")] for f in s.failure_rows],
            )
        lines.append("")
    lines += ["## Methods", "", methods, ""]
    return "\n".join(lines)


def write_report(run_dirs: list[Path], out: Path) -> tuple[Path, Path]:
    """Write ``out`` (HTML) and ``out`` with suffix .md; return both paths."""
    runs = [load_run(Path(p)) for p in run_dirs]
    sections = build_sections(runs)
    methods = methods_text(runs)
    md_path = Path(out).with_suffix(".md")
    atomic_write_text(out, render_html(sections, methods))
    atomic_write_text(md_path, render_markdown(sections, methods))
    return Path(out), md_path
