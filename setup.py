"""Build: the answer-reading rules compiled to C by mypyc wherever a C compiler is at hand.

Everything else is declared in pyproject.toml. The strict parser's modules
(``medvqa.reading._native.COMPILED_MODULES``) are compiled into C extension modules that
read answers about twice as fast (issue 26: at least 100,000 responses/s on the realistic mix);
the decisions are the same (tests/score/test_compiled_rules.py). With no compiler, a failed
compile, or ``MEDVQA_PURE_PYTHON=1``, medvqa installs as pure Python and runs the same rules
from source; ``medvqa bench --only extraction`` says which build ran.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
PARSERS = HERE / "src" / "medvqa" / "reading"


def _native():  # the module list and digests, without importing medvqa (not installed yet)
    spec = importlib.util.spec_from_file_location("_medvqa_native", PARSERS / "_native.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


NATIVE = _native()


def _say(message: str) -> None:
    print(f"medvqa build: {message}", file=sys.stderr)


def compiled_extensions() -> list:
    """The mypyc extension modules, or none (pure Python) where they cannot be made."""
    if NATIVE.pure_requested():
        _say(f"{NATIVE.PURE_ENV} is set: the answer-reading rules stay pure Python")
        return []
    try:
        from mypyc.build import mypycify

        sources = [str((PARSERS / f"{m}.py").relative_to(HERE)) for m in NATIVE.COMPILED_MODULES]
        # The rules import nothing of medvqa's but each other and shipped data: the rest of
        # the package is not analysed (it would take minutes and types nothing compiled here).
        return mypycify(["--follow-imports=skip", "--ignore-missing-imports", *sources],
                        opt_level="3", group_name="medvqa_rules")
    except Exception as error:  # noqa: BLE001 - any failure leaves the pure-Python install
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
            # Written last, so only a complete build is ever trusted (see _native.py).
            target = Path(self.get_ext_fullpath("medvqa.reading._strict")).parent
            digests = NATIVE.source_digests(PARSERS)
            (target / NATIVE.MANIFEST).write_text(
                json.dumps({"sources": digests}, indent=1, sort_keys=True) + "\n",
                encoding="utf-8")


setup(ext_modules=compiled_extensions(), cmdclass={"build_ext": OptionalBuildExt})
