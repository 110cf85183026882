"""DICOM files (pydicom): windowing, MONOCHROME1 inversion, multi-frame → frames or a volume.

Fields come from the header (Modality, BodyPartExamined, PatientSex, PatientAge,
SeriesDescription); the case is the PatientID (else the StudyInstanceUID).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from medvqa._optional import optional_import
from medvqa.sources._nifti import choose_slice
from medvqa.sources._pixels import encode_png, parse_window, to_uint8
from medvqa.sources._record import ImageRef, Problems, Record, files_under, relative_to
from medvqa.sources._spec import SourceSpec

HEADER_TAGS = ("Modality", "BodyPartExamined", "PatientSex", "PatientAge", "SeriesDescription")


def _first(value: Any) -> float:
    """WindowCenter / WindowWidth may be multi-valued; the first value is the default one."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__len__"):
        return float(value)
    return float(value[0])


def file_window(ds: Any) -> tuple[float, float] | None:
    """The dataset's own (WindowCenter, WindowWidth), or None when absent or not positive."""
    if not (hasattr(ds, "WindowCenter") and hasattr(ds, "WindowWidth")):
        return None
    try:
        centre, width = _first(ds.WindowCenter), _first(ds.WindowWidth)
    except (TypeError, ValueError, IndexError):
        return None
    return (centre, width) if width > 0 else None


def dicom_pixels(ds: Any, window: tuple[float, float] | None) -> list[np.ndarray]:
    """8-bit frames of a dataset: rescaled to modality units, windowed, MONOCHROME1 inverted.

    Without an explicit window the file's own WindowCenter/WindowWidth is used, else min–max
    over each frame. Colour data (RGB, YBR, already converted to RGB by pydicom) is kept as
    8-bit RGB without windowing.
    """
    arr = ds.pixel_array
    frames_n = int(getattr(ds, "NumberOfFrames", 1) or 1)
    frames = [arr[i] for i in range(frames_n)] if frames_n > 1 else [arr]
    if int(getattr(ds, "SamplesPerPixel", 1) or 1) > 1:
        return [f if f.dtype == np.uint8 else to_uint8(f) for f in frames]
    slope = float(getattr(ds, "RescaleSlope", 1) or 1)
    intercept = float(getattr(ds, "RescaleIntercept", 0) or 0)
    window = window or file_window(ds)
    invert = str(getattr(ds, "PhotometricInterpretation", "")) == "MONOCHROME1"
    out = []
    for frame in frames:
        img = to_uint8(frame.astype(np.float64) * slope + intercept, window)
        out.append(255 - img if invert else img)
    return out


def header_fields(ds: Any) -> dict[str, list[str]]:
    """Header tags as record fields (only the ones present and non-empty)."""
    return {t: [str(getattr(ds, t))] for t in HEADER_TAGS if str(getattr(ds, t, "") or "")}


def header_meta(spec: SourceSpec, fields: dict[str, list[str]]) -> dict[str, object]:
    """Modality, sex and age for item meta (the recipe's modality wins over the header's)."""
    meta: dict[str, object] = {}
    if spec.modality or "Modality" in fields:
        meta["modality"] = spec.modality or fields["Modality"][0]
    if "PatientSex" in fields:
        meta["sex"] = fields["PatientSex"][0]
    if "PatientAge" in fields:
        meta["age"] = fields["PatientAge"][0]
    return meta


def case_of(ds: Any, fallback: str) -> str:
    """PatientID, else StudyInstanceUID, else ``fallback``."""
    return str(getattr(ds, "PatientID", "") or getattr(ds, "StudyInstanceUID", "") or fallback)


def read_dicom(spec: SourceSpec, root: Path, problems: Problems) -> Iterator[Record]:
    """One record per DICOM file, or per frame, or per multi-frame volume (sorted by path).

    ``frames: first`` keeps frame 0, ``all`` yields every frame, ``volume`` (a multi-frame CT /
    MR / US cine) keeps the frame chosen by ``slice``.
    """
    pydicom = optional_import("pydicom")
    base = root / spec.path
    files = [base] if base.is_file() else files_under(base, root, problems)
    window = parse_window(spec.window)
    for path in files:
        rel = relative_to(path, root)
        try:
            ds = pydicom.dcmread(path)
            frames = dicom_pixels(ds, window)
            if spec.frames == "volume":
                chosen = [choose_slice(np.zeros((1, 1, len(frames))), spec.slice)]
            else:
                chosen = list(range(len(frames))) if spec.frames == "all" else [0]
        except Exception as exc:  # noqa: BLE001 - any decoder error means unreadable
            problems.add(rel, f"unreadable DICOM: {exc}")
            continue
        fields = header_fields(ds)
        case = case_of(ds, path.stem)
        for i in chosen:
            meta: dict[str, object] = {"source_file": rel, "frame": i, "n_frames": len(frames)}
            if spec.frames == "volume":
                meta.update(slice_index=i, slice_rule=spec.slice, n_slices=len(frames))
            meta.update(header_meta(spec, fields))
            if window is not None:
                meta["window"] = list(window)
            yield Record(
                key=f"{rel}#{i}" if spec.frames == "all" and len(frames) > 1 else rel,
                source=spec.dataset,
                image=ImageRef(data=encode_png(frames[i]), suffix=".png"),
                fields=dict(fields),
                case_id=f"{spec.case_prefix}{case}",
                meta=meta,
                split=spec.split,
            )
