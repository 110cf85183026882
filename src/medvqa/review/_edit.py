"""What the item page shows (the view model) and how an edit form becomes a new item version."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from medvqa.benchmark import item_provenance
from medvqa.errors import BadInputError
from medvqa.review._bench import ReviewBench
from medvqa.schema import Item


@dataclass
class ItemView:
    """Everything the item template renders (all text is escaped by the template engine).

    Attributes:
        original: the item as in items.jsonl.
        current: the newest edited version (or the original).
        version: number of ``current`` (0 = original).
        versions: edited versions, oldest first (version, reviewer, created_at, item).
        source: the source text split around the grounding span: (before, span, after).
        judges: rows of judge name, model, scores (criterion → 1–5) and error.
        boxes: region boxes ``{id, type, box: [x0, y0, x1, y1]}`` in image pixels.
        explanation: the current explanation.
        answer_text: the answer as shown (letters joined for multi).
        provenance: (label, value) pairs of where the item came from (source dataset, image
            file, label file and row …; :func:`medvqa.benchmark.item_provenance`).
    """

    original: Item
    current: Item
    version: int
    versions: list[dict[str, Any]] = field(default_factory=list)
    source: tuple[str, str, str] = ("", "", "")
    judges: list[dict[str, Any]] = field(default_factory=list)
    boxes: list[dict[str, Any]] = field(default_factory=list)
    explanation: str = ""
    answer_text: str = ""
    provenance: list[tuple[str, str]] = field(default_factory=list)


def split_span(text: str, span: str) -> tuple[str, str, str]:
    """``text`` split around the first occurrence of ``span`` (nothing highlighted when absent).

    >>> split_span("a mass in the left lobe", "left lobe")
    ('a mass in the ', 'left lobe', '')
    >>> split_span("a mass", "")
    ('a mass', '', '')
    """
    if span and span != text:
        at = text.find(span)
        if at >= 0:
            return text[:at], span, text[at + len(span):]
    return text, "", ""


def view_model(bench: ReviewBench, item_id: str, versions: list[dict[str, Any]]) -> ItemView:
    """The view of one item with its edit history."""
    original = bench.items[item_id]
    history = [dict(v, item=Item.model_validate_json(v["item_json"])) for v in versions]
    current = history[-1]["item"] if history else original
    judges = [
        {"name": name, "model": (j or {}).get("model", ""), "scores": (j or {}).get("scores"),
         "error": (j or {}).get("error")}
        for name, j in sorted(bench.judges(item_id).items())
    ]
    text = bench.source_text(item_id)
    span = bench.grounding_span(item_id)
    source = split_span(text, span)
    regions = original.meta.get("regions") or []
    boxes = [{"id": r.get("id", ""), "type": r.get("type", ""), "box": r.get("box")}
             for r in regions if isinstance(r, dict) and isinstance(r.get("box"), list)]
    ans = current.answer
    return ItemView(
        original=original, current=current, version=history[-1]["version"] if history else 0,
        versions=history, source=source, judges=judges, boxes=boxes,
        explanation=str(current.meta.get("explanation", "") or ""),
        answer_text=", ".join(ans) if isinstance(ans, list) else ans,
        provenance=item_provenance(original),
    )


def edited_item(base: Item, form: Any) -> Item:
    """A new version of ``base`` from the edit form (question, options, answer, explanation).

    Option fields are ``opt_<letter>``; a multi answer is letters separated by commas. The
    result is validated like any item, so an answer outside the options is refused.
    """
    question = str(form.get("question", "")).strip()
    options = {k: str(form.get(f"opt_{k}", v)).strip() for k, v in base.options.items()}
    raw = str(form.get("answer", "")).strip()
    answer: str | list[str] = raw
    if base.question_type in ("multi", "region"):
        answer = [a.strip() for a in raw.split(",") if a.strip()]
    meta = dict(base.meta)
    meta["explanation"] = str(form.get("explanation", "")).strip()
    try:
        new = Item.model_validate(
            base.model_dump() | {"question": question, "options": options, "answer": answer,
                                 "meta": meta})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "item"
        raise BadInputError(f"{where}: {first['msg'].removeprefix('Value error, ')}") from None
    if any(not t for t in options.values()):
        raise BadInputError("options: an option may not be empty")
    return new
