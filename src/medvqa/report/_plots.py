"""Deterministic SVG plots for reports: bars, radar, confusion matrices, curves, heatmaps.

Matplotlib with the Agg backend, a fixed ``svg.hashsalt`` and no date metadata, so the same
metrics give byte-identical SVG text that is inlined into the HTML (the page stays offline).
"""

from __future__ import annotations

import io
import math
from typing import Any

_STYLE: dict[Any, Any] = {"svg.hashsalt": "medvqa", "font.size": 9, "svg.fonttype": "none"}


def _svg(fig: Any) -> str:
    import matplotlib.pyplot as plt

    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]


def ci_bars(labels: list[str], values: list[float | None], cis: list[list[float | None]],
            baseline: float | None, title: str, colours: list[str] | None = None) -> str:
    """Horizontal bars with 95 % CI whiskers and a dashed random-guess line.

    ``colours``: one per bar (each model's colour in the report); default one blue.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with plt.rc_context(_STYLE):
        fig, ax = plt.subplots(figsize=(6.4, 0.45 * len(labels) + 1.0))
        v = [x if x is not None else 0.0 for x in values]
        lo = [max(0.0, x - (c[0] if c[0] is not None else x)) for x, c in zip(v, cis, strict=False)]
        hi = [max(0.0, (c[1] if c[1] is not None else x) - x) for x, c in zip(v, cis, strict=False)]
        ax.barh(range(len(labels)), v, xerr=[lo, hi], color=colours or "#4a7fb5", capsize=3)
        ax.set_yticks(range(len(labels)), labels)
        ax.invert_yaxis()
        ax.set_xlim(0, 1)
        ax.set_xlabel("accuracy (95 % bootstrap CI)")
        if baseline is not None:
            ax.axvline(baseline, color="#b54a4a", linestyle="--", label="random guess")
            ax.legend(loc="lower right", frameon=False)
        ax.set_title(title)
        return _svg(fig)


def category_dots(categories: list[str], series: dict[str, list[Any]],
                  styles: dict[str, Any], title: str) -> str:
    """Accuracy per category with 95 % intervals: a row per category, a dot per model.

    ``series``: model → per category ``(value, low, high)`` or None (not scored: no dot, the
    model is absent there, never drawn at 0). ``styles``: model → (colour, marker), the
    report's one mapping. Replaces a radar chart, whose area depends on the order of the axes
    and which collapses to its centre when accuracies are low.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    models = list(series)
    step = 0.8 / max(1, len(models))
    with plt.rc_context(_STYLE):
        fig, ax = plt.subplots(figsize=(6.4, 0.9 + len(categories) * max(0.35, 0.14 * len(models))),
                               layout="constrained")
        for k, model in enumerate(models):
            colour, marker = styles[model]
            ys, xs, lo, hi = [], [], [], []
            for i, cell in enumerate(series[model]):
                if cell is None or cell[0] is None:
                    continue
                value, low, high = cell
                ys.append(i - 0.4 + step * (k + 0.5))
                xs.append(value)
                lo.append(max(0.0, value - (low if low is not None else value)))
                hi.append(max(0.0, (high if high is not None else value) - value))
            ax.errorbar(xs, ys, xerr=[lo, hi], fmt=marker, color=colour, markersize=4,
                        elinewidth=1, capsize=2, label=model)
        ax.set_yticks(range(len(categories)), categories)
        ax.invert_yaxis()
        ax.set_xlim(0, 1)
        ax.set_xlabel("accuracy (95 % CI)")
        ax.grid(axis="x", alpha=0.3)
        ax.set_title(title)
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
        return _svg(fig)


def confusion_matrix(labels: list[str], predicted: list[str], counts: list[list[int]],
                     title: str) -> str:
    """Gold (rows) × predicted (columns) counts, annotated."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with plt.rc_context(_STYLE):
        fig, ax = plt.subplots(figsize=(1 + 0.6 * len(predicted), 1 + 0.5 * len(labels)))
        ax.imshow(counts, cmap="Blues", aspect="auto")
        ax.set_xticks(range(len(predicted)), predicted, rotation=45, ha="right")
        ax.set_yticks(range(len(labels)), labels)
        ax.set_xlabel("predicted")
        ax.set_ylabel("gold")
        for i, row in enumerate(counts):
            for j, c in enumerate(row):
                ax.text(j, i, str(c), ha="center", va="center", fontsize=8)
        ax.set_title(title)
        return _svg(fig)


def degradation_curves(curves: dict[str, list[float | None]], baseline: float | None,
                       title: str) -> str:
    """Accuracy against corruption severity 0 (clean) … 5, one line per corruption (PathMMU)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with plt.rc_context(_STYLE):
        fig, ax = plt.subplots(figsize=(6.4, 3.6))
        for name, values in curves.items():
            points = [(s, v) for s, v in enumerate(values) if v is not None]
            ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=name)
        if baseline is not None:
            ax.axhline(baseline, color="#b54a4a", linestyle="--", label="random guess")
        ax.set_xticks(range(6))
        ax.set_xlabel("corruption severity (0 = clean)")
        ax.set_ylabel("accuracy")
        ax.set_ylim(0, 1)
        ax.set_title(title)
        ax.legend(loc="center left", bbox_to_anchor=(1.0, 0.5), frameon=False)
        return _svg(fig)


