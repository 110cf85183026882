"""Parse a JSONL file of responses with one parser pass (the ``medvqa parse`` contract).

Each record may carry its ``question`` (the strict style reads yes/no findings against it);
each output line has the choice, whether it is correct, whether it is invalid and why.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from medvqa.reading._base import is_correct
from medvqa.reading._registry import make_parser
from medvqa.schema import iter_json_lines

_TYPES = {"single", "multi", "yesno", "grade", "open", "region"}


def _check(rec: Any) -> str | None:
    """The first problem with one input record, as 'field: why', or None."""
    if not isinstance(rec, dict):
        return "(line): not a JSON object"
    if not isinstance(rec.get("response"), str):
        return "response: not a string"
    qtype = rec.get("question_type", "single")
    if qtype not in _TYPES:
        return f"question_type: {qtype!r} is not one of {sorted(_TYPES)}"
    options = rec.get("options")
    if qtype not in {"open", "region"}:
        if not isinstance(options, dict) or not options:
            return "options: missing or empty"
        answer = rec.get("answer")
        letters = answer if isinstance(answer, list) else [answer]
        bad = [a for a in letters if a not in options]
        if bad:
            return f"answer: {bad} not among the options {list(options)}"
    return None


def parse_records(path: Path, style: str, seed: int) -> tuple[list[dict[str, Any]], list[str]]:
    """Parse every good line in order; return output records and one message per skipped line."""
    parser = make_parser(style, seed=seed)
    out: list[dict[str, Any]] = []
    problems: list[str] = []
    for lineno, rec, error in iter_json_lines(path):
        if error:
            problems.append(f"{path}:{lineno}: {error}")
            continue
        problem = _check(rec)
        if problem:
            item_id = rec.get("id") if isinstance(rec, dict) else None
            problems.append(f"{path}:{lineno}: item {item_id}: {problem}")
            continue
        qtype = rec.get("question_type", "single")
        question = rec.get("question")
        parsed = parser.parse(rec["response"], rec.get("options") or {}, qtype,
                              question=question if isinstance(question, str) else "")
        out.append({
            "id": rec.get("id"),
            "choice": parsed.choice,
            "correct": is_correct(parsed.choice, rec.get("answer", ""), qtype,
                                  texts=rec.get("options") if parser.compares_text else None),
            "invalid": parsed.invalid,
            "reason": parsed.reason,
        })
    return out, problems
