"""``medvqa data``: where the shipped sample data is, and installing it for any folder."""

from __future__ import annotations

from pathlib import Path

import typer

data_app = typer.Typer(
    help="The sample data the shipped recipes build from: show where it is, or install it.",
    no_args_is_help=True,
    add_completion=False,
)


@data_app.command("path")
def path_command() -> None:
    """Print the folders searched for sample data, in order, and whether each holds it.

    Example: medvqa data path
    """
    from medvqa.sources import MARKER, checkout_data_dir, user_data_dir

    for label, folder in (("./data", Path.cwd() / "data"), ("user data", user_data_dir()),
                          ("checkout", checkout_data_dir())):
        if folder is None:
            typer.echo(f"{label:<10} (none: not running from a source checkout)")
            continue
        there = "installed" if (folder / MARKER).is_file() else "not installed"
        typer.echo(f"{label:<10} {folder}  [{there}]")


@data_app.command("install")
def install_command(
    source: Path | None = typer.Option(
        None, "--from", help="A sample-data folder (default: data/ of the source checkout)."
    ),
    dest: Path | None = typer.Option(
        None, "--to", help="Where to put it (default: the user data folder)."
    ),
) -> None:
    """Copy the sample data into the user data folder, so `medvqa build NAME` works anywhere.

    Example: medvqa data install --from ~/src/medvqa/data
    """
    from medvqa.errors import BadInputError
    from medvqa.sources import install_sample_data

    try:
        target = install_sample_data(source, dest)
    except FileNotFoundError as exc:
        raise BadInputError(str(exc)) from None
    typer.echo(f"sample data in {target}")
