"""``--by meta.KEY``: an imported breakdown (GMAI-MMBench's department) is a first-class
breakdown in ``medvqa score`` and ``medvqa report``."""

from __future__ import annotations

import base64
import csv
import json
from pathlib import Path

from scoring_cli import medvqa

from medvqa.score._by import check_by, group_key

RAD = Path(__file__).resolve().parents[2] / "data" / "vqa_rad" / "VQA_RAD Image Folder"


def gmai_tsv(path: Path) -> None:
    imgs = sorted(RAD.glob("*.jpg"))[:8]
    header = ["index", "image", "question", "A", "B", "answer", "category", "department",
              "modality"]
    rows = [[str(k), base64.b64encode(img.read_bytes()).decode(), f"Q{k}: which side?", "left",
             "right", "AB"[k % 2], "Position", ["Radiology", "Oncology"][k % 2],
             "CT"] for k, img in enumerate(imgs)]
    with path.open("w", newline="") as fh:
        csv.writer(fh, delimiter="\t", lineterminator="\n").writerows([header, *rows])


def test_score_and_report_by_meta_key(tmp_path: Path) -> None:
    gmai_tsv(tmp_path / "GMAI-MMBench_VAL.tsv")
    medvqa("import", "vlmevalkit", str(tmp_path / "GMAI-MMBench_VAL.tsv"), "--split", "val",
           "-o", str(tmp_path / "bench"))
    medvqa("run", str(tmp_path / "bench"), "-m", "random", "-o", str(tmp_path / "run"))
    medvqa("score", str(tmp_path / "bench"), str(tmp_path / "run"), "--by",
           "category,meta.department,meta.missing", "--resamples", "100")
    by = json.loads((tmp_path / "run" / "metrics.json").read_text())["conditions"]["clean"]["by"]
    assert sorted(by["meta.department"]) == ["Oncology", "Radiology"]
    assert [g["n"] for g in by["meta.department"].values()] == [4, 4]
    assert "meta.missing" not in by  # one group ("unknown") is no breakdown
    medvqa("report", str(tmp_path / "run"), "--by", "meta.department", "-o",
           str(tmp_path / "r.html"))
    md = (tmp_path / "r.md").read_text()
    assert "### Accuracy per meta.department" in md and "| Oncology | Radiology |" in md
    bad = medvqa("report", str(tmp_path / "run"), "--by", "meta.site", "-o",
                 str(tmp_path / "r2.html"), check=False)
    assert bad.returncode == 2 and "--by meta.site" in " ".join(bad.stderr.split())
    bad = medvqa("score", str(tmp_path / "bench"), str(tmp_path / "run"), "--by", "nope",
                 check=False)
    assert bad.returncode == 1 and "meta.KEY" in bad.stderr


def test_group_key() -> None:
    class Row:
        category = "Organ"
        meta = {"dept": {"name": "Radiology"}, "age": 61}

    assert group_key(Row(), "category") == "Organ"
    assert group_key(Row(), "meta.dept.name") == "Radiology"
    assert group_key(Row(), "meta.age") == "61" and group_key(Row(), "meta.x") == "unknown"
    assert check_by("meta.department") == "meta.department"
