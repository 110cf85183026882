"""Build the report: leaderboard, per-category tables, plots, controls and a methods paragraph.

The report is a pure function of the scored RUN/ folders it is given, written as a
self-contained HTML page (inline CSS and SVG; opens offline) and a Markdown twin. Runs are
grouped by benchmark; within one, models are ranked by clean accuracy.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from medvqa import __version__
from medvqa.conditions import baseline_of, describe
from medvqa.report._colours import Style, model_styles
from medvqa.report._common import CommonSet, common_set
from medvqa.report._console import (
    FEW_UNITS,
    block_methods,
    cell,
    fmt,
    interval_text,
    legend,
    p_text,
)
from medvqa.report._figures import accuracy_figures, control_figures, shown_modes
from medvqa.report._header import methods_rows, summary_sentence
from medvqa.report._headline import SAMPLE_RULE, SampleCheck, headline, sample_check
from medvqa.report._items import BenchItems
from medvqa.report._loaded import LoadedRun
from medvqa.report._reading import audit_cell, reader_columns, reader_header, reader_rows
from medvqa.schema import (
    ConditionMetrics,
)
from medvqa.score import metric_names, pooled_power, power_note
from medvqa.stats import RULE_TEXT

# The leaderboard's metric columns: the registry's rows with report=True.
COLUMNS = tuple(m.name for m in metric_names("report"))
HEADERS = {m.name: m.label for m in metric_names("report")}


@dataclass
class BenchmarkSection:
    """Everything shown for one benchmark."""

    name: str
    leaderboard: list[dict[str, Any]] = field(default_factory=list)
    categories: list[str] = field(default_factory=list)
    category_rows: list[dict[str, Any]] = field(default_factory=list)
    plots: list[tuple[str, str]] = field(default_factory=list)
    controls: list[dict[str, Any]] = field(default_factory=list)
    control_plots: list[tuple[str, str]] = field(default_factory=list)
    failure_rows: list[dict[str, Any]] = field(default_factory=list)
    subgroup_rows: list[dict[str, Any]] = field(default_factory=list)
    by: str = "category"
    notes: list[str] = field(default_factory=list)
    #: What the report says first about this benchmark (``_headline.headline``).
    headline: dict[str, Any] | None = None
    #: Whether its sample can compare models (``_headline.sample_check``).
    sample: SampleCheck | None = None
    reader_header: list[str] = field(default_factory=list)
    reader_rows: list[list[str]] = field(default_factory=list)
    #: (model, path) of each run's style_disagreements.jsonl.
    reader_files: list[tuple[str, str]] = field(default_factory=list)
    #: The smallest difference the sample can show, under each comparison table.
    power_line: str = ""
    #: What the tags after the intervals mean.
    legend: str = ""
    #: Model → its colour and marker, the one mapping of the whole report.
    styles: dict[str, Style] = field(default_factory=dict)
    #: The items every model answered and each one's accuracy on them (None: not known).
    common: CommonSet | None = None
    #: The splits the leaderboard's items are of, in words ("test", "test, train, val").
    split: str = ""
    #: One sentence: what was compared and what the headline found (``_header``).
    summary: str = ""
    #: A row per run: spec, split, parser, prompt, date, version and commit, hardware.
    methods: list[dict[str, str]] = field(default_factory=list)

    @property
    def ranked_on_common(self) -> bool:
        """Whether the leaderboard is ranked on a common set smaller than some model's items."""
        return bool(self.common and not self.common.same and self.common.n)

    def category_table(self) -> tuple[list[str], list[list[object]]]:
        """Header and rows of the per-group table.

        A row per model; with more groups than :data:`TRANSPOSE_AFTER`, a row per group and a
        column per model (a table a reader scrolls down, not across).
        """
        if len(self.categories) <= TRANSPOSE_AFTER:
            return (["Model", *self.categories],
                    [[r["model"], *r["cells"]] for r in self.category_rows])
        models = [r["model"] for r in self.category_rows]
        return ([self.by.capitalize(), *models],
                [[c, *(r["cells"][i] for r in self.category_rows)]
                 for i, c in enumerate(self.categories)])


