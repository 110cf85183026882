"""``medvqa run`` as a user types it: real subprocesses, real files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from medvqa.schema import Prediction, RunInfo, read_json, read_jsonl


def medvqa_cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "medvqa.cli", *args], capture_output=True, text=True, timeout=timeout
    )


def test_help_shows_an_example() -> None:
    proc = medvqa_cli("run", "--help")
    assert proc.returncode == 0
    assert "Example: medvqa run" in proc.stdout and "--retry-errors" in proc.stdout


@pytest.mark.parametrize(
    "command",
    ["build", "validate", "export", "score", "compare", "report", "parse", "demo", "bench",
     "import", "import-predictions", "agreement"],
)
def test_every_command_help_shows_an_example(command: str) -> None:
    proc = medvqa_cli(command, "--help")
    assert proc.returncode == 0
    assert f"medvqa {command}" in proc.stdout and "xample" in proc.stdout


def test_usage_errors_exit_1_in_one_message() -> None:
    proc = medvqa_cli("run", "--no-such-option")
    assert proc.returncode == 1
    assert "No such option" in proc.stderr and "Traceback" not in proc.stderr
    assert medvqa_cli("no-such-command").returncode == 1
    version = medvqa_cli("--version")
    assert version.returncode == 0 and version.stdout.startswith("medvqa ")


def test_run_random_end_to_end_and_rerun(bench: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = medvqa_cli("run", str(bench), "--model", "random", "--out", str(out), "--seed", "3",
                      "--split", "all")
    assert proc.returncode == 0, proc.stderr
    assert "12 sent" in proc.stdout
    preds = list(read_jsonl(out / "predictions.jsonl", Prediction))
    assert [p.item_id for p in preds] == [f"lung-{i:03d}" for i in range(12)]
    assert all(p.error is None and p.response for p in preds)
    info = read_json(out / "run.json", RunInfo)
    assert info.model == "random" and info.seed == 3 and info.ended_at
    assert "OPENAI_API_KEY" not in json.dumps(info.model_dump())
    first = (out / "predictions.jsonl").read_text()

    again = medvqa_cli("run", str(bench), "--model", "random", "--out", str(out), "--seed", "3",
                      "--split", "all")
    assert again.returncode == 0 and "0 sent" in again.stdout and "12 already done" in again.stdout
    assert (out / "predictions.jsonl").read_text() == first


def test_run_folder_of_other_model_exits_2(bench: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert medvqa_cli("run", str(bench), "-m", "random", "-o", str(out)).returncode == 0
    proc = medvqa_cli("run", str(bench), "-m", "frequent", "-o", str(out))
    assert proc.returncode == 2 and "--force-new" in proc.stderr
    proc = medvqa_cli("run", str(bench), "-m", "frequent", "-o", str(out), "--force-new")
    assert proc.returncode == 0, proc.stderr


def test_unreachable_openai_endpoint_exits_2_naming_url(bench: Path, tmp_path: Path) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    proc = medvqa_cli("run", str(bench), "-m", f"openai:test@{url}", "-o", str(tmp_path / "r"))
    assert proc.returncode == 2
    assert url in proc.stderr.replace("\n", "")


def test_run_defaults_to_the_test_split_and_says_so(bench: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    proc = medvqa_cli("run", str(bench), "-m", "random", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "split: test (the default where a benchmark has one" in proc.stderr
    preds = list(read_jsonl(out / "predictions.jsonl", Prediction))
    # The fixture's items 0, 4 and 8 are train.
    assert [p.item_id for p in preds] == [f"lung-{i:03d}" for i in range(12) if i % 4]
    assert read_json(out / "run.json", RunInfo).selection["split"] == "test"
