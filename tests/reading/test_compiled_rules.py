"""The compiled build of the rules (mypyc) decides as the source does, and is never used stale.

See ``medvqa/reading/_native.py``: a compiled build is used only when it is complete and
made from exactly the sources beside it; otherwise every rule module loads from source.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from medvqa.reading import compiled_rules, make_parser
from medvqa.reading._native import (
    MANIFEST,
    PURE_ENV,
    choose_build,
    source_digests,
    stale_reason,
)

_SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
_MODULES = ("_one", "_two")


def _build(folder: Path, *, compiled: tuple[str, ...] = _MODULES, manifest: bool = True) -> None:
    """A package folder as a build leaves it: sources, 'extension modules' and the manifest."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "__init__.py").write_text("")
    for name in _MODULES:
        (folder / f"{name}.py").write_text(f"WHERE = 'source of {name}'\n")
    for name in compiled:
        (folder / f"{name}{_SUFFIX}").write_bytes(b"not a shared object")
    if manifest:
        (folder / MANIFEST).write_text(json.dumps({"sources": source_digests(folder, _MODULES)}))


def test_a_complete_build_from_these_sources_is_used(tmp_path: Path) -> None:
    _build(tmp_path)
    assert stale_reason(tmp_path, _MODULES, environ={}) is None


def test_an_edited_source_partial_build_or_missing_manifest_is_not(tmp_path: Path) -> None:
    _build(tmp_path / "edited")
    (tmp_path / "edited" / "_two.py").write_text("WHERE = 'edited'\n")
    assert "sources changed since the build (_two)" in stale_reason(
        tmp_path / "edited", _MODULES, environ={})
    _build(tmp_path / "partial", compiled=("_one",))
    assert "partial build (no compiled _two)" in stale_reason(
        tmp_path / "partial", _MODULES, environ={})
    _build(tmp_path / "none", compiled=())
    assert stale_reason(tmp_path / "none", _MODULES, environ={}).startswith("not compiled")
    _build(tmp_path / "unrecorded", manifest=False)
    assert "manifest" in stale_reason(tmp_path / "unrecorded", _MODULES, environ={})
    _build(tmp_path / "pure")
    assert stale_reason(tmp_path / "pure", _MODULES, environ={PURE_ENV: "1"}) == \
        f"{PURE_ENV} is set"
    assert stale_reason(tmp_path / "pure", _MODULES, environ={PURE_ENV: "0"}) is None


def test_a_stale_build_is_shadowed_by_its_sources(tmp_path: Path) -> None:
    """The bogus extension modules would fail to import; the sources are loaded instead."""
    package = "stale_build_pkg"
    _build(tmp_path / package)
    (tmp_path / package / "_one.py").write_text("WHERE = 'edited source'\n")
    script = textwrap.dedent(f"""
        import sys
        from pathlib import Path
        sys.path.insert(0, {str(tmp_path)!r})
        from medvqa.reading._native import choose_build
        why = choose_build({package!r}, Path({str(tmp_path / package)!r}), {_MODULES!r})
        import {package}._one as one, {package}._two as two
        print(why)
        print(one.WHERE, "|", two.WHERE, "|", one.__file__.endswith(".py"))
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True, env={**os.environ, PURE_ENV: ""}).stdout.splitlines()
    assert out[0].startswith("sources changed since the build (_one)")
    assert out[1] == "edited source | source of _two | True"


def test_the_installed_rules_say_which_build_runs() -> None:
    compiled, why = compiled_rules()
    import medvqa.reading._strict as strict

    assert compiled == (not strict.__file__.endswith(".py"))
    assert why == "compiled with mypyc" if compiled else why


def _responses() -> list[tuple[str, dict[str, str], str, str]]:
    """The labelled set, each response made distinct, and the bench's modern mix."""
    from medvqa.measurements._extraction import labelled_rows, modern_mix

    rows = labelled_rows()
    items = [(r["response"], r["options"], r["question_type"], r.get("question") or "")
             for r in rows]
    return items + [(f"{t}\n(case {i})", o, q, qq) for i, (t, o, q, qq) in enumerate(items)] + [
        (t, dict(o), q, qq) for t, o, q, qq in modern_mix(3000, rows, seed=7)]


_DECIDE = """
import json, sys
from medvqa.reading import compiled_rules, make_parser
items = json.load(sys.stdin)
parser = make_parser("strict")
out = [list(parser.parse(t, o, q, question=qq)) for t, o, q, qq in items]
print(json.dumps({"compiled": compiled_rules()[0], "decisions": out}))
"""


def test_compiled_and_source_rules_decide_alike() -> None:
    """Every decision on the labelled set (and its distinct copies) is the same in both builds."""
    if not compiled_rules()[0]:
        pytest.skip(f"the rules are not compiled here ({compiled_rules()[1]})")
    items = _responses()
    parser = make_parser("strict")
    compiled = [list(parser.parse(t, o, q, question=qq)) for t, o, q, qq in items]
    done = subprocess.run([sys.executable, "-c", _DECIDE], input=json.dumps(items),
                          capture_output=True, text=True, check=True,
                          env={**os.environ, PURE_ENV: "1"})
    source = json.loads(done.stdout)
    assert source["compiled"] is False
    differ = [(items[i][0], c, s) for i, (c, s) in
              enumerate(zip(compiled, source["decisions"], strict=True)) if c != s]
    assert not differ, differ[:5]
    assert len(items) >= 4200


def test_the_shortcut_properties_that_replace_a_rule_function_hold_from_source() -> None:
    """The property tests that switch a shortcut off by replacing a rule function (which
    compiled modules do not look up, so in-process they are skipped) run from source here."""
    if not compiled_rules()[0]:
        pytest.skip("the rules run from source here: those tests run in-process")
    here = Path(__file__).resolve().parent
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         str(here / "test_parsers_fast.py"), "-k",
         "without_clause_cues or marked_letter_read_quickly"],
        capture_output=True, text=True, cwd=here.parents[1], env={**os.environ, PURE_ENV: "1"})
    assert done.returncode == 0, done.stdout[-3000:]
    assert "2 passed" in done.stdout, done.stdout[-3000:]


def test_choose_build_twice_adds_one_finder(tmp_path: Path) -> None:
    package = "twice_pkg"
    _build(tmp_path / package, compiled=())
    before = len(sys.meta_path)
    try:
        choose_build(package, tmp_path / package, _MODULES)
        choose_build(package, tmp_path / package, _MODULES)
        assert len(sys.meta_path) == before + 1
    finally:
        del sys.meta_path[0]


def test_digests_are_sha256_of_the_files(tmp_path: Path) -> None:
    _build(tmp_path)
    expected = hashlib.sha256((tmp_path / "_one.py").read_bytes()).hexdigest()
    assert source_digests(tmp_path, _MODULES)["_one"] == expected


@pytest.mark.parametrize("style", ["strict", "region", "mammovqa", "pathmmu", "open"])
@pytest.mark.parametrize("response", [None, 3, ["B"]])
def test_a_response_that_is_not_text_is_invalid_in_every_style(style: str, response: object
                                                                ) -> None:
    """A compiled function checks its argument types: the parsers must take any value."""
    parsed = make_parser(style).parse(response, {"A": "Left", "B": "Right"},  # type: ignore[arg-type]
                                      "single")
    assert parsed.invalid