#: Groups of a breakdown up to which the per-group table has a column per group.
TRANSPOSE_AFTER = 10
#: Rows of an HTML table beyond which it is collapsed (``<details>``, opened on a click).
COLLAPSE_ROWS = 20


def _baseline(run: LoadedRun) -> tuple[str, ConditionMetrics] | None:
    """The run's baseline condition (``clean``) and its block, or None when it was not run."""
    name = baseline_of(run.metrics.conditions)
    return None if name is None else (name, run.metrics.conditions[name])


def _baseline_accuracy(run: LoadedRun) -> float:
    """Baseline accuracy for ranking (0 when the run has no baseline)."""
    found = _baseline(run)
    return (found[1].overall.accuracy.value or 0.0) if found else 0.0


def _leaderboard_row(run: LoadedRun) -> dict[str, Any] | None:
    found = _baseline(run)
    if found is None:
        return None
    name, block = found
    o = block.overall
    ad = run.metrics.adaptive
    n = (f"{ad['asked']} asked of {ad['items_total']} (adaptive)"
         if ad and ad.get("accuracy") is not None else n_of(run.metrics.coverage, name, o.n))
    return {
        "model": run.label,
        "text_only": bool(run.info and run.info.model_info.get("text_only")),
        "n": n,
        "errors": o.errors,
        **{m.name: cell(m, o) for m in metric_names("report")},
        "accuracy_value": o.accuracy.value,
        "random": f"{o.random_baseline:.3f}" if o.random_baseline is not None else "–",
        "frequent": f"{o.frequent_baseline:.3f}" if o.frequent_baseline is not None else "–",
        # Beside the plain accuracy: the prediction-powered one, where clinicians audited.
        "ppi": audit_cell(run.metrics.reading, name),
    }


def adaptive_note(run: LoadedRun) -> str | None:
    """An adaptive run's estimate of its accuracy on every item, in words (None: not adaptive).

    Its leaderboard figures are of the items it was asked, chosen for being informative.
    """
    ad = run.metrics.adaptive
    if not ad or ad.get("accuracy") is None:
        return None
    low, high = ad["ci"]
    return (f"{run.label}: adaptive estimate of the accuracy on all {ad['items_total']} items "
            f"{ad['accuracy']:.3f} (95 % CI {low:.3f}–{high:.3f}), from {ad['asked']} items "
            f"asked ({ad['item_model']} calibration {ad['irt']}; stopped: {ad['stop']}); its "
            "row's figures are of the asked items only" + (f". {ad['note']}" if ad.get("note")
                                                           else ""))


def n_of(cov: dict[str, Any] | None, condition: str, n: int) -> str:
    """'34 of 60 (26 missing)': items scored against the items the run should have answered."""
    c = (cov or {}).get("conditions", {}).get(condition)
    if not c:
        return str(n)
    size = (cov or {}).get("benchmark_items", c["expected"])
    of = f"{n} of {c['expected']}"
    if c["expected"] != size:
        of += f" (benchmark {size})"
    return of + (f", {c['missing']} missing" if c["missing"] else "")


#: The verdict of an image control on a model that is never sent the image.
NOT_APPLICABLE = "not applicable (a text-only model never sees the image)"


def _verdict(condition: str, needs: bool, delta: float | None, text_only: bool = False) -> str:
    """What a positive Δ means depends on what the condition took away (its ``removes``).

    An image control on a text-only model is not applicable: it took away nothing the model
    was given, so "no evidence it needs the image" would be a finding about nothing.
    """
    taken = describe(condition).removes
    if text_only and "image" in taken and "question" not in taken and "domain" not in taken:
        return NOT_APPLICABLE
    if "question" in taken:
        return "needs the question" if needs else "no evidence it needs the question"
    if "domain" in taken:
        return "see abstention rate"
    if needs:
        return "needs the image"
    return "no evidence it needs the image"


