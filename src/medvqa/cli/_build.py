"""``medvqa build``: one command in front of three builders.

``medvqa build RECIPE ...`` builds from a YAML recipe (``medvqa.cli._filter.recipe_app``);
``medvqa build captions ...`` and ``medvqa build reports ...`` run the LLM-driven builders
(``medvqa.cli._llm_build``). Arguments after the first word go to the chosen builder unchanged,
so each keeps its own options and ``--help``.
"""

from __future__ import annotations

import importlib

import typer

_BUILDERS = {
    "captions": "medvqa.cli._llm_build:captions_app",
    "reports": "medvqa.cli._llm_build:reports_app",
}
_RECIPES = "medvqa.cli._filter:recipe_app"

BUILD_HELP = """Build a benchmark (BENCH/ folder).

  medvqa build RECIPE -o BENCH/ [--seed N] [--data-root DIR] [--filter guessable:M1,M2]
  medvqa build --list                     list the recipes shipped with medvqa
  medvqa build RECIPE --print-config      show the resolved recipe
  medvqa build captions CAPTIONS.csv -o BENCH/ --model smollm2   (MIRA: captions -> QA)
  medvqa build reports REPORTS.jsonl -o BENCH/ --schema lirads  (reports -> schema -> QA)

Example:  medvqa build idrid_dr_grade -o bench/idrid --seed 0
Run `medvqa build RECIPE --help`, `medvqa build captions --help` for each builder's options.
"""


def _load(path: str) -> typer.Typer:
    module, _, attr = path.partition(":")
    return getattr(importlib.import_module(module), attr)


def build_command(ctx: typer.Context) -> None:
    """Build a benchmark from a recipe, from captions, or from reports (see --help)."""
    args = list(ctx.args)
    if not args or args[0] in {"-h", "--help"}:
        typer.echo(BUILD_HELP)
        raise typer.Exit(0)
    if args[0] in _BUILDERS:
        target, rest = _BUILDERS[args[0]], args[1:]
        prog = f"medvqa build {args[0]}"
    else:
        target, rest, prog = _RECIPES, args, "medvqa build"
    code = _load(target)(args=rest, prog_name=prog, standalone_mode=False)
    raise typer.Exit(code if isinstance(code, int) else 0)
