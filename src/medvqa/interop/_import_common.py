"""What the dataset importers share: reading published files, format checks, yes/no vs open items.

Every importer keeps the published question text, answer and split; it only decides the item
shape. A closed question answered yes or no becomes a ``yesno`` item (options Yes / No in a
seeded order, so answer letters balance); every other free-text answer becomes an ``open`` item.
A file in the wrong format (e.g. SLAKE given to the VQA-RAD importer) raises
:class:`~medvqa.errors.BadInputError` naming the file and the missing fields, instead of
skipping every row.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from medvqa._path_guard import read_utf8
from medvqa.builders import LETTERS, balanced_positions
from medvqa.errors import BadInputError
from medvqa.schema import Item

#: Published split names → medvqa's.
SPLIT_ALIASES = {
    "train": "train",
    "training": "train",
    "val": "val",
    "valid": "val",
    "validate": "val",
    "validation": "val",
    "dev": "val",
    "test": "test",
    "testing": "test",
    "test_tiny": "test_tiny",
    "external": "external",
}


def split_name(text: str, default: str = "test") -> str:
    """Medvqa's split for a published split name or file stem (``validate`` → ``val``).

    >>> split_name("validation"), split_name("test-00000-of-00001"), split_name("")
    ('val', 'test', 'test')
    """
    key = text.strip().lower()
    if key in SPLIT_ALIASES:
        return SPLIT_ALIASES[key]
    head = key.replace("-", "_").split("_")[0] if key else ""
    return SPLIT_ALIASES.get(head, default)


class NotText(ValueError):
    """A published field that should hold text holds a list, an object or true/false."""


def field_text(row: Mapping[str, Any], key: str) -> str:
    """The text of ``row[key]``: a string, or a number as written; ``""`` when absent or null.

    Why: ``str()`` of any JSON value would turn ``null`` into the answer ``"None"`` and a list
    into ``"['x']"`` — a row of a damaged or hostile file imported as if it were a question.

    >>> field_text({"answer": 2}, "answer"), field_text({"answer": None}, "answer")
    ('2', '')

    Raises:
        NotText: the value is a list, an object or a boolean (the message names the field).
    """
    value = row.get(key)
    if value is None:
        return ""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    kinds = {list: "a list", dict: "an object", bool: "true/false"}
    kind = kinds.get(type(value), type(value).__name__)
    raise NotText(f"{key}: {kind}, not text")


def require_fields(
    rows: Sequence[Mapping[str, Any]], fields: Iterable[str], where: str, fmt: str
) -> None:
    """Raise BadInputError unless the first row has every field (a wrong-format file).

    The message names the file, the format expected, the fields missing and those found.
    """
    wanted = list(fields)
    if not rows:
        raise BadInputError(f"{where}: no rows (expected a {fmt} file)")
    first = rows[0]
    if not isinstance(first, Mapping):
        raise BadInputError(f"{where}: not a {fmt} file (rows are not objects)")
    missing = [f for f in wanted if f not in first]
    if missing:
        found = ", ".join(sorted(map(str, first))[:12])
        raise BadInputError(
            f"{where}: not a {fmt} file: rows lack {', '.join(missing)} (found: {found})"
        )


def read_json_rows(path: Path, where: str, fmt: str) -> list[dict[str, Any]]:
    """A JSON file holding a list of objects (the layout of VQA-RAD, SLAKE, OmniMedVQA)."""
    try:
        data = json.loads(read_utf8(path))
    except (OSError, ValueError) as exc:
        raise BadInputError(f"{where}: not a {fmt} JSON file: {exc}") from None
    if not isinstance(data, list):
        raise BadInputError(f"{where}: not a {fmt} file (expected a JSON list of questions)")
    return data


def is_yes_no(answer: str) -> bool:
    """Whether a free-text answer is yes or no (any case, surrounding space ignored)."""
    return answer.strip().lower() in {"yes", "no"}


def yesno_positions(flags: Sequence[bool], seed: int, salt: str) -> dict[int, int]:
    """Row index → position of the right answer (0 or 1) for rows flagged yes/no, balanced."""
    rows = [i for i, f in enumerate(flags) if f]
    return dict(zip(rows, balanced_positions(len(rows), 2, seed, salt), strict=True))


def yesno_or_open(common: dict[str, Any], answer: str, position: int | None) -> Item:
    """A ``yesno`` item when ``position`` is given (0: the answer is option A), else ``open``."""
    if position is None:
        return Item(options={}, answer=answer, question_type="open", **common)
    said = answer.strip().capitalize()
    other = "No" if said == "Yes" else "Yes"
    texts = [said, other] if position == 0 else [other, said]
    options = {LETTERS[k]: t for k, t in enumerate(texts)}
    return Item(options=options, answer=LETTERS[position], question_type="yesno", **common)


def parquet_rows(path: Path) -> list[dict[str, Any]]:
    """Rows of one Parquet file as dicts (pyarrow; image columns stay ``{bytes, path}``)."""
    import pyarrow.parquet as pq

    try:
        return pq.read_table(path).to_pylist()
    except Exception as exc:  # noqa: BLE001 - pyarrow raises several types for a bad file
        raise BadInputError(f"{path}: not a Parquet file: {exc}") from None


def parquet_files(source: Path) -> list[Path]:
    """The Parquet files of a Hugging Face dataset folder (``data/*.parquet`` or ``*.parquet``)."""
    if source.is_file():
        return [source]
    files = sorted(source.glob("*.parquet")) or sorted(source.glob("data/*.parquet"))
    files = files or sorted(source.glob("**/*.parquet"))
    if not files:
        raise BadInputError(f"{source}: no Parquet files (expected data/<split>-*.parquet)")
    return files


def image_cell_bytes(cell: Any) -> tuple[bytes, str] | None:
    """Bytes and original name of a ``datasets.Image`` cell (``{bytes, path}``); None if empty."""
    if isinstance(cell, Mapping) and cell.get("bytes"):
        return bytes(cell["bytes"]), str(cell.get("path") or "")
    if isinstance(cell, (bytes, bytearray)) and cell:
        return bytes(cell), ""
    return None


_SUFFIXES = {"PNG": ".png", "JPEG": ".jpg", "TIFF": ".tif", "BMP": ".bmp", "GIF": ".gif",
             "WEBP": ".webp"}


def image_suffix(data: bytes) -> str:
    """File suffix of encoded image bytes; raises ValueError when they do not decode."""
    import io

    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as im:
            fmt = im.format or ""
    except UnidentifiedImageError:  # its message names an in-memory buffer, not the data
        raise ValueError(f"unreadable image: {len(data):,} bytes in no image format "
                         "Pillow reads") from None
    except Exception as exc:  # noqa: BLE001 - any decoder error means unreadable
        raise ValueError(f"unreadable image: {exc}") from None
    return _SUFFIXES.get(fmt, f".{fmt.lower() or 'bin'}")
