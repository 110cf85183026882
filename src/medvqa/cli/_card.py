"""``medvqa card``: a Hugging Face dataset card for a benchmark (``medvqa.interop.write_card``)."""

from __future__ import annotations

from pathlib import Path

import typer


def card_command(
    bench: Path = typer.Argument(..., help="The BENCH/ folder."),
    out: Path | None = typer.Option(None, "-o", "--out",
                                    help="README.md to write (default: BENCH/README.md)."),
    audit: Path | None = typer.Option(
        None, "--audit", help="audit.json to summarise (default: BENCH/audit.json when it is "
        "of these items, else the audit is run now)."),
) -> None:
    """Write a dataset card: sources and licences, counts, recipe and seed, audit, citations.

    Example: medvqa card bench/vqa_rad
    """
    from rich.console import Console
    from rich.markup import escape

    from medvqa.errors import BadInputError
    from medvqa.interop import CardConfig, write_card

    if out is not None and out.is_dir():
        raise BadInputError(f"-o {out}: is a folder; give the card's file to write (e.g. -o "
                            f"{out / 'README.md'})")
    path = write_card(CardConfig(bench, out=out, audit=audit))
    Console(highlight=False).print(escape(f"wrote {path}"), soft_wrap=True)
