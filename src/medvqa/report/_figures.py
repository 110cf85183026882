"""The figures of one benchmark's section: each draws every model of it at once.

A zoo of 12 models under 8 conditions gets the same handful of figures as one model: accuracy
with intervals (one bar per model), accuracy per category (a dot plot with intervals up to
:data:`MAX_DOTS` categories, a heatmap up to :data:`MAX_HEATMAP`, beyond that the table alone),
confusion matrices of the :data:`MAX_CONFUSION` best models, one degradation figure (a panel per
corruption, a line per model) and one failure-mode heatmap (rule tags; the LLM judge's labels
apart). So the page stays a few megabytes and opens at once whatever the number of runs.
Every figure draws a model in the report's one style for it (:mod:`medvqa.report._colours`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from medvqa.conditions import describe
from medvqa.report import _plots

#: Categories up to which the per-category figure is a dot plot with intervals …
MAX_DOTS = 12
#: … and up to which it is a heatmap (beyond: the table only).
MAX_HEATMAP = 60
#: Confusion matrices drawn (the best-ranked models; the rest are in metrics.json).
MAX_CONFUSION = 4
#: (model, condition) rows of a failure heatmap before conditions are pooled per model.
MAX_FAILURE_ROWS = 24

Figure = tuple[str, str]

#: What each rule tag means, shown where the tags are (LMOD seed 002 §5; MIRA seed 001 Fig. 4).
TAG_TEXT = {
    "LMOD E1": "misclassification (a readable wrong answer)",
    "LMOD E2": "failure to abstain (answering an out-of-domain image)",
    "LMOD E3": "inconsistent reasoning", "LMOD E4": "hallucination",
    "LMOD E5": "assertion without justification", "LMOD E6": "lack of domain knowledge",
    "MIRA guess": "a wrong answer that is not a hallucination", "MIRA refusal": "declines",
    "MIRA hallucination": "describes what was not shown",
    "MIRA missing visual evidence": "says the image is missing",
    "rule invalid_format": "unreadable answer", "rule outside_options": "a letter not offered",
}
#: How the taxonomies overlap, said under the figure and the table.
TAGS_NOTE = ("Each failing response is tagged in each taxonomy (LMOD, MIRA) and by the rules, "
             "so one response is counted once per group: a row's counts repeat across groups.")


def tags_legend(tags: list[str]) -> str:
    """'LMOD E1: misclassification …; MIRA guess: …' for the tags shown, then the overlap note."""
    return "; ".join(f"{t}: {TAG_TEXT[t]}" for t in tags if t in TAG_TEXT) + ". " + TAGS_NOTE


def accuracy_figures(name: str, labels: list[str], blocks: list[Any], categories: list[str],
                     per_category: dict[str, list[Any]], styles: dict[str, Any],
                     by: str = "category", common: Any = None) -> list[Figure]:
    """Accuracy with intervals, accuracy per category and the best models' confusion matrices.

    Args:
        name: the benchmark.
        labels: model labels, best first.
        blocks: each model's baseline ConditionMetrics, in the same order.
        categories: the breakdown's groups.
        per_category: model → per category ``(value, low, high)`` (None where not scored).
        styles: model → (colour, marker), the report's one mapping.
        by: the breakdown's name, for the titles.
        common: the :class:`~medvqa.report._common.CommonSet` the models are ranked on, when
            their items differ (the bars are then of it); None: each model's own items.
    """
    out: list[Figure] = []
    colours = [styles[label].colour for label in labels]
    if blocks and common is not None:
        out.append((f"Accuracy on the {common.n} items every model answered, with 95 % CI",
                    _plots.ci_bars(labels, [common.models[m].value for m in labels],
                                   [[common.models[m].low, common.models[m].high]
                                    for m in labels], blocks[0].overall.random_baseline,
                                   f"{name} (common items, n {common.n})", colours)))
    elif blocks:
        overall = [b.overall for b in blocks]
        out.append(("Accuracy with 95 % CI", _plots.ci_bars(
            labels, [o.accuracy.value for o in overall], [o.accuracy.ci for o in overall],
            overall[0].random_baseline, name, colours)))
    if 2 <= len(categories) <= MAX_DOTS and per_category:
        out.append((f"Accuracy per {by} with 95 % CI", _plots.category_dots(
            categories, per_category, styles, f"{name}: accuracy per {by}")))
    elif MAX_DOTS < len(categories) <= MAX_HEATMAP and per_category:
        out.append((f"Accuracy per {by}", _plots.heatmap(
            list(per_category), categories,
            [[None if c is None else c[0] for c in v] for v in per_category.values()],
            f"{name}: accuracy per {by}")))
    confusions = [(label, b.confusion) for label, b in zip(labels, blocks, strict=True)
                  if b.confusion]
    for label, conf in confusions[:MAX_CONFUSION]:
        out.append((f"Confusion matrix: {label}", _plots.confusion_matrix(
            conf["labels"], conf["predicted"], conf["counts"], f"{label} on {name}")))
    if len(confusions) > MAX_CONFUSION:
        out[-1] = (out[-1][0] + f" ({len(confusions) - MAX_CONFUSION} more models' matrices "
                   "are in their metrics.json)", out[-1][1])
    return out


def control_figures(name: str, runs: list[Any], baseline: float | None,
                    styles: dict[str, Any] | None = None) -> list[Figure]:
    """Degradation under corruption and failure modes of every run, one figure each.

    Args:
        name: the benchmark.
        runs: the section's runs (:class:`~medvqa.report._report.LoadedRun`), best first.
        baseline: the random-guess accuracy line.
        styles: model → (colour, marker), the report's one mapping.
    """
    out: list[Figure] = []
    curves: dict[str, dict[str, list[float | None]]] = {}
    for r in runs:
        if found := (r.metrics.controls or {}).get("degradation"):
            curves[r.label] = found
    if curves:
        out.append(("Accuracy under corruption (each model)",
                    _plots.degradation_grid(curves, baseline, name, styles)))
    rules = _failure_grid(runs, _rule_tags)
    if rules:
        out.append(("Failure modes (rule-based tags; responses per tag). " + tags_legend(
            rules[1]), _plots.heatmap(*rules, title=f"{name}: responses per failure tag",
                                      fmt="{:.0f}")))
    judged = [r for r in runs if r.metrics.failure_judge]
    if judged:
        models = sorted({(r.metrics.failure_judge or {}).get("model", "LLM judge")
                         for r in judged})
        grid = _failure_grid(judged, lambda v: judge_labels(v["judge"]) if v.get("judge")
                             else {})
        if grid:
            out.append((f"Failure modes (LLM judge {', '.join(models)})", _plots.heatmap(
                *grid, title=f"{name}: responses per judge label", fmt="{:.0f}")))
    return out


def shown_modes(run: Any) -> dict[str, dict[str, Any]]:
    """The run's failure-mode blocks of conditions shown on their own (no curve, no shift)."""
    modes = run.metrics.failure_modes or {}
    return {c: v for c, v in modes.items()
            if describe(c).curve is None and not describe(c).combined_as}


