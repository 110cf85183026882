"""``medvqa power`` and metrics.json's ``power`` on real scored runs of lung tiles in cases."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scoring_cli import medvqa

from medvqa.score import PowerConfig, benchmark_power, power_line, score_run
from medvqa.score._power import run_power
from medvqa.stats import detectable_difference


@pytest.fixture(scope="module")
def scored_lung(tmp_path_factory):
    """40 real lung tiles in 20 cases of two, run and scored with random and frequent."""
    from _lung_bench import make_bench

    from medvqa.models import ModelConfig
    from medvqa.run import RunConfig, run_benchmark
    from medvqa.score import ScoreConfig

    root = tmp_path_factory.mktemp("power")
    out = {"bench": make_bench(root / "bench", 40)}
    for model in ("random", "frequent"):
        run_benchmark(RunConfig(bench_dir=out["bench"], out_dir=root / model,
                                model=ModelConfig(spec=model)))
        score_run(ScoreConfig(out["bench"], root / model, resamples=99))
        out[model] = root / model
    return out


def test_metrics_json_states_the_smallest_detectable_difference(scored_lung):
    power = json.loads((scored_lung["random"] / "metrics.json").read_text())["power"]
    assert power["items"] == 40 and power["cases"] == 20
    assert power["weighted_case_size"] == pytest.approx(2.0)
    assert power["design_effect"] >= 1
    assert 0.1 < power["detectable_difference"] < 0.7
    assert power["detectable_difference"] == pytest.approx(
        detectable_difference(power["effective_n"], power["discordance"]), abs=1e-4)


def test_power_from_runs_estimates_the_icc_and_the_observed_discordance(scored_lung):
    report = benchmark_power(PowerConfig(
        scored_lung["bench"], runs=(scored_lung["random"], scored_lung["frequent"]), delta=0.1))
    p = report.power
    assert report.icc_source == "estimated from 2 run(s)"
    assert report.discordance_source == "observed between 1 pair(s) of runs"
    assert set(report.runs_icc) == {str(scored_lung["random"]), str(scored_lung["frequent"])}
    assert p.items == 40 and p.cases == 20
    assert report.items_needed > 0
    lines = report.lines()
    assert lines[2] == power_line(40, 20, p.detectable_difference)
    assert lines[3].startswith("to detect a difference of 0.1: ")


def test_power_without_runs_assumes_and_says_so(scored_lung):
    report = benchmark_power(PowerConfig(scored_lung["bench"]))
    assert report.icc_source.startswith("assumed") and report.power.icc == pytest.approx(0.3)
    assert report.power.discordance == 0.5
    with_icc = benchmark_power(PowerConfig(scored_lung["bench"], icc=0.0))
    assert with_icc.power.design_effect == 1.0
    assert with_icc.power.detectable_difference < report.power.detectable_difference


def test_the_command_prints_the_line_and_writes_json(scored_lung, tmp_path):
    out = tmp_path / "power.json"
    done = medvqa("power", str(scored_lung["bench"]), "--runs", str(scored_lung["random"]),
                  "--delta", "0.05", "--json", str(out))
    assert "with these 40 items in 20 cases, differences under" in done.stdout
    assert json.loads(out.read_text())["delta"] == 0.05


def test_run_power_of_independent_items_has_no_icc():
    p = run_power(np.arange(50), np.r_[np.ones(30), np.zeros(20)])
    assert p is not None and p.icc is None and p.design_effect == 1.0 and p.cases == 50
    assert run_power(np.arange(1), np.ones(1)) is None
