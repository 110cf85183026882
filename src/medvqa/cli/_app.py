"""The ``medvqa`` command line: one Typer app whose commands live beside their subpackages.

Each subpackage has a ``_cli.py`` holding its command functions; this file only wires them up.
Those modules import nothing heavy at module level, so ``medvqa --help`` starts in well under a
second. Exit codes: 0 ok, 1 usage error, 2 bad input.
"""

from __future__ import annotations

import logging
import sys

import click
import typer
import typer.exceptions
from rich.console import Console
from rich.markup import escape

from medvqa import __version__
from medvqa.cli._audit import audit_command
from medvqa.cli._bench import bench_command
from medvqa.cli._build import build_command
from medvqa.cli._card import card_command
from medvqa.cli._data import data_app
from medvqa.cli._demo import demo_command
from medvqa.cli._export import export_command
from medvqa.cli._filter import filter_app
from medvqa.cli._help import reflow_help
from medvqa.cli._import import import_command
from medvqa.cli._import_predictions import agreement_command, import_predictions_command
from medvqa.cli._irt import irt_app
from medvqa.cli._parse import parse_command
from medvqa.cli._power import power_command
from medvqa.cli._report import report_command
from medvqa.cli._review import review_app
from medvqa.cli._review_audit import adjudicate_command, export_adjudication_command
from medvqa.cli._run import run_command, validate_command
from medvqa.cli._score import compare_command, score_command
from medvqa.cli._serve import serve_command
from medvqa.cli._train import train_app
from medvqa.errors import EXIT_CODES, Interrupted, MedvqaError

app = typer.Typer(
    name="medvqa",
    help="Build, run, score, stress and report medical VQA benchmarks.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
)
_err = Console(stderr=True)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"medvqa {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Show the version and exit."
    ),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Log debug messages."),
) -> None:
    """Build, run, score, stress and report medical VQA benchmarks."""
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )


_forward = {"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": []}
app.command("build", context_settings=_forward, add_help_option=False)(build_command)
app.command("validate")(validate_command)
app.command("audit")(audit_command)
app.command("export")(export_command)
app.command("card")(card_command)
app.command("import")(import_command)
app.command("import-predictions")(import_predictions_command)
app.command("agreement")(agreement_command)
app.command("run")(run_command)
app.command("score")(score_command)
app.command("compare")(compare_command)
app.command("power")(power_command)
app.command("report")(report_command)
app.command("parse")(parse_command)
app.command("demo")(demo_command)
app.command("bench")(bench_command)
app.command("serve", context_settings={"allow_extra_args": True,
                                       "ignore_unknown_options": True})(serve_command)
app.add_typer(filter_app, name="filter")
app.add_typer(data_app, name="data")
review_app.command("adjudicate")(adjudicate_command)
review_app.command("export-adjudication")(export_adjudication_command)
app.add_typer(review_app, name="review")
app.add_typer(train_app, name="train")
app.add_typer(irt_app, name="irt")
reflow_help(app)


def _usage_errors() -> tuple[type[Exception], ...]:
    """Usage-error classes: click's, and typer's own where typer ships a vendored click (≥ 0.20)."""
    classes: list[type[Exception]] = [click.exceptions.UsageError]
    try:
        from typer._click.exceptions import UsageError as TyperUsageError
    except ImportError:
        pass
    else:
        classes.append(TyperUsageError)
    return tuple(classes)


_USAGE_ERRORS = _usage_errors()
_ABORTS = (click.exceptions.Abort, typer.exceptions.Abort, KeyboardInterrupt)


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the app and map errors to exit codes (1 usage, 2 bad input)."""
    try:
        code = app(args=argv, prog_name="medvqa", standalone_mode=False)
    except _USAGE_ERRORS as exc:
        exc.show()  # type: ignore[attr-defined]
        sys.exit(1)
    except _ABORTS:
        code = 130
    except Interrupted as exc:
        _err.print(escape(str(exc)), highlight=False, soft_wrap=True)
        sys.exit(130)
    except MedvqaError as exc:
        _err.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False, soft_wrap=True)
        sys.exit(next((c for cls, c in EXIT_CODES.items() if isinstance(exc, cls)), 2))
    except Exception as exc:
        _disk_full(exc)
        _not_writable(exc)
        raise
    if code == 130:  # click and typer turn Ctrl-C into this code, silently
        _err.print("interrupted (Ctrl-C): every file medvqa writes is whole (a partial build is "
                   "removed); run the same command again to resume or redo it", soft_wrap=True)
    sys.exit(code if isinstance(code, int) else 0)


def _disk_full(exc: Exception) -> None:
    """A full disk that no command named a folder for: still one line and exit 2."""
    from medvqa.store import is_disk_full

    if not is_disk_full(exc):
        return
    where = getattr(exc, "filename", None)
    what = f" writing {where}" if where else ""
    _err.print(f"[red]error:[/red] no space left on the device{escape(what)}; medvqa writes "
               "every file whole (a temporary file, then a rename), so no file was left "
               "half-written; free some space and run the command again", highlight=False,
               soft_wrap=True)
    sys.exit(2)


def _not_writable(exc: Exception) -> None:
    """A folder that may not be written (read-only, no permission): one line naming it, exit 2."""
    from medvqa.store import NOT_WRITABLE_HINT, not_writable_line

    line = not_writable_line(exc)
    if line is None:
        return
    _err.print(f"[red]error:[/red] {escape(line)}; medvqa writes every file whole (a temporary "
               f"file, then a rename), so none was left half-written; {NOT_WRITABLE_HINT}",
               highlight=False, soft_wrap=True)
    sys.exit(2)


