"""Export a BENCH/ as a Hugging Face ``datasets`` folder of Parquet files (pyarrow only).

Layout: ``OUT/data/<split>-00000-of-00001.parquet`` per split, plus ``OUT/README.md``: the
dataset card of ``medvqa card`` (sources, counts, the integrity audit's summary …) whose header
also lists the splits (``configs``). ``datasets.load_dataset("OUT")`` (or ``load_dataset(
"parquet", data_dir="OUT")``) then gives exactly medvqa's splits, ``val``, ``test_tiny`` and
``external`` included. (Pointing ``data_dir`` at ``OUT/data`` instead makes ``datasets`` guess
splits from keywords: ``test_tiny`` merges into ``test``, ``val`` becomes ``validation`` and
``external`` is dropped.) Columns:

- ``id``, ``question``, ``question_type``, ``category``, ``case_id``, ``source``, ``split``;
- ``images``: list of ``{bytes, path}`` (the storage of a ``datasets.Image``; bytes unchanged);
- ``options``: list of ``{letter, text}`` in display order;
- ``answer``: list of strings (one letter; letters for multi; region IDs; open text);
- ``meta``: JSON text (its keys differ between items).

The feature types are also written in the Parquet schema metadata (key ``huggingface``), which
is where ``datasets`` looks for them, so ``images`` decode as images.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from medvqa.benchmark import read_image_file
from medvqa.errors import BadInputError
from medvqa.schema import BENCHMARK_FILE, ITEMS_FILE, Benchmark, Item, read_jsonl
from medvqa.store import new_mode

_STRING = {"dtype": "string", "_type": "Value"}
FEATURES: dict[str, Any] = {
    "id": _STRING,
    "images": [{"_type": "Image"}],
    "question": _STRING,
    "options": [{"letter": _STRING, "text": _STRING}],
    "answer": [_STRING],
    "question_type": _STRING,
    "category": _STRING,
    "case_id": _STRING,
    "source": _STRING,
    "split": _STRING,
    "meta": _STRING,
}


def arrow_schema() -> Any:
    """The Parquet schema (pyarrow is imported here, off the CLI's start-up path)."""
    import pyarrow as pa

    return pa.schema(
        [
            ("id", pa.string()),
            ("images", pa.list_(pa.struct([("bytes", pa.binary()), ("path", pa.string())]))),
            ("question", pa.string()),
            ("options", pa.list_(pa.struct([("letter", pa.string()), ("text", pa.string())]))),
            ("answer", pa.list_(pa.string())),
            ("question_type", pa.string()),
            ("category", pa.string()),
            ("case_id", pa.string()),
            ("source", pa.string()),
            ("split", pa.string()),
            ("meta", pa.string()),
        ],
        metadata={"huggingface": json.dumps({"info": {"features": FEATURES}})},
    )


#: Rows buffered per split before a row group is written (memory stays flat).
BATCH_ROWS = 256


@dataclass
class ParquetExport:
    """What an export wrote: folder and rows per split."""

    out: Path
    rows: dict[str, int] = field(default_factory=dict)


def item_row(item: Item, bench: Path) -> dict[str, Any]:
    """One Parquet row for an item (image bytes read from ``bench``)."""
    answer = item.answer if isinstance(item.answer, list) else [item.answer]
    return {
        "id": item.id,
        "images": [{"bytes": read_image_file(bench, rel), "path": rel} for rel in item.images],
        "question": item.question,
        "options": [{"letter": k, "text": v} for k, v in item.options.items()],
        "answer": [str(a) for a in answer],
        "question_type": item.question_type,
        "category": item.category,
        "case_id": item.case_id,
        "source": item.source,
        "split": item.split,
        "meta": json.dumps(item.meta, ensure_ascii=False),
    }


def row_item(row: dict[str, Any]) -> Item:
    """The item a Parquet row came from (image paths as exported)."""
    qtype = row["question_type"]
    answer: str | list[str] = row["answer"] if qtype in {"multi", "region"} else row["answer"][0]
    return Item(
        id=row["id"],
        images=[img["path"] for img in row["images"]],
        question=row["question"],
        options={o["letter"]: o["text"] for o in row["options"]},
        answer=answer,
        question_type=qtype,
        category=row["category"],
        case_id=row["case_id"],
        source=row["source"],
        split=row["split"],
        meta=json.loads(row["meta"]),
    )


def _card(bench: Path, rows: dict[str, int]) -> str:
    """The dataset card (README.md) with the splits' ``configs`` and the audit's summary."""
    from medvqa.interop._card import card_text, load_audit

    info = Benchmark.model_validate_json((bench / BENCHMARK_FILE).read_text("utf-8"))
    return card_text(bench, load_audit(bench, info), rows)


def export_parquet(bench: Path, out: Path) -> ParquetExport:
    """Write ``bench`` as a Parquet dataset folder at ``out`` (replaced when it exists).

    The folder is built beside ``out`` and renamed into place, so a failed export leaves no
    half-written dataset.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = arrow_schema()
    bench, out = Path(bench), Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.exporting-"))
    tmp.chmod(new_mode(folder=True))  # mkdtemp's is 0700; the export is renamed into place
    writers: dict[str, Any] = {}
    buffers: dict[str, list[dict[str, Any]]] = {}
    rows: dict[str, int] = {}
    try:
        (tmp / "data").mkdir()

        def flush(split: str) -> None:
            if buffers.get(split):
                writers[split].write_table(pa.Table.from_pylist(buffers[split], schema=schema))
                buffers[split] = []

        for item in read_jsonl(bench / ITEMS_FILE, Item):
            split = item.split
            if split not in writers:
                path = tmp / "data" / f"{split}-00000-of-00001.parquet"
                writers[split] = pq.ParquetWriter(path, schema)
                buffers[split], rows[split] = [], 0
            buffers[split].append(item_row(item, bench))
            rows[split] += 1
            if len(buffers[split]) >= BATCH_ROWS:
                flush(split)
        for name, writer in writers.items():
            flush(name)
            writer.close()
        (tmp / "README.md").write_text(_card(bench, rows), encoding="utf-8")
        if out.exists():
            if not (out / "data").is_dir():
                raise BadInputError(f"{out}: exists and is not a Parquet export; not replacing it")
            shutil.rmtree(out)
        os.replace(tmp, out)
    except BaseException:
        for writer in writers.values():
            writer.close()
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return ParquetExport(out, rows)
