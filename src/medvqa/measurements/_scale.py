"""``medvqa bench`` section ``scale``: scoring and reporting at the size of real benchmarks.

Two synthetic text-only benchmarks (written here, so the section runs from an installed
package): four options per item drawn from twelve shared answer texts (MammoVQA-like), and
options whose texts differ on every item (PMC-VQA, OmniMedVQA-like). Three items per case, eight
categories, three sources, age and sex in ``meta``. Each is run with the ``random`` model under
``clean`` and three option shifts (four predictions per item) by ``medvqa run``, then scored
with 9,999 case-clustered resamples and the default breakdowns in a fresh process, whose wall
time and peak RSS (``VmHWM``) are the figures; the floor is a bare ``json.loads`` pass over the
same predictions.jsonl. A report of a model zoo (12 models × 8 conditions, metrics at this size)
is timed and weighed last.

Targets (issue 22, 2-core machine): 1,000,000 predictions scored in ≤ 60 s, ≤ 20× the bare
read, ≤ 1 GB peak RSS, for both benchmarks; peak RSS flat (≤ +20 %) from 100,000 to 1,000,000
predictions; the zoo report a self-contained HTML under 5 MB, rendered in seconds.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from medvqa.measurements._figure import BenchFigure
from medvqa.schema import Benchmark, CreatedWith, Item, write_json, write_jsonl

#: Answer texts of the shared-text benchmark.
TEXTS = ("benign calcification", "malignant mass", "architectural distortion", "asymmetry",
         "normal tissue", "cyst", "fibroadenoma", "intramammary lymph node", "skin thickening",
         "nipple retraction", "microcalcification cluster", "post-surgical scar")
#: Conditions of the runs: four predictions per item (the shifts are also combined: circular).
CONDITIONS = "clean,permute@1-3"


def write_scale_bench(root: Path, n: int, unique: bool, seed: int = 0) -> Path:
    """Write a BENCH/ of ``n`` four-option items, three per case.

    Args:
        root: the folder to write.
        n: items.
        unique: options whose texts differ on every item (else drawn from :data:`TEXTS`).
        seed: seed of the options and answers.
    """
    rng = np.random.default_rng(seed)

    def items() -> Iterator[Item]:
        for i in range(n):
            texts = ([f"finding {i}.{j}" for j in range(4)] if unique
                     else [TEXTS[k] for k in rng.choice(len(TEXTS), 4, replace=False)])
            case = f"case-{i // 3:07d}"
            yield Item(id=f"item-{i:07d}", images=[], question=f"Question {i}: which finding?",
                       options=dict(zip("ABCD", texts, strict=True)),
                       answer="ABCD"[int(rng.integers(4))], question_type="single",
                       category=f"category-{i % 8}", case_id=case, source=f"source-{i // 3 % 3}",
                       split="test", meta={"patient_id": case, "age": 20 + i // 3 % 70,
                                           "sex": "FM"[i // 3 % 2]})

    root.mkdir(parents=True, exist_ok=True)
    sha = write_jsonl(root / "items.jsonl", items())
    name = "scale-unique" if unique else "scale-shared"
    write_json(root / "benchmark.json", Benchmark(
        name=name, created_with=CreatedWith(tool_version="bench"), items_sha256=sha))
    return root


def write_random_run(bench: Path, out: Path, conditions: tuple[str, ...] = ("clean",),
                     seed: int = 0, error_every: int = 0) -> Path:
    """A RUN/ of uniformly random letters, written directly (tests use it for speed).

    What ``medvqa run -m random`` writes, in its item-major order, without the runner.

    Args:
        bench: the BENCH/ (single-choice items).
        out: the RUN/ folder to write.
        conditions: condition names, in the order of each item's lines.
        seed: seed of the letters.
        error_every: every n-th line is a failed request instead (0: none).
    """
    from medvqa import __version__
    from medvqa.schema import Prediction, RunInfo, read_json, read_jsonl

    rng = np.random.default_rng(seed)
    card = read_json(bench / "benchmark.json", Benchmark)

    def lines() -> Iterator[Prediction]:
        k = 0
        for item in read_jsonl(bench / "items.jsonl", Item):
            for cond in conditions:
                k += 1
                if error_every and k % error_every == 0:
                    yield Prediction(item_id=item.id, condition=cond, error="HTTP 500")
                    continue
                letter = list(item.options)[int(rng.integers(len(item.options)))]
                yield Prediction(item_id=item.id, condition=cond, response=letter,
                                 latency_s=0.0)

    out.mkdir(parents=True, exist_ok=True)
    write_jsonl(out / "predictions.jsonl", lines())
    write_json(out / "run.json", RunInfo(model="random", conditions=list(conditions),
                                         items_sha256=card.items_sha256,
                                         tool_version=__version__, seed=seed))
    return out


_SCORE_SCRIPT = """
import sys, time
from pathlib import Path
t0 = time.perf_counter()
from medvqa.score import ScoreConfig, score_run
score_run(ScoreConfig(Path(sys.argv[1]), Path(sys.argv[2]), resamples=int(sys.argv[3])))
# VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the forking parent across exec.
hwm = next(line for line in open("/proc/self/status") if line.startswith("VmHWM"))
print(int(hwm.split()[1]) / 1024)
"""

_READ_SCRIPT = """
import json, sys, time
t0 = time.perf_counter()
with open(sys.argv[1], "rb") as fh:
    for line in fh:
        json.loads(line)
