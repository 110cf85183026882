"""The CLI of the LLM builders: the keyword sweep, and --local-only refusing before any work."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from medvqa.cli import app
from medvqa.curate.llm._texts import resource_path
from medvqa.errors import BadInputError

runner = CliRunner()


def test_sweep_prints_precision_recall_f1_per_k() -> None:
    res = runner.invoke(
        app,
        ["build", "captions", "--sweep", str(resource_path("captions", "ir_labelled_sample.csv"))],
    )
    assert res.exit_code == 0, res.output
    lines = res.output.strip().splitlines()
    assert lines[0].split()[:4] == ["k", "precision", "recall", "F1"]
    assert [ln.split()[0] for ln in lines[1:]] == ["1", "2", "3", "4", "5"]


def test_local_only_refuses_a_remote_model_as_bad_input(tmp_path: Path) -> None:
    res = runner.invoke(
        app,
        [
            "build",
            "reports",
            str(resource_path("reports", "lung_lungrads.jsonl")),
            "--schema",
            "lungrads",
            "-o",
            str(tmp_path / "b"),
            "--local-only",
            "--model",
            "openai:gpt-4o@https://api.openai.com/v1",
        ],
    )
    assert isinstance(res.exception, BadInputError)  # medvqa's entry point maps it to exit 2
    assert "--local-only: refusing https://api.openai.com/v1" in str(res.exception)
    assert not (tmp_path / "b").exists()
