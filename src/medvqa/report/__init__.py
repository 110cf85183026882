"""Reports: HTML and Markdown from scored runs."""

from medvqa.report._console import print_metrics
from medvqa.report._render import render_html, render_markdown, write_report
from medvqa.report._report import BenchmarkSection, LoadedRun, build_sections, load_run

__all__ = [
    "print_metrics",
    "BenchmarkSection",
    "LoadedRun",
    "build_sections",
    "load_run",
    "render_html",
    "render_markdown",
    "write_report",
]
