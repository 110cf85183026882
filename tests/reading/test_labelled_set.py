"""The shipped labelled response set: built by ``labelled_set.py``, well formed, and read by the
strict rules within the targets (recall on clear answers >= 90 %, no false credit)."""

from __future__ import annotations

import json
from collections import Counter

from labelled_set import MUST_ABSTAIN, SHIPPED, build, rows_as_jsonl

from medvqa.reading import make_parser

ROWS = [json.loads(line) for line in SHIPPED.read_text(encoding="utf-8").splitlines()]
SPECIALTIES = {"radiology", "mammography", "fundus_oct", "pathology", "dermatology"}
FAMILIES = {"plain-letter", "plain-text", "think-closed", "think-open-or-stray",
            "think-revised", "boxed", "json", "table-checklist", "final-answer-revised",
            "restated-options", "yesno-synonyms", "other-languages", "spelling-variants",
            "abbreviations", "negation-scope", "verbose-dismissal", "findings", "model-style",
            *MUST_ABSTAIN}


def test_the_shipped_file_is_what_the_builder_writes():
    assert SHIPPED.read_text(encoding="utf-8") == rows_as_jsonl(build())


def test_the_set_is_large_varied_and_well_formed():
    assert len(ROWS) >= 600
    assert len({r["id"] for r in ROWS}) == len(ROWS)
    assert len({r["response"] for r in ROWS}) >= 0.9 * len(ROWS)
    assert FAMILIES <= {r["family"] for r in ROWS}
    assert {r["specialty"] for r in ROWS} == SPECIALTIES
    assert min(Counter(r["specialty"] for r in ROWS).values()) >= 50
    for r in ROWS:
        assert set(r) == {"id", "family", "response", "options", "question_type", "intended",
                          "specialty", "question"}
        assert r["question_type"] in {"single", "multi", "yesno"}
        if r["family"] in MUST_ABSTAIN:
            assert r["intended"] is None, r["id"]
        else:
            picked = r["intended"] if isinstance(r["intended"], list) else [r["intended"]]
            assert set(picked) <= set(r["options"]), r["id"]


def test_the_rules_meet_the_targets_on_the_set():
    parser = make_parser("strict")
    clear = credit = read = 0
    for r in ROWS:
        got = parser.parse(r["response"], r["options"], r["question_type"],
                           question=r["question"])
        if r["intended"] is None:
            credit += not got.invalid
        else:
            clear += 1
            read += got.choice == r["intended"]
    assert credit == 0
    assert read / clear >= 0.90
