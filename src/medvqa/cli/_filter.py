"""CLI of the recipe builder (``medvqa build RECIPE``) and of ``medvqa filter``.

Only argument parsing and rendering live here; the work is in ``medvqa.builders``.
"""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

from medvqa.cli._console import print_skipped
from medvqa.cli._help import default_of
from medvqa.curate import GuessableConfig
from medvqa.recipes import BuildConfig

recipe_app = typer.Typer(add_completion=False, rich_markup_mode="rich")
filter_app = typer.Typer(
    help="Filter a benchmark (e.g. drop text-guessable items).", no_args_is_help=True
)
_out = Console()
_err = Console(stderr=True)


@recipe_app.command()
def build_recipe(
    recipe: str = typer.Argument("", help="Recipe YAML file or shipped recipe name."),
    out: Path | None = typer.Option(None, "-o", "--out", help="BENCH/ folder to write."),
    seed: int = typer.Option(
        default_of(BuildConfig, "seed"), "--seed", help="Seed of every random step."),
    data_root: Path | None = typer.Option(
        None, "--data-root", help="Folder recipe paths are relative to (default: ./data, then "
        "the sample data installed by `medvqa data install` or of a source checkout)."
    ),
    allow_empty: bool = typer.Option(
        default_of(BuildConfig, "allow_empty"), "--allow-empty",
        help="Write the benchmark even if the recipe yields no item."),
    strict: bool = typer.Option(
        default_of(BuildConfig, "strict"), "--strict",
        help="Fail (exit 2) on the first bad input."),
    force: bool = typer.Option(
        default_of(BuildConfig, "force"), "--force",
        help="Replace a benchmark already at -o (otherwise refused: its audit, card and runs "
        "would no longer match).",
    ),
    filter_spec: str = typer.Option(
        default_of(BuildConfig, "filter"), "--filter",
        help="Post-build filter, e.g. guessable:random,frequent[:MIN]."),
    list_recipes: bool = typer.Option(False, "--list", help="List the shipped recipes."),
    print_config: bool = typer.Option(
        False, "--print-config", help="Print the resolved recipe and exit."
    ),
) -> None:
    """Build a benchmark (BENCH/) from a recipe.

    Example: medvqa build idrid_dr_grade -o bench/idrid --seed 0
    """
    import yaml

    from medvqa.builders import load_recipe, shipped_recipes
    from medvqa.curate import build_curated
    from medvqa.errors import UsageError

    if list_recipes:
        for name, desc in shipped_recipes().items():
            first = desc.splitlines()[0] if desc else ""
            typer.echo(f"{name:<24} {first}")
        from medvqa.recipes import RECIPE_TYPES

        typer.echo("\nrecipe types (`type:` in a recipe): " + ", ".join(RECIPE_TYPES.names()))
        typer.echo("import a published dataset's files: medvqa import FORMAT SOURCE -o BENCH/ "
                   "(--print-recipe shows the recipe; medvqa import --list)")
        return
    if not recipe:
        raise UsageError("give a recipe (a YAML file or a name from `medvqa build --list`)")
    if print_config:
        parsed, _ = load_recipe(recipe)
        typer.echo(yaml.safe_dump(parsed.model_dump(mode="json"), sort_keys=False), nl=False)
        return
    if out is None:
        raise UsageError("give the output folder with -o BENCH/")
    result = build_curated(
        BuildConfig(recipe, out, seed=seed, data_root=data_root, strict=strict, filter=filter_spec,
                    allow_empty=allow_empty, force=force)
    )
    print_skipped(result.problems, _err)
    counts = result.counts
    splits = ", ".join(f"{k} {v}" for k, v in dict(counts.get("by_split", {})).items())  # type: ignore[call-overload]
    _out.print(
        f"wrote {result.out}: {counts.get('items')} items ({splits}), "
        f"{counts.get('images')} images, {len(result.problems)} skipped",
        highlight=False,
        soft_wrap=True,
    )


@filter_app.command("guessable")
def guessable_command(
    bench: Path = typer.Argument(..., help="Benchmark folder to filter."),
    models: str = typer.Option(..., "--models", help="Comma-separated model specs (text only)."),
    min_correct: int = typer.Option(
        0,
        "--min-correct",
        help="Drop items that at least this many models get right (default: all).",
    ),
    out: Path = typer.Option(..., "-o", "--out", help="Filtered BENCH/ folder to write."),
    seed: int = typer.Option(
        default_of(GuessableConfig, "seed"), "--seed", help="Seed of random baselines."),
    cache: Path | None = typer.Option(None, "--cache", help="SQLite cache of model answers."),
    force: bool = typer.Option(
        default_of(GuessableConfig, "force"), "--force", help="Replace a benchmark already at -o."),
) -> None:
    """Drop items that text-only models answer correctly without the image (PathMMU filter).

    Example: medvqa filter guessable BENCH/ --models m1,m2,m3,m4 --min-correct 3 -o BENCH2/
    """
    from medvqa.curate import filter_guessable

    names = [m.strip() for m in models.split(",") if m.strip()]
    result = filter_guessable(
        GuessableConfig(
            bench=bench,
            out=out,
            models=names,
            min_correct=min_correct or len(names),
            seed=seed,
            cache_path=cache,
            force=force,
        )
    )
    _out.print(
        f"wrote {out}: kept {result.kept}, dropped {result.dropped} "
        f"(answered by ≥ {result.min_correct} of {len(names)} models; see dropped.jsonl)",
        highlight=False,
        soft_wrap=True,
    )
