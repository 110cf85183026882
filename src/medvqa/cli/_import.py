"""``medvqa import FORMAT SOURCE -o BENCH/``: a published dataset's files → BENCH/.

Argument parsing and rendering only: the recipe comes from the format's row of
``medvqa.interop.IMPORT_FORMATS`` and is built by the same pipeline as ``medvqa build``
(``medvqa.recipes.import_dataset``).
"""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

from medvqa.cli._help import default_of, names_help, print_listing
from medvqa.interop import IMPORT_FORMATS
from medvqa.recipes import ImportConfig

_out = Console()
_err = Console(stderr=True)


def _mapping(text: str) -> dict[str, str]:
    from medvqa.errors import UsageError

    pairs: dict[str, str] = {}
    for part in (p for p in text.split(";") if p.strip()) if ";" in text else (
            p for p in text.split(",") if p.strip()):
        key, sep, value = part.partition("=")
        if not sep:
            raise UsageError(f"--map {part!r}: write FIELD=COLUMN")
        pairs[key.strip()] = value.strip()
    return pairs


def import_command(
    fmt: str = typer.Argument("", help=names_help(IMPORT_FORMATS)),
    source: Path = typer.Argument(None, help="The dataset's file or folder as published."),
    out: Path | None = typer.Option(None, "-o", "--out", help="BENCH/ folder to write."),
    images: Path | None = typer.Option(None, "--images", help="Image folder, when not where the "
                                       "dataset puts it."),
    lang: str = typer.Option("en", "--lang", help="slake: en | zh | all."),
    split: str = typer.Option("", "--split", help="vlmevalkit: split of rows without one "
                              "(default test)."),
    mapping: str = typer.Option("", "--map", help="table: FIELD=COLUMN pairs, e.g. "
                                "question=Question,answer=Answer,image=image; several option "
                                "columns with ';' between pairs: options=A,B,C;answer=gt."),
    name: str = typer.Option(
        default_of(ImportConfig, "name"), "--name", help="Benchmark and dataset name."),
    license: str = typer.Option(
        default_of(ImportConfig, "license"), "--license", help="Licence (default: the dataset's)."),
    url: str = typer.Option(
        default_of(ImportConfig, "url"), "--url", help="Where the dataset is published."),
    seed: int = typer.Option(default_of(ImportConfig, "seed"), "--seed",
                             help="Seed (yes/no option order)."),
    strict: bool = typer.Option(
        default_of(ImportConfig, "strict"), "--strict", help="Fail (exit 2) on the first bad row."),
    force: bool = typer.Option(default_of(ImportConfig, "force"), "--force",
                               help="Replace a benchmark already at -o (otherwise refused)."),
    print_recipe: bool = typer.Option(False, "--print-recipe",
                                      help="Print the equivalent recipe and exit."),
    list_formats: bool = typer.Option(False, "--list", help="List the formats."),
) -> None:
    """Import a published benchmark as a BENCH/, keeping its questions and splits.

    Formats: VQA-RAD, SLAKE, PathVQA, PMC-VQA, OmniMedVQA, a VLMEvalKit TSV or any table.

    Examples:
      medvqa import slake Slake1.0/ -o bench/slake
      medvqa import vlmevalkit GMAI-MMBench_VAL.tsv --split val -o bench/gmai
      medvqa import table data.parquet --map question=q,answer=a,image=img -o bench/mine
    """
    import yaml

    from medvqa.errors import UsageError
    from medvqa.interop import import_recipe
    from medvqa.recipes import import_dataset

    if list_formats:
        print_listing(IMPORT_FORMATS, width=12)
        return
    if not fmt or source is None:
        raise UsageError("give FORMAT and SOURCE (formats: `medvqa import --list`)")
    options: dict[str, str] = {}
    if fmt == "slake":
        options["lang"] = lang
    if split:
        options["split"] = split
    if mapping:
        options.update(_mapping(mapping))
    if print_recipe:
        recipe, root = import_recipe(fmt, source, images=images, name=name, license=license,
                                     url=url, options=options)
        typer.echo(f"# paths relative to --data-root {root}")
        typer.echo(yaml.safe_dump(recipe.model_dump(mode="json", exclude_defaults=True),
                                  sort_keys=False), nl=False)
        return
    if out is None:
        raise UsageError("give the output folder with -o BENCH/")
    recipe, result = import_dataset(ImportConfig(
        fmt, source, out, images=images, options=options, name=name, license=license, url=url,
        seed=seed, strict=strict, force=force))
    for problem in result.problems:
        _err.print(f"[yellow]skipped[/yellow] {problem}", highlight=False, soft_wrap=True)
    counts = result.counts
    splits = ", ".join(f"{k} {v}" for k, v in dict(counts.get("by_split", {})).items())  # type: ignore[call-overload]
    _out.print(f"wrote {out}: {counts.get('items')} items ({splits}), {counts.get('images')} "
               f"images, {len(result.problems)} skipped; licence: {recipe.license or 'not given'}",
               highlight=False, soft_wrap=True)
