"""A 24-item benchmark of every question type answered only with refusals, through the real
command line (``medvqa run`` against a loopback chat server, then ``medvqa score``): the invalid
rate must be 1.0 for every question type — yes/no included, where "No image was provided."
used to be read as *No*."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scoring_cli import REPO, medvqa

from medvqa.schema import Benchmark, CreatedWith, Item, write_json, write_jsonl
from medvqa.store import ImageStore
from medvqa.testing import ChatServer

TILES = sorted((REPO / "data" / "lc25000_lung_224" / "lung_image_sets" / "lung_aca").glob("*.jpeg"))
REFUSALS = ["No image was provided.", "There is no image to analyze.", "No idea.",
            "No way to tell.", "No, I'm unable to determine that from the text alone.",
            "Yes or no: cannot determine", "I'm sorry, I cannot determine this from the image.",
            "I don't know.", "As an AI, I cannot interpret medical images.",
            "I cannot identify the 2 regions in this 512x512 image.",
            "Insufficient information to answer.", "Unable to assess without the image."]
LUNG = {"A": "adenocarcinoma", "B": "benign lung tissue", "C": "squamous cell carcinoma"}


def _items(store: ImageStore) -> list[Item]:
    shapes = {
        "single": (LUNG, "A"), "yesno": ({"A": "Yes", "B": "No"}, "B"),
        "multi": ({"A": "Mass", "B": "Calcification", "I": "Miscellaneous"}, ["A", "I"]),
        "grade": ({"A": "Grade 0", "B": "Grade 1", "C": "Grade 2"}, "B"),
        "open": ({}, "left pleural effusion"), "region": ({}, ["1", "2"]),
    }
    items = []
    for i in range(24):
        qtype = list(shapes)[i % 6]
        options, answer = shapes[qtype]
        meta = {"regions": [{"id": "1", "type": "optic disc"}, {"id": "2", "type": "macula"}],
                "sex": "FM"[i // 6 % 2], "age": 30 + i} if qtype == "region" else {
                    "sex": "FM"[i // 6 % 2], "age": 30 + i}
        items.append(Item(id=f"r{i:02d}", images=[store.add_file(TILES[i])],
                          question=f"Question {i} ({qtype})?", options=options, answer=answer,
                          question_type=qtype, category=qtype, case_id=f"c{i // 2}",
                          meta=meta))
    return items


@pytest.fixture(scope="module")
def refused(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("refusals")
    bench = root / "bench"
    sha = write_jsonl(bench / "items.jsonl", _items(ImageStore(bench)))
    write_json(bench / "benchmark.json", Benchmark(name="refusals", items_sha256=sha,
                                                   created_with=CreatedWith(tool_version="t")))
    count = iter(range(10**6))

    def refuse(prompt: str, body: dict) -> str:
        return REFUSALS[next(count) % len(REFUSALS)]

    with ChatServer(reply=refuse) as server:
        medvqa("run", str(bench), "-m", f"openai:refuser@{server.url}", "-o", str(root / "run"),
               "--conditions", "clean,blind", "--concurrency", "2")
    out = medvqa("score", str(bench), str(root / "run"), "--by", "question_type,category",
                 "--resamples", "199")
    (root / "stdout.txt").write_text(out.stdout)
    return root


def test_every_question_type_is_invalid_rate_one(refused: Path):
    metrics = json.loads((refused / "run" / "metrics.json").read_text())
    for cond in ("clean", "blind"):
        block = metrics["conditions"][cond]
        assert block["overall"]["n"] == 24
        assert block["overall"]["invalid_rate"]["value"] == 1.0
        assert block["overall"]["accuracy"]["value"] == 0.0
        by_type = block["by"]["question_type"]
        assert set(by_type) == {"single", "yesno", "multi", "grade", "open", "region"}
        for qtype, b in by_type.items():
            assert b["invalid_rate"]["value"] == 1.0, qtype
        region = by_type["region"]["region"]
        assert region["hallucination_resistance"]["value"] is None  # never a perfect 1.0
        assert region["f1"]["value"] == 0.0


def test_the_console_shows_it_and_the_clustering_is_what_was_done(refused: Path):
    out = (refused / "stdout.txt").read_text()
    assert "1.000" in out and "resampling cases (12 cases, 24 items)" in " ".join(out.split())
    metrics = json.loads((refused / "run" / "metrics.json").read_text())
    assert metrics["clustered"] and metrics["clustering"] == "cases (12 cases, 24 items)"
    # The controls' paired test and the subgroup tests form one Holm family.
    assert metrics["tests_adjusted"] >= 2


def test_the_report_shows_subgroups_and_the_paired_test(refused: Path):
    out = refused / "report.html"
    medvqa("report", str(refused / "run"), "-o", str(out))
    md = out.with_suffix(".md").read_text()
    assert "### Subgroups (clean)" in md
    assert "| sex |" in md and "F 0.000 (n 12), M 0.000 (n 12)" in md
    assert "cluster permutation" in md or "Fisher" in md or "none" in md
    assert "Subgroups (clean)" in out.read_text()
    assert "cluster sign-flip (exact)" in md or "McNemar mid-p" in md
