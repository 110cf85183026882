"""``build_benchmark``: recipe → items → splits → BENCH/ (items.jsonl, images/, benchmark.json).

The benchmark is assembled in a temporary folder beside the target and renamed into place, so a
failed or killed build never leaves a half-written BENCH/.
"""

from __future__ import annotations

import hashlib
import logging
import shutil
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from medvqa import __version__
from medvqa.build._context import BuildContext, Draft
from medvqa.build._recipe import Recipe, load_recipe
from medvqa.build._splits import assign_splits
from medvqa.build._types import RECIPE_TYPES
from medvqa.errors import BadInputError
from medvqa.schema import (
    BENCHMARK_FILE,
    ITEMS_FILE,
    Benchmark,
    CreatedWith,
    Item,
    SourceInfo,
    dump_line,
    write_json,
)
from medvqa.sources import Problem, Problems
from medvqa.store import atomic_write_bytes

log = logging.getLogger(__name__)


@dataclass
class BuildConfig:
    """One ``medvqa build`` invocation.

    Attributes:
        recipe: a recipe YAML path or a shipped recipe name.
        out: the BENCH/ folder to write (replaced when it exists).
        seed: seed of every random step.
        data_root: folder that recipe paths are relative to (default: the recipe's folder when
            its paths exist there, else ``./data``).
        strict: stop at the first bad input (exit 2) instead of skipping it.
        filter: post-build filter, e.g. ``guessable:random,frequent:2`` (overrides the recipe's).

    """

    recipe: str
    out: Path
    seed: int = 0
    data_root: Path | None = None
    strict: bool = False
    filter: str = ""


@dataclass
class BuildResult:
    """What a build wrote."""

    out: Path
    counts: dict[str, object]
    items_sha256: str
    problems: list[Problem] = field(default_factory=list)


def data_root_for(recipe: Recipe, folder: Path | None, data_root: Path | None) -> Path:
    """The folder recipe paths are resolved against (see :class:`BuildConfig`)."""
    if data_root is not None:
        return Path(data_root)
    if folder is not None and all((folder / s.path).exists() for s in recipe.sources):
        return folder
    return Path.cwd() / "data"


def build_benchmark(config: BuildConfig) -> BuildResult:
    """Build a benchmark from a recipe (see :class:`BuildConfig`)."""
    recipe, folder = load_recipe(config.recipe)
    return build_from_recipe(recipe, config, folder)


def build_from_recipe(recipe: Recipe, config: BuildConfig, folder: Path | None = None) -> BuildResult:
    """Build from an already parsed recipe."""
    root = data_root_for(recipe, folder, config.data_root)
    builder = RECIPE_TYPES.get(recipe.type)
    out = Path(config.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.building-"))
    try:
        ctx = BuildContext(root=root, out=tmp, seed=config.seed, problems=Problems(config.strict))
        drafts = list(builder(recipe, ctx))
        assign_splits(drafts, recipe.splits, config.seed, recipe.test_tiny)
        result = write_bench(tmp, recipe, drafts, config.seed, ctx.problems, str(config.recipe))
        _replace(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    result.out = out
    flt = config.filter or recipe.filter
    if flt:
        from medvqa.build._guessable import apply_filter_spec

        apply_filter_spec(out, flt, seed=config.seed)
        result = _reread(out, result.problems)
    return result


def _replace(tmp: Path, out: Path) -> None:
    if out.exists():
        if out.is_dir() and not any(out.iterdir()):
            out.rmdir()
        elif (out / BENCHMARK_FILE).exists() or (out / ITEMS_FILE).exists():
            old = out.with_name(f".{out.name}.old")
            shutil.rmtree(old, ignore_errors=True)
            out.rename(old)
            shutil.rmtree(old, ignore_errors=True)
        else:
            raise BadInputError(f"{out}: exists and is not a benchmark folder; not replacing it")
    tmp.rename(out)


def _reread(out: Path, problems: list[Problem]) -> BuildResult:
    bench = Benchmark.model_validate_json((out / BENCHMARK_FILE).read_text("utf-8"))
    return BuildResult(out, bench.counts, bench.items_sha256, problems)


def bench_counts(items: list[Item], skipped: int, n_images: int) -> dict[str, object]:
    """The ``counts`` block of benchmark.json (sorted keys, so bytes are stable)."""

    def tally(values: list[str]) -> dict[str, int]:
        return dict(sorted(Counter(values).items()))

    return {
        "items": len(items),
        "images": n_images,
        "skipped": skipped,
        "by_split": tally([i.split for i in items]),
        "by_question_type": tally([i.question_type for i in items]),
        "by_category": tally([i.category for i in items]),
        "by_source": tally([i.source for i in items]),
    }


def write_bench(
    out: Path,
    recipe: Recipe,
    drafts: list[Draft],
    seed: int,
    problems: Problems,
    recipe_ref: str,
) -> BuildResult:
    """Write items.jsonl and benchmark.json for built drafts (images are already in ``out``)."""
    items = [d.item for d in drafts]
    data = "".join(dump_line(i) for i in items).encode("utf-8")
    atomic_write_bytes(out / ITEMS_FILE, data)
    digest = hashlib.sha256(data).hexdigest()
    n_images = len({p for i in items for p in i.images})
    sources: list[SourceInfo] = []
    for spec in recipe.sources:
        info = SourceInfo(dataset=spec.dataset, license=spec.license, url=spec.url)
        if info not in sources:
            sources.append(info)
    licences = sorted({s.license for s in sources if s.license})
    bench = Benchmark(
        name=recipe.name,
        version=recipe.version,
        description=recipe.description.strip(),
        license=recipe.license or ("; ".join(licences)),
        sources=sources,
        prompt_template=recipe.prompt_template,
        created_with=CreatedWith(tool_version=__version__, recipe=recipe_ref, seed=seed),
        counts=bench_counts(items, len(problems), n_images),
        items_sha256=digest,
    )
    write_json(out / BENCHMARK_FILE, bench)
    log.info("built %s: %d items, %d skipped", recipe.name, len(items), len(problems))
    return BuildResult(out, bench.counts, digest, list(problems))
