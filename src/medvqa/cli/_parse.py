"""``medvqa parse``: the stand-alone parser contract, JSONL in → JSONL out, in input order."""

from __future__ import annotations

from pathlib import Path

import typer

from medvqa.cli._console import print_skipped


def parse_command(
    inp: Path = typer.Argument(
        ..., help="JSONL: id, response, options, question_type, answer (question optional)."),
    out: Path = typer.Option(
        ..., "--out", "-o", help="JSONL: id, choice, correct, invalid, reason."),
    style: str = typer.Option(
        "strict", "--style", help="strict | mammovqa | pathmmu | region | open"),
    seed: int = typer.Option(42, "--seed", help="Seed of the pathmmu random fallback."),
) -> None:
    """Parse model responses into choices with one parser style.

    Example: medvqa parse --style pathmmu responses.jsonl -o parsed.jsonl --seed 42
    """
    import json

    from rich.console import Console

    from medvqa._registry import UnknownNameError
    from medvqa.errors import BadInputError, UsageError
    from medvqa.score.parsers._batch import parse_records
    from medvqa.store import atomic_write_text

    err = Console(stderr=True)
    try:
        lines, problems = parse_records(inp, style, seed)
    except UnknownNameError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise BadInputError(f"{inp}: {exc.strerror}") from None
    print_skipped(problems, err)
    atomic_write_text(out, "".join(json.dumps(r) + "\n" for r in lines))
    err.print(f"parsed {len(lines)} responses with style {style!r} → {out}; "
              f"skipped {len(problems)}", highlight=False, soft_wrap=True)
    if problems and not lines:
        raise BadInputError(f"{inp}: no line could be parsed")