def _rule_tags(block: dict[str, Any]) -> dict[str, int]:
    """Non-zero rule tags, each named with its taxonomy (E1 → 'LMOD E1')."""
    named = {**{f"LMOD {t}": n for t, n in block["lmod"].items()},
             **{f"MIRA {t}": n for t, n in block["mira"].items()},
             **{f"rule {t}": n for t, n in block["rules"].items()}}
    return {t: n for t, n in named.items() if n}


def judge_labels(block: dict[str, Any]) -> dict[str, int]:
    """Non-zero judge labels, marked so they never merge with the rule tags of the same name."""
    labels = {f"{t} (judge)": n for t, n in block["lmod"].items() if t != "unclassified"}
    labels |= {f"{t} (judge)": n for t, n in block["mira"].items() if t != "unclassified"}
    labels["unclassified (judge, lmod)"] = block["lmod"].get("unclassified", 0)
    labels["unclassified (judge, mira)"] = block["mira"].get("unclassified", 0)
    labels["request errors (judge)"] = block["errors"]
    return {t: n for t, n in labels.items() if n}


def _failure_grid(runs: list[Any], tags_of: Callable[[dict[str, Any]], dict[str, int]]
                  ) -> tuple[list[str], list[str], list[list[float | None]]] | None:
    """(rows, tags, counts): a row per model and condition.

    With more than :data:`MAX_FAILURE_ROWS` such rows, a row per model (its conditions pooled).
    """
    per: list[tuple[str, str, dict[str, int]]] = [
        (r.label, cond, tags) for r in runs for cond, v in shown_modes(r).items()
        if (tags := tags_of(v))]
    if not per:
        return None
    names = list(dict.fromkeys(t for _, _, counts in per for t in counts))
    rows: dict[str, dict[str, int]] = {}
    pooled = len(per) > MAX_FAILURE_ROWS
    one_model = len({m for m, _, _ in per}) == 1
    for model, cond, counts in per:
        key = model if pooled else cond if one_model else f"{model} · {cond}"
        into = rows.setdefault(key, {})
        for t, n in counts.items():
            into[t] = into.get(t, 0) + n
    return list(rows), names, [[float(v.get(t, 0)) for t in names] for v in rows.values()]
