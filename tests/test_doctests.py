"""Every docstring example in the package runs and gives what it shows (metric cards included)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import medvqa

#: Modules whose import needs an optional extra or starts heavy machinery; none has examples.
SKIP = ("medvqa.testing", "medvqa.measurements", "medvqa.cli", "medvqa.__main__")


def _modules() -> list[str]:
    names = [m.name for m in pkgutil.walk_packages(medvqa.__path__, "medvqa.")]
    return sorted(n for n in names if not n.startswith(SKIP))


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed"


def test_metric_examples_exist() -> None:
    """The metric and parser modules carry examples (so the test above checks something)."""
    finder = doctest.DocTestFinder()
    count = sum(len(t.examples) for name in ("medvqa.score._metrics", "medvqa.reading._base")
                for t in finder.find(importlib.import_module(name)))
    assert count >= 3
