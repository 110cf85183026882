"""DICOM files (pydicom): windowing, MONOCHROME1 inversion, multi-frame → frames.

Fields come from the header (Modality, BodyPartExamined, PatientSex, PatientAge,
SeriesDescription); the case is the PatientID (else the StudyInstanceUID).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np

from medvqa.sources._pixels import encode_png, parse_window, to_uint8
from medvqa.sources._record import ImageRef, Problems, Record, relative_to
from medvqa.sources._spec import SourceSpec

_TAGS = ("Modality", "BodyPartExamined", "PatientSex", "PatientAge", "SeriesDescription")


def dicom_pixels(ds: object, window: tuple[float, float] | None) -> list[np.ndarray]:
    """8-bit frames of a dataset: rescaled to modality units, windowed, MONOCHROME1 inverted.

    Without an explicit window the file's own WindowCenter/WindowWidth is used, else min–max.
    """
    arr = ds.pixel_array  # type: ignore[attr-defined]
    frames_n = int(getattr(ds, "NumberOfFrames", 1) or 1)
    frames = [arr[i] for i in range(frames_n)] if frames_n > 1 else [arr]
    slope = float(getattr(ds, "RescaleSlope", 1) or 1)
    intercept = float(getattr(ds, "RescaleIntercept", 0) or 0)
    if window is None and hasattr(ds, "WindowCenter") and hasattr(ds, "WindowWidth"):
        centre, width = ds.WindowCenter, ds.WindowWidth  # type: ignore[attr-defined]
        centre = centre[0] if isinstance(centre, (list, tuple)) or hasattr(centre, "__len__") and not isinstance(centre, str) else centre
        width = width[0] if isinstance(width, (list, tuple)) or hasattr(width, "__len__") and not isinstance(width, str) else width
        if float(width) > 0:
            window = (float(centre), float(width))
    out = []
    invert = str(getattr(ds, "PhotometricInterpretation", "")) == "MONOCHROME1"
    for frame in frames:
        values = frame.astype(np.float64) * slope + intercept
        img = to_uint8(values, window)
        if invert:
            img = 255 - img
        out.append(img)
    return out


def read_dicom(spec: SourceSpec, root: Path, problems: Problems) -> Iterator[Record]:
    """One record per DICOM file (or per frame with ``frames: all``), files in sorted order."""
    pydicom = __import__("pydicom")
    base = root / spec.path
    files = [base] if base.is_file() else sorted(p for p in base.rglob("*") if p.is_file())
    window = parse_window(spec.window)
    for path in files:
        rel = relative_to(path, root)
        try:
            ds = pydicom.dcmread(path)
            frames = dicom_pixels(ds, window)
        except Exception as exc:  # noqa: BLE001 - any decoder error means unreadable
            problems.add(rel, f"unreadable DICOM: {exc}")
            continue
        fields = {t: [str(getattr(ds, t))] for t in _TAGS if str(getattr(ds, t, "") or "")}
        case = str(getattr(ds, "PatientID", "") or getattr(ds, "StudyInstanceUID", "") or path.stem)
        chosen = range(len(frames)) if spec.frames == "all" else range(1)
        for i in chosen:
            meta: dict[str, object] = {"source_file": rel, "frame": i, "n_frames": len(frames)}
            if spec.modality or "Modality" in fields:
                meta["modality"] = spec.modality or fields["Modality"][0]
            if "PatientSex" in fields:
                meta["sex"] = fields["PatientSex"][0]
            if "PatientAge" in fields:
                meta["age"] = fields["PatientAge"][0]
            if window is not None:
                meta["window"] = list(window)
            yield Record(
                key=f"{rel}#{i}" if len(frames) > 1 else rel,
                source=spec.dataset,
                image=ImageRef(data=encode_png(frames[i]), suffix=".png"),
                fields=dict(fields),
                case_id=f"{spec.case_prefix}{case}",
                meta=meta,
                split=spec.split,
            )
