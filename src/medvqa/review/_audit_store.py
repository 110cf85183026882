"""Reads and append-only writes of the reader audit: designs, questions, entries, readings.

A *question* is one distinct (question type, options, response) to read; an *entry* is one
queued response of one run pointing at its question. People's readings of a question are
append-only rows (the latest of each reader counts); an admin's ``adjudication`` is final.
:func:`resolve_reading` turns a question's rows into a :class:`~medvqa.schema.HumanReading`.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from medvqa.errors import BadInputError
from medvqa.review._audit_db import _sa
from medvqa.review._bench import ReviewBench
from medvqa.review._store import Reviewer, ReviewStore
from medvqa.schema import (
    READING_VERDICTS,
    AdjudicationFile,
    AuditDesign,
    AuditEntry,
    HumanReading,
)

#: Seconds a question stays held for the reader who opened it.
CLAIM_S = 600.0


@dataclass(frozen=True)
class Question:
    """One thing to read, as the reading page shows it.

    Attributes:
        id: its row id.
        qkey: its :func:`~medvqa.schema.question_key`.
        item_id: the first item it was queued from (whose question is shown).
        question: that item's question.
        question_type: single, multi, yesno or grade.
        options: letter → text, as shown to the model.
        response: the model's response.
        readers: the automatic readings of it, one per queued entry (run, condition, reader
            decision, choice), revealed once the person has read it.
        target: readers wanted (the most any of its designs asks).
        rank: serving order (the lowest rank of its entries).
    """

    id: int
    qkey: str
    item_id: str
    question: str
    question_type: str
    options: dict[str, str]
    response: str
    readers: list[dict[str, Any]] = field(default_factory=list)
    target: int = 1
    rank: int = 0


@dataclass(frozen=True)
class ReadingRow:
    """One person's reading of one question."""

    id: int
    question_id: int
    reviewer: str
    kind: str
    verdict: str
    choice: str | list[str] | None
    created_at: float


@dataclass(frozen=True)
class QueuedEntry:
    """A response to queue: the entry, and the question it asks."""

    entry: AuditEntry
    item_id: str
    question: str
    question_type: str
    options: dict[str, str]
    response: str
    reader: dict[str, Any]


def resolve_reading(rows: list[ReadingRow]) -> HumanReading:
    """A question's outcome from its reading rows (oldest first).

    >>> r = lambda i, who, v, c=None, k="reading": ReadingRow(i, 1, who, k, v, c, 0.0)
    >>> resolve_reading([r(1, "a", "answer", "B"), r(2, "b", "answer", "B")]).status
    'agreed'
    >>> resolve_reading([r(1, "a", "answer", "B"), r(2, "b", "no_answer")]).status
    'disputed'
    >>> resolve_reading([r(1, "a", "answer", "B"), r(2, "b", "no_answer"),
    ...                  r(3, "c", "no_answer", k="adjudication")]).verdict
    'no_answer'
    """
    latest: dict[str, ReadingRow] = {}
    final: ReadingRow | None = None
    for row in rows:
        if row.kind == "adjudication":
            final = row
        else:
            latest[row.reviewer] = row
    readers = sorted(latest)
    if final is not None:
        return HumanReading(status="adjudicated", verdict=final.verdict,  # type: ignore[arg-type]
                            choice=final.choice, readers=sorted({*readers, final.reviewer}),
                            by=[final.reviewer])
    if not latest:
        return HumanReading(status="pending")
    said = {(r.verdict, json.dumps(r.choice)) for r in latest.values()}
    if len(said) > 1:
        return HumanReading(status="disputed", readers=readers)
    first = next(iter(latest.values()))
    return HumanReading(status="agreed", verdict=first.verdict,  # type: ignore[arg-type]
                        choice=first.choice, readers=readers, by=readers)


def check_reading(question: Question, verdict: str, letters: list[str]) -> str | list[str] | None:
    """The choice a posted reading stands for; BadInputError when it does not fit the question."""
    if verdict not in READING_VERDICTS:
        raise BadInputError(f"verdict: {verdict!r} is not one of {', '.join(READING_VERDICTS)}")
    if verdict != "answer":
        return None
    chosen = sorted(dict.fromkeys(letters))
    if not chosen or any(c not in question.options for c in chosen):
        raise BadInputError("choice: pick among the options")
    if question.question_type == "multi":
        return chosen
    if len(chosen) != 1:
        raise BadInputError("choice: this question takes one option")
    return chosen[0]


