"""Help texts and defaults of the command line, read from the one place each is stated.

An option that takes a registered name gets its help from the registry
(:meth:`~medvqa._registry.Registry.help_text`), an option's default is the default of the config
field it fills (:func:`default_of`), and ``--list`` prints the registry's rows
(:func:`print_listing`), so none of these is typed twice.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import typer

from medvqa._registry import Registry


def default_of(config: type, name: str) -> Any:
    """The default of field ``name`` of dataclass ``config`` (the one place it is stated).

    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class C:
    ...     seed: int = 7
    >>> default_of(C, "seed")
    7
    """
    field = {f.name: f for f in dataclasses.fields(config)}[name]
    if field.default is not dataclasses.MISSING:
        return field.default
    if field.default_factory is not dataclasses.MISSING:
        return field.default_factory()
    raise KeyError(f"{config.__name__}.{name} has no default")


def names_help(registry: Registry[Any], sep: str = " | ") -> str:
    """The registry's names (or examples) joined, e.g. ``strict | mammovqa | … | open``."""
    return registry.help_text(sep)


def print_listing(registry: Registry[Any], width: int = 24) -> None:
    """One ``name   summary`` line per row of ``registry`` (a command's ``--list``)."""
    for name, summary in registry.listing():
        typer.echo(f"{name:<{width}} {summary}".rstrip())


def reflow(doc: str | None) -> str | None:
    r"""A docstring with each paragraph's lines joined, so help wraps to the terminal.

    Typer's rich help keeps a docstring's line breaks, so a paragraph broken for the source's
    100 columns wraps mid-sentence at 80. Lines that are indented or start with ``Example``
    (commands to copy) stay on their own lines.

    >>> reflow("First line\n    goes on.\n\n    Example: medvqa x\n      medvqa y")
    'First line goes on.\n\nExample: medvqa x\n  medvqa y'
    """
    if not doc:
        return doc
    import inspect

    out: list[str] = []
    for para in inspect.cleandoc(doc).split("\n\n"):
        lines = para.split("\n")
        if any(line.startswith((" ", "Example")) for line in lines):
            out.append(para)
        else:
            out.append(" ".join(line.strip() for line in lines))
    return "\n\n".join(out)


def reflow_help(app: typer.Typer) -> None:
    """:func:`reflow` every command's docstring of ``app`` and of its sub-apps, in place."""
    for info in app.registered_commands:
        if info.callback is not None:
            info.callback.__doc__ = reflow(info.callback.__doc__)
    for group in app.registered_groups:
        if group.typer_instance is not None:
            reflow_help(group.typer_instance)
