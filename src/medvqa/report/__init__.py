"""Reports: HTML and Markdown from scored runs."""

from medvqa.report._audit_html import AuditReportConfig, render_audit_html, write_audit_report
from medvqa.report._console import fitted_table, print_metrics, say
from medvqa.report._items_page import item_files
from medvqa.report._loaded import LoadedRun, load_run
from medvqa.report._render import render_html, render_markdown, write_report
from medvqa.report._report import BenchmarkSection, build_sections

__all__ = [
    "print_metrics",
    "AuditReportConfig",
    "BenchmarkSection",
    "LoadedRun",
    "build_sections",
    "load_run",
    "render_audit_html",
    "render_html",
    "render_markdown",
    "write_audit_report",
    "write_report",
    "fitted_table",
    "say",
    "item_files",
]
