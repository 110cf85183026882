"""Pass two: predictions.jsonl read once, each line scored and written back as it goes.

Each line is validated (:class:`~medvqa.schema.Prediction`, one path that names file, line,
item and field of a bad line), its item read back from the
:class:`~medvqa.score._items.ItemTable`, transformed by its condition, parsed, scored, tagged
for failure modes, appended to the :class:`~medvqa.score._table.RowTable` and written to the
new predictions.jsonl with ``choice``, ``correct`` and ``invalid`` (atomically: the old file
stays until the new one is complete). Nothing grows with the number of lines but the row table
(~20 bytes a row) and the counts; bad lines are counted, and the first
:data:`SHOWN_PROBLEMS` are kept for the report to the user.

Each condition is parsed with a fresh parser, in prediction-file order (so the ``pathmmu``
style's seeded fallback is reproducible). Conditions that change an item (``permute@k`` shifts
options, ``swap`` changes the question) are re-derived from the condition registry, never read
from storage. Errored requests are counted and left out: a failed API call is not a wrong
answer.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np
from pydantic import ValidationError
from pydantic_core import to_json

from medvqa.conditions import get_condition
from medvqa.errors import BadInputError, MedvqaError
from medvqa.reading import make_parser
from medvqa.schema import (
    ABSENT_WHEN_NULL,
    InputError,
    Item,
    Prediction,
    raw_lines,
    record_error,
    validate_raw,
)
from medvqa.score._adjudication import HumanReader, read_by
from medvqa.score._failure_modes import FailureCounts, needs_judge
from medvqa.score._items import ItemTable
from medvqa.score._judge import Candidate
from medvqa.score._reading import ReadingTally, choice_style
from medvqa.score._rows import ScoredRow, score_row
from medvqa.score._table import RowTable
from medvqa.store import atomic_writer

#: Problem lines kept to show; the rest are counted.
SHOWN_PROBLEMS = 50
#: Scored lines written (and hashed) together.
_WRITE_LINES = 2048


@dataclass
class Problems:
    """Bad input met while scoring: every one counted, the first :data:`SHOWN_PROBLEMS` kept."""

    shown: list[str] = field(default_factory=list)
    count: int = 0

    def add(self, line: str) -> None:
        """Count a problem (and keep its line while fewer than the limit are kept)."""
        self.count += 1
        if len(self.shown) < SHOWN_PROBLEMS:
            self.shown.append(line)

    def lines(self) -> list[str]:
        """The kept lines, and one line saying how many more there were."""
        more = self.count - len(self.shown)
        return self.shown + ([f"… and {more:,} more like these (not shown)"] if more else [])


def problem_line(path: Path, lineno: int, raw: bytes, exc: Exception, id_key: str) -> str:
    """One line for a bad JSON line: file, line, the record's id when readable, field, why."""
    err = record_error(path, lineno, exc)
    try:
        found = json.loads(raw)
        record_id = found.get(id_key) if isinstance(found, dict) else None
    except (ValueError, RecursionError):  # not JSON, or nested too deeply to read
        record_id = None
    if record_id is None:
        return str(err)
    return f"{err.file}:{err.line}: item {record_id}: {err.field}: {err.message}"


def scored_line(pred: Prediction, choice: Any = None, correct: bool | None = None,
                invalid: bool | None = None, scored: bool = False,
                extracted_by: dict[str, Any] | None = None,
                human: tuple[str, dict[str, Any]] | None = None) -> bytes:
    """The prediction's line as ``Prediction.model_dump_json`` writes it (without a copy).

    With ``scored``, ``choice``, ``correct``, ``invalid`` and ``extracted_by`` replace the
    line's own (a rescore without ``--extract`` drops an earlier extractor's mark); ``human``
    (``read_by`` and the automatic reading it replaced) likewise.
    """
    data = pred.__dict__.copy()
    if scored:
        data["choice"], data["correct"], data["invalid"], data["extracted_by"] = (
            choice, correct, invalid, extracted_by)
        data["read_by"], data["reader"] = human if human is not None else (None, None)
    for key in ABSENT_WHEN_NULL:
        if data.get(key) is None:
            data.pop(key, None)
    return to_json(data, inf_nan_mode="null") + b"\n"


