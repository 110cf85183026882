"""The items behind the report: every scored response, with its item, reading and why.

A reviewer checks a figure by opening the items behind it. This module gathers, for each
benchmark of the report, the items its runs answered (question, options, gold, images, label
provenance, from the BENCH/ given with ``--bench``) and every model's response to each under each
condition: the choice as scored, the outcome (correct / wrong / invalid / error), who or what
decided it (the strict reader's rule and reason, the LLM extractor, a human reading) and whether
two readers disagreed on it. :mod:`medvqa.report._items_page` writes it as a self-contained page
and a CSV / JSONL a spreadsheet opens.

A run's benchmark is found by its items' SHA-256 (metrics.json's provenance), so a report of
many benchmarks takes each BENCH/ once in any order; a run whose benchmark was not given still
has its responses shown, with the item's text marked as not given.
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from medvqa._path_guard import UnsafePathError, inside, own_file, regular_problem
from medvqa.errors import BadInputError
from medvqa.report._loaded import LoadedRun
from medvqa.schema import BENCHMARK_FILE, ITEMS_FILE, PREDICTIONS_FILE, Item, iter_json_lines

__all__ = ["OUTCOMES", "Answer", "BenchItems", "ItemView", "gather_items", "outcome_of"]

#: The outcomes a response can have, in the order the filters list them.
OUTCOMES = ("correct", "wrong", "invalid", "error", "unscored")
#: Characters of a response kept in the page (the rest: the JSONL beside it, and the run).
PAGE_TEXT_LIMIT = 20_000
#: What the page says for an item whose benchmark was not given.
NOT_GIVEN = "(the benchmark was not given: pass --bench BENCH/ to `medvqa report`)"


@dataclass
class Answer:
    """One model's response to one item under one condition, as the item view shows it.

    Attributes:
        model: the model's label in the report.
        condition: the condition (clean, blind, …).
        response: the raw response ("" on a request error).
        choice: the choice as scored, in words ("B", "A, C", "–" when none).
        outcome: one of :data:`OUTCOMES`.
        why: who or what decided the choice, in words (rule id and reason, extractor, human).
        disagree: True when two readers read it differently (``--styles``, a human reading).
    """

    model: str
    condition: str
    response: str
    choice: str
    outcome: str
    why: str
    disagree: bool = False


@dataclass
class ItemView:
    """One item as the view shows it, with every answer to it."""

    id: str
    question: str
    options: dict[str, str]
    gold: str
    question_type: str
    category: str
    split: str
    case_id: str
    #: Image paths relative to the report's folder ("" when the file is missing).
    images: list[str]
    #: Where the item came from (source file, label row …), from the item's meta.
    provenance: str
    answers: list[Answer] = field(default_factory=list)


@dataclass
class BenchItems:
    """The items of one benchmark that the report's runs answered, in items.jsonl order."""

    name: str
    items: list[ItemView]
    models: list[str]
    conditions: list[str]
    #: Lines of the runs' files that could not be read, one per problem.
    problems: list[str] = field(default_factory=list)


def outcome_of(pred: dict[str, Any]) -> str:
    """The outcome of one scored prediction line.

    >>> outcome_of({"correct": True}), outcome_of({"correct": False, "invalid": True})
    ('correct', 'invalid')
    >>> outcome_of({"error": "x"}), outcome_of({"response": "B"})
    ('error', 'unscored')
    """
    if pred.get("error"):
        return "error"
    if pred.get("correct") is None:
        return "unscored"
    if pred.get("invalid"):
        return "invalid"
    return "correct" if pred["correct"] else "wrong"


def choice_text(choice: Any) -> str:
    """A scored choice in words.

    >>> choice_text(["A", "C"]), choice_text(None), choice_text("B")
    ('A, C', '–', 'B')
    """
    if choice is None:
        return "–"
    return ", ".join(map(str, choice)) if isinstance(choice, list) else str(choice)


def _bench_dirs(benches: list[Path]) -> dict[str, Path]:
    """items_sha256 → BENCH/ of each benchmark given."""
    out: dict[str, Path] = {}
    for d in benches:
        card = Path(d) / BENCHMARK_FILE
        if not card.is_file():
            raise BadInputError(f"{d}: no {BENCHMARK_FILE}")
        sha = json.loads(card.read_text("utf-8")).get("items_sha256")
        if sha:
            out[sha] = Path(d)
    return out


