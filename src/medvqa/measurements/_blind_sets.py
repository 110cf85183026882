"""Blind response sets: the reader judged on responses written without sight of its rules.

Each set in ``resources/answers/blind/`` was written by a session that never saw the reader or
its tests, frozen (its SHA-256 is in ``sets.json``), and read once before any rule change it
prompted: its *first-look* figures are recorded beside it. ``medvqa bench --only extraction``
prints each set's first-look and current figures; a set whose role is "held out" has never had
its misses read.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from dataclasses import dataclass
from typing import Any

from medvqa.measurements._figure import BenchFigure

__all__ = ["BlindSet", "blind_figures", "blind_sets", "read_figures"]

_AREA = "extraction"
_DIR = ("resources", "answers", "blind")


@dataclass(frozen=True)
class BlindSet:
    """One frozen set: its manifest entry and its records."""

    name: str
    role: str
    sha256: str
    first_look: dict[str, Any]
    rows: list[dict[str, Any]]


def blind_sets() -> list[BlindSet]:
    """Every shipped blind set, checked against the digest it was frozen with.

    Raises:
        ValueError: a set whose records no longer hash to its recorded SHA-256.
    """
    from medvqa._resources import shipped_path

    folder = shipped_path(*_DIR)
    manifest = json.loads((folder / "sets.json").read_text(encoding="utf-8"))
    out = []
    for entry in manifest["sets"]:
        raw = gzip.decompress((folder / entry["file"]).read_bytes())
        if hashlib.sha256(raw).hexdigest() != entry["sha256"]:
            raise ValueError(f"{entry['file']}: its records changed since it was frozen")
        rows = [json.loads(line) for line in raw.decode("utf-8").splitlines() if line.strip()]
        out.append(BlindSet(entry["name"], entry["role"], entry["sha256"], entry["first_look"],
                            rows))
    return out


def read_figures(rows: list[dict[str, Any]]) -> dict[str, int]:
    """Clear answers read, wrong readings, false credits, out of clear and must-abstain rows."""
    from medvqa.reading import clear_caches, make_parser

    clear_caches()
    parser = make_parser("strict")
    got = {"clear": 0, "read": 0, "wrong": 0, "nulls": 0, "false_credit": 0}
    for r in rows:
        p = parser.parse(r["response"], r["options"], r["question_type"],
                         question=r.get("question") or "")
        choice = sorted(p.choice) if isinstance(p.choice, list) else p.choice
        if r["intended"] is None:
            got["nulls"] += 1
            got["false_credit"] += choice is not None
        else:
            got["clear"] += 1
            got["read"] += choice == r["intended"]
            got["wrong"] += choice is not None and choice != r["intended"]
    return got


def blind_figures() -> list[BenchFigure]:
    """Each blind set's recall, wrong readings and false credit now, beside its first look."""
    figures = []
    for s in blind_sets():
        now = read_figures(s.rows)
        was = s.first_look
        recall = now["read"] / max(1, now["clear"])
        label = f"blind set {s.name} ({len(s.rows)}; {s.role.split(':')[0]})"
        figures += [
            BenchFigure(_AREA, f"{label}: recall on {now['clear']} clear answers (first look "
                        f"{was['read'] / max(1, was['clear']):.3f} at {was['commit']})", recall,
                        "fraction", ">= 0.90", recall >= 0.90),
            BenchFigure(_AREA, f"{label}: clear answers read as another option (first look "
                        f"{was['wrong']})", now["wrong"], "responses"),
            BenchFigure(_AREA, f"{label}: false credit on {now['nulls']} must-abstain "
                        f"(first look {was['false_credit']})", now["false_credit"],
                        "responses", "= 0", now["false_credit"] == 0),
        ]
    return figures
