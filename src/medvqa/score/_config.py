"""What ``medvqa score`` is asked to do: :class:`ScoreConfig`, every default of the command.

A light module (no NumPy, no pydantic): the command line shows these defaults in its help at
start-up and states none of them itself.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from medvqa.errors import UsageError
from medvqa.reading import PARSER_SEED, STYLES
from medvqa.score._by import check_by
from medvqa.score._checks import check_resamples

if TYPE_CHECKING:
    from medvqa.reading import ExtractConfig
    from medvqa.schema import AdjudicationFile
    from medvqa.score._judge_config import JudgeConfig

#: Age band edges in years for the subgroup tests (under 18, 18–39, 40–59, 60 and over).
DEFAULT_AGE_BANDS: tuple[float, ...] = (18, 40, 60)


@dataclass(frozen=True)
class ScoreConfig:
    """What ``medvqa score`` was asked for; every default of the command is stated here.

    Three random steps, three seeds (metrics.json records them under ``seeds``):

    - ``seed`` drives the bootstrap intervals and the permutation tests (``--seed``);
    - ``parser_seed`` drives a seeded style's fallback, the ``pathmmu`` style's random option
      (``--parser-seed``; 42 as the published scorer);
    - the conditions are re-derived with the seed the run used (run.json's ``seed``), never a
      new one, so ``swap`` pairs the questions that were really asked.

    Attributes:
        bench_dir: the BENCH/ folder.
        run_dir: the RUN/ folder.
        style: the parser style of choice questions (a row of ``STYLES``; checked here).
        by: breakdowns (``category``, ``source``, ``split``, ``question_type``, ``meta.KEY``).
        seed: bootstrap and test seed.
        resamples: bootstrap resamples.
        cluster: resample cases (items sharing a ``case_id``) rather than items.
        age_bands: age band edges in years, for the subgroup tests.
        judge: the failure-mode judge (None: rules only).
        allow_other_benchmark: score a run made for another version of the benchmark.
        parser_seed: seed of a seeded style's fallback.
        extract: the answer extractor asked about the responses the rules abstain on for want
            of a reading (None: rules only).
        compare_styles: other parser styles whose reading of every prediction is set beside
            ``style``'s (``--styles strict,mammovqa``: the first is ``style``).
        adjudication: human readings of queued responses and the run's audit sample
            (``--adjudication``: an exported file or the review database, read by the command
            line); None: the automatic reading alone.
        adjudication_source: where ``adjudication`` came from (recorded in metrics.json).
    """

    bench_dir: Path
    run_dir: Path
    _: KW_ONLY
    style: str = "strict"
    by: tuple[str, ...] = ("category", "source", "split")
    seed: int = 0
    resamples: int = 9999
    cluster: bool = True
    age_bands: tuple[float, ...] = DEFAULT_AGE_BANDS
    judge: JudgeConfig | None = None
    allow_other_benchmark: bool = False
    parser_seed: int = PARSER_SEED
    extract: ExtractConfig | None = None
    compare_styles: tuple[str, ...] = ()
    adjudication: AdjudicationFile | None = None
    adjudication_source: str = ""

    def __post_init__(self) -> None:
        """Refuse an unknown style or breakdown and a bad resample count before any work."""
        STYLES.check(self.style)
        for name in self.compare_styles:
            STYLES.check(name)
            if name == self.style:
                raise UsageError(f"--styles: {name!r} is the scoring style; compare it with "
                                 "another")
        for name in self.by:
            check_by(name)
        check_resamples(self.resamples)
