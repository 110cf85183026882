"""The yield of LLM-built benchmarks for the report: generations, kept items, drops by reason.

An LLM builder writes ``generated``, ``dropped`` (``stage:reason`` → count) and
``dropped_total`` into benchmark.json's counts; the report shows them so the honest yield of a
weak generator (e.g. SmolLM2 in the demo) is visible beside the leaderboards.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from medvqa.errors import BadInputError
from medvqa.schema import BENCHMARK_FILE


def build_rows(bench_dirs: list[Path]) -> list[dict[str, Any]]:
    """One row per BENCH/: name, path, generated, kept, dropped, reasons ("stage:reason n, …").

    A benchmark not built by an LLM builder (no ``generated`` count) shows kept items only.
    """
    rows = []
    for d in bench_dirs:
        card = Path(d) / BENCHMARK_FILE
        if not card.is_file():
            raise BadInputError(f"{d}: no {BENCHMARK_FILE}")
        data = json.loads(card.read_text("utf-8"))
        counts = data.get("counts", {})
        dropped = counts.get("dropped", {}) or {}
        rows.append({
            "name": data.get("name", Path(d).name),
            "path": str(d),
            "generated": counts.get("generated", ""),
            "kept": counts.get("items", 0),
            "dropped": counts.get("dropped_total", sum(dropped.values()) if dropped else ""),
            "reasons": ", ".join(f"{k} {v}" for k, v in sorted(dropped.items())) or "none",
        })
    return rows
