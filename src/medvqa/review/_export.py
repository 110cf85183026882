"""``medvqa review export BENCH/ -o BENCH_v2/``: the reviewed benchmark as a new version.

Kept items (accepted, or at their newest edited version) go to the new ``items.jsonl`` in the
original order; rejected, disputed and unreviewed items are left out. ``changelog.jsonl`` (and
``CHANGELOG.md``) say for every item what changed, who decided, when and why;
``benchmark.json`` gets a new version, counts and a ``review`` block with the agreement
statistics. The folder is assembled beside the target and renamed into place; BENCH/ is only read.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from medvqa import __version__
from medvqa.benchmark import read_image_file, refuse_unsafe_images
from medvqa.builders import BenchWriter, bench_counts
from medvqa.errors import BadInputError
from medvqa.review._bench import ReviewBench
from medvqa.review._criteria import REASONS
from medvqa.review._resolve import Final, resolve_all
from medvqa.review._stats import StatsConfig, review_stats
from medvqa.review._store import ReviewStore
from medvqa.schema import BENCHMARK_FILE, Item
from medvqa.store import atomic_write_text

CHANGELOG_FILE = "changelog.jsonl"
EDITABLE = ("question", "options", "answer", "explanation")


@dataclass(frozen=True)
class ExportResult:
    """What an export wrote: the folder and how many items were kept, edited, removed, left."""

    out: Path
    kept: int
    edited: int
    removed: int
    unresolved: int


def next_version(version: str) -> str:
    """The next major version: ``1.0`` → ``2.0``; anything else gets ``-reviewed``.

    >>> next_version("1.0"), next_version("beta")
    ('2.0', 'beta-reviewed')
    """
    head = version.split(".", 1)[0]
    return f"{int(head) + 1}.0" if head.isdigit() else f"{version}-reviewed"


def _iso(t: float) -> str:
    return dt.datetime.fromtimestamp(t, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def edited_fields(old: Item, new: Item) -> dict[str, list[Any]]:
    """Field → [old, new] for each editable field that differs."""
    out: dict[str, list[Any]] = {}
    for f in EDITABLE:
        a = old.meta.get(f, "") if f == "explanation" else getattr(old, f)
        b = new.meta.get(f, "") if f == "explanation" else getattr(new, f)
        if a != b:
            out[f] = [a, b]
    return out


def _entry(item: Item, final: Final, versions: dict[tuple[str, int], dict[str, Any]],
           new: Item | None, when: float | None) -> dict[str, Any]:
    change = {"kept": "accepted", "rejected": "removed"}.get(final.status, "left_out")
    entry: dict[str, Any] = {"item_id": item.id, "change": change, "status": final.status,
                             "by": list(final.by), "adjudicated": final.adjudicated}
    if final.verdict == "edit" and final.version is not None and new is not None:
        entry["change"] = "edited"
        entry["version"] = final.version
        entry["edited_by"] = versions[(item.id, final.version)]["reviewer"]
        entry["fields"] = edited_fields(item, new)
    if final.reason:
        entry["reason"] = final.reason
        entry["reason_text"] = REASONS.get(final.reason, final.reason)
    if final.note:
        entry["note"] = final.note
    entry["when"] = _iso(when) if when else None
    return entry


def check_export_target(bench_dir: Path, out: Path) -> None:
    """Refuse ``out`` as the reviewed version's folder: BENCH/ itself, inside it, or not empty.

    Raises:
        BadInputError: one line naming ``out`` and what to choose instead.
    """
    if out.resolve() == bench_dir.resolve():
        raise BadInputError(f"{out}: is the benchmark being reviewed; choose another folder")
    if out.resolve().is_relative_to(bench_dir.resolve()):
        raise BadInputError(f"{out}: is inside the benchmark being reviewed (it would become "
                            "part of it); choose a folder outside it")
    if out.exists() and any(out.iterdir()):
        raise BadInputError(f"{out}: exists and is not empty; not replacing it")


def export_reviewed(
    bench: ReviewBench, store: ReviewStore, out: Path, cfg: StatsConfig
) -> ExportResult:
    """Write the reviewed version of ``bench`` to ``out`` (which must not exist).

    Raises:
        BadInputError: ``out`` is BENCH/ or inside it, or a folder that is not empty; nobody
            has reviewed the benchmark in ``store``, or no item is kept (the version would
            be empty); a kept item's image leaves BENCH/. Nothing is written then.
    """
    out = Path(out)
    check_export_target(bench.path, out)
    reviews = store.latest_reviews(bench.key)
    adjudications = store.adjudications(bench.key)
    if not reviews and not adjudications:
        raise BadInputError(f"{bench.path}: nobody has reviewed it yet (no decision on any of "
                            f"its {len(bench.items)} items in the review database); nothing was "
                            "exported: review it first (`medvqa review serve`), or give the "
                            "--db that holds the reviews")
    finals = resolve_all(list(bench.items), reviews, adjudications, cfg.per_item)
    versions = store.all_versions(bench.key)
    kept: list[Item] = []
    log: list[dict[str, Any]] = []
    for item_id, item in bench.items.items():
        final = finals[item_id]
        new: Item | None = None
        if final.status == "kept":
            new = item
            if final.verdict == "edit" and final.version is not None:
                new = Item.model_validate_json(versions[(item_id, final.version)]["item_json"])
            kept.append(new)
        deciders = [adjudications[item_id]] if final.adjudicated else list(
            reviews.get(item_id, {}).values())
        when = max((d.created_at for d in deciders), default=None)
        log.append(_entry(item, final, versions, new, when))
    if not kept:
        removed = sum(1 for e in log if e["change"] == "removed")
        raise BadInputError(f"{bench.path}: no item is kept ({removed} removed, "
                            f"{len(log) - removed} unresolved of {len(log)}): a reviewed version "
                            "would be empty, so nothing was exported; resolve the items first "
                            "(`medvqa review stats` lists what is open)")
    # checked before anything is written: a link inside BENCH/ to a file elsewhere is never
    # copied into the new version, and it is never half-made
    refuse_unsafe_images(bench.path, kept, "nothing was exported")
    stats = review_stats(bench, store, cfg)
    with BenchWriter(out) as writer:
        written = writer.write_items(kept)
        for rel in sorted({p for i in kept for p in i.images}):
            data = read_image_file(bench.path, rel)
            if writer.images.add_bytes(data, Path(rel).suffix or ".bin") != rel:
                raise BadInputError(f"{bench.path / rel}: bytes do not match its content name")
        card = _card(bench, kept, written.sha256, stats, log)
        atomic_write_text(writer.folder / BENCHMARK_FILE,
                          json.dumps(card, indent=2, ensure_ascii=False) + "\n")
        writer.write_records(CHANGELOG_FILE, log)
        atomic_write_text(writer.folder / "CHANGELOG.md",
                          changelog_markdown(bench, card["version"], log))
        writer.commit()
    n = {c: sum(1 for e in log if e["change"] == c) for c in ("accepted", "edited", "removed")}
    return ExportResult(out, len(kept), n["edited"], n["removed"],
                        sum(1 for e in log if e["change"] == "left_out"))


def _card(bench: ReviewBench, kept: list[Item], digest: str, stats: dict[str, Any],
          log: list[dict[str, Any]]) -> dict[str, Any]:
    card = bench.card.model_dump(mode="json")
    card["version"] = next_version(bench.card.version)
    card["counts"] = bench_counts(kept, 0, len({p for i in kept for p in i.images}))
    card["items_sha256"] = digest
    card["description"] = (bench.card.description + " " if bench.card.description else "") + (
        f"Expert-reviewed version of {bench.card.name} {bench.card.version}.")
    card["review"] = {
        "from": {"name": bench.card.name, "version": bench.card.version,
                 "items_sha256": bench.card.items_sha256},
        "tool_version": __version__,
        "changes": {c: sum(1 for e in log if e["change"] == c)
                    for c in ("accepted", "edited", "removed", "left_out")},
        "stats": stats,
    }
    return card


def changelog_markdown(bench: ReviewBench, version: str, log: list[dict[str, Any]]) -> str:
    """A human-readable changelog (the JSON lines are the record)."""
    lines = [f"# {bench.card.name} {version}", "",
             f"Reviewed from version {bench.card.version} ({len(bench.items)} items).", "",
             "| item | change | by | why | when |", "| --- | --- | --- | --- | --- |"]
    for e in log:
        why = e.get("reason_text", "")
        if e.get("fields"):
            why = "edited " + ", ".join(e["fields"])
        if e.get("note"):
            why = f"{why} — {e['note']}" if why else e["note"]
        who = ", ".join(e["by"]) + (" (adjudicated)" if e["adjudicated"] else "")
        cells = [e["item_id"], e["change"], who, why, e["when"] or ""]
        lines.append("| " + " | ".join(str(c).replace("|", "\\|").replace("\n", " ")
                                       for c in cells) + " |")
    return "\n".join(lines) + "\n"
