"""NIfTI volumes (nibabel) → one representative 2D slice each.

The slice is the axial slice (last axis) with the largest mask area when a mask is given,
else the central slice, or a fixed index; CT volumes can be windowed with a preset.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np

from medvqa._optional import optional_import
from medvqa._path_guard import UnsafePathError, file_inside
from medvqa.sources._pixels import encode_png, parse_window, to_uint8
from medvqa.sources._record import ImageRef, Problems, Record, files_under, relative_to
from medvqa.sources._spec import SourceSpec
from medvqa.sources._tables import read_table


def choose_slice(volume: np.ndarray, how: str, mask: np.ndarray | None = None) -> int:
    """Index along the last axis of the representative slice.

    Args:
        volume: a 3D array (a 2D array is treated as one slice).
        how: ``largest_mask`` (needs ``mask``; ties → the lowest index), ``central``, or an
            integer index (negative counts from the end).
        mask: a volume of the same shape; non-zero voxels are foreground.

    Raises:
        ValueError: for an unknown rule, a missing mask or an index out of range.

    """
    depth = volume.shape[-1] if volume.ndim >= 3 else 1
    if how == "largest_mask":
        if mask is None:
            raise ValueError("slice largest_mask needs a mask")
        areas = (np.asarray(mask) != 0).reshape(-1, mask.shape[-1]).sum(axis=0)
        return int(np.argmax(areas))
    if how == "central":
        return depth // 2
    try:
        idx = int(how)
    except ValueError:
        raise ValueError(f"slice {how!r}: use central, largest_mask or an integer") from None
    if not -depth <= idx < depth:
        raise ValueError(f"slice {idx} outside 0..{depth - 1}")
    return idx % depth


def slice_2d(volume: np.ndarray, index: int) -> np.ndarray:
    """Slice ``index`` of a volume as a 2-D image, rows top to bottom as radiologists view it."""
    data = volume if volume.ndim == 2 else volume[..., index]
    while data.ndim > 2:  # 4D (time) volumes: the first volume
        data = data[..., 0]
    # NIfTI stores x fastest; transpose and flip so rows run top → bottom as radiologists view.
    return np.flipud(data.T)


def read_nifti(spec: SourceSpec, root: Path, problems: Problems) -> Iterator[Record]:
    """One record per volume: a file, every ``.nii``/``.nii.gz`` in a folder, or table rows.

    With ``labels`` and ``image_column`` (and optionally ``mask_column``) the volumes are the
    rows of the table and each row's columns become fields.
    """
    nib = optional_import("nibabel")
    base = root / spec.path
    window = parse_window(spec.window)
    entries: list[tuple[Path, Path | None, dict[str, list[str]], str]] = []
    if spec.labels and spec.image_column:
        for table in spec.labels:
            for row in read_table(root / table, spec.delimiter, name=table):
                names = [row.values.get(spec.image_column, "")]
                if spec.mask_column and row.values.get(spec.mask_column):
                    names.append(row.values[spec.mask_column])
                try:  # names from the table stay inside the folder and name regular files
                    for name in filter(None, names):
                        file_inside(base, name, what="volume",
                                    root_name=f"the folder {spec.path}")
                except UnsafePathError as exc:
                    problems.add(row.where, exc)
                    continue
                mask = base / names[1] if len(names) > 1 else None
                fields = {k: [v] for k, v in row.values.items() if v}
                entries.append((base / names[0], mask, fields, row.where))
    elif base.is_file():
        entries.append((base, None, {}, ""))
    else:
        vols = [p for p in files_under(base, root, problems)
                if p.name.endswith((".nii", ".nii.gz"))]
        entries.extend((p, None, {}, "") for p in vols)
    for path, mask_path, fields, where in entries:
        rel = relative_to(path, root)
        try:
            volume = np.asanyarray(nib.load(str(path)).dataobj)
            mask = np.asanyarray(nib.load(str(mask_path)).dataobj) if mask_path else None
            how = spec.slice if (mask is not None or spec.slice != "largest_mask") else "central"
            index = choose_slice(volume, how, mask)
            pixels = to_uint8(slice_2d(volume, index), window)
        except Exception as exc:  # noqa: BLE001 - any reader error means unreadable
            problems.add(where or rel, f"unreadable volume {rel}: {exc}")
            continue
        meta: dict[str, object] = {
            "source_file": rel,
            "slice_index": index,
            "slice_rule": how,
            "n_slices": int(volume.shape[-1]) if volume.ndim >= 3 else 1,
        }
        if where:
            meta["label_rows"] = [where]
        if spec.modality:
            meta["modality"] = spec.modality
        if window is not None:
            meta["window"] = list(window)
        case = fields.get(spec.case_column, [""])[0] if spec.case_column else ""
        yield Record(
            key=rel,
            source=spec.dataset,
            image=ImageRef(data=encode_png(pixels), suffix=".png"),
            fields=fields,
            case_id=f"{spec.case_prefix}{case or path.name.split('.')[0]}",
            meta=meta,
            split=spec.split,
            row=where,
        )
