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
