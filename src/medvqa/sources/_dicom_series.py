"""DICOM series (one file per slice) → one representative 2D slice per series.

Files under ``path`` are grouped by SeriesInstanceUID and ordered along the slice normal
(ImagePositionPatient projected on the normal of ImageOrientationPatient), falling back to
InstanceNumber, then file name. The slice is then chosen as for NIfTI volumes (``central`` or
an index; ``largest_mask`` needs a mask and is refused here).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from medvqa._optional import optional_import
from medvqa.sources._dicom import case_of, dicom_pixels, header_fields, header_meta
from medvqa.sources._nifti import choose_slice
from medvqa.sources._pixels import encode_png, parse_window
from medvqa.sources._record import ImageRef, Problems, Record, files_under, relative_to
from medvqa.sources._spec import SourceSpec


def slice_position(ds: Any) -> float | None:
    """Position of a slice along its normal in mm, or None without geometry tags."""
    try:
        pos = np.asarray([float(v) for v in ds.ImagePositionPatient])
        ori = np.asarray([float(v) for v in ds.ImageOrientationPatient])
    except (AttributeError, TypeError, ValueError):
        return None
    if pos.size != 3 or ori.size != 6:
        return None
    return float(np.dot(pos, np.cross(ori[:3], ori[3:])))


def _order_key(entry: tuple[Path, Any]) -> tuple[float, float, str]:
    path, ds = entry
    pos = slice_position(ds)
    inst = getattr(ds, "InstanceNumber", None)
    return (
        pos if pos is not None else 0.0,
        float(inst) if inst not in (None, "") else 0.0,
        path.name,
    )


def read_dicom_series(spec: SourceSpec, root: Path, problems: Problems) -> Iterator[Record]:
    """One record per series found under ``spec.path``, series in order of first file."""
    pydicom = optional_import("pydicom")
    base = root / spec.path
    window = parse_window(spec.window)
    series: dict[str, list[tuple[Path, Any]]] = {}
    for path in files_under(base, root, problems):
        try:
            ds = pydicom.dcmread(path, stop_before_pixels=True)
        except Exception:  # noqa: BLE001 - not DICOM (README, DICOMDIR text): not a slice
            continue
        if "PixelData" not in ds and not hasattr(ds, "Rows"):
            continue  # DICOMDIR and other non-image objects
        uid = str(getattr(ds, "SeriesInstanceUID", "") or path.parent.as_posix())
        series.setdefault(uid, []).append((path, ds))
    for uid, members in series.items():
        members.sort(key=_order_key)
        folder = relative_to(members[0][0].parent, root)
        where = f"{folder} (series {uid})"
        try:
            index = choose_slice(np.zeros((1, 1, len(members))), spec.slice)
            path, _ = members[index]
            ds = pydicom.dcmread(path)
            pixels = dicom_pixels(ds, window)[0]
        except Exception as exc:  # noqa: BLE001 - any reader error means unreadable
            problems.add(where, f"unreadable series: {exc}")
            continue
        fields = header_fields(ds)
        meta: dict[str, object] = {
            "source_file": relative_to(path, root),
            "series_uid": uid,
            "slice_index": index,
            "slice_rule": spec.slice,
            "n_slices": len(members),
        }
        meta.update(header_meta(spec, fields))
        if window is not None:
            meta["window"] = list(window)
        yield Record(
            key=f"{folder}#{uid}",
            source=spec.dataset,
            image=ImageRef(data=encode_png(pixels), suffix=".png"),
            fields=fields,
            case_id=f"{spec.case_prefix}{case_of(ds, folder)}",
            meta=meta,
            split=spec.split,
        )
