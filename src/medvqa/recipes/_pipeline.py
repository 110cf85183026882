"""``build_benchmark``: recipe → items → splits → BENCH/ (items.jsonl, images/, benchmark.json).

The benchmark is assembled in a temporary folder beside the target and renamed into place, so a
failed or killed build never leaves a half-written BENCH/.

Memory stays flat in the number of items: pass 1 streams the drafted items to a scratch JSONL
in that folder and keeps only their split keys (:class:`SplitKeys`) and count tallies; splits are
assigned from the keys; pass 2 streams the scratch file back out to items.jsonl with each item's
split set, in the same order.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from medvqa import __version__
from medvqa.builders import (
    BenchWriter,
    BuildContext,
    Draft,
    Recipe,
    SplitKeys,
    assign_split_keys,
    load_recipe,
    refuse_outside_sources,
)
from medvqa.errors import BadInputError
from medvqa.interop import IMPORTERS
from medvqa.recipes._config import BuildConfig
from medvqa.recipes._types import RECIPE_TYPES
from medvqa.schema import (
    BENCHMARK_FILE,
    Benchmark,
    CreatedWith,
    Item,
    SourceInfo,
    dump_line,
)
from medvqa.sources import MAX_LABEL_TABLE_BYTES, Problem, Problems, find_data_root

log = logging.getLogger(__name__)

#: Pass 1's scratch file inside the building folder (removed before the folder is renamed).
_SCRATCH = ".drafts.jsonl"


@dataclass
class BuildResult:
    """What a build wrote."""

    out: Path
    counts: dict[str, object]
    items_sha256: str
    problems: list[Problem] = field(default_factory=list)
    #: The post-build filter this build asks for (applied by ``medvqa.curate.build_curated``,
    #: which runs models; builders never do).
    filter: str = ""


def data_root_for(recipe: Recipe, folder: Path | None, data_root: Path | None) -> Path:
    """The folder recipe paths are resolved against.

    ``data_root`` when given; else the recipe's folder when its paths exist there; else
    ``./data`` when they exist there; else, for a shipped recipe, the installed sample data
    (:mod:`medvqa.sources._sample_data`); else ``./data``.
    """
    if data_root is not None:
        return Path(data_root)
    paths = [s.path for s in recipe.sources]
    if folder is not None and all((folder / p).exists() for p in paths):
        return folder
    cwd = Path.cwd() / "data"
    if folder is None and not all((cwd / p).exists() for p in paths):
        found = find_data_root(paths)
        if found is not None:
            return found
    return cwd


def build_benchmark(config: BuildConfig) -> BuildResult:
    """Build a benchmark from a recipe (see :class:`BuildConfig`)."""
    recipe, folder = load_recipe(config.recipe)
    return build_from_recipe(recipe, config, folder)


def build_from_recipe(
    recipe: Recipe, config: BuildConfig, folder: Path | None = None
) -> BuildResult:
    """Build from an already parsed recipe."""
    root = data_root_for(recipe, folder, config.data_root)
    # The recipe's own paths are data too: inside the root, checked before anything is built.
    refuse_outside_sources(recipe, root, config.recipe, own=config.named,
                           max_table_bytes=0 if config.any_table_size else MAX_LABEL_TABLE_BYTES)
    builder = RECIPE_TYPES.get(recipe.type)
    with BenchWriter(config.out, config.force) as writer:
        tmp = writer.folder
        ctx = BuildContext(root=root, out=tmp, seed=config.seed, problems=Problems(config.strict),
                           max_pixels=recipe.max_image_pixels,
                           downscale=recipe.oversized_images == "downscale")
        keys, images = _spill(builder(recipe, ctx), tmp / _SCRATCH)
        assign_split_keys(keys, recipe.splits, config.seed, recipe.test_tiny)
        tally, digest = writer.write_items(_with_splits(tmp / _SCRATCH, keys))
        (tmp / _SCRATCH).unlink()
        counts = tally.counts(len(ctx.problems), images)
        if not counts.get("items") and not config.allow_empty:
            raise BadInputError(_no_items(recipe, root, ctx.problems))
        result = _write_meta(writer, recipe, counts, digest, config.seed, ctx.problems,
                             str(config.recipe), published_split(recipe, any(keys.fixed)))
        out = writer.commit()
    result.out = out
    result.filter = config.filter or recipe.filter
    return result


def _no_items(recipe: Recipe, root: Path, problems: Problems) -> str:
    """The one line that says a recipe built nothing, where data was looked for, and the fix."""
    first = next((f"; first: {p}" for p in problems), "")
    wanted = recipe.sources[0].path if recipe.sources else ""
    return (
        f"recipe {recipe.name}: no items were built ({len(problems)} input(s) skipped{first}). "
        f"Data was looked for in {root}: point --data-root at the folder that holds "
        f"{wanted!r}, or install the shipped sample data once with `medvqa data install "
        "[--from DATA_DIR]`; "
        "pass --allow-empty to write an empty benchmark anyway"
    )


def reread_result(result: BuildResult) -> BuildResult:
    """``result`` with counts and hash read back from its benchmark.json (after a filter)."""
    bench = Benchmark.model_validate_json((result.out / BENCHMARK_FILE).read_text("utf-8"))
    return BuildResult(result.out, bench.counts, bench.items_sha256, result.problems)


def _spill(drafts: Iterator[Draft], scratch: Path) -> tuple[SplitKeys, int]:
    """Pass 1: write each draft's item to ``scratch`` as it comes.

    Returns the split keys and the number of distinct images the items use.
    """
    keys = SplitKeys()
    # The builders hand out one string object per stored image, so this set costs a slot each.
    images: set[str] = set()
    with scratch.open("w", encoding="utf-8", newline="\n") as fh:
        for draft in drafts:
            item = draft.item
            keys.add(item, draft.fixed)
            images.update(item.images)
            fh.write(dump_line(item))
    return keys, len(images)


def _with_splits(scratch: Path, keys: SplitKeys) -> Iterator[Item]:
    """Pass 2: the scratch items again, in order, each with its assigned split."""
    with scratch.open("r", encoding="utf-8", newline="\n") as src:
        for i, line in enumerate(src):
            item = Item.model_validate_json(line)
            item.split = keys.split_name(i)
            yield item


def published_split(recipe: Recipe, kept: bool) -> str | None:
    """benchmark.json's ``published_split``: what an importer says of the split it kept.

    None unless ``recipe`` is an importer whose row says where it reads a published split and
    at least one item's split was kept (``kept``), so benchmark.json of every other recipe is
    unchanged.
    """
    if not kept or recipe.type not in IMPORTERS:
        return None
    return getattr(IMPORTERS.row(recipe.type), "published_split", "") or None


def _write_meta(
    writer: BenchWriter,
    recipe: Recipe,
    counts: dict[str, object],
    digest: str,
    seed: int,
    problems: Problems,
    recipe_ref: str,
    split_origin: str | None = None,
) -> BuildResult:
    """Write benchmark.json for items already written to ``out``."""
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
        counts=counts,
        items_sha256=digest,
        published_split=split_origin,
    )
    writer.write_benchmark(bench)
    log.info("built %s: %d items, %d skipped", recipe.name, counts["items"], len(problems))
    return BuildResult(writer.out, bench.counts, digest, list(problems))
