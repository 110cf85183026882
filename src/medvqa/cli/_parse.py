"""``medvqa parse``: the stand-alone parser contract, JSONL in → JSONL out, in input order."""

from __future__ import annotations

from pathlib import Path

import typer

from medvqa.cli._console import print_skipped
from medvqa.cli._help import names_help
from medvqa.reading import PARSER_SEED, STYLES


def parse_command(
    inp: Path = typer.Argument(
        ..., help="JSONL: id, response, options, question_type, answer (question optional)."),
    out: Path = typer.Option(
        ..., "--out", "-o", help="JSONL: id, choice, correct, invalid, reason."),
    style: str = typer.Option("strict", "--style", help=names_help(STYLES)),
    seed: int = typer.Option(PARSER_SEED, "--seed", help="Seed of a seeded style's fallback "
                             "(pathmmu's random option)."),
) -> None:
    """Parse model responses into choices with one parser style.

    Example: medvqa parse --style pathmmu responses.jsonl -o parsed.jsonl --seed 42
    """
    import json

    from rich.console import Console

    from medvqa.errors import BadInputError
    from medvqa.reading import parse_records
    from medvqa.store import atomic_write_text

    err = Console(stderr=True)
    STYLES.check(style)
    try:
        lines, problems = parse_records(inp, style, seed)
    except OSError as exc:
        raise BadInputError(f"{inp}: {exc.strerror}") from None
    print_skipped(problems, err)
    atomic_write_text(out, "".join(json.dumps(r) + "\n" for r in lines))
    err.print(f"parsed {len(lines)} responses with style {style!r} → {out}; "
              f"skipped {len(problems)}", highlight=False, soft_wrap=True)
    if problems and not lines:
        raise BadInputError(f"{inp}: no line could be parsed")