def _stored_controls(run: LoadedRun) -> list[dict[str, Any]]:
    """Rows of the Δ table from metrics.json's ``controls`` (written by ``medvqa score``).

    A point of a severity curve is no claim of its own: its curve gets one row, the trend test
    (:func:`_trend_rows`), and each severity is drawn in the degradation figure.
    """
    rows = []
    text_only = bool(run.info and run.info.model_info.get("text_only"))
    for cond, res in (run.metrics.controls or {}).get("deltas", {}).items():
        if describe(cond).curve is not None:
            continue
        d = res["overall"]
        ci = d["ci"]
        cats = res.get("by_category", {})
        needs_cats = [c for c, v in cats.items() if v["needs_image"]]
        rows.append({
            "model": run.label, "condition": cond, "cond": cond, "n": d["n"],
            "clean": f"{d['clean']:.3f}" if d["clean"] is not None else "–",
            "perturbed": f"{d['condition']:.3f}" if d["condition"] is not None else "–",
            "delta": f"{d['delta']:+.3f}" if d["delta"] is not None else "–",
            "ci": interval_text(ci[0], ci[1], d.get("ci_method"), d.get("units"), signed=True)
            if None not in ci else "–",
            "p": p_text(d.get("p_value", d.get("mcnemar_p")), d.get("p_holm"))
            + (f"; {d['test']}" if d.get("test") else ""),
            "verdict": _verdict(cond, d["needs_image"], d["delta"], text_only)
            + (f" (by category: {_first(needs_cats)})"
               if needs_cats and "domain" not in describe(cond).removes else ""),
        })
    return rows


def _trend_rows(run: LoadedRun) -> list[dict[str, Any]]:
    """One row per severity curve: accuracy clean → each severity, slope, the trend test."""
    rows = []
    for curve, t in (run.metrics.controls or {}).get("trends", {}).items():
        acc = ["–" if a is None else f"{a:.3f}" for a in t["accuracy"]]
        rows.append({
            "model": run.label,
            "condition": f"{curve} (severities {', '.join(map(str, t['levels'][1:]))})",
            "cond": "*",
            "n": t["n"], "clean": acc[0], "perturbed": " → ".join(acc[1:]),
            "delta": "–" if t["slope"] is None else f"slope {t['slope']:+.3f}/level", "ci": "",
            "p": p_text(t.get("p_value"), t.get("p_holm")) + f"; {t['test']}, one-sided",
            "verdict": "accuracy falls with severity" if t.get("declines")
            else "no evidence accuracy falls with severity",
        })
    return rows


def _first(names: list[str], shown: int = 5) -> str:
    """'a, b, c' — or the first ``shown`` and how many more (a zoo has many categories).

    >>> _first(["a", "b"]), _first(list("abcdefg"), 3)
    ('a, b', 'a, b, c and 4 more')
    """
    more = len(names) - shown
    return ", ".join(names[:shown]) + (f" and {more} more" if more > 0 else "")


def _controls(run: LoadedRun) -> list[dict[str, Any]]:
    """Rows of the controls table: the deltas ``medvqa score`` stored, then circular evaluation."""
    rows = _stored_controls(run) + _trend_rows(run)
    for name, block in run.metrics.conditions.items():
        if block.consistency is None:  # only a combined condition (circular) has one
            continue
        rows.append({
            "model": run.label, "condition": f"{name} (circular)", "cond": name,
            "n": block.overall.n,
            "clean": "", "perturbed": fmt(block.overall.accuracy), "delta": "",
            "ci": "", "p": "", "verdict": f"consistency {block.consistency:.3f}",
        })
    return rows


