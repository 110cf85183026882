"""An Inspect AI task over a medvqa BENCH/: ``inspect eval medvqa/medvqa_task -T bench=BENCH/``.

Each item becomes an Inspect ``Sample`` (``id`` = item id, images as data URIs before the text,
``metadata`` = question type, category, source, split, case id) and each question type gets
Inspect's own matching solver and scorer:

- choice items (``single``, ``yesno``, ``grade``): ``multiple_choice()`` + ``choice()``;
- ``multi``: ``multiple_choice(multiple_correct=True)`` + ``choice()``;
- ``open``: ``generate()`` on medvqa's rendered prompt + ``match(location="exact",
  ignore_case=True)``;
- ``region``: ``generate()`` + the set of region IDs named equals the gold set.

The log Inspect writes goes back into medvqa with ``medvqa import-predictions inspect LOG
--bench BENCH/ -o RUN/``, where medvqa's parsers, confidence intervals and controls apply.
Needs ``pip install 'medvqa[interop]'`` (inspect_ai).
"""

# ruff: noqa: E402 - inspect_ai is imported after the check that names the extra to install.

from __future__ import annotations

import base64
import mimetypes
import re
from pathlib import Path
from typing import Any

from medvqa._optional import optional_import

optional_import("inspect_ai")

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageUser, ContentImage, ContentText
from inspect_ai.scorer import (
    CORRECT,
    INCORRECT,
    Score,
    Scorer,
    Target,
    accuracy,
    choice,
    match,
    scorer,
    stderr,
)
from inspect_ai.solver import Generate, Solver, TaskState, multiple_choice, solver
from inspect_ai.solver import generate as generate_solver

from medvqa.benchmark import load_template, read_image_file, render_prompt
from medvqa.schema import CHOICE_TYPES, ITEMS_FILE, Item, read_jsonl

__all__ = ["bench_dataset", "item_sample", "medvqa_scorer", "medvqa_solver", "medvqa_task"]


def _data_uri(bench: Path, rel: str) -> str:
    mime = mimetypes.guess_type(rel)[0] or "image/png"
    data = read_image_file(bench, rel)  # inside BENCH/, a regular file
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def item_sample(item: Item, bench: Path, template: str = "default") -> Sample:
    """The Inspect sample of one item (choice items carry ``choices`` in option order)."""
    images: list[Any] = [ContentImage(image=_data_uri(bench, rel)) for rel in item.images]
    choice_item = item.question_type in CHOICE_TYPES
    text = item.question if choice_item else render_prompt(item, load_template(template))
    answer = item.answer if isinstance(item.answer, list) else [item.answer]
    return Sample(
        id=item.id,
        input=[ChatMessageUser(content=[*images, ContentText(text=text)])],
        choices=list(item.options.values()) if choice_item else None,
        target=answer if item.question_type in {"multi", "region"} else answer[0],
        metadata={"question_type": item.question_type, "category": item.category,
                  "source": item.source, "split": item.split, "case_id": item.case_id or ""},
    )


def bench_dataset(bench: str | Path, split: str = "test", template: str = "default",
                  ) -> MemoryDataset:
    """The items of ``split`` (``all`` for every split) as an Inspect dataset, in file order."""
    bench = Path(bench)
    items = [i for i in read_jsonl(bench / ITEMS_FILE, Item) if split in {"all", i.split}]
    return MemoryDataset([item_sample(i, bench, template) for i in items], name=bench.name)


@solver
def medvqa_solver() -> Solver:
    """Inspect's multiple-choice solver for choice items, plain generation for the others."""
    single = multiple_choice()
    several = multiple_choice(multiple_correct=True)
    plain = generate_solver()

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        qtype = state.metadata.get("question_type")
        if qtype == "multi":
            return await several(state, generate)
        if qtype in CHOICE_TYPES:
            return await single(state, generate)
        return await plain(state, generate)

    return solve


def region_ids(text: str) -> set[str]:
    """Region IDs named in a reply: the integers in it (``"3, 7"`` → ``{'3', '7'}``)."""
    return set(re.findall(r"\d+", text))


@scorer(metrics=[accuracy(), stderr()])
def medvqa_scorer() -> Scorer:
    """``choice()`` for choice items, exact match for open items, ID sets for region items."""
    by_choice, exact = choice(), match(location="exact", ignore_case=True)

    async def score(state: TaskState, target: Target) -> Score:
        qtype = state.metadata.get("question_type")
        if qtype == "region":
            said = region_ids(state.output.completion)
            ok = said == set(target.target)
            return Score(value=CORRECT if ok else INCORRECT, answer=",".join(sorted(said)))
        result = await (by_choice if qtype in CHOICE_TYPES else exact)(state, target)
        # Inspect's scorers may return None (no score); that is not a right answer.
        return result if result is not None else Score(value=INCORRECT)

    return score


@task
def medvqa_task(bench: str, split: str = "test", template: str = "default") -> Task:
    """A medvqa benchmark as an Inspect task (see the module docstring)."""
    return Task(dataset=bench_dataset(bench, split, template), solver=medvqa_solver(),
                scorer=medvqa_scorer(), name=f"medvqa_{Path(bench).name}")
