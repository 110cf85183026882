"""The compiled build is opt-in: pure Python adds no finder; a stale build is never used."""

from __future__ import annotations

import importlib.machinery
import json
import subprocess
import sys
from pathlib import Path

from medvqa.reading._native import (
    COMPILED_MODULES,
    MANIFEST,
    choose_build,
    source_digests,
    stale_reason,
)


def _sources(folder: Path) -> None:
    for m in COMPILED_MODULES:
        (folder / f"{m}.py").write_text(f"NAME = {m!r}\n", encoding="utf-8")


def _extensions(folder: Path, modules=COMPILED_MODULES) -> None:
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for m in modules:
        (folder / f"{m}{suffix}").write_bytes(b"")


def test_the_installed_reader_is_pure_python_with_no_finder() -> None:
    """A fresh interpreter importing the reader adds no finder where nothing was compiled."""
    code = ("import sys\nimport medvqa.reading as r\nfrom medvqa.reading import compiled_rules\n"
            "print(any(type(f).__name__ == '_SourceFirst' for f in sys.meta_path))\n"
            "print(compiled_rules()[0])")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True).stdout.split()
    assert out == ["False", "False"]


def test_a_folder_without_extensions_is_pure_python(tmp_path: Path) -> None:
    _sources(tmp_path)
    before = list(sys.meta_path)
    reason = choose_build("fake_pkg", tmp_path)
    assert reason is not None and reason.startswith("pure Python")
    assert sys.meta_path == before


def test_a_partial_build_is_refused(tmp_path: Path) -> None:
    _sources(tmp_path)
    _extensions(tmp_path, COMPILED_MODULES[:1])
    assert "partial build" in (stale_reason(tmp_path) or "")


def test_a_build_is_used_only_with_the_digests_of_the_sources_beside_it(tmp_path: Path) -> None:
    _sources(tmp_path)
    _extensions(tmp_path)
    assert "manifest" in (stale_reason(tmp_path) or "")
    (tmp_path / MANIFEST).write_text(json.dumps({"sources": source_digests(tmp_path)}))
    assert stale_reason(tmp_path) is None
    (tmp_path / f"{COMPILED_MODULES[0]}.py").write_text("NAME = 'edited'\n")
    assert "sources changed" in (stale_reason(tmp_path) or "")


def test_a_stale_build_loads_every_module_from_source(tmp_path: Path) -> None:
    pkg = tmp_path / "fake_rules"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    _sources(pkg)
    _extensions(pkg)  # empty files: importing one as an extension would fail
    code = ("import sys\nfrom medvqa.reading._native import choose_build\n"
            f"print(choose_build('fake_rules', __import__('pathlib').Path({str(pkg)!r})))\n"
            f"import fake_rules.{COMPILED_MODULES[0]} as m\nprint(m.NAME)")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True, cwd=tmp_path).stdout.splitlines()
    assert "manifest" in out[0] and out[1] == COMPILED_MODULES[0]
