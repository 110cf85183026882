"""A scored run as the report reads it (:class:`LoadedRun`), and reading runs for a report.

Its own module so the report's parts (the headline, the sections) share it without importing
each other.
"""

from __future__ import annotations

import os
from collections import defaultdict
from dataclasses import dataclass, replace
from pathlib import Path

from medvqa.errors import BadInputError
from medvqa.report._console import shown_name
from medvqa.schema import METRICS_FILE, RUN_FILE, MetricsFile, RunInfo, read_json
from medvqa.score import require_fresh

__all__ = ["LoadedRun", "load_run", "load_runs", "named_apart"]


@dataclass(frozen=True)
class LoadedRun:
    """A scored run: where it is, its run.json and its metrics.json.

    Attributes:
        name: the display name made unique among the report's runs of its benchmark
            (:func:`named_apart`); empty: :attr:`display`.
    """

    path: Path
    info: RunInfo | None
    metrics: MetricsFile
    name: str = ""

    @property
    def spec(self) -> str:
        """The full model spec (or the folder's name), as the methods list it."""
        return self.metrics.model or self.path.name

    @property
    def display(self) -> str:
        """run.json's display name, else one derived from the spec.

        >>> LoadedRun(Path("r"), None, MetricsFile.model_construct(model="hf:/w/qwen2-vl")).display
        'qwen2-vl'
        """
        return shown_name(self.info, self.metrics.model, self.path)

    @property
    def label(self) -> str:
        """What the leaderboard, plots and titles call the model (unique in its section)."""
        return self.name or self.display


def named_apart(runs: list[LoadedRun]) -> list[LoadedRun]:
    """The runs, those of one benchmark that share a display name told apart by a suffix.

    The suffix is the RUN/ folder's name where those differ, else a number in the order given.

    >>> m = MetricsFile.model_construct(model="random", benchmark="b")
    >>> [r.label for r in named_apart([LoadedRun(Path(p), None, m) for p in ("x/a", "y/b")])]
    ['random (a)', 'random (b)']
    """
    groups: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i, run in enumerate(runs):
        groups[(run.metrics.benchmark, run.display)].append(i)
    out = list(runs)
    for (_, shown), members in groups.items():
        if len(members) < 2:
            continue
        folders = [runs[i].path.name for i in members]
        distinct = len(set(folders)) == len(folders)
        for k, i in enumerate(members, start=1):
            out[i] = replace(runs[i], name=f"{shown} ({folders[k - 1] if distinct else k})")
    return out


def load_run(path: Path) -> LoadedRun:
    """Read a scored run; a run that was not scored is bad input."""
    metrics_path = Path(path) / METRICS_FILE
    if not metrics_path.is_file():
        raise BadInputError(f"{path}: no {METRICS_FILE} (run `medvqa score BENCH {path}` first)")
    info = read_json(Path(path) / RUN_FILE, RunInfo) if (Path(path) / RUN_FILE).is_file() else None
    metrics = read_json(metrics_path, MetricsFile)
    require_fresh(Path(path), metrics.provenance)
    return LoadedRun(Path(path), info, metrics)


def load_runs(paths: list[Path]) -> list[LoadedRun]:
    """:func:`load_run` of each folder, in order, display names told apart (:func:`named_apart`).

    Read in threads: the freshness check hashes each predictions.jsonl, which releases the GIL.
    """
    from concurrent.futures import ThreadPoolExecutor

    from medvqa.score import refuse_mixed_items, refuse_mixed_styles

    if len(paths) < 2:
        return named_apart([load_run(p) for p in paths])
    with ThreadPoolExecutor(max_workers=min(len(paths), os.cpu_count() or 1)) as pool:
        runs = list(pool.map(load_run, paths))
    refuse_mixed_styles({str(r.path): r.metrics.style for r in runs})
    refuse_mixed_items({str(r.path): (r.metrics.benchmark, (r.metrics.provenance or {}).get(
        "benchmark_items_sha256")) for r in runs})
    return named_apart(runs)
