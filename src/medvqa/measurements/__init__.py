"""``medvqa bench``: speed figures for this machine, one section per area (:data:`SECTIONS`)."""

from medvqa.measurements._figure import BenchFigure
from medvqa.measurements._sections import SECTIONS

__all__ = ["SECTIONS", "BenchFigure"]
