"""``medvqa bench`` section ``extraction``: how well and how fast the rules read answers.

On the shipped labelled set (``resources/answers/labelled_responses.jsonl``: responses in the
styles of current models, each with the answer a clinician-grader reads, or none where it must
not be scored; families and counts in ``docs/answer-reading.md``) the strict rules give:

- recall on clear answers (target ≥ 90 %) and the wrong readings among them;
- false credit on the must-abstain families — negated, hedged, refused, non-committing traces,
  letters inside names, two options (target 0);
- the invalid rate;
- responses/s of the rules on the realistic mix (target ≥ 100,000: the rules' speed *stays*
  there): the project's mix of that name, the scoring bench's (70 % common short forms that
  repeat verbatim, bare letters most of all; 30 % explaining sentences, each distinct), read
  by the same strict parser with every answer-reading rule, the parser's memo working as in a
  real run;
- responses/s on the modern mix (no target; reported so that the cost of reading modern
  answers is seen): the realistic mix with a third of its distinct part replaced by the
  labelled set's modern responses (traces, boxed, JSON, tables, revised final answers …), each
  made distinct, memo working;
- cold: every labelled response made distinct, caches cleared: the pessimistic bound.

With an extractor model (``extract``; by default SmolLM2 unless ``quick``) it also gives, on
the responses the rules abstained on for want of a reading: how often the extractor agrees with
the intended answer (NONE agreeing with a must-abstain row), its false rescues (a letter where
none is intended, or another letter) and its errors.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import tempfile
import time
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from medvqa.measurements._blind_sets import blind_figures
from medvqa.measurements._figure import BenchFigure
from medvqa.measurements._rules_build import rules_build

log = logging.getLogger(__name__)

_AREA = "extraction"


def labelled_rows() -> list[dict[str, Any]]:
    """The shipped labelled set, one dict per response."""
    from medvqa._resources import shipped_text

    text = shipped_text("resources", "answers", "labelled_responses.jsonl")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _parse_all(rows: list[dict[str, Any]]) -> list[Any]:
    from medvqa.reading import clear_caches, make_parser

    clear_caches()
    parser = make_parser("strict")
    return [parser.parse(r["response"], r["options"], r["question_type"],
                         question=r.get("question") or "") for r in rows]


def rule_figures(rows: list[dict[str, Any]], parsed: list[Any]) -> list[BenchFigure]:
    """Recall, wrong readings, false credit and invalid rate of the rules on ``rows``."""
    clear = [(r, p) for r, p in zip(rows, parsed, strict=True) if r["intended"] is not None]
    null = [(r, p) for r, p in zip(rows, parsed, strict=True) if r["intended"] is None]
    read = sum(p.choice == r["intended"] for r, p in clear)
    wrong = sum(not p.invalid and p.choice != r["intended"] for r, p in clear)
    credit = sum(not p.invalid for _, p in null)
    recall = read / len(clear) if clear else 0.0
    return [
        BenchFigure(_AREA, f"labelled set: {len(rows)} responses, {len(clear)} clear, "
                    f"{len(null)} must abstain", len(rows), "responses"),
        BenchFigure(_AREA, "rules: recall on clear answers", recall, "fraction", ">= 0.90",
                    recall >= 0.90),
        BenchFigure(_AREA, "rules: wrong readings of clear answers", wrong, "responses"),
        BenchFigure(_AREA, "rules: false credit on negated / hedged / refused / "
                    "non-committing / names / two options", credit, "responses", "= 0",
                    credit == 0),
        BenchFigure(_AREA, "rules: invalid rate, all responses",
                    sum(p.invalid for p in parsed) / len(parsed), "fraction"),
    ]


def hostile_figures() -> list[BenchFigure]:
    """The slowest strict decision on the hostile responses (target: at most 50 ms each)."""
    from medvqa.reading import clear_caches, hostile_responses, make_parser

    parser = make_parser("strict")
    options = {"A": "Pleural effusion", "B": "Pneumothorax", "C": "Normal"}
    parser.parse("B", options, "single")  # the rule book is built once, before timing
    for response in hostile_responses().values():
        # each structure's patterns are compiled on first use, once a process: a cost of the
        # first such response scored, not of each decision
        parser.parse(response, options, "single")  # type: ignore[arg-type]
    slowest = 0.0
    for response in hostile_responses().values():
        clear_caches()
        t0 = time.perf_counter()
        parser.parse(response, options, "single")  # type: ignore[arg-type]
        slowest = max(slowest, time.perf_counter() - t0)
    ms = slowest * 1000
    return [BenchFigure(_AREA, "rules: slowest decision on a hostile response (1 MB, JSON "
                        "10,000 deep, binary, not text; patterns compiled)", ms, "ms", "<= 50",
                        ms <= 50)]


def realistic_mix(n: int, seed: int = 0) -> list[tuple[str, dict[str, str], str, str]]:
    """``n`` (response, options, question type, question) of the realistic mix (see above)."""
    from medvqa.measurements._scoring import _OPTIONS, realistic_responses

    return [(text, _OPTIONS, "single", "") for text in realistic_responses(n, seed)]


def modern_mix(n: int, rows: list[dict[str, Any]],
               seed: int = 0) -> list[tuple[str, dict[str, str], str, str]]:
    """``n`` (response, options, question type, question) of the modern mix (see above)."""
    rng = np.random.default_rng(seed)
    modern = [r for r in rows if r["intended"] is not None
              and r["family"] not in ("plain-letter", "plain-text")]
    out = []
    for i, item in enumerate(realistic_mix(n, seed)):
        distinct = item[0] not in _common_forms()
        if distinct and rng.random() < 1 / 3:
            r = modern[int(rng.integers(0, len(modern)))]
            out.append((f"{r['response']}\n(case {i})", r["options"], r["question_type"],
                        r.get("question") or ""))
        else:
            out.append(item)
    return out


@cache
def _common_forms() -> frozenset[str]:
    """The realistic mix's common short forms (computed once: the mixes test every item)."""
    from medvqa.measurements._scoring import _COMMON, _OPTIONS

    return frozenset({f.format(L=k, T=v) for f in _COMMON for k, v in _OPTIONS.items()})


