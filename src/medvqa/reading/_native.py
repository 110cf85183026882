"""Whether the answer-reading rules run compiled, and their source wherever a build is stale.

medvqa is pure Python by default. The strict parser's modules (:data:`COMPILED_MODULES`) are
fully typed, and ``make compile`` (opt-in) compiles them with mypyc into C extension modules
(``setup.py``) that read the same decisions about twice as fast
(``tests/reading/test_compiled_rules.py``). Python imports an extension module before the
source file beside it, so a build older than its sources would silently run old rules. A build
is therefore used only when it is complete and was made from exactly the sources beside it: the
build writes their SHA-256 to :data:`MANIFEST` once every module is compiled. Where a compiled
build is present but stale (a rule edited since, a partial build), :func:`choose_build` puts a
finder first on ``sys.meta_path`` that loads every one of these modules from source: never a
mix of the two. Where nothing was compiled, nothing is put there.

This module is never compiled itself (it decides which build is imported).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

__all__ = ["COMPILED_MODULES", "MANIFEST", "choose_build", "compiled_rules", "force_source",
           "source_digests", "stale_reason"]

PACKAGE = "medvqa.reading"
#: The modules of the strict reading (the parse of every response runs through them).
COMPILED_MODULES = ("_fold", "_letters", "_marks", "_polarity", "_scan", "_text", "_variants")
#: Written by the build beside the compiled modules: the SHA-256 of each source it compiled.
MANIFEST = "_native_build.json"

_DIR = Path(__file__).resolve().parent


def source_digests(folder: Path, modules: Sequence[str] = COMPILED_MODULES) -> dict[str, str]:
    """SHA-256 of each module's source file in ``folder`` (what a build records)."""
    return {m: hashlib.sha256((folder / f"{m}.py").read_bytes()).hexdigest() for m in modules}


def _extension_of(folder: Path, module: str) -> Path | None:
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = folder / f"{module}{suffix}"
        if path.exists():
            return path
    return None


def stale_reason(folder: Path, modules: Sequence[str] = COMPILED_MODULES) -> str | None:
    """Why the compiled build in ``folder`` must not be used, or None when it may.

    None only when every module has an extension module, the build's manifest is there and
    each source's SHA-256 is the one it records.
    """
    missing = [m for m in modules if _extension_of(folder, m) is None]
    if len(missing) == len(modules):
        return "pure Python (the default; `make compile` builds the compiled rules)"
    if missing:
        return f"partial build (no compiled {', '.join(missing)})"
    try:
        recorded = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))["sources"]
    except (OSError, ValueError, KeyError, TypeError):
        return f"the build's manifest {MANIFEST} is missing or unreadable"
    changed = [m for m, digest in source_digests(folder, modules).items()
               if recorded.get(m) != digest]
    if changed:
        return (f"sources changed since the build ({', '.join(changed)}); "
                "`make compile` rebuilds")
    return None


class _SourceFirst:
    """A meta path finder that loads the named modules from their ``.py`` files."""

    def __init__(self, package: str, folder: Path, modules: Sequence[str]):
        self.names = {f"{package}.{m}": folder / f"{m}.py" for m in modules}

    def find_spec(self, name: str, path: object = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        source = self.names.get(name)
        return importlib.util.spec_from_file_location(name, source) if source else None


def choose_build(package: str = PACKAGE, folder: Path = _DIR,
                 modules: Sequence[str] = COMPILED_MODULES) -> str | None:
    """Make the modules import from source when the compiled build is stale; say why, or None.

    Called by the package before any of the modules is imported.
    """
    if all(_extension_of(folder, m) is None for m in modules):
        return stale_reason(folder, modules)  # pure Python: nothing to redirect, no finder
    reason = stale_reason(folder, modules)
    if reason is not None:
        _put_first(package, folder, modules)
    return reason


def _put_first(package: str, folder: Path, modules: Sequence[str]) -> None:
    if not any(isinstance(f, _SourceFirst) and f.names.keys() & {
            f"{package}.{m}" for m in modules} for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFirst(package, folder, modules))


def force_source(package: str = PACKAGE, folder: Path = _DIR,
                 modules: Sequence[str] = COMPILED_MODULES) -> None:
    """Load the rules from source even beside a fresh compiled build (the bench's pure figure).

    Must run before any of the modules is imported.
    """
    _put_first(package, folder, modules)


def compiled_rules() -> tuple[bool, str]:
    """(whether the strict rules run compiled, why not or how they were built)."""
    import medvqa.reading._scan as scan

    if not (scan.__file__ or "").endswith(".py"):
        return True, "compiled with mypyc"
    return False, stale_reason(_DIR) or "from source"
