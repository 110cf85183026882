"""The reader table: how much of each figure is the parser (metrics.json's ``reading``).

One row per model and condition: accuracy and invalid rate by the rules alone, the same with
the answer extractor (and how many predictions it rescued), and each compared parser style's
accuracy, invalid rate and the predictions it reads differently. The console and the report
print the same table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["ReaderColumns", "audit_cell", "audit_lines", "reader_columns", "reader_header",
           "reader_rows"]


@dataclass(frozen=True)
class ReaderColumns:
    """Which reader columns a table has: the extractor's, and which compared styles.

    Attributes:
        extraction: some run was scored with ``--extract``.
        styles: the compared styles, in first-seen order.
        audit: some run was scored with ``--adjudication`` (the humans' audit columns).
    """

    extraction: bool
    styles: list[str]
    audit: bool = False


def reader_columns(readings: list[dict[str, Any] | None]) -> ReaderColumns | None:
    """The columns for these runs' ``reading`` blocks (None when no run has one)."""
    found = [r for r in readings if r]
    if not found:
        return None
    styles = list(dict.fromkeys(s for r in found for s in r.get("compared_styles", [])))
    return ReaderColumns(any("extractor" in r for r in found), styles,
                         any(r.get("audit") for r in found))


def reader_header(columns: ReaderColumns) -> list[str]:
    """Column names after the model (when shown) and the condition."""
    header = ["condition", "n", "rules: accuracy", "rules: invalid"]
    if columns.extraction:
        header += ["with extraction: accuracy", "invalid", "rescued"]
    for style in columns.styles:
        header += [f"{style}: accuracy", f"{style}: invalid", f"{style}: read differently"]
    if columns.audit:
        header += ["audit: adjudicated (by)", "agreement", "false credit", "miss",
                   "accuracy, prediction-powered", "accuracy, humans only"]
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
        if columns.audit:
            a = (reading.get("audit") or {}).get("conditions", {}).get(cond)
            row += _audit_cells(a) if a else ["–"] * 6
        rows.append(row)
    return rows


def _interval(block: dict[str, Any] | None) -> str:
    """'0.612 [0.580, 0.641]', or '–'."""
    if not block or block.get("value") is None:
        return "–"
    lo, hi = block["ci"]
    return f"{block['value']:.3f} [{lo:.3f}, {hi:.3f}]"


def _audit_cells(a: dict[str, Any]) -> list[str]:
    """The audit columns of one condition."""
    who = ", ".join(a.get("readers", [])) or "nobody yet"
    done = f"{a['adjudicated']} of {a['sampled']} ({who})"
    if a.get("disputed"):
        done += f"; {a['disputed']} disputed"
    return [done, _interval(a.get("agreement")), _interval(a.get("false_credit_rate")),
            _interval(a.get("miss_rate")), _interval(a.get("prediction_powered")),
            _interval(a.get("human_only"))]


def audit_cell(reading: dict[str, Any] | None, condition: str) -> str:
    """The prediction-powered accuracy of one condition with who adjudicated, or ''.

    >>> audit_cell({"audit": {"conditions": {"clean": {"adjudicated": 3, "sampled": 4,
    ...     "readers": ["ana"], "prediction_powered": {"value": 0.5, "ci": [0.4, 0.6]}}}}},
    ...     "clean")
    '0.500 [0.400, 0.600] · 3 of 4 adjudicated by ana'
    """
    a = ((reading or {}).get("audit") or {}).get("conditions", {}).get(condition)
    if not a:
        return ""
    who = ", ".join(a.get("readers", [])) or "nobody yet"
    return (f"{_interval(a.get('prediction_powered'))} · {a['adjudicated']} of {a['sampled']} "
            f"adjudicated by {who}")


def audit_lines(reading: dict[str, Any] | None, plain: dict[str, Any]) -> list[str]:
    """One line per audited condition: plain and prediction-powered accuracy, who read, notes.

    ``plain`` maps a condition to its ``{value, ci}`` accuracy as scored.
    """
    audit = (reading or {}).get("audit") or {}
    out = []
    for cond, a in audit.get("conditions", {}).items():
        out.append(f"{cond}: accuracy {_interval(plain.get(cond))} as scored; prediction-powered "
                   f"{_interval(a.get('prediction_powered'))}; humans only "
                   f"{_interval(a.get('human_only'))}; reader alone "
                   f"{_rate(a.get('reader_accuracy'))}; {a['adjudicated']} of {a['sampled']} "
                   f"sampled responses adjudicated by {', '.join(a.get('readers', [])) or 'nobody'}"
                   + (f", {a['disputed']} disputed" if a.get("disputed") else "")
                   + "".join(f" ({n})" for n in a.get("notes", [])))
    return out


def _rate(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"