@dataclass
class Tally:
    """What pass two counted besides the rows.

    Attributes:
        errors: condition → failed requests of known items (not scored).
        coverage_errors: condition → failed requests, any item (coverage counts these).
        first_error: condition → the first failed request's message.
        answered: condition → per item, whether some line answered it.
        unknown: condition → ids answered that are not in the benchmark.
        failures: condition → failure-mode tag counts.
        judge_queue: condition → failures left for the LLM judge (with ``--judge``).
        sha256: SHA-256 of the predictions.jsonl written.
    """

    errors: Counter[str] = field(default_factory=Counter)
    coverage_errors: Counter[str] = field(default_factory=Counter)
    first_error: dict[str, str] = field(default_factory=dict)
    answered: dict[str, np.ndarray] = field(default_factory=dict)
    unknown: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    failures: dict[str, FailureCounts] = field(default_factory=lambda: defaultdict(FailureCounts))
    judge_queue: dict[str, list[Candidate]] = field(default_factory=lambda: defaultdict(list))
    sha256: str = ""


@dataclass
class StreamConfig:
    """How pass two scores: style, seed of the conditions, seed of a seeded style, judge queue."""

    style: str
    seed: int
    parser_seed: int
    judge: bool
    reading: ReadingTally | None = None
    human: HumanReader | None = None
    allow_other_benchmark: bool = False


def duplicate_line(path: Path, lineno: int, item_id: str, condition: str, first: int) -> str:
    """The refusal of a second prediction of one (item, condition): one line, what to do.

    Two lines for one item and condition are not one run's output (another run's lines were
    appended, or a file was concatenated); counting both would weigh that item twice and
    keeping either would be a guess, so the file is refused.
    """
    return (f"{path}:{lineno}: item {item_id}, condition {condition}: a second prediction "
            f"(the first is on line {first}); predictions.jsonl holds one line per item and "
            "condition (another run's lines mixed in?): remove the extra lines or run again; "
            "nothing was scored")


@dataclass
class _Condition:
    """What the loop needs of one condition, looked up once per line."""

    transform: Callable[[Item], Item]
    seen: np.ndarray
    failures: FailureCounts
    lines: np.ndarray  # the line each item's prediction was on (0: none yet)
    parsers: dict[str, Any] = field(default_factory=dict)


def score_lines(pred_path: Path, items: ItemTable, config: StreamConfig,
                problems: Problems) -> tuple[RowTable, Tally]:
    """Score every line of ``pred_path`` and write it back scored; return rows and counts.

    Raises:
        InputError: a line is not UTF-8 (not a JSON-lines file of ours; nothing is written).
    """
    rows, tally = RowTable(), Tally()
    conditions: dict[str, _Condition] = {}
    digest = hashlib.sha256()
    # Bound once: the loop below runs a million times.
    # (Prediction.model_validate_json without its wrapper: the same validator, the same errors.)
    validate, find, item_at, add_row = (Prediction.__pydantic_validator__.validate_json,
                                        items.find, items.item, rows.add)
    coverage_errors, errors = tally.coverage_errors, tally.errors
    written: list[bytes] = []
    with atomic_writer(pred_path, "wb") as out:
        for lineno, _, raw in raw_lines(pred_path):
            try:
                pred = validate_raw(validate, pred_path, lineno, raw)
            except InputError:
                raise  # not UTF-8
            except (ValidationError, ValueError) as exc:
                problems.add(problem_line(pred_path, lineno, raw, exc, "item_id"))
                continue
            cond, response = pred.condition, pred.response
            index = find(pred.item_id)
            failed = pred.error is not None or response is None
            if failed:
                coverage_errors[cond] += 1
            if index is None:
                if not config.allow_other_benchmark:
                    raise BadInputError(
                        f"{pred_path}:{lineno}: item_id {pred.item_id!r}: not in {items.path} "
                        "(predictions of another benchmark mixed in?); remove the line, or "
                        "pass --allow-other-benchmark to score the rest; nothing was scored")
                tally.unknown[cond].add(pred.item_id)
                problems.add(f"{pred_path}: item {pred.item_id}: not in {items.path}")
                line = scored_line(pred)
            else:
                state = conditions.get(cond)
                if state is None:
                    state = conditions[cond] = _new_condition(cond, config, items, tally,
                                                              pred_path, lineno)
                if state.lines[index]:
                    raise BadInputError(duplicate_line(pred_path, lineno, pred.item_id, cond,
                                                       int(state.lines[index])))
                state.lines[index] = lineno
                state.seen[index] = True
                if failed:
                    errors[cond] += 1
                    tally.first_error.setdefault(cond, str(pred.error))
                    line = scored_line(pred)
                else:
                    try:
                        row, by, human = _score(pred, response or "", item_at(index), state,
                                                config, tally, index)
                    except MedvqaError:
                        raise
                    except Exception as exc:  # noqa: BLE001 - a reader's bug, not the model's
                        # counted as an error of this response, never as a wrong answer, and
                        # said on one line; the rest of the run is still scored
                        why = f"{type(exc).__name__}: {exc}"[:200]
                        errors[cond] += 1
                        coverage_errors[cond] += 1
                        tally.first_error.setdefault(cond, f"the answer reader failed ({why})")
                        problems.add(f"{pred_path}:{lineno}: response: the answer reader failed "
                                     f"({why}); counted as an error, not an answer — please "
                                     "report it with this line")
                        line = scored_line(pred)
                    else:
                        add_row(index, cond, row)
                        line = scored_line(pred, row.choice, row.correct, row.invalid,
                                           scored=True, extracted_by=by, human=human)
            written.append(line)
            if len(written) >= _WRITE_LINES:
                _flush(written, digest, out)
        _flush(written, digest, out)
    tally.sha256 = digest.hexdigest()
    return rows, tally