def _provenance(item: Item) -> str:
    """Where a label-built item came from, in words ('' when nothing is recorded)."""
    from medvqa.benchmark import item_provenance

    return "; ".join(f"{k}: {v}" for k, v in item_provenance(item))


def _image_link(bench: Path, rel: str, out_dir: Path) -> str:
    """The item view's link to image ``rel`` of ``bench``, relative to ``out_dir``.

    "" (no image shown) where the path leaves the benchmark (absolute, ``..``, a link out, a
    NUL byte) or is not a regular file: a report never points a browser at a file outside the
    benchmark it shows.
    """
    try:
        path = inside(bench, rel, what="image path", root_name="the benchmark folder")
    except UnsafePathError:
        return ""
    if regular_problem(path) is not None:
        return ""
    return os.path.relpath(path, out_dir.resolve())


def _item_view(item: Item, bench: Path, out_dir: Path) -> ItemView:
    images = [_image_link(bench, rel, out_dir) for rel in item.images]
    gold = item.answer
    gold_text = (", ".join(gold) if isinstance(gold, list) else str(gold))
    return ItemView(item.id, item.question, dict(item.options), gold_text, item.question_type,
                    item.category, item.split, item.case_id or "", images, _provenance(item))


def _bare_view(item_id: str) -> ItemView:
    return ItemView(item_id, NOT_GIVEN, {}, "?", "", "", "", "", [], "")


def _load_items(bench: Path | None, wanted: set[str], out_dir: Path
                ) -> tuple[dict[str, ItemView], dict[str, Item]]:
    """The wanted items of ``bench`` in items.jsonl order (bare views where not given).

    Also returns the items themselves, to re-read the responses against.
    """
    views: dict[str, ItemView] = {}
    items: dict[str, Item] = {}
    if bench is not None:
        for line in iter_json_lines(own_file(bench, ITEMS_FILE)):
            if line.error or not isinstance(line.value, dict):
                continue
            if line.value.get("id") not in wanted:
                continue
            try:
                item = Item.model_validate(line.value)
            except ValueError:
                continue
            items[item.id] = item
            views[item.id] = _item_view(item, bench, out_dir)
    for item_id in sorted(wanted - views.keys()):
        views[item_id] = _bare_view(item_id)
    return views, items


def _disagreements(run: LoadedRun) -> set[tuple[str, str]]:
    """(item, condition) pairs two styles read differently (style_disagreements.jsonl)."""
    name = (run.metrics.reading or {}).get("disagreements_file")
    if not name or not (run.path / name).is_file():
        return set()
    return {(v["item_id"], v["condition"]) for line in iter_json_lines(run.path / name)
            if isinstance(v := line.value, dict) and "item_id" in v}


class _Why:
    """Who decided each reading: re-reads a response with the run's style for its rule."""

    def __init__(self, style: str, seed: int):
        from medvqa.conditions import get_condition
        from medvqa.reading import REASONS, make_parser
        from medvqa.score import choice_style

        self.style, self.seed = style, seed
        self.parsers: dict[tuple[str, str], Any] = {}
        self.transforms: dict[str, Any] = {}
        self.get_condition, self.make_parser = get_condition, make_parser
        self.reasons, self.choice_style = REASONS, choice_style
        # Runs of one benchmark often give the same response to an item (baselines, copies).
        self.memo: dict[tuple[str, str, str, Any], str] = {}

    def __call__(self, pred: dict[str, Any], item: Item | None) -> str:
        if pred.get("error"):
            return f"request failed: {pred['error']}"
        if pred.get("read_by"):
            auto = pred.get("reader") or {}
            return (f"human reading ({pred['read_by']}); the automatic reader had "
                    f"{choice_text(auto.get('choice'))}")
        if pred.get("extracted_by"):
            by = pred["extracted_by"]
            return f"LLM extractor {by.get('model', '')} (the rules could not read it)"
        if pred.get("correct") is None:
            return "not scored"
        if item is None:
            return f"{self.style} reader"
        return self._rule(pred, item)

    def _rule(self, pred: dict[str, Any], item: Item) -> str:
        cond = pred.get("condition", "clean")
        response = pred.get("response") or ""
        key = (cond, item.id, response, _key(pred.get("choice")))
        got = self.memo.get(key)
        if got is None:
            got = self.memo[key] = self._read(cond, response, pred.get("choice"), item)
        return got

    def _read(self, cond: str, response: str, choice: Any, item: Item) -> str:
        try:
            if cond not in self.transforms:
                self.transforms[cond] = self.get_condition(cond, self.seed).transform_item
            shown = self.transforms[cond](item)
        except (ValueError, LookupError):
            return f"{self.style} reader"
        style = self.choice_style(shown, self.style)
        parser = self.parsers.get((cond, style))
        if parser is None:
            parser = self.parsers[(cond, style)] = self.make_parser(style)
        got = parser.parse(response, shown.options, shown.question_type,
                           question=shown.question)
        if _key(got.choice) != _key(choice):
            return f"{style} reader (read when scored)"
        parts = [f"{style} reader"]
        if got.rule:
            parts.append(f"rule {got.rule}")
        if got.reason:
            parts.append(f"{got.reason}: {self.reasons.get(got.reason, '')}".rstrip(": "))
        return "; ".join(parts)


