"""How the report and the console show an interval: its method, few units, no zero width,
and the smallest difference the sample can show under each comparison table."""

from __future__ import annotations

import io
from pathlib import Path

from report_fixtures import block, rendered, run
from rich.console import Console

from medvqa.report import print_metrics
from medvqa.report._console import fmt, interval_text
from medvqa.report._report import LoadedRun
from medvqa.schema import MetricsFile, MetricValue


def _scored(n: int, units: int, method: str = "wilson") -> LoadedRun:
    b = block(0.8, (0.49, 0.94), n)
    for key in ("accuracy", "weighted_accuracy", "valid_accuracy"):
        b["overall"][key] = {**b["overall"][key], "method": method}
    b["overall"]["invalid_rate"] = {"value": 0.0, "ci": [0.0, 0.31], "method": method}
    b["overall"]["units"] = units
    power = {"items": n, "cases": units, "weighted_case_size": n / units, "icc": 0.2,
             "design_effect": 1.2, "effective_n": n / 1.2, "accuracy": 0.8,
             "discordance": 0.32, "detectable_difference": 0.4123}
    metrics = MetricsFile.model_validate({
        "style": "strict", "n": n, "seed": 0, "resamples": 999, "clustered": units < n,
        "model": "m", "benchmark": "b", "conditions": {"clean": b}, "power": power})
    return LoadedRun(Path("m"), None, metrics)


def test_a_figure_names_its_method_and_is_marked_on_few_units():
    mv = MetricValue(value=0.8, ci=[0.49, 0.94], method="wilson-ess")
    assert fmt(mv, 12) == "0.800 [0.490, 0.940] W†"
    assert fmt(mv, 300) == "0.800 [0.490, 0.940] W"
    assert fmt(MetricValue(value=0.8, ci=[0.7, 0.9], method="bootstrap")) == \
        "0.800 [0.700, 0.900] B"
    assert interval_text(-0.1, 0.2, "newcombe-jeffreys", 40, signed=True) == \
        "[-0.100, +0.200] N"
    # A file written by an earlier version keeps its method's tag.
    assert interval_text(-0.1, 0.2, "tango", 40, signed=True) == "[-0.100, +0.200] T"


def test_a_zero_width_interval_of_an_older_file_is_never_printed():
    # metrics.json before schema 3: a rate of 0 on a small set had the bootstrap's [0, 0].
    html, md = rendered([run("random", "a", 0.4, (0.1, 0.7), 10)])
    assert "[0.000, 0.000]" not in md and "[0.000, 0.000]" not in html
    assert "0.000 [no interval: zero width]" in md


def test_the_report_states_the_power_line_and_the_legend():
    from medvqa.stats import detectable_difference

    html, md = rendered([_scored(20, 8)])
    # One run: its cases, ICC 0.2 over cases of 2.5 items (design effect 1.3), accuracy 0.8.
    mdd = detectable_difference(20 / 1.3, 2 * 0.8 * 0.2)
    line = f"With these 20 items in 8 cases, differences under {mdd:.2f} cannot be told from noise"
    assert line in md and line in html
    assert "Intervals: W: Wilson score interval" in md and "† on fewer than 30 items or cases" in md
    assert "0.800 [0.490, 0.940] W†" in md


def test_the_console_prints_the_legend_and_the_power_line(tmp_path):
    out = io.StringIO()
    print_metrics(Console(file=out, width=200), _scored(20, 8).metrics, tmp_path)
    text = out.getvalue()
    assert "intervals: W: Wilson score interval" in text
    assert "with these 20 items in 8 cases, differences under 0.41 cannot be told" in text
    assert "(paired test, 80 % power, two-sided 5 %)" in text
