"""The decision harness: every style's decision on the committed corpus is the table's, the
changelog names the table, and the regenerate command rewrites both.

When the first test fails, a rule changed decisions: read the classes it lists; where they are
meant, run ``python -m medvqa.reading.harness --regenerate`` and say why in the changelog
entry it drafts (``docs/decision-changelog.md``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from harness_corpus import MAX_CHARS
from test_parsers_reference import REFERENCE_ROWS
from test_parsers_strict_table import OPTIONS, ROWS
from test_wratio import FUZZY_STAGE

from medvqa._resources import shipped_text
from medvqa.reading import RULES, STYLES
from medvqa.reading.harness import (
    CORPUS,
    HARNESS_STYLES,
    NOT_OPTION_STYLES,
    TABLE,
    TODO,
    HarnessInput,
    Table,
    compare,
    content_hash,
    decide,
    describe,
    entry_digest,
    latest_entry,
    merge_sources,
    read_corpus,
    recompute,
    render_table,
    table_digest,
    write_corpus,
)
from medvqa.reading.rules import OPTION_SETS

REPO = Path(__file__).resolve().parents[2]
HARNESS = REPO / "tests" / "reading" / "harness"
CHANGELOG = REPO / "docs" / "decision-changelog.md"


def test_every_decision_is_the_table_s():
    got = recompute(HARNESS)
    assert got.changes or got.text == got.committed, (
        f"{TABLE}: every decision is the same but not the text (its excerpts or layout): "
        "python -m medvqa.reading.harness --regenerate")
    if got.changes:
        pytest.fail(f"{got.changes.changed:,} decisions of {len(got.inputs):,} inputs differ "
                    f"from {TABLE}, in {len(got.changes.classes)} classes:\n"
                    f"{describe(got.changes, limit=12)}\n"
                    "where they are meant: python -m medvqa.reading.harness --regenerate, "
                    "and say why in the changelog entry", pytrace=False)


def test_the_changelog_s_newest_entry_names_the_table_and_says_why():
    entry = latest_entry(CHANGELOG.read_text(encoding="utf-8"))
    assert entry is not None, f"{CHANGELOG}: no entry"
    table = (HARNESS / TABLE).read_text(encoding="utf-8")
    assert entry_digest(entry) == table_digest(table), (
        f"{CHANGELOG}: the newest entry names another table than {TABLE} "
        f"(its SHA-256 is {table_digest(table)})")
    assert TODO not in entry, f"{CHANGELOG}: the newest entry does not say why yet"


def test_every_style_that_reads_options_is_in_the_harness():
    assert set(STYLES.names()) == set(HARNESS_STYLES) | set(NOT_OPTION_STYLES)
    assert not set(HARNESS_STYLES) & set(NOT_OPTION_STYLES)


def _hashes(rows: list[tuple[object, dict[str, str], str, str]]) -> set[str]:
    return {content_hash(*r) for r in rows}


def test_the_corpus_holds_the_decision_tables_golden_rows_rules_and_labelled_set():
    """A row added to a table without collecting the corpus again fails here (the collector
    runs the tests: ``python tests/reading/harness_corpus.py``)."""
    corpus = {i.id.rsplit("-", 1)[1] for i in read_corpus(HARNESS / CORPUS)}
    labelled = [json.loads(line) for line in
                shipped_text("resources", "answers", "labelled_responses.jsonl").splitlines()]
    wanted = {
        "strict decision table": [(r, OPTIONS[o], q, qq) for _, q, o, r, _, _, qq in ROWS
                                  if not isinstance(r, str) or len(r) <= MAX_CHARS],
        "mammovqa reference rows": [(r, o, q, "") for o, q, r, _ in REFERENCE_ROWS],
        "mammovqa fuzzy stage rows": [(r, o, "single", "") for r, o, _ in FUZZY_STAGE],
        "rule examples": [(e.response, OPTION_SETS[e.options], e.qtype, e.question)
                          for rule in RULES for e in (*rule.examples, *rule.counter)],
        "labelled set": [(r["response"], r["options"], r["question_type"],
                          r.get("question") or "") for r in labelled],
    }
    missing = {name: len(_hashes(rows) - corpus) for name, rows in wanted.items()}
    assert not any(missing.values()), f"inputs not in {CORPUS}: {missing}"


LR = {"A": "Left", "B": "Right"}


def _corpus() -> list[HarnessInput]:
    return merge_sources([("t", "B", LR, "single", ""), ("t", "Left is ruled out.", LR,
                                                         "single", ""),
                          ("u", "B", LR, "single", ""), ("t", "", LR, "single", "")])


def test_an_input_is_named_by_its_first_source_and_its_content():
    inputs = _corpus()
    assert len(inputs) == 3
    b = next(i for i in inputs if i.response == "B")
    assert b.id == f"t-{content_hash('B', LR, 'single', '')}" and b.sources == ("t", "u")
    assert [i.id for i in inputs] == sorted(i.id for i in inputs)


def test_the_corpus_round_trips_byte_for_byte(tmp_path: Path):
    inputs = _corpus()
    write_corpus(tmp_path / "a.gz", inputs)
    write_corpus(tmp_path / "b.gz", list(reversed(read_corpus(tmp_path / "a.gz"))))
    assert (tmp_path / "a.gz").read_bytes() == (tmp_path / "b.gz").read_bytes()
    assert read_corpus(tmp_path / "a.gz") == inputs


def test_changes_are_classed_by_style_and_kind_of_decision():
    styles = ("strict", "mammovqa")
    old = Table(styles, {"t-1": ("B @structural.letters", "B"), "t-2": ("A @structural.letters",
                         "A"), "t-3": ("- hedge @hedge.modal", "A"), "t-4": ("B", "B")}, {})
    new = Table(styles, {"t-1": ("- hedge @hedge.modal", "B"), "t-2": ("- hedge @hedge.modal",
                         "-"), "t-3": ("- hedge @hedge.modal", "A"), "t-5": ("B", "B")}, {})
    changes = compare(old, new)
    assert [(c.style, c.label, c.n, [e.id for e in c.examples]) for c in changes.classes] == [
        ("strict", "read (structural.letters) → hedge (hedge.modal)", 2, ["t-1", "t-2"]),
        ("mammovqa", "read → invalid", 1, ["t-2"])]
    assert changes.added == ("t-5",) and changes.removed == ("t-4",) and changes.changed == 3


def test_a_read_that_moved_to_another_letter_is_a_class_of_its_own():
    old = Table(("strict",), {"t-1": ("B @structural.letters",)}, {})
    new = Table(("strict",), {"t-1": ("A @structural.letters",)}, {})
    (only,) = compare(old, new).classes
    assert only.label == "read (structural.letters) → read (structural.letters) (another choice)"


def _harness(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "medvqa.reading.harness", "--dir",
                           str(tmp_path), "--changelog", str(tmp_path / "changes.md"), *args],
                          capture_output=True, text=True, timeout=120, check=False)


def test_the_command_checks_then_rewrites_the_table_and_drafts_the_entry(tmp_path: Path):
    inputs = _corpus()
    write_corpus(tmp_path / CORPUS, inputs)
    right = render_table(inputs, decide(inputs), HARNESS_STYLES)
    wrong = right.replace("\t- negated @structural.all-negated\t",
                          "\tA @structural.option-text\t", 1)
    assert wrong != right
    (tmp_path / TABLE).write_text(wrong, encoding="utf-8")
    (tmp_path / "changes.md").write_text("# Changes\n\nIntro.\n\n## 2026-01-01\n\nold\n",
                                         encoding="utf-8")
    checked = _harness(tmp_path)
    assert checked.returncode == 1, checked.stderr
    assert ("strict: read (structural.option-text) → negated (structural.all-negated): 1"
            in checked.stdout)
    assert (tmp_path / TABLE).read_text(encoding="utf-8") == wrong
    done = _harness(tmp_path, "--regenerate", "--date", "2026-12-02")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / TABLE).read_text(encoding="utf-8") == right
    changelog = (tmp_path / "changes.md").read_text(encoding="utf-8")
    entry = latest_entry(changelog)
    assert entry is not None and entry.startswith("## 2026-12-02")
    assert entry_digest(entry) == table_digest(right) and TODO in entry
    assert ("- strict: read (structural.option-text) → negated (structural.all-negated): 1 — "
            "`Left is ruled out.`") in entry
    assert changelog.endswith("## 2026-01-01\n\nold\n")
    again = _harness(tmp_path)
    assert again.returncode == 0 and "every decision is the table's" in again.stdout


def test_a_bad_corpus_line_is_one_line_naming_file_line_and_field(tmp_path: Path):
    import gzip

    row = {"id": "t-0", "response": "B", "options": LR, "question": "", "sources": ["t"]}
    (tmp_path / CORPUS).write_bytes(gzip.compress((json.dumps(row) + "\n").encode()))
    got = _harness(tmp_path)
    assert got.returncode == 2
    assert got.stderr.strip().splitlines() == [
        f"error: {tmp_path / CORPUS}: line 1: field 'question_type': expected str, got "
        "NoneType"]
