"""What ``medvqa power`` is asked: :class:`PowerConfig` and its defaults (a light module).

The command line shows these defaults at start-up; no NumPy or pydantic is imported here.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass
from pathlib import Path

from medvqa.schema import CLEAN

#: ICC assumed when cases repeat and no run says what it is (``--icc`` overrides it).
ASSUMED_ICC = 0.3
#: The difference ``medvqa power`` sizes the benchmark for when ``--delta`` is not given.
DEFAULT_DELTA = 0.05


@dataclass(frozen=True)
class PowerConfig:
    """What ``medvqa power`` is asked.

    Attributes:
        bench_dir: the BENCH/ folder.
        runs: scored RUN/ folders of this benchmark (ICC, accuracy and discordance from them).
        delta: the difference in accuracy to size the benchmark for, in (0, 1).
        icc: the intra-case correlation to assume (None: from the runs, else
            :data:`ASSUMED_ICC`).
        condition: the condition whose outcomes the runs give (the baseline).
    """

    bench_dir: Path
    _: KW_ONLY
    runs: tuple[Path, ...] = ()
    delta: float = DEFAULT_DELTA
    icc: float | None = None
    condition: str = CLEAN
