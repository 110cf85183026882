"""Source readers, each yielding :class:`Record` objects.

Readers for image folders, label tables (CSV/TSV/JSON/text, boxes, demographics), MedMNIST
``.npz``, DICOM files and series, and NIfTI.

Readers are looked up by name in :data:`SOURCE_READERS` (one table; "did you mean" errors).
A reader is ``read(spec: SourceSpec, root: Path, problems: Problems) -> Iterator[Record]``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from medvqa._path_guard import MAX_IMAGE_FILE_BYTES
from medvqa._registry import Registry
from medvqa.sources._boxes import BoxError, parse_box
from medvqa.sources._folder import natural_key
from medvqa.sources._nifti import choose_slice, slice_2d
from medvqa.sources._pixels import (
    CT_WINDOWS,
    apply_window,
    encode_image_png,
    encode_png,
    parse_window,
    to_uint8,
)
from medvqa.sources._record import (
    Box,
    ImageRef,
    Problem,
    Problems,
    Record,
    relative_to,
)
from medvqa.sources._record_store import RecordStore
from medvqa.sources._sample_data import (
    MARKER,
    checkout_data_dir,
    find_data_root,
    install_sample_data,
    sample_data_roots,
    user_data_dir,
)
from medvqa.sources._spec import SourceSpec
from medvqa.sources._tables import MAX_LABEL_TABLE_BYTES, Row, read_table

Reader = Callable[[SourceSpec, Path, Problems], Iterator[Record]]

#: Reader name → implementation (loaded on first use).
SOURCE_READERS: Registry[Reader] = Registry(
    "source reader",
    {
        "image_folder": "medvqa.sources._folder:read_image_folder",
        "table": "medvqa.sources._table:read_label_table",
        "npz": "medvqa.sources._npz:read_npz",
        "dicom": "medvqa.sources._dicom:read_dicom",
        "dicom_series": "medvqa.sources._dicom_series:read_dicom_series",
        "nifti": "medvqa.sources._nifti:read_nifti",
    },
)


def read_source(spec: SourceSpec, root: Path, problems: Problems) -> Iterator[Record]:
    """Records of one source, through the reader the spec names."""
    return SOURCE_READERS.get(spec.reader)(spec, root, problems)


__all__ = [
    "install_sample_data",
    "user_data_dir",
    "checkout_data_dir",
    "MARKER",
    "MAX_IMAGE_FILE_BYTES",
    "MAX_LABEL_TABLE_BYTES",
    "CT_WINDOWS",
    "SOURCE_READERS",
    "Box",
    "BoxError",
    "ImageRef",
    "Problem",
    "Problems",
    "Reader",
    "Record",
    "RecordStore",
    "Row",
    "SourceSpec",
    "apply_window",
    "encode_png",
    "parse_box",
    "parse_window",
    "read_source",
    "read_table",
    "relative_to",
    "to_uint8",
    "natural_key",
    "choose_slice",
    "slice_2d",
    "encode_image_png",
    "find_data_root",
    "sample_data_roots",
]