class AuditStore:
    """The audit's database access, on a :class:`~medvqa.review.ReviewStore`'s database."""

    def __init__(self, store: ReviewStore):
        self.store = store
        self.db = store.db
        self.t = store.t

    def add_design(self, bench: str, design: AuditDesign, queued: list[QueuedEntry]) -> bool:
        """Store a run's design, its questions and entries at once; False if it exists."""
        sa = _sa()
        d, q, e = self.t["audit_designs"], self.t["audit_questions"], self.t["audit_entries"]
        now = time.time()
        try:
            with self.db.write() as c:
                did = c.execute(d.insert().values(
                    bench=bench, population_sha256=design.population_sha256,
                    condition=design.condition, design_json=design.model_dump_json(),
                    created_at=now)).inserted_primary_key[0]
                known = {r.qkey: r.id for r in c.execute(
                    sa.select(q.c.qkey, q.c.id).where(q.c.bench == bench)).all()}
                for x in queued:
                    key = x.entry.question_key
                    if key not in known:
                        known[key] = c.execute(q.insert().values(
                            bench=bench, qkey=key, item_id=x.item_id, question=x.question,
                            question_type=x.question_type,
                            options_json=json.dumps(x.options, ensure_ascii=False),
                            response=x.response, created_at=now)).inserted_primary_key[0]
                    c.execute(e.insert().values(
                        design_id=did, question_id=known[key], item_id=x.item_id,
                        kind=x.entry.kind, stratum=x.entry.stratum, weight=x.entry.weight,
                        rank=x.entry.rank, reader_json=json.dumps(x.reader, ensure_ascii=False)))
        except sa.exc.IntegrityError:
            return False
        return True

    def benches(self) -> list[str]:
        """Keys of the benchmarks that have an audit queued in this database."""
        d = self.t["audit_designs"]
        with self.db.read() as c:
            return sorted(r[0] for r in c.execute(_sa().select(d.c.bench).distinct()).all())

    def designs(self, bench: str) -> dict[int, AuditDesign]:
        """Design id → design, of one benchmark."""
        d = self.t["audit_designs"]
        with self.db.read() as c:
            rows = c.execute(d.select().where(d.c.bench == bench).order_by(d.c.id)).all()
        return {r.id: AuditDesign.model_validate_json(r.design_json) for r in rows}

    def questions(self, bench: str) -> dict[int, Question]:
        """Question id → question (with its entries' automatic readings), of one benchmark."""
        sa = _sa()
        q, e = self.t["audit_questions"], self.t["audit_entries"]
        designs = self.designs(bench)
        with self.db.read() as c:
            qs = c.execute(q.select().where(q.c.bench == bench).order_by(q.c.id)).all()
            es = c.execute(sa.select(e).join(q, q.c.id == e.c.question_id)
                           .where(q.c.bench == bench).order_by(e.c.id)).all()
        readers: dict[int, list[dict[str, Any]]] = defaultdict(list)
        targets: dict[int, int] = defaultdict(lambda: 1)
        ranks: dict[int, int] = {}
        for x in es:
            design = designs[x.design_id]
            readers[x.question_id].append({
                "run": design.run, "condition": design.condition, "kind": x.kind,
                "stratum": x.stratum, **json.loads(x.reader_json)})
            targets[x.question_id] = max(targets[x.question_id], design.readers)
            ranks[x.question_id] = min(ranks.get(x.question_id, x.rank), x.rank)
        return {r.id: Question(r.id, r.qkey, r.item_id, r.question, r.question_type,
                               json.loads(r.options_json), r.response, readers[r.id],
                               targets[r.id], ranks.get(r.id, 0)) for r in qs}

    def count_questions(self, bench: str) -> int:
        """How many responses of one benchmark are queued to read."""
        q = self.t["audit_questions"]
        with self.db.read() as c:
            return int(c.execute(_sa().select(_sa().func.count()).select_from(q)
                                 .where(q.c.bench == bench)).scalar() or 0)

    def entries(self, bench: str) -> list[AuditEntry]:
        """Every queued entry of one benchmark, as the adjudication file holds them."""
        sa = _sa()
        q, e, d = self.t["audit_questions"], self.t["audit_entries"], self.t["audit_designs"]
        with self.db.read() as c:
            rows = c.execute(sa.select(e, q.c.qkey, d.c.population_sha256, d.c.condition)
                             .join(q, q.c.id == e.c.question_id)
                             .join(d, d.c.id == e.c.design_id)
                             .where(d.c.bench == bench).order_by(e.c.id)).all()
        return [AuditEntry(population_sha256=r.population_sha256, item_id=r.item_id,
                           condition=r.condition, question_key=r.qkey, kind=r.kind,
                           stratum=r.stratum, weight=r.weight, rank=r.rank) for r in rows]

    def record_reading(self, *, nonce: str, question_id: int, reviewer: Reviewer, kind: str,
                       verdict: str, choice: str | list[str] | None) -> bool:
        """Append a reading; False when this nonce was recorded already (a retried post)."""
        if kind not in ("reading", "adjudication"):
            raise BadInputError(f"kind: {kind!r}")
        sa = _sa()
        try:
            with self.db.write() as c:
                c.execute(self.t["audit_readings"].insert().values(
                    nonce=nonce, question_id=question_id, reviewer_id=reviewer.id, kind=kind,
                    verdict=verdict, choice_json=None if choice is None else json.dumps(choice),
                    created_at=time.time()))
        except sa.exc.IntegrityError:
            return False
        return True

    def readings(self, bench: str) -> dict[int, list[ReadingRow]]:
        """Question id → its reading rows, oldest first."""
        sa = _sa()
        a, q, r = self.t["audit_readings"], self.t["audit_questions"], self.t["reviewers"]
        with self.db.read() as c:
            rows = c.execute(sa.select(a, r.c.name).join(q, q.c.id == a.c.question_id)
                             .join(r, r.c.id == a.c.reviewer_id)
                             .where(q.c.bench == bench).order_by(a.c.id)).all()
        out: dict[int, list[ReadingRow]] = defaultdict(list)
        for x in rows:
            out[x.question_id].append(ReadingRow(
                x.id, x.question_id, x.name, x.kind, x.verdict,
                None if x.choice_json is None else json.loads(x.choice_json), x.created_at))
        return out

    def outcomes(self, bench: str) -> dict[int, HumanReading]:
        """Question id → what the humans read (every question, pending ones too)."""
        rows = self.readings(bench)
        return {qid: resolve_reading(rows.get(qid, [])) for qid in self.questions(bench)}

    def next_question(self, bench: str, reviewer: Reviewer) -> int | None:
        """The question this person should read next, or None when nothing is left for them.

        Lowest serving rank first (the sample's seeded random order, then the
        disagreements); passed over: questions they read, decided ones, disputed ones (an
        admin's), and those whose readings plus others' live claims reach the target.
        """
        c_ = self.t["claims"]
        questions = self.questions(bench)
        rows = self.readings(bench)
        with self.db.read() as c:
            claims = c.execute(_sa().select(c_.c.item_id, c_.c.reviewer_id).where(
                (c_.c.bench == bench) & (c_.c.expires_at > time.time())
                & (c_.c.reviewer_id != reviewer.id))).all()
        names = {r.id: r.name for r in self.store.reviewers()}
        held: dict[str, set[str]] = defaultdict(set)
        for x in claims:
            held[x.item_id].add(names.get(x.reviewer_id, ""))
        best: tuple[int, int] | None = None
        for qid, question in questions.items():
            mine = rows.get(qid, [])
            outcome = resolve_reading(mine)
            if outcome.status in ("adjudicated", "disputed") or reviewer.name in outcome.readers:
                continue
            # A claim counts while its holder has not read the question yet.
            waiting = held[claim_key(qid)] - set(outcome.readers)
            if len(outcome.readers) + len(waiting) >= question.target:
                continue
            key = (question.rank, qid)
            if best is None or key < best:
                best = key
        return best[1] if best else None

    def claim(self, bench: str, question_id: int, reviewer: Reviewer) -> None:
        """Hold a question for the reader who opened it."""
        self.store.claim(bench, claim_key(question_id), reviewer, CLAIM_S)

    def export(self, bench: ReviewBench) -> AdjudicationFile:
        """Everything scoring needs: designs, entries and each question's outcome."""
        questions = self.questions(bench.key)
        outcomes = self.outcomes(bench.key)
        return AdjudicationFile(
            benchmark=bench.card.name, benchmark_key=bench.key,
            items_sha256=bench.card.items_sha256,
            designs=list(self.designs(bench.key).values()), entries=self.entries(bench.key),
            readings={questions[qid].qkey: outcomes[qid] for qid in questions})


def claim_key(question_id: int) -> str:
    """The claims table's item id of a question (claims are shared with item review)."""
    return f"audit:{question_id}"