def _rate(items: list[tuple[str, dict[str, str], str, str]]) -> float:
    from medvqa.reading import clear_caches, make_parser

    clear_caches()
    parser = make_parser("strict")
    t0 = time.perf_counter()
    for text, options, qtype, question in items:
        parser.parse(text, options, qtype, question=question)
    return len(items) / (time.perf_counter() - t0)


def pure_rate(n: int) -> float:
    """Responses/s of the rules from source on the realistic mix, in a fresh interpreter.

    Measures the pure-Python reader where a compiled build is installed (``make compile``):
    the child loads the rules' sources before anything imports them.
    """
    code = ("from medvqa.reading._native import force_source; force_source()\n"
            "from medvqa.measurements._extraction import _rate, realistic_mix\n"
            f"print(_rate(realistic_mix({n})))")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True)
    return float(out.stdout.strip().splitlines()[-1])


def speed_figures(rows: list[dict[str, Any]], quick: bool) -> list[BenchFigure]:
    """Responses/s of the rules on the realistic and modern mixes (memo working) and cold.

    The figures' names say which build of the rules ran (see ``parsers/_native.py``).
    """
    n = 20_000 if quick else 100_000
    build = rules_build()
    rate = _rate(realistic_mix(n))
    modern = _rate(modern_mix(n, rows))
    cold_items = [(f"{r['response']}\n(case {i})", r["options"], r["question_type"],
                   r.get("question") or "") for i, r in enumerate(rows * (4 if quick else 20))]
    cold = _rate(cold_items)
    pure = [] if build.startswith("from source") else [
        BenchFigure(_AREA, f"rules, pure Python (beside the compiled build): responses/s, "
                    f"realistic mix of {n:,}", (p := pure_rate(n)), "responses/s", ">= 100,000",
                    p >= 100_000)]
    return pure + [
        BenchFigure(_AREA, f"rules, {build}: responses/s, realistic mix of {n:,} (the scoring "
                    "bench's; memo working)", rate, "responses/s", ">= 100,000",
                    rate >= 100_000),
        BenchFigure(_AREA, f"rules, {build}: responses/s, modern mix of {n:,} (a third of the "
                    "distinct part modern responses; memo working)", modern, "responses/s"),
        BenchFigure(_AREA, f"rules, {build}: responses/s, cold, {len(cold_items):,} distinct "
                    "labelled responses (pessimistic bound)", cold, "responses/s"),
    ]


