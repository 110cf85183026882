"""Source readers on real files: DICOM and NIfTI test volumes shipped in wheels, MedMNIST npz,
label tables with boxes (mini-MIAS), image folders."""

from __future__ import annotations

import io
import shutil
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from medvqa.sources import (
    Problems,
    SourceSpec,
    apply_window,
    parse_box,
    parse_window,
    read_source,
)
from medvqa.sources._nifti import choose_slice


def _pydicom_file(name: str) -> Path:
    return Path(str(resources.files("pydicom") / "data" / "test_files" / name))


def _nifti_file() -> Path:
    return Path(str(resources.files("nibabel") / "tests" / "data" / "anatomical.nii"))


def test_image_folder_class_is_folder(data_dir: Path) -> None:
    spec = SourceSpec(
        dataset="LC25000", reader="image_folder", path="lc25000_lung_224/lung_image_sets"
    )
    recs = list(read_source(spec, data_dir, Problems()))
    assert len(recs) == 150
    assert {r.value("label") for r in recs} == {"lung_aca", "lung_n", "lung_scc"}
    nums = [
        int(r.key.split("lungaca")[1].split(".")[0])
        for r in recs
        if r.value("label") == "lung_aca"
    ]
    assert nums == sorted(nums)  # natural order: 41 before 100


def test_mini_mias_boxes_bottom_left_origin(data_dir: Path) -> None:
    spec = SourceSpec(
        dataset="mini-MIAS", reader="table", path="mini_mias/all-mias",
        labels=["mini_mias/Info.txt"],
        delimiter="whitespace", image_column="REFNUM", image_suffix=".jpg",
        box_format="center_radius", box_columns=["X", "Y", "RADIUS"], box_origin="bottom_left",
    )
    problems = Problems()
    recs = {r.key: r for r in read_source(spec, data_dir, problems)}
    assert len(problems) == 0
    mdb013 = recs["mdb013"]  # G MISC B 667 365 31 on a 1024x1024 film
    (box,) = mdb013.boxes
    assert (box.x0, box.y0, box.x1, box.y1) == (636, 1024 - 365 - 31, 698, 1024 - 365 + 31)
    assert recs["mdb132"].fields["CLASS"] == ["CIRC"] and len(recs["mdb132"].boxes) == 2
    assert recs["mdb020"].boxes == [] and recs["mdb020"].value("CLASS") == "NORM"
    assert mdb013.meta["label_rows"] == ["mini_mias/Info.txt:2"]


def test_box_formats() -> None:
    row = {"x": "10", "y": "20", "w": "30", "h": "40"}
    b = parse_box(row, ["x", "y", "w", "h"], "xywh", "top_left", (100, 100))
    assert (b.x0, b.y0, b.x1, b.y1) == (10, 20, 40, 60)
    b = parse_box(row, ["x", "y", "w", "h"], "xywh", "bottom_left", (100, 100))
    assert (b.y0, b.y1) == (40, 80)
    assert parse_box({"x": ""}, ["x"], "center_radius", "top_left", (9, 9)) is None


def test_npz_retinamnist(data_dir: Path) -> None:
    spec = SourceSpec(dataset="RetinaMNIST", reader="npz", path="retinamnist/retinamnist.npz")
    recs = list(read_source(spec, data_dir, Problems()))
    assert len(recs) == 466 + 120 + 326
    im = Image.open(io.BytesIO(recs[0].image.data))
    assert im.size == (28, 28) and im.format == "PNG"
    again = list(read_source(spec, data_dir, Problems()))
    assert again[0].image.data == recs[0].image.data  # deterministic PNG bytes
    assert {r.value("source_split") for r in recs} == {"train", "val", "test"}


@pytest.mark.parametrize("name", ["CT_small.dcm", "MR_small.dcm"])
def test_dicom_reads(name: str, tmp_path: Path) -> None:
    shutil.copy(_pydicom_file(name), tmp_path / name)
    spec = SourceSpec(dataset="d", reader="dicom", path=name)
    (rec,) = list(read_source(spec, tmp_path, Problems()))
    im = Image.open(io.BytesIO(rec.image.data))
    assert im.mode == "L" and im.size == (128, 128) or im.size == (64, 64)
    assert rec.case_id and rec.value("Modality") in {"CT", "MR"}


def test_dicom_window_and_monochrome1(tmp_path: Path) -> None:
    pydicom = pytest.importorskip("pydicom")
    ds = pydicom.dcmread(_pydicom_file("CT_small.dcm"))
    ds.PhotometricInterpretation = "MONOCHROME1"
    ds.save_as(tmp_path / "inv.dcm")
    shutil.copy(_pydicom_file("CT_small.dcm"), tmp_path / "ct.dcm")
    spec = dict(dataset="d", reader="dicom", window="soft_tissue")
    (a,) = read_source(SourceSpec(path="ct.dcm", **spec), tmp_path, Problems())
    (b,) = read_source(SourceSpec(path="inv.dcm", **spec), tmp_path, Problems())
    pa = np.asarray(Image.open(io.BytesIO(a.image.data))).astype(int)
    pb = np.asarray(Image.open(io.BytesIO(b.image.data))).astype(int)
    assert np.array_equal(pa, 255 - pb)
    assert a.meta["window"] == [40.0, 400.0]


def test_unreadable_dicom_is_a_problem(tmp_path: Path) -> None:
    (tmp_path / "bad.dcm").write_bytes(b"nope")
    problems = Problems()
    assert list(
        read_source(SourceSpec(dataset="d", reader="dicom", path="bad.dcm"), tmp_path, problems)
    ) == []
    assert "bad.dcm" in str(problems.items[0])


def test_nifti_central_slice(tmp_path: Path) -> None:
    shutil.copy(_nifti_file(), tmp_path / "anat.nii")
    (rec,) = read_source(
        SourceSpec(dataset="n", reader="nifti", path="anat.nii"), tmp_path, Problems()
    )
    assert rec.meta["slice_index"] == rec.meta["n_slices"] // 2
    assert Image.open(io.BytesIO(rec.image.data)).format == "PNG"


def test_choose_slice_largest_mask() -> None:
    vol = np.zeros((4, 4, 5))
    mask = np.zeros((4, 4, 5))
    mask[:2, :2, 1] = 1
    mask[:, :, 3] = 1
    assert choose_slice(vol, "largest_mask", mask) == 3
    assert choose_slice(vol, "central") == 2
    assert choose_slice(vol, "-1") == 4
    with pytest.raises(ValueError):
        choose_slice(vol, "9")


def test_windows() -> None:
    assert parse_window("lung") == (-600.0, 1500.0)
    assert apply_window(np.array([-1000.0, 40.0, 3000.0]), (40.0, 400.0)).tolist() == [0, 128, 255]