def _subgroup_rows(run: LoadedRun) -> list[dict[str, Any]]:
    """Rows of the subgroup table (baseline condition): groups, test, p and Holm p."""
    found = _baseline(run)
    rows = []
    for grouping, res in ((found[1].subgroups if found else None) or {}).items():
        rows.append({
            "model": run.label, "grouping": grouping,
            "groups": ", ".join(f"{g} {v['accuracy']:.3f} (n {v['n']})"
                                for g, v in res["groups"].items()),
            "test": res.get("test", ""),
            "p": p_text(res.get("p_value"), res.get("p_holm")),
        })
    return rows


def build_sections(runs: list[LoadedRun], by: str = "category",
                   items: list[BenchItems] | None = None) -> list[BenchmarkSection]:
    """One section per benchmark, runs ranked by clean accuracy; groups of breakdown ``by``.

    With ``items`` (:func:`~medvqa.report._items.gather_items`), a benchmark whose models
    answered different items is ranked on the items all of them answered (the common set,
    :mod:`medvqa.report._common`), each model's full-set figures beside it. Sections come in
    the order of their headlines: a benchmark where a model needs the image first, then those
    with an image control, then the rest (larger samples first).
    """
    answers = {b.name: b for b in items or []}
    by_bench: dict[str, list[LoadedRun]] = defaultdict(list)
    for run in runs:
        by_bench[run.metrics.benchmark].append(run)
    # One style per model for the whole report, best-ranked first within each benchmark.
    styles = model_styles([r.label for name in sorted(by_bench)
                           for r in sorted(by_bench[name], key=lambda r: -_baseline_accuracy(r))])
    sections = []
    for name in sorted(by_bench):
        section = BenchmarkSection(name, by=by, styles=styles)
        ranked = sorted(by_bench[name], key=lambda r: -_baseline_accuracy(r))
        section.common = _common(ranked, answers.get(name))
        if section.ranked_on_common and section.common:
            on = section.common.models
            ranked.sort(key=lambda r: -(on[r.label].value if r.label in on else -1.0))
        section.leaderboard = [row for r in ranked if (row := _leaderboard_row(r))]
        for row in section.leaderboard:
            row["common"] = _common_cell(section.common, row["model"])
        section.split = _split_of(ranked, answers.get(name))
        baselines = [(r, found[1]) for r in ranked if (found := _baseline(r))]
        cats = sorted({c for _, block in baselines for c in block.by.get(by, {})})
        section.categories = cats
        per_category: dict[str, list[tuple[float | None, float | None, float | None] | None]] = {}
        for r, block in baselines:
            per = block.by.get(by, {})
            section.category_rows.append({"model": r.label, "cells": [
                fmt(per[c].accuracy, per[c].units) if c in per else "–" for c in cats]})
            per_category[r.label] = [
                (per[c].accuracy.value, per[c].accuracy.ci[0], per[c].accuracy.ci[1])
                if c in per else None
                for c in cats]
        section.notes = _notes(baselines) + [
            line for r in ranked if (line := adaptive_note(r)) is not None]
        section.plots = accuracy_figures(name, [r.label for r, _ in baselines],
                                         [b for _, b in baselines], cats, per_category, styles,
                                         by, section.common if section.ranked_on_common
                                         else None)
        for r in ranked:
            section.controls.extend(_controls(r))
            section.subgroup_rows.extend(_subgroup_rows(r))
            section.failure_rows.extend(_failure_rows(r))
        _add_reader(section, ranked)
        random_line = baselines[0][1].overall.random_baseline if baselines else None
        section.control_plots = control_figures(name, ranked, random_line, styles)
        section.headline = headline(name, ranked, {m: c.value for m, c in (
            section.common.models if section.ranked_on_common and section.common else {}).items()})
        section.sample = sample_check(ranked)
        section.methods = methods_rows(ranked)
        section.summary = summary_sentence(name, len(ranked), section.split, section.headline,
                                           section.common.note() if section.common else "")
        power = pooled_power([r.metrics.power for r in ranked if r.metrics.power is not None])
        section.power_line = power_note(power) if power is not None else ""
        section.legend = _legend(baselines, section.controls)
        sections.append(section)
    return sorted(sections, key=lambda s: s.headline["rank"] if s.headline else (3, 0, s.name))


