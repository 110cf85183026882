"""Print a metrics summary to the terminal (the CLI's rendering of metrics.json).

The columns come from the metric registry (``medvqa.score._metric_table.METRICS``, rows with
``console=True``): a new registered metric appears here without an edit.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from medvqa.models import display_name
from medvqa.report._reading import audit_lines, reader_columns, reader_header, reader_rows
from medvqa.schema import RUN_FILE, MetricsFile, MetricValue, RunInfo, read_json
from medvqa.score import Metric, metric_names, power_line
from medvqa.stats import METHOD_TAG, METHOD_TEXT

#: A figure resting on fewer resampling units (items, or cases when they repeat) is marked.
FEW_UNITS = 30
#: Width up to which an identifying column (condition, model, run) is kept on one line; a
#: longer name is folded onto the next line, never cut.
NAME_WIDTH = 28
#: The mark.
FEW_MARK = "†"


def shown_name(info: RunInfo | None, spec: str, folder: Path) -> str:
    """A run's display name: run.json's, else derived from the spec, else the folder's name."""
    if info is not None and info.display_name:
        return info.display_name
    if not spec:
        return folder.name
    return display_name(spec, info.model_info if info is not None else None)


def interval_text(lo: float | None, hi: float | None, method: str | None = None,
                  units: int | None = None, signed: bool = False) -> str:
    """'[0.580, 0.640] W' — the interval, its method's tag and † on few units; '' for none.

    An interval of zero width (a metrics.json from before schema 3) is never printed: it
    would claim certainty.

    >>> interval_text(0.58, 0.64, "wilson", 12)
    '[0.580, 0.640] W†'
    >>> interval_text(1.0, 1.0), interval_text(None, None, units=5)
    ('[no interval: zero width]', '†')
    """
    mark = FEW_MARK if units is not None and units < FEW_UNITS else ""
    if lo is None or hi is None:
        return mark
    if hi <= lo:
        return "[no interval: zero width]" + mark
    tag = METHOD_TAG.get(method or "", "")
    form = "+.3f" if signed else ".3f"
    return f"[{lo:{form}}, {hi:{form}}]" + (f" {tag}" if tag else "") + mark


def fmt(mv: MetricValue | dict[str, Any] | None, units: int | None = None) -> str:
    """'0.612 [0.580, 0.640] W' or '–' (a plain dict is an extra, registry-only metric).

    The letter names the interval's method (:func:`legend`); † marks a figure on fewer than
    :data:`FEW_UNITS` items or cases.
    """
    if isinstance(mv, dict):
        mv = MetricValue(**mv) if "value" in mv else None
    if mv is None or mv.value is None:
        return "–"
    lo, hi = mv.ci
    ci = interval_text(lo, hi, mv.method, units)
    return f"{mv.value:.3f}" + (f" {ci}" if ci and not ci.startswith(FEW_MARK) else ci)


def cell(metric: Metric, block: Any) -> str:
    """One registered metric of a block, printed by its kind."""
    got = getattr(block, metric.name, None)
    if got is None and isinstance(getattr(block, "model_extra", None), dict):
        got = block.model_extra.get(metric.name)
    if got is None:
        return "–"
    if metric.kind == "count":
        return str(got)
    if metric.kind == "rate":
        return f"{got:.3f}"
    return fmt(got, getattr(block, "units", None))


def legend(methods: set[str], few: bool) -> str:
    """What the tags after the intervals mean ('' when nothing is tagged or marked).

    >>> legend({"wilson", "bootstrap"}, True)[:58]
    'B: percentile bootstrap (cases resampled when clustered); '
    """
    tags: dict[str, list[str]] = {}
    for m in sorted(methods):
        if m in METHOD_TAG:
            tags.setdefault(METHOD_TAG[m], []).append(METHOD_TEXT[m])
    parts = [f"{tag}: {' or '.join(texts)}" for tag, texts in tags.items()]
    if few:
        parts.append(f"{FEW_MARK} on fewer than {FEW_UNITS} items or cases")
    return "; ".join(parts)


def block_methods(block: Any) -> set[str]:
    """The interval methods of a block's figures (for :func:`legend`)."""
    found = set()
    for name in type(block).model_fields if hasattr(type(block), "model_fields") else ():
        got = getattr(block, name, None)
        if isinstance(got, MetricValue) and got.method:
            found.add(got.method)
    return found


def p_text(p: float | None, holm: float | None = None) -> str:
    """'0.0123 (Holm 0.0369)': 3 significant digits, never rounded to 0."""
    if p is None:
        return "–"
    return f"{p:.3g}" + (f" (Holm {holm:.3g})" if holm is not None else "")


def fitted_table(title: str, headers: list[str], rows: list[list[str]],
                 names: tuple[int, ...] = (0,), width: int = 80) -> Table:
    """A rich table ``width`` columns wide at most that never cuts a cell.

    Rich's default shortens a cell with an ellipsis (``corrupt…`` twice: two rows alike) and
    crops columns that do not fit. Here identifying columns ``names`` are kept whole up to
    :data:`NAME_WIDTH` characters (longer ones folded onto the next line), and the rest of
    the width is shared by the other columns, whose cells wrap at spaces or fold; a column of
    nothing but dashes is left out.
    """
    from rich import box

    # A column with nothing but dashes carries nothing at 80 columns.
    keep = [i for i in range(len(headers)) if i in names or not rows
            or any(r[i] not in ("–", "") for r in rows)]
    names = tuple(keep.index(i) for i in names if i in keep)
    headers, rows = [headers[i] for i in keep], [[r[i] for i in keep] for r in rows]
    natural = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(headers)]
    room = width - 2 * len(headers)  # two spaces between columns (padding collapsed)
    fixed = {i: min(natural[i], NAME_WIDTH) for i in names if i < len(headers)}
    others = [i for i in range(len(headers)) if i not in fixed]
    left = room - sum(fixed.values())
    widths = dict(fixed)
    if sum(natural[i] for i in others) <= left:
        widths |= {i: natural[i] for i in others}
    else:
        # Each column its longest word, then the rest to those that wrap, by what they lack.
        words = {i: max(len(w) for c in [headers[i], *(r[i] for r in rows)]
                        for w in (c.split() or [""])) for i in others}
        extra = max(0, left - sum(words.values()))
        lack = {i: natural[i] - words[i] for i in others}
        total = sum(lack.values()) or 1
        widths |= {i: words[i] + int(extra * lack[i] / total) for i in others}
    table = Table(title=Text(title), box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1),
                  collapse_padding=True)
    for i, head in enumerate(headers):
        table.add_column(head, overflow="fold", width=widths[i])
    for row in rows:
        table.add_row(*(Text(c) for c in row))
    return table