print(time.perf_counter() - t0)
"""


def _child(script: str, *args: str) -> tuple[float, str]:
    """Wall seconds of a fresh Python running ``script`` (start-up and imports included)."""
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", script, *args], capture_output=True,
                          text=True, check=True)
    return time.perf_counter() - t0, proc.stdout.strip()


def _run_random(bench: Path, out: Path) -> float:
    """Seconds of ``medvqa run BENCH -m random`` under :data:`CONDITIONS` (a fresh process)."""
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "medvqa", "run", str(bench), "-m", "random", "-o",
                    str(out), "--conditions", CONDITIONS], capture_output=True, text=True,
                   check=True)
    return time.perf_counter() - t0


def _scored(tmp: Path, n: int, unique: bool, resamples: int) -> dict[str, float]:
    """Build, run, read and score one benchmark: the measured seconds and megabytes."""
    kind = "unique" if unique else "shared"
    bench = write_scale_bench(tmp / f"{kind}-{n}", n, unique)
    run = tmp / f"run-{kind}-{n}"
    run_s = _run_random(bench, run)
    pred = run / "predictions.jsonl"
    _, read = _child(_READ_SCRIPT, str(pred))
    wall, rss = _child(_SCORE_SCRIPT, str(bench), str(run), str(resamples))
    predictions = sum(1 for _ in pred.open("rb"))
    return {"n": predictions, "run": run_s, "read": float(read), "wall": wall,
            "rss": float(rss)}


def bench_scale(quick: bool) -> list[BenchFigure]:
    """Score wall time, peak RSS, bare read, ratio; report time and size, at two sizes."""
    sizes = (2_500, 25_000) if quick else (25_000, 250_000)
    resamples = 9_999
    figures: list[BenchFigure] = []
    with tempfile.TemporaryDirectory(prefix="medvqa-scale-") as tmp_name:
        tmp = Path(tmp_name)
        last: Path | None = None
        for unique in (False, True):
            kind = "unique answer texts" if unique else "shared answer texts"
            peaks = []
            for n in sizes:
                got = _scored(tmp, n, unique, resamples)
                peaks.append(got["rss"])
                big = n == sizes[-1] and not quick
                what = f"{got['n']:,.0f} predictions, {kind}"
                ratio = got["wall"] / got["read"]
                figures += [
                    BenchFigure("scale", f"medvqa run random, {what}", got["run"], "s"),
                    BenchFigure("scale", f"score (9,999 resamples, clustered), {what}",
                                got["wall"], "s", "<= 60" if big else "",
                                got["wall"] <= 60 if big else None),
                    BenchFigure("scale", f"  its peak RSS, {what}", got["rss"], "MB",
                                "<= 1024" if big else "", got["rss"] <= 1024 if big else None),
                    BenchFigure("scale", f"  bare json.loads read, {what}", got["read"], "s"),
                    BenchFigure("scale", f"  score / bare read, {what}", ratio, "x",
                                "<= 20" if big else "", ratio <= 20 if big else None),
                ]
                last = tmp / f"run-{'unique' if unique else 'shared'}-{n}"
            growth = peaks[1] / peaks[0]
            figures.append(BenchFigure(
                "scale", f"peak RSS {sizes[1] * 4:,} / {sizes[0] * 4:,} predictions, {kind}",
                growth, "x", "<= 1.2", growth <= 1.2))
        if last is not None:
            figures += _zoo_report(tmp, last)
    return figures


#: The zoo's conditions: the baseline, six controls, and the combined option shifts.
ZOO_CONDITIONS = ("clean", "blind", "noise", "text-only", "swap", "corrupt:jpeg@3",
                  "corrupt:jpeg@5", "permute")


def write_zoo(root: Path, scored: Path, models: int = 12) -> list[Path]:
    """RUN/ folders of ``models`` models × :data:`ZOO_CONDITIONS`, at ``scored``'s size.

    Each holds ``scored``'s run.json (model renamed), its predictions.jsonl (a hard link,
    so the report's freshness check reads as much as for real runs) and a metrics.json made
    from ``scored``'s: its clean block for every condition, accuracy shifted per model and
    condition, a control (Δ, overall and per category) per condition and its failure modes.
    """
    from medvqa.conditions import describe
    from medvqa.schema import RunInfo, read_json
    from medvqa.score import run_identity

    metrics = json.loads((scored / "metrics.json").read_text())
    info = read_json(scored / "run.json", RunInfo)
    clean = metrics["conditions"]["clean"]
    runs = []
    for m in range(models):
        run = root / f"model-{m:02d}"
        run.mkdir(parents=True, exist_ok=True)
        mine = info.model_copy(update={"model": f"zoo:model-{m:02d}",
                                       "conditions": list(ZOO_CONDITIONS)})
        write_json(run / "run.json", mine)
        pred = run / "predictions.jsonl"
        pred.unlink(missing_ok=True)
        pred.hardlink_to(scored / "predictions.jsonl")
        out = json.loads(json.dumps(metrics))
        out["model"] = mine.model
        out["provenance"]["run"] = run_identity(mine)
        out["conditions"] = {c: _shifted(clean, 0.02 * m - 0.03 * i)
                             for i, c in enumerate(ZOO_CONDITIONS)}
        out["conditions"]["permute"]["consistency"] = 0.5
        delta = {"n": clean["overall"]["n"], "clean": 0.5, "condition": 0.4, "delta": 0.1,
                 "ci": [0.08, 0.12], "p_value": 0.001, "test": "cluster sign-flip (exact)",
                 "family": "controls", "p_holm": 0.005, "clean_only": 100,
                 "condition_only": 50, "needs_image": True}
        point = {**delta, "family": "", "p_holm": None, "needs_image": False}
        cats = clean["by"].get("category", {})
        out["controls"] = {
            "deltas": {c: {"overall": d, "by_category": {k: d for k in cats}}
                       for c in ZOO_CONDITIONS[1:-1]
                       for d in [point if describe(c).curve else delta]},
            "trends": {"jpeg": {"levels": [0, 3, 5], "accuracy": [0.5, 0.45, 0.4],
                                "n": clean["overall"]["n"], "slope": -0.02,
                                "test": "stratified trend z (normal approximation)",
                                "p_value": 0.001, "family": "curves", "p_holm": 0.001,
                                "declines": True}},
            "degradation": {"jpeg": [0.5, None, None, 0.45, None, 0.4]}}
        modes = next(iter(metrics.get("failure_modes", {}).values()), None)
        out["failure_modes"] = {c: modes for c in ZOO_CONDITIONS} if modes else None
        (run / "metrics.json").write_text(json.dumps(out, indent=2))
        runs.append(run)
    return runs


def _shifted(block: dict[str, Any], by: float) -> dict[str, Any]:
    """A copy of a condition's metrics with every accuracy moved by ``by`` (kept in [0, 1])."""
    out = json.loads(json.dumps(block))
    for b in [out["overall"], *(g for groups in out["by"].values() for g in groups.values())]:
        acc = b["accuracy"]
        if acc["value"] is not None:
            acc["value"] = min(1.0, max(0.0, acc["value"] + by))
            acc["ci"] = [None if x is None else min(1.0, max(0.0, x + by)) for x in acc["ci"]]
    return out


def _zoo_report(tmp: Path, scored: Path) -> list[BenchFigure]:
    """Time and size of a report of 12 models × 8 conditions with this run's metrics."""
    runs = write_zoo(tmp / "zoo", scored)
    out = tmp / "zoo" / "report.html"
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "medvqa", "report", *map(str, runs), "-o", str(out)],
                   capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    html_mb = out.stat().st_size / 2**20
    md_kb = out.with_suffix(".md").stat().st_size / 1024
    return [
        BenchFigure("scale", "report, 12 models × 8 conditions (fresh process)", wall, "s"),
        BenchFigure("scale", "  its HTML (self-contained)", html_mb, "MB", "<= 5",
                    html_mb <= 5),
        BenchFigure("scale", "  its Markdown", md_kb, "KB"),
    ]