def _common(runs: list[LoadedRun], items: BenchItems | None) -> CommonSet | None:
    """The common set of the runs with a baseline condition (None without their answers)."""
    names = [(r.label, found[0]) for r in runs if (found := _baseline(r))]
    if items is None or not names:
        return None
    return common_set(items, [m for m, _ in names], names[0][1])


def _common_cell(common: CommonSet | None, model: str) -> str:
    """'0.417 [0.193, 0.680] W' on the common set ('' when the leaderboard is not ranked so)."""
    if common is None or common.same or model not in common.models:
        return ""
    c = common.models[model]
    return f"{c.value:.3f} " + interval_text(c.low, c.high, c.method, common.n)


def _split_of(runs: list[LoadedRun], items: BenchItems | None) -> str:
    """The splits of the runs' baseline items, in words ('' when not known).

    From the items answered where the benchmark was given, else the runs' ``--split`` and
    their breakdown by split (a breakdown of one group is not written to metrics.json).
    """
    names: set[str] = set()
    if items is not None:
        names = {it.split for it in items.items if it.split}
    for r in runs if not names else []:
        if r.info and (chosen := (r.info.selection or {}).get("split")):
            names.add(str(chosen))
        elif (found := _baseline(r)) is not None:
            names |= set(found[1].by.get("split", {}))
    return ", ".join(sorted(names))


def _legend(baselines: list[tuple[LoadedRun, ConditionMetrics]],
            controls: list[dict[str, Any]]) -> str:
    """The legend of the interval tags of a section's tables ('' when nothing is tagged)."""
    methods: set[str] = set()
    few = False
    for run, block in baselines:
        for b in [block.overall, *(g for groups in block.by.values() for g in groups.values())]:
            methods |= block_methods(b)
            few = few or (b.units is not None and b.units < FEW_UNITS)
        for res in (run.metrics.controls or {}).get("deltas", {}).values():
            d = res["overall"]
            methods.add(d.get("ci_method") or "")
            few = few or (d.get("units") is not None and d["units"] < FEW_UNITS)
    methods.discard("")
    text = legend(methods, few)
    return f"Intervals: {text}." if text else ""


def _add_reader(section: BenchmarkSection, runs: list[LoadedRun]) -> None:
    """The reader table of the runs scored with ``--extract`` or ``--styles``."""
    columns = reader_columns([r.metrics.reading for r in runs])
    if columns is None:
        return
    section.reader_header = ["model", *reader_header(columns)]
    for r in runs:
        if not r.metrics.reading:
            continue
        section.reader_rows += [[r.label, *row] for row in reader_rows(r.metrics.reading,
                                                                        columns)]
        if (name := r.metrics.reading.get("disagreements_file")):
            section.reader_files.append((r.label, str(r.path / name)))


def _notes(baselines: list[tuple[LoadedRun, ConditionMetrics]]) -> list[str]:
    """Why a leaderboard figure is blank: each distinct note once, with the models it covers."""
    models: dict[str, list[str]] = defaultdict(list)
    for run, block in baselines:
        for metric, why in block.notes.items():
            models[f"{HEADERS.get(metric, metric)}: {why}"].append(run.label)
    everyone = len(baselines)
    return [f"{note}" + ("" if len(names) == everyone else f" ({', '.join(names)})")
            for note, names in models.items()]


def _failure_rows(run: LoadedRun) -> list[dict[str, Any]]:
    """Rows of the failure-mode table: one per condition shown on its own."""
    rows = []
    for cond, v in shown_modes(run).items():
        tags = {**v["lmod"], **v["mira"], **v["rules"]}
        rows.append({
            "model": run.label, "condition": cond, "n": v["n"], "failures": v["failures"],
            "abstention": "–" if v["abstention_rate"] is None
            else f"{v['abstention_rate']:.3f}",
            "tags": ", ".join(f"{t} {n}" for t, n in tags.items() if n) or "–",
            "judge": _judge_cell(v.get("judge")),
        })
    return rows


