"""What one pass of the guessability filter is asked to do.

Kept apart from the filter (which loads models and writes benchmarks) so the command line reads
its defaults at start-up, each stated once, here.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass
from pathlib import Path


@dataclass
class GuessableConfig:
    """One guessability filter pass.

    Attributes:
        bench: benchmark to filter.
        out: filtered benchmark to write (must differ from ``bench``).
        models: model specs (``random``, ``frequent``, ``openai:…``).
        min_correct: drop items at least this many models answer correctly.
        seed: seed of random baselines.
        cache_path: SQLite cache shared with runs (None: no cache).
        prompt_template: template the text-only prompt is rendered with.
        force: replace a benchmark already at ``out`` (else refused, exit 2).

    """

    bench: Path
    out: Path
    models: list[str]
    min_correct: int
    _: KW_ONLY
    seed: int = 0
    cache_path: Path | None = None
    prompt_template: str = "default"
    force: bool = False
