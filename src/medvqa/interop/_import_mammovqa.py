"""Recipe type ``mammovqa``: import a MammoVQA JSON (seed 000) as published.

The file maps an id (``"1"``, ``"2"``, …) to a sample with ``Path`` (one image, or a list for an
exam), ``Question topic``, ``Question type`` (``single choice`` | ``yes/no`` |
``multiple choice``), ``Question``, ``Options`` (texts) and ``Answer`` (a text, or a list of
texts for multiple choice), plus fields such as ``Dataset``. Questions and option texts are kept
unmodified. MammoVQA shuffles options at prompt time without a seed; here the order is drawn
with the build seed, with answer letters balanced per topic, and written into the item so every
run sees the same prompt. Every other field of the sample is kept in ``meta.mammovqa``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, cast

from medvqa._path_guard import read_utf8
from medvqa.builders import (
    BuildContext,
    Draft,
    Recipe,
    balanced_positions,
    multi_options,
    single_options,
)
from medvqa.schema import Item, QuestionType, Split

QUESTION_TYPES = {"single choice": "single", "yes/no": "yesno", "multiple choice": "multi"}
SPLITS = {
    "train": "train",
    "val": "val",
    "valid": "val",
    "validation": "val",
    "test": "test",
    "test_tiny": "test_tiny",
    "external": "external",
}
_MAIN = ("Path", "Question", "Options", "Answer", "Question type")
_CASE_FIELDS = ("Patient ID", "Patient", "Case ID", "Exam ID", "Study ID")


def _samples(data: Any) -> list[tuple[str, dict[str, Any]]]:
    if isinstance(data, dict):
        return [(str(k), v) for k, v in data.items()]
    if isinstance(data, list):
        return [(str(i + 1), v) for i, v in enumerate(data)]
    raise ValueError("a MammoVQA file is an object of id → sample (or a list of samples)")


def _check(sample: Any) -> str | None:
    """Why a sample cannot be imported, or None."""
    if not isinstance(sample, dict):
        return "sample is not an object"
    missing = [k for k in _MAIN if k not in sample]
    if missing:
        return f"missing field(s) {missing}"
    qtype = QUESTION_TYPES.get(str(sample["Question type"]).strip().lower())
    if qtype is None:
        return f"unknown Question type {sample['Question type']!r}"
    options = sample["Options"]
    distinct = isinstance(options, list) and len(set(map(str, options))) == len(options)
    if not distinct or len(options) < 2:
        return f"Options must be a list of two or more distinct texts: {options!r}"
    answers = sample["Answer"] if isinstance(sample["Answer"], list) else [sample["Answer"]]
    unknown = [a for a in answers if str(a) not in map(str, options)]
    if unknown or not answers:
        return f"unknown label {unknown[0] if unknown else ''!r}: Answer is not among the Options"
    if qtype != "multi" and len(answers) != 1:
        return f"a {sample['Question type']} question needs one Answer"
    return None


def import_mammovqa(recipe: Recipe, ctx: BuildContext) -> Iterator[Draft]:
    """Items from ``sources[0].labels[0]``; image paths are relative to ``sources[0].path``."""
    spec = recipe.sources[0]
    if not spec.labels:
        raise ValueError("mammovqa: sources[0].labels must name the MammoVQA JSON")
    table = spec.labels[0]
    base = ctx.root / spec.path
    good: list[tuple[str, dict[str, Any], list[str]]] = []
    for key, sample in _samples(json.loads(read_utf8(ctx.root / table))):
        where = f"{table}:{key}"
        why = _check(sample)
        if why is not None:
            ctx.problems.add(where, why)
            continue
        paths = sample["Path"] if isinstance(sample["Path"], list) else [sample["Path"]]
        rels: list[str] = []
        for name in paths:
            rel = ctx.store_row_image(base, str(name).lstrip("/"), f"{spec.path}/{name}", where)
            if rel is None:
                break
            rels.append(rel)
        if len(rels) == len(paths):
            good.append((key, sample, rels))
    # Letters are balanced within each topic and option count (MammoVQA reports per topic).
    groups: dict[tuple[str, int], list[int]] = {}
    for i, (_, sample, _) in enumerate(good):
        if QUESTION_TYPES[str(sample["Question type"]).strip().lower()] != "multi":
            group = (str(sample.get("Question topic", "")), len(sample["Options"]))
            groups.setdefault(group, []).append(i)
    position: dict[int, int] = {}
    for (topic, k), members in groups.items():
        positions = balanced_positions(len(members), k, ctx.seed, f"mammovqa {topic}")
        position.update(zip(members, positions, strict=True))
    for i, (key, sample, rels) in enumerate(good):
        yield _draft(spec.dataset, spec.path, table, key, sample, rels, position.get(i), ctx.seed)


def _draft(
    dataset: str,
    folder: str,
    table: str,
    key: str,
    sample: dict[str, Any],
    rels: list[str],
    position: int | None,
    seed: int,
) -> Draft:
    qtype = QUESTION_TYPES[str(sample["Question type"]).strip().lower()]
    choices = [str(o) for o in sample["Options"]]
    item_id = f"mammovqa/{key}"
    answer: str | list[str]
    if qtype == "multi":
        answers = sample["Answer"] if isinstance(sample["Answer"], list) else [sample["Answer"]]
        options, answer = multi_options([str(a) for a in answers], choices, True, seed, item_id)
    else:
        options, answer = single_options(str(sample["Answer"]), choices, position, seed, item_id)
    paths = sample["Path"] if isinstance(sample["Path"], list) else [sample["Path"]]
    case = next((str(sample[f]) for f in _CASE_FIELDS if sample.get(f)), "")
    if not case:  # an exam's images share a study; a single image is its own case
        case = str(paths[0]).rsplit("/", 1)[-1].rsplit(".", 1)[0]
    meta: dict[str, Any] = {
        "source_file": (
            f"{folder}/{paths[0]}" if len(paths) == 1 else [f"{folder}/{p}" for p in paths]
        ),
        "label_rows": [f"{table}:{key}"],
        "level": "exam" if isinstance(sample["Path"], list) else "image",
        "mammovqa": {k: v for k, v in sample.items() if k not in _MAIN},
    }
    split = SPLITS.get(str(sample.get("Split", "")).strip().lower())
    return Draft(
        Item(
            id=item_id,
            images=rels,
            question=str(sample["Question"]),
            options=options,
            answer=answer,
            question_type=cast(QuestionType, qtype),
            category=str(sample.get("Question topic", "")),
            case_id=case,
            source=str(sample.get("Dataset") or dataset),
            split=cast(Split, split or "test"),
            meta=meta,
        ),
        fixed=split is not None,
    )
