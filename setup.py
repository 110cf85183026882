"""Build: pure Python, with the answer-reading rules compiled by mypyc only when asked for.

Everything else is declared in pyproject.toml. The reader is pure Python by default and
meets its speed target so (``medvqa bench --only extraction``). ``make compile`` (or
``MEDVQA_COMPILE=1 pip install --no-build-isolation -e .`` with mypy installed) compiles the
strict reader's modules (``medvqa.reading._native.COMPILED_MODULES``) into C extension
modules that read the same decisions about twice as fast (tests/reading/test_compiled_rules.py).
A failed compile leaves the pure-Python install.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
PARSERS = HERE / "src" / "medvqa" / "reading"
#: Set to 1 at install to compile the rules (needs mypy and a C compiler).
COMPILE_ENV = "MEDVQA_COMPILE"


def _native():  # the module list and digests, without importing medvqa (not installed yet)
    spec = importlib.util.spec_from_file_location("_medvqa_native", PARSERS / "_native.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _say(message: str) -> None:
    print(f"medvqa build: {message}", file=sys.stderr)


def compiled_extensions() -> list:
    """The mypyc extension modules when compiling was asked for and can be done, else none."""
    if os.environ.get(COMPILE_ENV, "") in ("", "0"):
        return []
    native = _native()
    try:
        from mypyc.build import mypycify

        sources = [str((PARSERS / f"{m}.py").relative_to(HERE)) for m in native.COMPILED_MODULES]
        # The rules import nothing of medvqa's but each other and shipped data: the rest of
        # the package is not analysed (it would take minutes and types nothing compiled here).
        return mypycify(["--follow-imports=skip", "--ignore-missing-imports", *sources],
                        opt_level="3", group_name="medvqa_rules")
    except (Exception, SystemExit) as error:  # noqa: BLE001 - a type error exits mypyc
        _say(f"mypyc could not translate the rules ({error}); they stay pure Python")
        return []


class OptionalBuildExt(build_ext):
    """Compile the rules; on any compiler failure install without them (pure Python)."""

    def run(self) -> None:
        """Build the extension modules, then record their sources (or leave pure Python)."""
        try:
            super().run()
        except Exception as error:  # noqa: BLE001 - no compiler, missing headers …
            _say(f"compiling the rules failed ({error}); they stay pure Python")
            return
        if self.extensions:
            native = _native()
            # Written last, so only a complete build is ever trusted (see _native.py).
            target = Path(self.get_ext_fullpath("medvqa.reading._strict")).parent
            digests = native.source_digests(PARSERS)
            (target / native.MANIFEST).write_text(
                json.dumps({"sources": digests}, indent=1, sort_keys=True) + "\n",
                encoding="utf-8")


setup(ext_modules=compiled_extensions(), cmdclass={"build_ext": OptionalBuildExt})
