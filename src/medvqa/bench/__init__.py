"""``medvqa bench``: speed figures for this machine, one section per area (:data:`SECTIONS`)."""

from medvqa.bench._figure import BenchFigure
from medvqa.bench._sections import SECTIONS

__all__ = ["SECTIONS", "BenchFigure"]