def _key(choice: Any) -> Any:
    return tuple(sorted(map(str, choice))) if isinstance(choice, list) else choice


def gather_items(runs: list[LoadedRun], benches: list[Path], out_dir: Path,
                 why: bool = True) -> list[BenchItems]:
    """The items of each benchmark of ``runs`` with every response to them.

    Args:
        runs: the report's runs.
        benches: BENCH/ folders; each run's is the one whose items SHA-256 it was scored on.
        out_dir: the report's folder (image paths are made relative to it).
        why: re-read each response for the rule that decided it (off: "strict reader").
    """
    dirs = _bench_dirs(benches)
    by_bench: dict[str, list[LoadedRun]] = defaultdict(list)
    for r in runs:
        by_bench[r.metrics.benchmark].append(r)
    out = []
    for name in sorted(by_bench):
        out.append(_bench_items(name, by_bench[name], dirs, out_dir, why))
    return out


def _bench_items(name: str, runs: list[LoadedRun], dirs: dict[str, Path], out_dir: Path,
                 why: bool) -> BenchItems:
    lines: dict[str, list[dict[str, Any]]] = {}
    problems: list[str] = []
    for r in runs:
        path = r.path / PREDICTIONS_FILE
        got: list[dict[str, Any]] = []
        if path.is_file():
            for line in iter_json_lines(path):
                if line.error or not isinstance(line.value, dict) or "item_id" not in line.value:
                    problems.append(f"{path}:{line.line}: {line.error or 'not a prediction'}")
                    continue
                got.append(line.value)
        else:
            problems.append(f"{r.path}: no {PREDICTIONS_FILE}")
        lines[r.label] = got
    wanted = {str(p["item_id"]) for got in lines.values() for p in got}
    sha = next((s for r in runs if (s := (r.metrics.provenance or {}).get(
        "benchmark_items_sha256")) in dirs), None)
    bench = dirs.get(sha) if sha else None
    views, items = _load_items(bench, wanted, out_dir)
    conditions: dict[str, None] = {}
    for r in runs:
        reader = _Why(r.metrics.style, (r.metrics.seeds or {}).get("conditions", r.metrics.seed))
        differ = _disagreements(r)
        for p in lines[r.label]:
            item_id, cond = str(p["item_id"]), str(p.get("condition", "clean"))
            conditions.setdefault(cond)
            human = bool(p.get("read_by")) and _key((p.get("reader") or {}).get("choice")) \
                != _key(p.get("choice"))
            views[item_id].answers.append(Answer(
                r.label, cond, str(p.get("response") or ""), choice_text(p.get("choice")),
                outcome_of(p), reader(p, items.get(item_id)) if why else
                f"{r.metrics.style} reader", (item_id, cond) in differ or human))
    from medvqa.conditions import condition_order

    return BenchItems(name, list(views.values()), [r.label for r in runs],
                      sorted(conditions, key=condition_order), problems)
