"""What ``medvqa review serve``, ``review stats`` and ``review adjudicate`` are asked to do.

The configs live apart from the app, the store and the statistics (numpy, the web framework) so
the command line reads their defaults at start-up, each stated once, here.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass, field
from pathlib import Path
from typing import Any

from medvqa.errors import BadInputError


@dataclass
class AppConfig:
    """Settings of one app instance (built by the CLI).

    Attributes:
        benches: BENCH/ folders served.
        db: SQLite path or ``postgresql://`` URL.
        per_item: independent reviews each item should get.
        session_ttl_s: seconds a login lasts.
        exam_split: when set, the home page offers only the exam on this split.
        runs_dir: where a finished exam writes its RUN/ (None: not written by the app).
        login_attempts: failed logins allowed per client per minute.
        secure_cookies: mark cookies Secure (behind HTTPS).
    """

    benches: list[Path]
    db: str
    _: KW_ONLY
    per_item: int = 2
    session_ttl_s: float = 8 * 3600
    exam_split: str | None = None
    runs_dir: Path | None = None
    login_attempts: int = 5
    secure_cookies: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class StatsConfig:
    """Settings of ``medvqa review stats``."""

    _: KW_ONLY
    per_item: int = 2
    resamples: int = 1000
    seed: int = 0
    judge_threshold: int = 4


@dataclass(frozen=True)
class AdjudicateConfig:
    """Settings of ``medvqa review adjudicate`` (built by the command line).

    Attributes:
        sample: responses to sample per run and condition.
        seed: seed of the draw and of the serving order.
        readers: human readers wanted per response (2 measures their agreement, κ).
        conditions: conditions to audit; empty: each run's baseline (``clean``).
    """

    _: KW_ONLY
    sample: int = 200
    seed: int = 0
    readers: int = 1
    conditions: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        """Refuse a sample below 1 and a reader count outside 1–5."""
        if self.sample < 1:
            raise BadInputError(f"--sample {self.sample}: draw at least 1 response")
        if not 1 <= self.readers <= 5:
            raise BadInputError(f"--readers {self.readers}: 1 to 5 readers a response")
