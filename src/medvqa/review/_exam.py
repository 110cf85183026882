"""The human exam: experts answer a split without seeing answers or judges; answers become a RUN/.

The RUN/ is an ordinary run of model ``human:NAME`` (predictions.jsonl + run.json), so
``medvqa score`` scores it and ``medvqa report`` shows it as the human-baseline row, as PathMMU
(seed 004) and MIRA (seed 001) report expert accuracy beside the models'. An item the expert did
not answer is recorded as an error ("not answered"), never as a wrong answer.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from medvqa import __version__
from medvqa.errors import BadInputError
from medvqa.review._bench import ReviewBench
from medvqa.review._store import Reviewer, ReviewStore
from medvqa.schema import PREDICTIONS_FILE, RUN_FILE, Item, Prediction, RunInfo, write_json
from medvqa.schema import write_jsonl as write_predictions


def exam_items(bench: ReviewBench, split: str) -> list[Item]:
    """The items of one split, in file order."""
    items = [i for i in bench.items.values() if i.split == split]
    if not items:
        raise BadInputError(f"{bench.path}: split {split!r} has no items")
    return items


def answer_text(item: Item, given: list[str]) -> str:
    """The response string recorded for an answer (letters joined for multi; text for open)."""
    if item.question_type == "multi":
        return ", ".join(sorted(given))
    return given[0] if given else ""


def run_slug(name: str, split: str) -> str:
    """Folder name of an expert's RUN/: ``human_NAME--SPLIT`` with unsafe characters replaced.

    >>> run_slug("Dr. Ada/L", "test_tiny")
    'human_Dr._Ada_L--test_tiny'
    """
    return f"human_{re.sub(r'[^A-Za-z0-9._-]', '_', name)}--{split}"


def _iso(t: float) -> str:
    return dt.datetime.fromtimestamp(t, dt.timezone.utc).isoformat(timespec="seconds")


def write_exam_run(
    bench: ReviewBench, store: ReviewStore, reviewer: Reviewer, split: str, out: Path
) -> Path:
    """Write the expert's answers on ``split`` as a RUN/ folder and return it."""
    items = exam_items(bench, split)
    answers = store.answers(bench.key, split, reviewer)
    preds = []
    for item in items:
        a = answers.get(item.id)
        if a is None:
            preds.append(Prediction(item_id=item.id, error="not answered"))
        else:
            preds.append(Prediction(item_id=item.id, response=a["answer"],
                                    latency_s=a["latency_s"]))
    times = sorted(a["created_at"] for a in answers.values())
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    write_predictions(out / PREDICTIONS_FILE, preds)
    info = RunInfo(
        model=f"human:{reviewer.name}",
        model_params={"split": split},
        model_info={"human": True, "text_only": False},
        prompt_template="human-exam",
        benchmark_name=bench.card.name,
        benchmark_version=bench.card.version,
        items_sha256=bench.card.items_sha256,
        tool_version=__version__,
        started_at=_iso(times[0]) if times else "",
        ended_at=_iso(times[-1]) if times else None,
        counts={"requests": len(items), "answered": len(answers),
                "errors": len(items) - len(answers)},
        errors=["not answered"] if len(answers) < len(items) else [],
    )
    write_json(out / RUN_FILE, info)
    return out