def _new_condition(cond: str, config: StreamConfig, items: ItemTable, tally: Tally,
                   pred_path: Path, lineno: int) -> _Condition:
    """The loop's state of condition ``cond``; an unknown condition names its line."""
    try:
        transform = get_condition(cond, config.seed).transform_item
    except (MedvqaError, ValueError, KeyError) as exc:
        why = str(exc).rstrip(".")
        raise BadInputError(f"{pred_path}:{lineno}: condition: {why}; nothing was scored") from None
    return _Condition(transform,
                      tally.answered.setdefault(cond, np.zeros(len(items), dtype=bool)),
                      tally.failures[cond], np.zeros(len(items), dtype=np.int64))


def _flush(lines: list[bytes], digest: Any, out: IO[Any]) -> None:
    """Write and hash the scored lines kept so far, in one piece (one call, not one a line)."""
    chunk = b"".join(lines)
    digest.update(chunk)
    out.write(chunk)
    lines.clear()


def _score(pred: Prediction, response: str, item: Item, state: _Condition,
           config: StreamConfig, tally: Tally, index: int
           ) -> tuple[ScoredRow, dict[str, Any] | None, tuple[str, dict[str, Any]] | None]:
    """Score one answered prediction of a known item; count its failure tags.

    Returns the row as finally read, who read it when the extractor did, and, when a human
    reading replaced the automatic one, ``read_by`` with the automatic reading.
    """
    shown = state.transform(item)
    style = choice_style(shown, config.style)
    parser = state.parsers.get(style)
    if parser is None:
        parser = state.parsers[style] = make_parser(style, seed=config.parser_seed)
    reading = config.reading
    extraction = (reading.extractions.get((pred.item_id, pred.condition))
                  if reading is not None else None)
    # The raw response is kept; every parser sets reasoning aside itself.
    final = score_row(shown, pred, parser, extraction)
    if reading is not None:
        reading.count(shown, pred, final, config.style)
    by = asdict(extraction.extracted_by) if extraction is not None and final.extracted else None
    human = None
    if config.human is not None:
        auto = final
        final, reading_ = config.human.apply(shown, pred, auto, index)
        if reading_ is not None:
            human = (read_by(reading_), {"choice": auto.choice, "correct": auto.correct,
                                         "invalid": auto.invalid, "extracted_by": by})
            by = None
    tags = state.failures.add(response, final, shown.options)
    if config.judge and needs_judge(tags, final):
        tally.judge_queue[pred.condition].append(Candidate(shown, pred.condition, response))
    return final, by, human
