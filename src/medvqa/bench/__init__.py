"""``medvqa bench``: speed figures for this machine, one section per area."""

from medvqa.bench._figure import BenchFigure

__all__ = ["BenchFigure"]