def _judge_cell(block: dict[str, Any] | None) -> str:
    """'asked 4 of 6, errors 0: E3 2, E6 1, unclassified 1 | guess 3, …' or '–'."""
    if not block or not block["candidates"]:
        return "–"
    lmod = ", ".join(f"{t} {n}" for t, n in block["lmod"].items() if n) or "none"
    mira = ", ".join(f"{t} {n}" for t, n in block["mira"].items() if n) or "none"
    return (f"asked {block['asked']} of {block['candidates']}, errors {block['errors']}: "
            f"LMOD {lmod}; MIRA {mira}")


def methods_text(runs: list[LoadedRun]) -> str:
    """A paragraph a reader can reproduce the figures from."""
    m = runs[0].metrics
    styles = sorted({r.metrics.style for r in runs})
    clustered = any(r.metrics.clustered for r in runs)
    templates = sorted({r.info.prompt_template for r in runs if r.info})
    return (
        f"Responses were parsed with the {', '.join(styles)} parser style(s) of medvqa "
        f"{__version__}; with the strict style an unreadable or refused answer is counted as "
        "invalid (wrong) and reported as the invalid rate, never guessed. Accuracy counts invalid "
        "answers as wrong; weighted accuracy is the mean of per-answer-class accuracies; the "
        "random baseline is the mean chance of a uniform guess. Requests that failed (API errors) "
        "are excluded and counted, not scored. Intervals are 95 % intervals: " + RULE_TEXT
        + f" Bootstrap intervals use {m.resamples} resamples, seed {m.seed}, "
        + ("resampling cases (patients or studies) when a case contributes several items. "
           if clustered else "resampling items (no case contributed more than one item). ")
        + f"Figures on fewer than {FEW_UNITS} items or cases are marked †. "
        + f"Prompt template(s): {', '.join(templates) or 'default'}. Controls compare each "
        "condition with the clean run on the same items: a paired interval of the difference "
        "and a paired test clustered the same way (McNemar's mid-p test, or the exact cluster "
        "sign-flip test when cases repeat). "
        + FAMILIES_TEXT + " " + SAMPLE_RULE
        + " Failure modes are rule-based tags (refusal and missing-image phrases, unreadable "
        "answers, letters outside the options, visual detail "
        "described without a real image, answering an out-of-domain photo) in the LMOD (E1–E6) "
        "and MIRA taxonomies; a response may carry several tags."
        + _judge_methods(runs) + _reader_methods(runs) + _models_methods(runs)
    )


#: The families of tests and the rule every verdict follows (medvqa.score._family).
FAMILIES_TEXT = (
    "Tests are Holm-adjusted within four families per run: the shortcut controls (each "
    "condition that removes the image or the question and is not a point of a severity curve: "
    "blind, noise, text-only, swap) are the primary family; each corruption's severities form "
    "one curve with one test, a one-sided stratified permutation test of the trend of accuracy "
    "over severity (levels permuted within each case or item; Mantel's linear-by-linear "
    "statistic), and the curves form the second family; the per-category differences of the "
    "controls and the subgroup tests are the third and fourth. A single severity is shown as a "
    "description (its difference in the degradation figure), never as a claim. Every verdict "
    "follows the adjusted decision: \"needs the image\" (for swap, the question) means the "
    "Holm-adjusted p is below 0.05 and the 95 % interval of clean − condition lies above 0; "
    "\"accuracy falls with severity\" means the curve's Holm-adjusted p is below 0.05 and its "
    "slope is negative.")


def _reader_methods(runs: list[LoadedRun]) -> str:
    """The reader sentence of the methods paragraph (empty when no run compared readers)."""
    readings = [r.metrics.reading for r in runs if r.metrics.reading]
    return _extractor_methods(readings) + _audit_methods(readings)


