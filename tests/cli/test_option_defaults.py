"""Every command-line default that a config states is taken from the config, never typed again.

Each command of ``medvqa`` is walked (click's tree of the Typer app). Its function's syntax tree
says which options it passes to which config (a dataclass it constructs, or a classmethod of
one such as ``JudgeConfig.for_model``), keyword by keyword. Where that config parameter has a
default:

- an option passed as it is must have the same default (no drift: ``audit --workers`` once said
  2 where ``AuditConfig.workers`` said ``min(4, cores)``), and that default must not be written
  as a literal (``typer.Option(8, …)``) but read from the config (``default_of(Config, name)``);
- an option transformed on the way (``cluster=not no_cluster``, ``splits=_splits(splits)``)
  must not have a literal default either, unless it only says "nothing given" (None, ``""``,
  ``[]``).

Three options differ from their config on purpose; they are listed below with the reason.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import typer
import typer.main

from medvqa.cli import app

#: (command, option) → why its default is its own, not the config parameter's.
OWN_DEFAULTS = {
    ("review exam", "split"): "an exam sits test_tiny; AppConfig.exam_split None means no exam",
    ("review exam", "runs"): "an exam writes its RUN/s to ./runs; the app alone writes none",
    ("audit", "no_html"): "decides whether html= is passed at all (AuditReportConfig: None)",
}
#: Literal defaults that only say "not given" (the config's own default then applies).
_NOTHING = (None, Ellipsis, "", (), [])


def _commands(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, Any]]:
    if getattr(command, "callback", None) is not None and not hasattr(command, "commands"):
        yield " ".join(path), command
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        yield from _commands(sub, (*path, name))


def _namespace(fn: Any, tree: ast.FunctionDef) -> dict[str, Any]:
    """The names the function body can call: its module's, and those it imports itself."""
    names = dict(fn.__globals__)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            module = importlib.import_module(node.module)
            for alias in node.names:
                names[alias.asname or alias.name] = getattr(module, alias.name)
    return names


def _resolve(func: ast.expr, names: dict[str, Any]) -> Any:
    if isinstance(func, ast.Name):
        return names.get(func.id)
    if isinstance(func, ast.Attribute):
        owner = _resolve(func.value, names)
        return getattr(owner, func.attr, None) if owner is not None else None
    return None


def _config_callable(value: Any) -> bool:
    """A dataclass, or a classmethod bound to one."""
    if inspect.isclass(value):
        return dataclasses.is_dataclass(value)
    owner = getattr(value, "__self__", None)
    return inspect.isclass(owner) and dataclasses.is_dataclass(owner)


def _names_in(node: ast.AST, names: dict[str, Any]) -> set[str]:
    """Variable names in ``node``, not descending into a nested config call (its own flow)."""
    found: set[str] = set()
    stack = [node]
    while stack:
        here = stack.pop()
        if here is not node and isinstance(here, ast.Call) and _config_callable(
                _resolve(here.func, names)):
            continue
        if isinstance(here, ast.Name):
            found.add(here.id)
        stack.extend(ast.iter_child_nodes(here))
    return found


@dataclass(frozen=True)
class Flow:
    """One option passed to one config parameter."""

    command: str
    option: str
    target: str
    direct: bool
    literal: bool
    literal_value: Any
    option_default: Any
    target_default: Any


def flows(root: typer.Typer) -> list[Flow]:
    """Every option → config parameter of every command of ``root`` that has a default."""
    out = []
    for path, command in _commands(typer.main.get_command(root)):
        fn = inspect.unwrap(command.callback)
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn))).body[0]
        assert isinstance(tree, ast.FunctionDef)
        args = tree.args.args
        written = dict(zip([a.arg for a in args[len(args) - len(tree.args.defaults):]],
                           tree.args.defaults, strict=True))
        defaults = {p.name: p.default for p in command.params}
        names = _namespace(fn, tree)
        for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
            target = _resolve(call.func, names)
            if not _config_callable(target):
                continue
            params = inspect.signature(target).parameters
            for kw in call.keywords:
                if kw.arg is None or kw.arg not in params:
                    continue
                wanted = params[kw.arg].default
                if wanted is inspect.Parameter.empty:
                    continue
                for option in _names_in(kw.value, names) & set(written) & set(defaults):
                    expr = written[option]
                    first = expr.args[0] if isinstance(expr, ast.Call) and expr.args else expr
                    try:
                        value, literal = ast.literal_eval(first), True
                    except ValueError:
                        value, literal = None, False
                    out.append(Flow(path, option, f"{ast.unparse(call.func)}.{kw.arg}",
                                    isinstance(kw.value, ast.Name) and kw.value.id == option,
                                    literal, value, defaults[option], wanted))
    return out


def _says_nothing(value: Any) -> bool:
    return value is None or value is Ellipsis or (type(value) in (str, list, tuple) and not value)


def problems(found: list[Flow]) -> list[str]:
    """One line per option whose default restates or contradicts its config's."""
    bad = []
    for f in found:
        if (f.command, f.option) in OWN_DEFAULTS or f.literal_value is Ellipsis:
            continue
        where = f"medvqa {f.command} {f.option} -> {f.target}"
        if f.direct and f.option_default != f.target_default:
            bad.append(f"{where}: default {f.option_default!r}, the config's {f.target_default!r}")
        restated = f.literal_value is not None if f.direct else not _says_nothing(f.literal_value)
        if f.literal and restated:
            bad.append(f"{where}: the default {f.literal_value!r} is typed again; read it with "
                       "default_of(Config, field)")
    return bad


def test_every_config_default_is_stated_once() -> None:
    found = flows(app)
    assert len(found) > 50, "the walk found too few options passed to configs"
    bad = problems(found)
    assert not bad, "\n".join(bad)


def test_the_deliberate_exceptions_still_exist() -> None:
    """An exception left behind after its option or config changed is removed, not kept."""
    seen = {(f.command, f.option) for f in flows(app)}
    assert set(OWN_DEFAULTS) <= seen


@dataclass(frozen=True)
class _Demo:
    seed: int = 3
    workers: int = 4
    splits: tuple[str, ...] = ("test",)


def test_the_check_sees_a_restated_and_a_drifted_default() -> None:
    """A literal equal to the config's, one that differs, and a transformed one all fail."""
    demo = typer.Typer()

    @demo.command()
    def go(seed: int = typer.Option(3, "--seed"), workers: int = typer.Option(2, "--workers"),
           splits: str = typer.Option("test", "--splits")) -> None:
        _Demo(seed=seed, workers=workers, splits=tuple(splits.split(",")))

    @demo.command()
    def fine(seed: int = typer.Option(_Demo.seed, "--seed"),
             splits: str = typer.Option(",".join(_Demo.splits), "--splits")) -> None:
        _Demo(seed=seed, splits=tuple(splits.split(",")))

    bad = problems(flows(demo))
    assert [line.split(":")[0] for line in bad] == [
        "medvqa go seed -> _Demo.seed", "medvqa go workers -> _Demo.workers",
        "medvqa go workers -> _Demo.workers", "medvqa go splits -> _Demo.splits"]
