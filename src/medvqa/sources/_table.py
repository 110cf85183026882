"""Label tables next to an image folder: any columns, several rows per image, boxes, demographics.

Rows are grouped by the image they name (mini-MIAS lists a film once per abnormality), so a
record's field holds every distinct value of that column over the image's rows, and each row
with box coordinates adds one box.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from PIL import Image

from medvqa._path_guard import UnsafePathError, file_inside
from medvqa.sources._boxes import BoxError, parse_box
from medvqa.sources._record import ImageRef, Problems, Record, relative_to
from medvqa.sources._spec import SourceSpec
from medvqa.sources._tables import Row, read_table


def _image_name(name: str, suffix: str) -> str:
    return f"{name}{suffix}" if suffix and not Path(name).suffix else name


def read_label_table(spec: SourceSpec, root: Path, problems: Problems) -> Iterator[Record]:
    """One record per image named in the label tables, in order of first appearance.

    Bad rows (no image column value, image file missing, unreadable image, bad box) are reported
    through ``problems`` with ``file:line`` and skipped; the rest goes on.
    """
    if not spec.image_column:
        raise ValueError(f"source {spec.dataset}: the table reader needs image_column")
    base = root / spec.path
    groups: dict[str, list[Row]] = {}
    for table in spec.labels:
        path = root / table
        try:
            rows = list(read_table(path, spec.delimiter, name=table))
        except (OSError, ValueError) as exc:
            problems.add(table, f"cannot read label table: {exc}")
            continue
        for row in rows:
            name = row.values.get(spec.image_column, "")
            if not name:
                problems.add(row.where, f"no value in image column {spec.image_column!r}")
                continue
            groups.setdefault(name, []).append(row)
    for name, rows in groups.items():
        rel = _image_name(name, spec.image_suffix)
        path = base / rel
        where = rows[0].where
        try:  # a name from the table stays inside the image folder and names a regular file
            found = file_inside(base, rel, what="image", root_name=f"the image folder {spec.path}")
        except UnsafePathError as exc:
            problems.add(where, exc)
            continue
        if found is None:
            problems.add(where, f"label row with no image: {relative_to(path, root)} not found")
            continue
        record = _record(spec, name, path, rows, root)
        if spec.box_format and spec.box_columns:
            try:
                with Image.open(path) as im:
                    size = im.size
            except Exception as exc:  # noqa: BLE001 - any decoder error means unreadable
                problems.add(where, f"unreadable image {path}: {exc}")
                continue
            for row in rows:
                try:
                    box = parse_box(
                        row.values,
                        spec.box_columns,
                        spec.box_format,
                        spec.box_origin,
                        size,
                        row.where,
                    )
                except BoxError as exc:
                    problems.add(row.where, f"{path.name}: {exc}")
                    continue
                if box is not None:
                    record.boxes.append(box)
        yield record


def _record(spec: SourceSpec, name: str, path: Path, rows: list[Row], root: Path) -> Record:
    fields: dict[str, list[str]] = {}
    for row in rows:
        for col, value in row.values.items():
            if value and value not in fields.setdefault(col, []):
                fields[col].append(value)
    first = rows[0].values
    case = first.get(spec.case_column, "") if spec.case_column else ""
    meta: dict[str, object] = {
        "source_file": relative_to(path, root),
        "label_rows": [r.where for r in rows],
    }
    if spec.modality:
        meta["modality"] = spec.modality
    if spec.age_column and first.get(spec.age_column):
        meta["age"] = first[spec.age_column]
    if spec.sex_column and first.get(spec.sex_column):
        meta["sex"] = first[spec.sex_column]
    return Record(
        key=f"{spec.case_prefix}{name}",
        source=spec.dataset,
        image=ImageRef(path=path),
        fields=fields,
        case_id=f"{spec.case_prefix}{case or Path(name).stem}",
        meta=meta,
        split=spec.split,
        row=rows[0].where,
    )