def _audit_methods(readings: list[dict[str, Any]]) -> str:
    """The reader-audit sentence (empty when no run was scored with --adjudication)."""
    audits = [a for g in readings if (a := g.get("audit"))]
    if not audits:
        return ""
    sizes = sorted({c["sampled"] for a in audits for c in a["conditions"].values()})
    return (" Clinicians read a seeded random audit sample of each audited run's responses "
            f"({', '.join(map(str, sizes))} a run), stratified by the automatic reader's "
            "decision (read, invalid, extracted; allocation proportional to the square root of "
            "each stratum's size), and every response two automatic readers read differently, "
            "in the review app without seeing the reader's decision; identical (options, "
            "response) pairs were read once, two readers who disagreed were adjudicated and a "
            "disputed reading was not used. A human reading replaced the automatic one "
            "wherever there was one. On the random sample the reader's agreement with the "
            "humans, its false-credit rate (counted right where the humans read no right "
            "answer) and its miss rate (not counted right where they did) are design-weighted "
            "with Wilson intervals on Kish's effective sample size. The prediction-powered "
            f"accuracy is {audits[0]['method']} (medvqa's implementation, checked against the "
            "ppi-python package); \"humans only\" is the same sample's design-weighted human "
            "accuracy.")


def _extractor_methods(readings: list[dict[str, Any]]) -> str:
    """The extractor and compared-styles sentences."""
    extractors = sorted({(e["model"], e["prompt_version"], e["prompt_sha256"][:12])
                         for g in readings if (e := g.get("extractor"))})
    styles = sorted({s for g in readings for s in g.get("compared_styles", [])})
    text = ""
    if extractors:
        named = "; ".join(f"{m} (prompt v{v}, SHA-256 {h}…)" for m, v, h in extractors)
        text += (" Responses the rules could not read (never a refusal, a hedge, a negation or "
                 f"two options) were read by an answer extractor, {named}, whose reply was "
                 "constrained to the item's letters or NONE and never overrode a rule; the "
                 "figures are those with extraction, and the reader table gives the rules' "
                 "alone beside them. A reply outside the allowed set was recorded as an error "
                 "and the response stayed invalid.")
    if styles:
        text += (f" The same predictions were also read with the {', '.join(styles)} "
                 "style(s); the reader table gives their accuracy and the number of predictions "
                 "read differently, each listed in the run's style_disagreements.jsonl.")
    return text


def _models_methods(runs: list[LoadedRun]) -> str:
    """The models sentence of the methods paragraph: each display name and its full spec.

    A name that stands for different specs in different benchmarks is given with its benchmark.
    """
    named = sorted({(r.label, r.metrics.benchmark, r.spec) for r in runs})
    specs: dict[str, set[str]] = defaultdict(set)
    for label, _, spec in named:
        specs[label].add(spec)
    parts = dict.fromkeys(
        (f"{label} on {bench}" if len(specs[label]) > 1 else label)
        + ("" if label == spec else f": {spec}") for label, bench, spec in named)
    return " Models (as named in the tables: full spec): " + "; ".join(parts) + "."


def _judge_methods(runs: list[LoadedRun]) -> str:
    """The judge sentence of the methods paragraph (empty when no run was judged)."""
    judges = {(j["model"], j["prompt_version"], j["prompt_sha256"][:12])
              for r in runs if (j := r.metrics.failure_judge)}
    if not judges:
        return ""
    named = "; ".join(f"{m} (prompt v{v}, SHA-256 {h}…)" for m, v, h in sorted(judges))
    return (" Failures the rules could not place (readable wrong answers, unreadable answers "
            f"that are neither refusals nor hallucinations) were labelled by an LLM judge: {named}"
            ", one LMOD and one MIRA category each, counted apart from the rule tags; a reply "
            "outside the allowed labels is counted as unclassified, never guessed.")
