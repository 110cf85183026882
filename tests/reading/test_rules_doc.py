"""The docs' rule table is written from the rule table, and the writer refuses a bad document."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from medvqa.reading.rules import RULES
from medvqa.reading.rules._docs import BEGIN, END, replace_section, rules_markdown

_DOC = Path(__file__).resolve().parents[2] / "docs" / "answer-reading.md"


def test_the_committed_section_is_the_table():
    text = _DOC.read_text(encoding="utf-8")
    assert rules_markdown(RULES) in text, (
        "docs/answer-reading.md's rule table is stale: run "
        "python -m medvqa.reading.rules --write docs/answer-reading.md")


def test_every_rule_id_and_doc_is_listed():
    section = rules_markdown(RULES)
    for r in RULES:
        assert f"**`{r.id}`**" in section and r.doc in section


def test_replace_keeps_what_surrounds_the_markers():
    doc = f"before\n{BEGIN}\nold\n{END}\nafter\n"
    assert replace_section(doc, f"{BEGIN}\nnew\n{END}\n") == f"before\n{BEGIN}\nnew\n{END}\nafter\n"
    with pytest.raises(ValueError):
        replace_section("no markers here", "x")


def test_the_command_writes_and_refuses(tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text(f"# Title\n\n{BEGIN}\n{END}\n\ntail\n", encoding="utf-8")
    run = [sys.executable, "-m", "medvqa.reading.rules", "--write", str(doc)]
    assert subprocess.run(run, capture_output=True, check=False).returncode == 0
    written = doc.read_text(encoding="utf-8")
    assert written.startswith("# Title\n\n") and written.endswith("\n\ntail\n")
    assert rules_markdown(RULES) in written
    bare = tmp_path / "bare.md"
    bare.write_text("nothing\n", encoding="utf-8")
    got = subprocess.run([*run[:-1], str(bare)], capture_output=True, text=True, check=False)
    assert got.returncode == 2 and "bare.md" in got.stderr and got.stderr.count("\n") == 1