def failure_bars(counts: dict[str, dict[str, int]], title: str) -> str:
    """Stacked horizontal bars: failure tags (rows) by condition (colours)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tags = list(dict.fromkeys(t for per in counts.values() for t in per))
    with plt.rc_context(_STYLE):
        fig, ax = plt.subplots(figsize=(6.4, 0.35 * len(tags) + 1.2))
        left = [0.0] * len(tags)
        for cond, per in counts.items():
            vals = [float(per.get(t, 0)) for t in tags]
            ax.barh(range(len(tags)), vals, left=left, label=cond)
            left = [a + b for a, b in zip(left, vals, strict=True)]
        ax.set_yticks(range(len(tags)), tags)
        ax.invert_yaxis()
        ax.set_xlabel("responses")
        ax.set_title(title)
        ax.legend(loc="center left", bbox_to_anchor=(1.0, 0.5), frameon=False)
        return _svg(fig)


def degradation_grid(series: dict[str, dict[str, list[float | None]]], baseline: float | None,
                     title: str, styles: dict[str, Any] | None = None) -> str:
    """Accuracy against severity 0 (clean) … 5: one panel per corruption, one line per model.

    Many models in one figure instead of one figure per model (a zoo of 12 models stays one
    plot); beyond :data:`MAX_PANELS` corruptions, the last panel is their mean. Each model is
    drawn in its ``styles`` entry (colour, marker) in every panel; a model without a curve in
    a panel is absent from it, and the legend names every model once.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    curves = list(dict.fromkeys(c for per in series.values() for c in per))
    shown = curves[:MAX_PANELS - 1] + (["mean of the others"] if len(curves) > MAX_PANELS
                                        else curves[MAX_PANELS - 1:])
    cols = min(3, len(shown))
    rows = math.ceil(len(shown) / cols)
    with plt.rc_context(_STYLE):
        if styles is None:
            from medvqa.report._colours import model_styles

            styles = model_styles(list(series))
        fig, axes = plt.subplots(rows, cols, figsize=(3.2 * cols + 1.6, 2.8 * rows),
                                 squeeze=False, sharey=True, layout="constrained")
        from matplotlib.lines import Line2D

        handles = [Line2D([], [], color=styles[m][0], marker=styles[m][1], markersize=4,
                          label=m) for m in series]
        for ax, curve in zip(axes.flat, shown, strict=False):
            for model, per in series.items():
                values = per.get(curve) if curve in per else _mean_curve(
                    [v for c, v in per.items() if c in curves[MAX_PANELS - 1:]])
                if not values:
                    continue
                points = [(s, v) for s, v in enumerate(values) if v is not None]
                # The id names the panel and the model, so a test can check the colours.
                ax.plot([p[0] for p in points], [p[1] for p in points],
                        marker=styles[model][1], color=styles[model][0], markersize=3,
                        label=model, gid=f"curve:{curve}:{model}")
            if baseline is not None:
                ax.axhline(baseline, color="#b54a4a", linestyle="--", linewidth=1)
            ax.set_title(curve, fontsize=9)
            ax.set_xticks(range(6))
            ax.set_ylim(0, 1)
        for ax in list(axes.flat)[len(shown):]:
            ax.set_visible(False)
        axes[0][0].set_ylabel("accuracy")
        fig.supxlabel("corruption severity (0 = clean); dashed: random guess", fontsize=9)
        fig.suptitle(title)
        fig.legend(handles=handles, loc="outside right center", frameon=False)
        return _svg(fig)


#: Panels of a degradation figure (the last one averages the curves beyond).
MAX_PANELS = 6


def _mean_curve(curves: list[list[float | None]]) -> list[float | None] | None:
    """Severity-wise mean of curves (None where no curve has the level)."""
    if not curves:
        return None
    out: list[float | None] = []
    for level in range(6):
        got = [c[level] for c in curves if len(c) > level and c[level] is not None]
        out.append(sum(got) / len(got) if got else None)  # type: ignore[arg-type]
    return out


def heatmap(rows: list[str], cols: list[str], values: list[list[float | None]], title: str,
            fmt: str = "{:.2f}", label: str = "") -> str:
    """A rows × columns grid of numbers, shaded and annotated (NaN cells left blank)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    grid = np.array([[np.nan if v is None else float(v) for v in row] for row in values])
    with plt.rc_context(_STYLE):
        fig, ax = plt.subplots(figsize=(1.6 + 0.55 * len(cols), 0.9 + 0.28 * len(rows)))
        ax.imshow(grid, cmap="Blues", aspect="auto")
        ax.set_xticks(range(len(cols)), cols, rotation=45, ha="right")
        ax.set_yticks(range(len(rows)), rows)
        if len(rows) * len(cols) <= 400:
            for i, row in enumerate(grid):
                for j, v in enumerate(row):
                    if not np.isnan(v):
                        ax.text(j, i, fmt.format(v), ha="center", va="center", fontsize=7)
        if label:
            ax.set_xlabel(label)
        ax.set_title(title)
        return _svg(fig)
