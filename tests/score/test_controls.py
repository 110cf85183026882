"""Δ = clean − condition end to end: a real chat server that answers from the image it receives
(right on the clean image, "A" on anything else) is run under controls, scored and reported."""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path

import pytest

from medvqa.models import ModelConfig
from medvqa.report._render import write_report
from medvqa.run import RunConfig, run_benchmark
from medvqa.schema import Benchmark, CreatedWith, Item, write_json, write_jsonl
from medvqa.score import ScoreConfig, score_run
from medvqa.store import ImageStore
from medvqa.testing import ChatServer

REPO = Path(__file__).resolve().parents[2]
LUNG = REPO / "data" / "lc25000_lung_224" / "lung_image_sets"
LABELS = {"lung_aca": "adenocarcinoma", "lung_n": "benign", "lung_scc": "squamous cell carcinoma"}
CONDITIONS = ["clean", "blind", "corrupt:jpeg@1", "corrupt:jpeg@5", "swap"]


def build(root: Path, n: int = 18) -> tuple[Path, dict[str, str]]:
    """A benchmark of real tiles; returns it and image sha256 → gold option text."""
    store, items, gold = ImageStore(root), [], {}
    files = {k: sorted((LUNG / k).glob("*.jpeg")) for k in LABELS}
    for i in range(n):
        cls = list(LABELS)[i % 3]
        path = files[cls][i // 3]
        gold[hashlib.sha256(path.read_bytes()).hexdigest()] = LABELS[cls]
        opts = dict(zip("ABC", sorted(LABELS.values()), strict=False))
        items.append(Item(id=f"t{i:02d}", images=[store.add_file(path)],
                          question=f"Tile {i}: which tissue is shown?", options=opts,
                          answer=next(k for k, v in opts.items() if v == LABELS[cls]),
                          question_type="single", category=cls, case_id=f"c{i // 2}"))
    sha = write_jsonl(root / "items.jsonl", items)
    write_json(root / "benchmark.json", Benchmark(name="controls", items_sha256=sha,
                                                  created_with=CreatedWith(tool_version="t")))
    return root, gold


def oracle(gold: dict[str, str]):
    """Reply with the letter of the gold text when the clean image arrives, else "A"."""
    def reply(prompt: str, body: dict) -> str:
        for part in body["messages"][-1]["content"]:
            if part.get("type") == "image_url":
                data = base64.b64decode(part["image_url"]["url"].split(",", 1)[1])
                text = gold.get(hashlib.sha256(data).hexdigest())
                for line in prompt.splitlines():
                    if text and line[3:] == text:
                        return line[0]
        return "A"
    return reply


@pytest.fixture(scope="module")
def scored(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("controls")
    bench, gold = build(root / "bench")
    with ChatServer(reply=oracle(gold)) as server:
        run_benchmark(RunConfig(bench, root / "run", ModelConfig(f"openai:oracle@{server.url}"),
                                conditions=CONDITIONS, concurrency=4))
    score_run(ScoreConfig(bench, root / "run", resamples=999))
    return root / "run"


def test_blind_delta_excludes_zero_and_says_needs_the_image(scored: Path) -> None:
    metrics = json.loads((scored / "metrics.json").read_text())
    blind = metrics["controls"]["deltas"]["blind"]["overall"]
    assert blind["clean"] == 1.0 and blind["condition"] == pytest.approx(1 / 3, abs=0.01)
    assert blind["ci"][0] > 0 and blind["needs_image"]
    assert blind["p_value"] < 0.01 and blind["condition_only"] == 0
    assert blind["p_holm"] >= blind["p_value"] and blind["test"]


def test_swap_keeps_the_image_so_the_oracle_is_unaffected(scored: Path) -> None:
    swap = json.loads((scored / "metrics.json").read_text())["controls"]["deltas"]["swap"]
    assert swap["overall"]["delta"] == 0 and not swap["overall"]["needs_image"]


def test_deltas_are_given_per_category(scored: Path) -> None:
    blind = json.loads((scored / "metrics.json").read_text())["controls"]["deltas"]["blind"]
    assert set(blind["by_category"]) == set(LABELS)


def test_degradation_curve_runs_from_clean_over_severities(scored: Path) -> None:
    curve = json.loads((scored / "metrics.json").read_text())["controls"]["degradation"]["jpeg"]
    assert curve[0] == 1.0 and curve[1] is not None and curve[5] is not None
    assert curve[2] is None  # severity 2 was not run


def test_report_shows_deltas_curves_and_failure_modes(scored: Path, tmp_path: Path) -> None:
    html, md = write_report([scored], tmp_path / "report.html")
    page = html.read_text()
    assert "needs the image" in page and "Accuracy under corruption" in page
    assert "Failure modes" in page and page.count("<svg") >= 3
    assert "| blind |" in md.read_text()


def test_controls_are_deterministic(scored: Path, tmp_path: Path) -> None:
    first = (scored / "metrics.json").read_bytes()
    score_run(ScoreConfig(scored.parent / "bench", scored, resamples=999))
    assert (scored / "metrics.json").read_bytes() == first


def test_holm_is_applied_within_each_family(scored: Path) -> None:
    from medvqa.stats import holm

    metrics = json.loads((scored / "metrics.json").read_text())
    controls = metrics["controls"]
    entries = [d for res in controls["deltas"].values()
               for d in [res["overall"], *res.get("by_category", {}).values()]]
    entries += list(controls["trends"].values())
    entries += [t for c in metrics["conditions"].values()
                for t in (c.get("subgroups") or {}).values()]
    tested = [e for e in entries if e.get("family")]
    assert len(tested) == metrics["tests_adjusted"] == sum(metrics["test_families"].values())
    # blind and swap are the primary family; jpeg@1 and jpeg@5 are one curve, one test.
    assert metrics["test_families"]["controls"] == 2 and metrics["test_families"]["curves"] == 1
    for family in metrics["test_families"]:
        members = [e for e in tested if e["family"] == family]
        expected = holm([e["p_value"] for e in members])
        assert [e["p_holm"] for e in members] == pytest.approx(expected, rel=1e-3)
    points = [d for c in ("corrupt:jpeg@1", "corrupt:jpeg@5")
              for d in [controls["deltas"][c]["overall"],
                        *controls["deltas"][c]["by_category"].values()]]
    assert all(d["family"] == "" and d["p_holm"] is None and not d["needs_image"]
               for d in points)
    # Overall, cases repeat (two tiles per case): the clustered paired test. Within one
    # category no case repeats (a case's two tiles are of different classes): McNemar.
    deltas = controls["deltas"].values()
    assert {d["overall"]["test"] for d in deltas} == {"cluster sign-flip (exact)"}
    assert {c["test"] for d in deltas for c in d["by_category"].values()} == {"McNemar mid-p"}


def test_compare_without_bench_refuses_to_drop_clustering(scored: Path, tmp_path) -> None:
    import subprocess
    import sys

    cli = [str(Path(sys.executable).parent / "medvqa"), "compare", str(scored),
           "--condition", "clean", "--vs-condition", "blind", "--resamples", "199"]
    refused = subprocess.run(cli, capture_output=True, text=True, timeout=120)
    assert refused.returncode == 2 and "--bench" in refused.stderr + refused.stdout
    out = tmp_path / "cmp.json"
    ok = subprocess.run([*cli, "--bench", str(scored.parent / "bench"), "-o", str(out)],
                        capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stderr
    cmp = json.loads(out.read_text())
    assert cmp["clustered"] and cmp["test"] == "cluster sign-flip (exact)"
    items = subprocess.run([*cli, "--no-cluster", "-o", str(out)], capture_output=True,
                           text=True, timeout=120)
    assert items.returncode == 0 and json.loads(out.read_text())["test"] == "McNemar mid-p"
