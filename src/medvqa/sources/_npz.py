"""NumPy ``.npz`` archives in MedMNIST layout: ``<split>_images`` and ``<split>_labels``.

Each array image is encoded to PNG (deterministic bytes); the label field ``label`` holds the
class index as text, or every positive index for multi-hot (multi-label) rows.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np

from medvqa.sources._pixels import encode_png
from medvqa.sources._record import ImageRef, Problems, Record
from medvqa.sources._spec import SourceSpec

_SPLITS = ("train", "val", "test")


def _labels(row: np.ndarray) -> list[str]:
    flat = np.asarray(row).reshape(-1)
    if flat.size == 1:
        return [str(int(flat[0]))]
    return [str(i) for i in np.flatnonzero(flat)]


def read_npz(spec: SourceSpec, root: Path, problems: Problems) -> Iterator[Record]:
    """One record per array image, split by split (train, val, test), in array order.

    The original split is kept in field ``source_split``; ``array_prefix`` (``"train_"``)
    restricts reading to one split.
    """
    path = root / spec.path
    try:
        archive = np.load(path, allow_pickle=False)
    except (OSError, ValueError) as exc:
        problems.add(spec.path, f"cannot read npz: {exc}")
        return
    with archive:
        prefixes = [spec.array_prefix] if spec.array_prefix else [f"{s}_" for s in _SPLITS]
        for prefix in prefixes:
            ikey, lkey = f"{prefix}images", f"{prefix}labels"
            if ikey not in archive.files:
                continue
            images = archive[ikey]
            labels = archive[lkey] if lkey in archive.files else None
            split_name = prefix.rstrip("_") or "all"
            for i in range(images.shape[0]):
                key = f"{split_name}/{i}"
                fields = {"source_split": [split_name], "index": [str(i)]}
                if labels is not None:
                    if i >= labels.shape[0]:
                        problems.add(f"{spec.path}:{lkey}[{i}]", "image with no label row")
                        continue
                    fields["label"] = _labels(labels[i])
                meta = {"source_file": spec.path, "label_rows": [f"{spec.path}:{lkey}[{i}]"]}
                if spec.modality:
                    meta["modality"] = spec.modality
                yield Record(
                    key=key,
                    source=spec.dataset,
                    image=ImageRef(data=encode_png(images[i]), suffix=".png"),
                    fields=fields,
                    case_id=f"{spec.case_prefix}{key}",
                    meta=meta,
                    split=spec.split,
                    row=f"{spec.path}:{lkey}[{i}]",
                )
