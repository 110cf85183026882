"""``BuildConfig``: one ``medvqa build`` invocation.

A light module (no builder is imported), so the command line reads its defaults at start-up.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass
from pathlib import Path


@dataclass
class BuildConfig:
    """One ``medvqa build`` invocation.

    Attributes:
        recipe: a recipe YAML path or a shipped recipe name.
        out: the BENCH/ folder to write (absent, empty, or a benchmark replaced with ``force``).
        seed: seed of every random step.
        data_root: folder that recipe paths are relative to (default: the recipe's folder when
            its paths exist there, else ``./data``).
        strict: stop at the first bad input (exit 2) instead of skipping it.
        filter: post-build filter, e.g. ``guessable:random,frequent:2`` (overrides the recipe's);
            applied by :func:`medvqa.curate.build_curated`.
        allow_empty: write a benchmark even when the recipe yields no item (otherwise that is
            bad input, exit 2, with a line saying where the data was looked for).
        force: replace a benchmark already at ``out`` (its audit, card and runs then no longer
            match it); without it that is refused before any work, exit 2.
        named: folders the user named on the command line (an import's ``--images``), which
            a source path may name as absolute paths; every other path of the recipe must lie
            inside the data root (``medvqa.builders.refuse_outside_sources``).
        any_table_size: read label tables of any size (an import, whose tables are the
            dataset's files the user named); otherwise a table above
            ``medvqa.sources.MAX_LABEL_TABLE_BYTES`` is refused before anything is built.

    """

    recipe: str
    out: Path
    _: KW_ONLY
    seed: int = 0
    data_root: Path | None = None
    strict: bool = False
    filter: str = ""
    allow_empty: bool = False
    force: bool = False
    named: tuple[Path, ...] = ()
    any_table_size: bool = False
