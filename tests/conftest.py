"""Suite-wide fixtures: paths to the real sample data shipped in the repository."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "data"


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """The repository's real sample data (see data/README.md)."""
    return DATA
