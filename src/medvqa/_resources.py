"""Files shipped inside the package: the one way to find them, installed or in a source tree.

``prompts/`` holds every published prompt (``answer/NAME.yaml`` templates for models under test,
``llm_builders.yaml``, ``failure_judge.yaml``); ``recipes/`` the shipped recipes; ``resources/``
keyword lists, report schemas and sample texts; ``report/templates/`` the HTML report.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def shipped_path(*parts: str) -> Path:
    """Path of a file or folder shipped in the package, e.g. ``("prompts", "x.yaml")``."""
    return Path(str(resources.files("medvqa").joinpath(*parts)))


def shipped_text(*parts: str) -> str:
    """UTF-8 text of a shipped file (see :func:`shipped_path`)."""
    return shipped_path(*parts).read_text(encoding="utf-8")
