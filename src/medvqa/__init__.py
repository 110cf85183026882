"""medvqa: build, run, score, stress, review and report medical VQA benchmarks."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("medvqa")
except PackageNotFoundError:  # running from a source tree without an install
    __version__ = "0.0.0"

__all__ = ["__version__"]
