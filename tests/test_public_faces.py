"""Each room uses another room through its public face, never through a private module.

A package's ``__init__.py`` is its public face (``__all__``); its ``_name.py`` modules are its
own. Every ``import`` in ``src/medvqa`` is read from the syntax tree (those inside functions
too) and an import of ``medvqa.ROOM._private`` (or ``medvqa.ROOM.sub._private``) from a module
outside ROOM is refused, so a room's inside can change without breaking another. The modules
at the top of the package (``medvqa._yaml_loader``, ``medvqa._resources`` …) are the house's
shared helpers, below every room, and may be imported anywhere.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"


def _is_module(dotted: str) -> bool:
    path = SRC.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _private_part(dotted: str) -> bool:
    """Whether a module path below a room names a private module (``medvqa.room._x``)."""
    return any(p.startswith("_") and not p.startswith("__") for p in dotted.split(".")[2:])


def private_imports(path: Path, source: str | None = None) -> list[str]:
    """``"module:line -> target"`` for each import in ``path`` of another room's private module."""
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    package = parts[:-1]
    room = parts[1] if len(parts) > 2 else None
    name = ".".join(parts)
    tree = ast.parse(source if source is not None else path.read_text("utf-8"))
    bad = []
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package[: len(package) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [base] + [f"{base}.{a.name}" for a in node.names
                                if _is_module(f"{base}.{a.name}")]
        for target in targets:
            bits = target.split(".")
            if (bits[0] == "medvqa" and len(bits) > 2 and bits[1] != room
                    and _private_part(target) and _is_module(target)):
                bad.append(f"{name}:{node.lineno} -> {target}")
    return bad


def test_no_room_imports_another_rooms_private_module() -> None:
    bad = [line for p in sorted((SRC / "medvqa").rglob("*.py")) for line in private_imports(p)]
    assert not bad, "imports of another room's private module (use its __init__):\n" + "\n".join(
        bad)


def test_the_checker_sees_a_private_import() -> None:
    """The check above fails on each spelling of such an import, and passes the public ones."""
    here = SRC / "medvqa" / "score" / "_example.py"
    assert private_imports(here, "from medvqa.models._complete import load_backend") == [
        "medvqa.score._example:1 -> medvqa.models._complete"]
    assert private_imports(here, "def f():\n    import medvqa.sources._nifti") == [
        "medvqa.score._example:2 -> medvqa.sources._nifti"]
    assert private_imports(here, "from medvqa.benchmark.audit import _near") == [
        "medvqa.score._example:1 -> medvqa.benchmark.audit._near"]
    allowed = ("from medvqa.models import load_backend\nfrom medvqa.score._power import x\n"
               "from . import _power\nfrom medvqa._yaml_loader import load_yaml\n")
    assert private_imports(here, allowed) == []
