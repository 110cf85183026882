"""``medvqa score --adjudication``: human readings replace automatic ones; the reader is audited.

Clinicians read queued responses in the review app (``medvqa review adjudicate``, then the
app's reading page); their readings arrive here as an
:class:`~medvqa.schema.AdjudicationFile` (exported, or read from the review database by the
command line). While a run is scored:

- a response with a final human reading (readers agreed, or an admin adjudicated) is scored by
  it: ``choice``, ``correct`` and ``invalid`` are the human's, the line says ``read_by:
  human:NAME`` and keeps the automatic reading under ``reader``; a disputed one keeps the
  automatic reading and is counted;
- on the random audit sample the reader's confusion is estimated — agreement, false-credit
  rate, miss rate, design-weighted, each with a Wilson interval on Kish's effective n
  (:func:`~medvqa.stats.weighted_rate`);
- the accuracy gets a prediction-powered estimate (stratified PPI++,
  :func:`~medvqa.stats.stratified_ppi`): the automatic reading of every response — with the
  human readings of the queued disagreements, which are no random draw, put in its place —
  corrected by the random sample's human readings, weighted by the sample's design. The
  human sample alone (λ = 0) is given beside it.

The audit belongs to one run: the file must be of this benchmark (``items_sha256``) and hold
a design whose :class:`~medvqa.schema.PopulationHash` is this run's responses, else one line,
exit 2.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from medvqa.errors import BadInputError
from medvqa.reading import is_correct
from medvqa.schema import (
    AdjudicationFile,
    AuditDesign,
    AuditEntry,
    AuditEstimate,
    AuditRate,
    ConditionAudit,
    HumanReading,
    Item,
    PopulationHash,
    Prediction,
    ReadingAudit,
    question_key,
    read_numbered,
)
from medvqa.score._items import ItemTable
from medvqa.score._rows import ScoredRow, _class_of
from medvqa.stats import RateEstimate, Stratum, design_effect, stratified_ppi, weighted_rate

#: The estimators, as metrics.json and the report's methods paragraph name them.
METHOD = ("prediction-powered inference (Angelopoulos et al., Science 2023) with PPI++ power "
          "tuning (Angelopoulos, Duchi and Zrnic, 2024), stratified by the reader's decision "
          "and weighted by the audit sample's design (N_h / n_h), normal 95 % interval with "
          "the finite-population correction; reader rates design-weighted with Wilson "
          "intervals on Kish's effective sample size")
FINAL = ("agreed", "adjudicated")


def population_hashes(pred_path: Path, items: ItemTable) -> dict[str, PopulationHash]:
    """Condition → hash of its answered responses to choice items (what a sample is drawn from).

    The same definition as the review queue's: a line with a response and no error, of an item
    of the benchmark that has options. Bad lines are passed over (the scoring pass reports them).
    """
    out: dict[str, PopulationHash] = defaultdict(PopulationHash)
    for _, pred in read_numbered(pred_path, Prediction, []):
        if pred.error is not None or pred.response is None:
            continue
        index = items.find(pred.item_id)
        if index is None or not items.item(index).options:
            continue
        out[pred.condition].add(pred.item_id, pred.condition, pred.response)
    return dict(out)


def _key(choice: str | list[str] | None) -> Any:
    return tuple(choice) if isinstance(choice, list) else choice


@dataclass
class _Unit:
    """One audited response: what the reader and (where read) the humans made of it."""

    index: int
    auto_correct: bool
    auto_choice: Any
    corrected: bool
    human: HumanReading | None = None
    human_correct: bool | None = None


@dataclass
class HumanReader:
    """Human readings for the scoring pass, and the audit counts it gathers.

    Attributes:
        source: where the readings came from (shown in metrics.json).
        file: the adjudication file.
        designs: condition → this run's design of it.
        entries: (item id, condition) → this run's queued entries of it.
        units: condition → its audited responses, in file order.
        replaced: condition → responses a human reading replaced.
    """

    source: str
    file: AdjudicationFile
    designs: dict[str, AuditDesign]
    entries: dict[tuple[str, str], list[AuditEntry]]
    units: dict[str, list[_Unit]] = field(default_factory=lambda: defaultdict(list))
    replaced: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    _samples: dict[str, list[tuple[AuditEntry, _Unit]]] = field(
        default_factory=lambda: defaultdict(list))
    _disagreements: dict[str, list[HumanReading | None]] = field(
        default_factory=lambda: defaultdict(list))

    @classmethod
    def for_run(cls, file: AdjudicationFile, source: str, bench_sha: str, pred_path: Path,
                items: ItemTable, run_dir: Path) -> HumanReader:
        """The readings of ``file`` that belong to this run; refused for another one.

        Raises:
            BadInputError: the file is of another benchmark, or holds no audit of this run.
        """
        if file.items_sha256 != bench_sha:
            raise BadInputError(
                f"{source}: an adjudication of another benchmark ({file.benchmark}, items_sha256 "
                f"{file.items_sha256[:12]}…; this benchmark's items.jsonl is {bench_sha[:12]}…)")
        hashes = {c: h.hexdigest() for c, h in population_hashes(pred_path, items).items()}
        designs = {d.condition: d for d in file.designs
                   if hashes.get(d.condition) == d.population_sha256}
        if not designs:
            held = ", ".join(sorted({f"{d.run} ({d.condition})" for d in file.designs})) or \
                "no run"
            raise BadInputError(
                f"{source}: no audit of {run_dir} (it holds {held}); the responses differ — "
                "another run, or this run changed since `medvqa review adjudicate`")
        pops = {d.population_sha256 for d in designs.values()}
        entries: dict[tuple[str, str], list[AuditEntry]] = defaultdict(list)
        for e in file.entries:
            if e.population_sha256 in pops and e.condition in designs:
                entries[(e.item_id, e.condition)].append(e)
        return cls(source, file, designs, dict(entries))

    def reading_of(self, shown: Item, response: str) -> HumanReading | None:
        """The final human reading of this (options, response), if any."""
        found = self.file.readings.get(question_key(shown.question_type, shown.options,
                                                    response))
        return found if found is not None and found.status in FINAL else None

    def apply(self, shown: Item, pred: Prediction, auto: ScoredRow, index: int
              ) -> tuple[ScoredRow, HumanReading | None]:
        """The row as scored (the human's reading where one counts) and that reading."""
        queued = self.entries.get((pred.item_id, pred.condition), [])
        human = self.reading_of(shown, pred.response or "")
        row = auto if human is None else human_row(shown, auto, human.choice)
        if human is not None:
            self.replaced[pred.condition] += 1
        if pred.condition in self.designs:
            targeted = any(e.kind == "disagreement" for e in queued)
            unit = _Unit(index, bool(auto.correct), _key(auto.choice),
                         bool(row.correct) if targeted and human is not None else auto.correct)
            if human is not None:
                unit.human, unit.human_correct = human, bool(row.correct)
            self.units[pred.condition].append(unit)
            for e in queued:
                if e.kind == "sample":
                    self._samples[pred.condition].append((e, unit))
                else:
                    self._disagreements[pred.condition].append(
                        self.file.readings.get(e.question_key))
        return row, human

    def block(self, items: ItemTable) -> dict[str, Any]:
        """metrics.json's ``reading.audit``."""
        conditions = {c: self._condition(c, items) for c in self.designs}
        return ReadingAudit(source=self.source, benchmark_key=self.file.benchmark_key,
                            method=METHOD, conditions=conditions).model_dump()

    def _condition(self, cond: str, items: ItemTable) -> ConditionAudit:
        design, units = self.designs[cond], self.units.get(cond, [])
        samples = self._samples.get(cond, [])
        status = [self._status(e) for e, _ in samples]
        done = [(e, u) for (e, u), s in zip(samples, status, strict=True) if s in FINAL]
        strata = {h: {"population": s.population, "sampled": s.sampled,
                      "adjudicated": sum(1 for e, _ in done if e.stratum == h)}
                  for h, s in design.strata.items()}
        dis = self._disagreements.get(cond, [])
        audit = ConditionAudit(
            responses=len(units), sampled=len(samples), adjudicated=len(done),
            disputed=status.count("disputed"), pending=status.count("pending"), strata=strata,
            replaced=self.replaced.get(cond, 0),
            disagreements={"queued": len(dis),
                           "adjudicated": sum(1 for r in dis if r and r.status in FINAL),
                           "disputed": sum(1 for r in dis if r and r.status == "disputed")},
            readers=sorted({n for _, u in done for n in (u.human.by if u.human else [])}),
            reader_accuracy=round(float(np.mean([u.auto_correct for u in units])), 6)
            if units else None)
        if audit.disputed:
            audit.notes.append(f"{audit.disputed} sampled response(s) read differently by two "
                               "readers await adjudication and are not used")
        if not done:
            audit.notes.append("no sampled response has a human reading yet")
            return audit
        # Weights of the adjudicated part of each stratum: a random subset of it (served in a
        # seeded random order), so N_h / (adjudicated in h).
        weight = {h: s["population"] / s["adjudicated"] for h, s in strata.items()
                  if s["adjudicated"]}
        w = np.array([weight[e.stratum or ""] for e, _ in done])
        y = np.array([bool(u.human_correct) for _, u in done])
        auto = np.array([u.auto_correct for _, u in done])
        agree = np.array([u.auto_choice == _key(u.human.choice if u.human else None)
                          for _, u in done])
        audit.agreement = _rate(weighted_rate(agree, w))
        audit.false_credit_rate = _rate(weighted_rate(auto[~y], w[~y]) if (~y).any() else None)
        audit.miss_rate = _rate(weighted_rate(~auto[y], w[y]) if y.any() else None)
        empty = [h for h, s in strata.items() if s["population"] and not s["adjudicated"]]
        if empty or len(units) != design.responses:
            audit.notes.append(
                f"no prediction-powered estimate: stratum {', '.join(empty)} has no adjudicated "
                "response yet" if empty else "the responses scored differ from the design's")
            return audit
        f_all = np.array([u.corrected for u in units], dtype=float)
        deff = design_effect(f_all, _cases(items, [u.index for u in units]))
        by_stratum: dict[str, list[_Unit]] = defaultdict(list)
        for e, u in done:
            by_stratum[e.stratum or ""].append(u)
        strata_ = [Stratum(s["population"],
                           np.array([float(bool(u.human_correct)) for u in by_stratum[h]]),
                           np.array([float(u.corrected) for u in by_stratum[h]]))
                   for h, s in strata.items() if s["population"]]
        for name, lam in (("prediction_powered", None), ("human_only", 0.0)):
            est = stratified_ppi(float(f_all.mean()), len(units), strata_, lam=lam,
                                 design_effect=deff)
            setattr(audit, name, AuditEstimate(
                value=round(est.value, 6), ci=[round(est.low, 6), round(est.high, 6)],
                se=round(est.se, 6), lam=round(est.lam, 6)))
        if len(done) < 100:
            audit.notes.append(f"{len(done)} adjudicated responses: intervals from fewer than "
                               "100 are approximate")
        return audit

    def _status(self, e: AuditEntry) -> str:
        r = self.file.readings.get(e.question_key)
        return r.status if r is not None else "pending"


def _cases(items: ItemTable, indices: list[int]) -> np.ndarray | None:
    """Case codes of the units (an item without a case is its own), None when none repeats."""
    idx = np.asarray(indices, dtype=np.int64)
    if not items.has_case[idx].any():
        return None
    return np.where(items.has_case[idx], items.case[idx], -1 - idx)


def _rate(r: RateEstimate | None) -> AuditRate | None:
    if r is None:
        return None
    return AuditRate(value=round(r.value, 6), ci=[round(r.low, 6), round(r.high, 6)], n=r.n,
                     n_effective=round(r.n_effective, 3))


def human_row(item: Item, auto: ScoredRow, choice: str | list[str] | None) -> ScoredRow:
    """``auto`` with the human's ``choice`` (None: no answer committed, or a refusal)."""
    correct = is_correct(choice, item.answer, item.question_type)
    return replace(auto, correct=correct, invalid=choice is None, choice=choice,
                   pred_class=_class_of(item, choice), extracted=False, guessed=None)


def read_by(reading: HumanReading) -> str:
    """``human:NAME`` (``human:A+B`` when several readers agreed)."""
    return "human:" + "+".join(reading.by)
