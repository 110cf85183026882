"""The package's imports run one way, and no module imports itself round a circle.

Every ``import`` in ``src/medvqa`` is read from the syntax tree, those inside functions
included (a lazy import is still a dependency), and checked against the order of rooms in
``docs/architecture.md``: a room may import its own modules and any room below it, never one
above. A second test finds circles between modules (strongly connected components).
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "medvqa"

#: The rooms, lowest first. A room imports only rooms at its own rank or lower; rooms of equal
#: rank never import each other.
LAYERS: list[set[str]] = [
    {"__init__", "errors", "_suggest", "rng", "_resources", "_lazy", "_environment", "_markdown"},
    {"_registry", "_optional", "store", "_path_guard"},
    {"stats", "_yaml_loader"},
    {"schema"},
    {"sources"},
    {"benchmark"},
    {"builders"},
    {"interop"},
    {"recipes"},
    {"models"},
    {"reading"},
    {"conditions"},
    {"irt"},
    {"run"},
    {"score"},
    {"curate"},
    {"report"},
    {"train", "review"},
    {"testing"},
    {"measurements", "demo"},
    {"cli"},
]
RANK = {room: i for i, rooms in enumerate(LAYERS) for room in rooms}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in SRC.rglob("*.py")}


_TARGET = re.compile(r"^(medvqa(?:\.\w+)+):\w+$")


def _strings(tree: ast.Module) -> list[str]:
    """Every string constant and f-string of a module, f-strings resolved where they only join
    module-level string constants (registry rows: ``f"{_B}._classify:build_classify"``)."""
    consts: dict[str, str] = {}

    def text(node: ast.AST) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.JoinedStr):
            parts = []
            for v in node.values:
                if isinstance(v, ast.FormattedValue) and isinstance(v.value, ast.Name):
                    part = consts.get(v.value.id)
                else:
                    part = text(v)
                if part is None:
                    return None
                parts.append(part)
            return "".join(parts)
        return None

    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(
                stmt.targets[0], ast.Name) and (value := text(stmt.value)) is not None:
            consts[stmt.targets[0].id] = value
    return [t for n in ast.walk(tree) if (t := text(n)) is not None]


def _imports(path: Path, name: str, modules: dict[str, Path], targets: bool = True) -> set[str]:
    """The medvqa modules ``path`` imports (``from a import b`` → ``a.b`` when b is a module),
    with ``targets`` also the ``"module:attribute"`` targets of registry rows (imported on use).

    Targets count for the order of rooms (a table may not name a room above its own) but not
    for circles: a table naming an implementation that uses a helper of the table's module is
    resolved lazily, after both are loaded."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    tree = ast.parse(path.read_text("utf-8"))
    for value in _strings(tree) if targets else []:
        if (m := _TARGET.match(value)) and m.group(1) in modules:
            found.add(m.group(1))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "medvqa")
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            if base.split(".")[0] != "medvqa":
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in modules else base)
    return {m for m in found if m in modules and m != name}


def _room(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return "__init__"
    return "cli" if parts[1] == "__main__" else parts[1]


def _graph(targets: bool = True) -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(path, name, modules, targets) for name, path in modules.items()}


def test_every_room_is_ranked() -> None:
    rooms = {_room(m) for m in _modules()}
    assert rooms <= set(RANK), f"rooms missing from LAYERS: {sorted(rooms - set(RANK))}"


def test_imports_follow_the_data_flow() -> None:
    bad = []
    for module, targets in sorted(_graph().items()):
        for target in sorted(targets):
            src, dst = _room(module), _room(target)
            if src != dst and RANK[dst] >= RANK[src]:
                bad.append(f"{module} -> {target}")
    assert not bad, "imports against the flow:\n" + "\n".join(bad)


def _strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative; components of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        component.append(top)
                        if top == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_no_import_circles() -> None:
    circles = _strongly_connected(_graph(targets=False))
    assert not circles, "import circles:\n" + "\n".join(" <-> ".join(c) for c in circles)


def test_the_checker_sees_a_back_edge_and_a_circle() -> None:
    """The two checks above would fail on a bad graph (so they can fail at all)."""
    assert _strongly_connected({"a": {"b"}, "b": {"a"}, "c": set()}) == [["a", "b"]]
    graph = defaultdict(set, {"medvqa.builders._x": {"medvqa.run._runner"}})
    bad = [
        (m, t) for m, ts in graph.items() for t in ts if RANK[_room(t)] >= RANK[_room(m)]
    ]
    assert bad == [("medvqa.builders._x", "medvqa.run._runner")]


def test_registry_targets_count_as_imports() -> None:
    """A registry row's ``"module:attr"`` is an import made later: the checker sees it."""
    targets = _imports(SRC / "recipes" / "_types.py", "medvqa.recipes._types", _modules())
    assert "medvqa.builders" in targets
    rows = _imports(SRC / "interop" / "_importers.py", "medvqa.interop._importers", _modules())
    assert {"medvqa.interop._import_slake", "medvqa.interop._import_formats"} <= rows
