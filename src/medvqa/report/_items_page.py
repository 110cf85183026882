"""Write the items behind a report: a self-contained page, a CSV and a JSONL beside it.

The page (``REPORT.items.html``) holds every item and response as JSON in one script element
and draws a page of items at a time in the browser (images load lazily, from the BENCH/ folder
relative to the page), so it works from ``file://`` with no server and stays usable at 10,000
items. Every text is set as text, never as markup: a response with ``<script>`` in it shows the
characters. The CSV (one row per response, a spreadsheet opens it) and the JSONL (the same rows,
responses whole) sit beside it. The report links each figure to the page with its filters in
the address's fragment (:func:`items_href`).
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode

from medvqa._resources import shipped_text
from medvqa.report._items import OUTCOMES, PAGE_TEXT_LIMIT, BenchItems
from medvqa.store import atomic_write_text

__all__ = ["ItemFiles", "item_files", "items_href", "render_items_page", "write_items"]

#: Characters of a response in a CSV cell (spreadsheets hold 32,767).
CSV_CELL_LIMIT = 32_000
#: Columns of the CSV and keys of the JSONL, in order.
COLUMNS = ("benchmark", "split", "category", "item_id", "case_id", "question", "options", "gold",
           "model", "condition", "response", "choice", "outcome", "why", "readers_disagree",
           "images", "provenance")


@dataclass(frozen=True)
class ItemFiles:
    """Where the items behind a report are written (beside it, named after it)."""

    html: Path
    csv: Path
    jsonl: Path


def item_files(report: Path) -> ItemFiles:
    """``report.items.html``, ``.csv`` and ``.jsonl`` beside ``report.html``.

    >>> item_files(Path("out/report.html")).csv.as_posix()
    'out/report.items.csv'
    """
    stem = Path(report).with_suffix("")
    return ItemFiles(*(stem.with_name(f"{stem.name}.items.{ext}") for ext in
                       ("html", "csv", "jsonl")))


def items_href(page: str, bench: str, **filters: str | None) -> str:
    """A link to the item view, filtered (bench, model, condition, outcome, category, split).

    >>> items_href("r.items.html", "idrid", model="random", outcome="wrong")
    'r.items.html#bench=idrid&model=random&outcome=wrong'
    """
    params = {"bench": bench, **{k: v for k, v in filters.items() if v}}
    return f"{page}#{urlencode(params)}"


def _page_data(benches: list[BenchItems], colours: dict[str, str]) -> str:
    """The page's JSON, safe inside a script element (every ``<`` escaped)."""
    from medvqa.reading import without_reasoning

    out = []
    for b in benches:
        models = {m: i for i, m in enumerate(b.models)}
        conds = {c: i for i, c in enumerate(b.conditions)}
        items = []
        for it in b.items:
            answers = []
            for a in it.answers:
                text = a.response[:PAGE_TEXT_LIMIT]
                final = without_reasoning(text) if "<" in text or "\u25c1" in text else text
                answers.append([models[a.model], conds[a.condition], text,
                                len(a.response) - len(text), final if final != text else None,
                                a.choice, a.outcome, a.why, int(a.disagree)])
            items.append({"id": it.id, "q": it.question, "o": it.options, "g": it.gold,
                          "t": it.question_type, "c": it.category, "s": it.split,
                          "k": it.case_id, "img": it.images, "p": it.provenance,
                          "a": answers})
        out.append({"name": b.name, "models": b.models, "conditions": b.conditions,
                    "problems": b.problems[:20], "items": items})
    text = json.dumps({"benchmarks": out, "colours": colours, "outcomes": list(OUTCOMES)},
                      ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def render_items_page(benches: list[BenchItems], colours: dict[str, str], report: str) -> str:
    """The self-contained item view (inline CSS, script and data; no external resource)."""
    template = shipped_text("report", "templates", "items.html.j2")
    return (template.replace("__REPORT__", json.dumps(report).replace("<", "\\u003c"))
            .replace("__DATA__", _page_data(benches, colours)))


#: One encoder for every line (``json.dumps`` with options builds one per call).
_JSON = json.JSONEncoder(ensure_ascii=False)


def _rows(benches: list[BenchItems]) -> list[dict[str, str]]:
    rows = []
    for b in benches:
        for it in b.items:
            options = _JSON.encode(it.options)
            images = " ".join(i for i in it.images if i)
            for a in it.answers:
                rows.append({
                    "benchmark": b.name, "split": it.split, "category": it.category,
                    "item_id": it.id, "case_id": it.case_id, "question": it.question,
                    "options": options, "gold": it.gold,
                    "model": a.model, "condition": a.condition, "response": a.response,
                    "choice": a.choice, "outcome": a.outcome, "why": a.why,
                    "readers_disagree": "yes" if a.disagree else "",
                    "images": images, "provenance": it.provenance})
    return rows


def _csv_text(rows: list[dict[str, str]]) -> str:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    for row in rows:
        cell = row["response"]
        if len(cell) > CSV_CELL_LIMIT:
            cell = cell[:CSV_CELL_LIMIT] + f" … [{len(cell) - CSV_CELL_LIMIT} more characters " \
                "in the .jsonl]"
        writer.writerow({**row, "response": cell})
    return buf.getvalue()


def write_items(benches: list[BenchItems], colours: dict[str, str], report: Path) -> ItemFiles:
    """Write the item view, the CSV and the JSONL beside ``report``; return their paths."""
    files = item_files(report)
    rows = _rows(benches)
    atomic_write_text(files.html, render_items_page(benches, colours, Path(report).name))
    # A byte-order mark, so a spreadsheet opens the file as UTF-8.
    atomic_write_text(files.csv, "\ufeff" + _csv_text(rows))
    atomic_write_text(files.jsonl, "".join(_JSON.encode(r) + "\n" for r in rows))
    return files
