"""One measured figure printed by ``medvqa bench``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BenchFigure:
    """A measurement.

    Attributes:
        area: section name (runner, scoring, build, conditions, llm).
        name: what was measured, e.g. "text items/s, zero-latency server, concurrency 64".
        value: the number.
        unit: its unit ("items/s", "s", "ms", "fraction", "MB").
        target: the issue's target, as text (e.g. ">= 1000"), or "".
        met: whether the target is met; None when there is no target.
    """

    area: str
    name: str
    value: float
    unit: str
    target: str = ""
    met: bool | None = None