def extractor_figures(spec: str, rows: list[dict[str, Any]],
                      parsed: list[Any]) -> list[BenchFigure]:
    """Agreement, false rescues and errors of an extractor on the rules' no-answer rows."""
    from medvqa.models import LLMSettings
    from medvqa.reading import (
        ExtractCandidate,
        ExtractConfig,
        eligible,
        extract_answers,
        prepare_extractor,
    )

    asked = [(r, p) for r, p in zip(rows, parsed, strict=True) if eligible(p)]
    cands = [ExtractCandidate(r["id"], "clean", r.get("question") or "", r["options"],
                              r["question_type"], r["response"]) for r, _ in asked]
    extractor = prepare_extractor(ExtractConfig(LLMSettings(spec, batch_size=4)))
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        result = extract_answers(extractor, cands, Path(tmp) / "cache.sqlite")
        seconds = time.perf_counter() - t0
    agree = false = errors = 0
    for (row, _), e in zip(asked, result.extractions, strict=True):
        errors += e.status == "error"
        agree += e.status != "error" and e.choice == row["intended"]
        false += e.status == "rescued" and e.choice != row["intended"]
    clear = [r for r in rows if r["intended"] is not None]
    rules_ok = sum(p.choice == r["intended"] for r, p in zip(rows, parsed, strict=True)
                   if r["intended"] is not None)
    rescued_ok = sum(e.status == "rescued" and e.choice == row["intended"]
                     for (row, _), e in zip(asked, result.extractions, strict=True))
    n = max(1, len(asked))
    return [
        BenchFigure(_AREA, f"extractor {spec}: asked (rules found no answer)", len(asked),
                    "responses"),
        BenchFigure(_AREA, f"extractor {spec}: agreement with the intended answer",
                    agree / n, "fraction"),
        BenchFigure(_AREA, f"extractor {spec}: false rescues", false, "responses", "= 0",
                    false == 0),
        BenchFigure(_AREA, f"extractor {spec}: errors (reply outside the allowed set)", errors,
                    "responses"),
        BenchFigure(_AREA, f"rules + extractor {spec}: recall on clear answers",
                    (rules_ok + rescued_ok) / len(clear), "fraction"),
        BenchFigure(_AREA, f"extractor {spec}: seconds for {len(asked)} responses", seconds,
                    "s"),
    ]


def bench_extraction(quick: bool, extract: str | None = None) -> list[BenchFigure]:
    """Rules-only figures always; extractor figures for ``extract`` when given.

    The extractor defaults to SmolLM2 unless ``quick``; one that cannot run is logged and left
    out.
    """
    rows = labelled_rows()
    parsed = _parse_all(rows)
    figures = (rule_figures(rows, parsed) + blind_figures() + hostile_figures()
               + speed_figures(rows, quick))
    spec = extract if extract is not None else (None if quick else "smollm2")
    if spec:
        from medvqa.errors import BadInputError

        try:
            figures += extractor_figures(spec, rows, parsed)
        except (ModuleNotFoundError, BadInputError) as exc:
            # a missing optional dependency or an unknown spec; a name that no longer imports
            # is a defect and raises
            log.warning("extraction bench: extractor %s skipped: %s", spec, exc)
    return figures
