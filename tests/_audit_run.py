"""A run whose responses a reader gets wrong in known ways, for the reader-audit tests.

``audit_run(bench, run_dir)`` writes RUN/ for a :func:`_lung_bench.make_bench` benchmark: each
item answered by one of :data:`RESPONSES` in turn (clear letters, sentences, hedges, a refusal,
a reasoning trace), with the letter a careful human reads in each (:data:`HUMAN`: None where no
answer is committed), and scores it.
"""

from __future__ import annotations

from pathlib import Path

from medvqa.schema import Prediction, RunInfo, file_sha256, read_jsonl, write_json, write_jsonl

#: Response → the option a careful human reads in it (None: no answer committed or a refusal).
HUMAN: dict[str, str | None] = {
    "A": "A",
    "The answer is B.": "B",
    "It could be A or C.": None,
    "I cannot assess this image.": None,
    "C": "C",
    "Probably benign tissue.": None,
    "<think>Glandular structures… adenocarcinoma? or squamous</think>Answer: C": "C",
    "benign": "B",
    "Final answer: <b>B</b> <script>alert(1)</script>": "B",
    "adenocarcinoma, I think": "A",
}
RESPONSES = list(HUMAN)


def audit_run(bench: Path, run_dir: Path, *, styles: tuple[str, ...] = ()) -> Path:
    """Write and score the run (``styles``: compared styles, for style disagreements)."""
    from medvqa.score import ScoreConfig, score_run

    run_dir.mkdir(parents=True, exist_ok=True)
    ids = [line.id for line in read_jsonl_items(bench)]
    write_jsonl(run_dir / "predictions.jsonl",
                [Prediction(item_id=i, response=RESPONSES[k % len(RESPONSES)])
                 for k, i in enumerate(ids)])
    write_json(run_dir / "run.json", RunInfo(model="fixed:responses", tool_version="test",
                                             items_sha256=file_sha256(bench / "items.jsonl")))
    score_run(ScoreConfig(bench, run_dir, resamples=99, compare_styles=styles))
    return run_dir


def read_jsonl_items(bench: Path) -> list:
    """The benchmark's items, in file order."""
    from medvqa.schema import Item

    return list(read_jsonl(bench / "items.jsonl", Item))


def human_reading(response: str) -> tuple[str, str | None]:
    """(verdict, choice) a careful human gives ``response``."""
    choice = HUMAN[response]
    if choice is not None:
        return "answer", choice
    return ("refusal" if "cannot" in response else "no_answer"), None