def say(console: Console, text: str) -> None:
    """A line of prose: wrapped at word boundaries to the console's width, markup off."""
    console.print(text, highlight=False, markup=False)


#: Groups of a breakdown printed before the rest is left to metrics.json.
MAX_GROUPS_PRINTED = 30


def print_breakdown(console: Console, metrics: MetricsFile, by: tuple[str, ...]) -> None:
    """A table per grouping of ``by`` (baseline condition): group, n, accuracy [95 % CI].

    Groupings not named in ``by`` are summarised in one line (they are in metrics.json).
    """
    from medvqa.conditions import baseline_of

    name = baseline_of(metrics.conditions)
    if name is None:
        return
    block = metrics.conditions[name]
    for grouping in by:
        groups = block.by.get(grouping, {})
        if not groups:
            continue
        shown = list(groups.items())[:MAX_GROUPS_PRINTED]
        rows = [[g, str(b.n), fmt(b.accuracy, b.units)] for g, b in shown]
        console.print(fitted_table(f"{name} by {grouping}", [grouping, "n", "accuracy [95 % CI]"],
                                   rows, width=console.width))
        if len(groups) > len(shown):
            say(console, f"{len(groups) - len(shown)} more {grouping} groups in metrics.json")
    rest = [f"{g} ({len(v)} groups)" for g, v in block.by.items() if g not in by and v]
    if rest:
        say(console, f"breakdowns in metrics.json: {', '.join(rest)}; `medvqa score --by "
                     f"{next(g for g in block.by if g not in by)}` prints one")


def print_metrics(console: Console, metrics: MetricsFile, run_dir: Path,
                  by: tuple[str, ...] = ()) -> None:
    """One row per condition: the registry's console metrics, then the subgroup tests.

    ``by``: the breakdowns to print as tables (``medvqa score --by``); the others are named.
    """
    shown = metric_names("console")
    info_file = Path(run_dir) / RUN_FILE
    info = read_json(info_file, RunInfo) if info_file.is_file() else None
    name = shown_name(info, metrics.model, Path(run_dir))
    split = _split_words(metrics, info)
    methods: set[str] = set()
    few = False
    rows = []
    for cname, cond in metrics.conditions.items():
        o = cond.overall
        rows.append([cname, str(o.n), *(cell(m, o) for m in shown), str(o.errors)])
        methods |= block_methods(o)
        few = few or (o.units is not None and o.units < FEW_UNITS)
    console.print(fitted_table(f"{name} on {metrics.benchmark} ({metrics.style}; split {split})",
                               ["condition", "n", *(m.label for m in shown), "errors"], rows,
                               width=console.width))
    if (text := legend(methods, few)):
        say(console, f"intervals: {text}")
    if metrics.power is not None:
        p = metrics.power
        say(console, power_line(p.items, p.cases, p.detectable_difference)
            + " (paired test, 80 % power, two-sided 5 %)")
    print_breakdown(console, metrics, by)
    for name, cond in metrics.conditions.items():
        for grouping, res in (cond.subgroups or {}).items():
            groups = ", ".join(f"{g} {v['accuracy']:.3f} (n {v['n']})"
                               for g, v in res["groups"].items())
            say(console, f"{name} by {grouping}: {groups}; {res['test']} p "
                         f"{p_text(res['p_value'], res.get('p_holm'))}")
    if metrics.reading and (found := reader_columns([metrics.reading])):
        columns = replace(found, audit=False)  # the audit is printed as lines (80 columns)
        console.print(fitted_table(
            f"how much is the reader ({metrics.reading['style']} rules)",
            list(reader_header(columns)), [list(r) for r in reader_rows(metrics.reading,
                                                                          columns)],
            width=console.width))
        plain = {c: b.overall.accuracy.model_dump() for c, b in metrics.conditions.items()}
        for line in audit_lines(metrics.reading, plain):
            say(console, f"reader audit, {line}")
        for written in (metrics.reading.get("extractor", {}).get("file"),
                        metrics.reading.get("disagreements_file")):
            if written:
                console.print(f"wrote {run_dir / written}", highlight=False, soft_wrap=True)
    say(console, f"wrote {run_dir / 'metrics.json'}; CIs: {metrics.resamples} resamples, "
        f"seed {metrics.seed}, resampling "
        f"{metrics.clustering or ('cases' if metrics.clustered else 'items')}")


def _split_words(metrics: MetricsFile, info: RunInfo | None) -> str:
    """The splits the run's items are of: its ``--split``, else its breakdown by split."""
    if info is not None and (chosen := (info.selection or {}).get("split")):
        return str(chosen)
    found = sorted({s for c in metrics.conditions.values() for s in c.by.get("split", {})})
    if not found:
        return "one, not named in metrics.json"
    return f"every split ({', '.join(found)})"
