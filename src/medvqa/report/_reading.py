"""The reader table: how much of each figure is the parser (metrics.json's ``reading``).

One row per model and condition: accuracy and invalid rate by the rules alone, the same with
the answer extractor (and how many predictions it rescued), and each compared parser style's
accuracy, invalid rate and the predictions it reads differently. The console and the report
print the same table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["ReaderColumns", "reader_columns", "reader_header", "reader_rows"]


@dataclass(frozen=True)
class ReaderColumns:
    """Which reader columns a table has: the extractor's, and which compared styles.

    Attributes:
        extraction: some run was scored with ``--extract``.
        styles: the compared styles, in first-seen order.
    """

    extraction: bool
    styles: list[str]


def reader_columns(readings: list[dict[str, Any] | None]) -> ReaderColumns | None:
    """The columns for these runs' ``reading`` blocks (None when no run has one)."""
    found = [r for r in readings if r]
    if not found:
        return None
    styles = list(dict.fromkeys(s for r in found for s in r.get("compared_styles", [])))
    return ReaderColumns(any("extractor" in r for r in found), styles)


def reader_header(columns: ReaderColumns) -> list[str]:
    """Column names after the model (when shown) and the condition."""
    header = ["condition", "n", "rules: accuracy", "rules: invalid"]
    if columns.extraction:
        header += ["with extraction: accuracy", "invalid", "rescued"]
    for style in columns.styles:
        header += [f"{style}: accuracy", f"{style}: invalid", f"{style}: read differently"]
    return header


def reader_rows(reading: dict[str, Any], columns: ReaderColumns) -> list[list[str]]:
    """One row per condition of one run's ``reading`` block.

    >>> block = {"style": "strict", "conditions": {"clean": {"n": 4, "rules": {
    ...     "accuracy": 0.5, "invalid_rate": 0.25}, "extraction": {"accuracy": 0.75,
    ...     "invalid_rate": 0.0, "rescued": 1, "rescue_rate": 0.25}}}, "extractor": {}}
    >>> reader_rows(block, ReaderColumns(True, []))
    [['clean', '4', '0.500', '0.250', '0.750', '0.000', '1 (0.250)']]
    """
    rows = []
    for cond, c in reading.get("conditions", {}).items():
        row = [cond, str(c["n"]), _rate(c["rules"]["accuracy"]),
               _rate(c["rules"]["invalid_rate"])]
        if columns.extraction:
            e = c.get("extraction")
            row += ([_rate(e["accuracy"]), _rate(e["invalid_rate"]),
                     f"{e['rescued']} ({_rate(e['rescue_rate'])})"] if e else ["–"] * 3)
        for style in columns.styles:
            s = c.get("styles", {}).get(style)
            row += ([_rate(s["accuracy"]), _rate(s["invalid_rate"]), str(s["disagree"])]
                    if s else ["–"] * 3)
        rows.append(row)
    return rows


def _rate(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"
