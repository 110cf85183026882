"""Guessability from scored runs: accuracy without the image, with its CI, against chance."""

from __future__ import annotations

from pathlib import Path

import pytest
from _audit_helpers import lung_files

from medvqa.benchmark.audit import AuditConfig, run_audit
from medvqa.conditions import describe
from medvqa.errors import BadInputError
from medvqa.models import ModelConfig
from medvqa.run import RunConfig, run_benchmark
from medvqa.score import ScoreConfig, score_run
from medvqa.testing import ChatServer


def _removes(name: str) -> frozenset[str]:
    return describe(name).removes


def _scored(bench: Path, out: Path, model: str) -> Path:
    run_benchmark(RunConfig(bench_dir=bench, out_dir=out, model=ModelConfig(spec=model),
                            conditions=["clean", "text-only", "blind"]))
    score_run(ScoreConfig(bench, out, resamples=199))
    return out


def _served(bench: Path, out: Path, answer: str) -> Path:
    """A run of the real openai: backend against a local server that always says ``answer``
    (a model that reads images, as run.json records)."""
    with ChatServer(reply=lambda prompt, body: answer) as server:
        return _scored(bench, out, f"openai:test@{server.url}")


@pytest.fixture
def one_class(arranged) -> Path:
    """Every answer is 'benign': the most frequent train answer answers every test item."""
    files = lung_files(30)
    return arranged([("train" if k < 10 else "test", f"c{k}", f) for k, f in enumerate(files)])


def test_text_alone_above_chance_is_a_warning(one_class: Path, tmp_path: Path) -> None:
    run = _served(one_class, tmp_path / "run", "B")
    audit = run_audit(AuditConfig(one_class, runs=(run,), removes=_removes, workers=1))
    found = {f.data["condition"]: f for f in audit.findings if f.check == "guessability"}
    assert set(found) == {"text-only", "blind"}  # clean shows the image: not guessability
    f = found["text-only"]
    assert f.severity == "warning" and f.data["accuracy"] == 1.0
    assert f.data["ci"][0] > f.data["random_baseline"]
    assert not audit.runs[0].text_only


def test_a_model_that_reads_no_image_counts_with_every_condition(one_class: Path,
                                                                 tmp_path: Path) -> None:
    run = _scored(one_class, tmp_path / "run", "frequent")
    audit = run_audit(AuditConfig(one_class, runs=(run,), removes=_removes, workers=1))
    found = {f.data["condition"]: f for f in audit.findings if f.check == "guessability"}
    assert set(found) == {"clean", "text-only", "blind"}
    assert found["clean"].data["text_only_model"] and found["clean"].severity == "warning"


def test_random_guesses_are_a_note(one_class: Path, tmp_path: Path) -> None:
    run = _scored(one_class, tmp_path / "run", "random")
    audit = run_audit(AuditConfig(one_class, runs=(run,), removes=_removes, workers=1))
    notes = [f for f in audit.findings if f.check == "guessability"]
    assert notes and all(f.severity == "note" for f in notes)


def test_without_condition_knowledge_no_condition_counts(one_class: Path,
                                                         tmp_path: Path) -> None:
    run = _served(one_class, tmp_path / "run", "B")
    audit = run_audit(AuditConfig(one_class, runs=(run,), workers=1))
    assert not [f for f in audit.findings if f.check == "guessability"]


def test_unscored_run_is_one_clear_error(one_class: Path, tmp_path: Path) -> None:
    run_benchmark(RunConfig(bench_dir=one_class, out_dir=tmp_path / "run",
                            model=ModelConfig(spec="random")))
    with pytest.raises(BadInputError, match="score the run first"):
        run_audit(AuditConfig(one_class, runs=(tmp_path / "run",)))
