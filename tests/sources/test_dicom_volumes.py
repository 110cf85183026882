"""DICOM multi-frame (frames, volume), colour frames, series ordering; real pydicom test files."""

from __future__ import annotations

import io
import shutil
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from medvqa.sources import Problems, SourceSpec, read_source

pydicom = pytest.importorskip("pydicom")
TEST_FILES = Path(str(resources.files("pydicom") / "data" / "test_files"))


@pytest.fixture()
def rtdose(tmp_path: Path) -> Path:
    shutil.copy(TEST_FILES / "rtdose.dcm", tmp_path / "rtdose.dcm")  # 15 frames of 10x10
    return tmp_path


def _pixels(rec) -> np.ndarray:  # noqa: ANN001
    return np.asarray(Image.open(io.BytesIO(rec.image.data)))


def test_multiframe_all_frames(rtdose: Path) -> None:
    spec = SourceSpec(dataset="d", reader="dicom", path="rtdose.dcm", frames="all")
    recs = list(read_source(spec, rtdose, Problems()))
    assert len(recs) == 15
    assert [r.meta["frame"] for r in recs] == list(range(15))
    assert len({r.key for r in recs}) == 15


def test_multiframe_volume_central_and_index(rtdose: Path) -> None:
    ds = pydicom.dcmread(rtdose / "rtdose.dcm")
    (rec,) = read_source(
        SourceSpec(dataset="d", reader="dicom", path="rtdose.dcm", frames="volume"),
        rtdose,
        Problems(),
    )
    assert rec.meta["slice_index"] == 7 and rec.meta["n_slices"] == 15
    expected = ds.pixel_array[7].astype(float)
    got = _pixels(rec).astype(float)
    # Same image up to the 8-bit scaling: the pixel order is preserved.
    assert np.corrcoef(expected.ravel(), got.ravel())[0, 1] > 0.99
    (last,) = read_source(
        SourceSpec(dataset="d", reader="dicom", path="rtdose.dcm", frames="volume", slice="-1"),
        rtdose,
        Problems(),
    )
    assert last.meta["slice_index"] == 14


def test_volume_largest_mask_without_mask_is_a_problem(rtdose: Path) -> None:
    problems = Problems()
    spec = SourceSpec(
        dataset="d", reader="dicom", path="rtdose.dcm", frames="volume", slice="largest_mask"
    )
    assert list(read_source(spec, rtdose, problems)) == []
    assert "rtdose.dcm" in str(problems.items[0]) and "mask" in str(problems.items[0])


def test_colour_multiframe_stays_rgb(tmp_path: Path) -> None:
    shutil.copy(TEST_FILES / "examples_ybr_color.dcm", tmp_path / "us.dcm")  # 30-frame US cine
    (rec,) = read_source(
        SourceSpec(dataset="d", reader="dicom", path="us.dcm", frames="volume"),
        tmp_path,
        Problems(),
    )
    arr = _pixels(rec)
    assert arr.shape == (240, 320, 3) and rec.meta["slice_index"] == 15


def test_file_window_is_used_by_default(tmp_path: Path) -> None:
    ds = pydicom.dcmread(TEST_FILES / "CT_small.dcm")
    ds.WindowCenter, ds.WindowWidth = 40, 400
    ds.save_as(tmp_path / "w.dcm")
    (a,) = read_source(SourceSpec(dataset="d", reader="dicom", path="w.dcm"), tmp_path, Problems())
    (b,) = read_source(
        SourceSpec(dataset="d", reader="dicom", path="w.dcm", window="40,400"), tmp_path, Problems()
    )
    assert a.image.data == b.image.data
    (c,) = read_source(
        SourceSpec(dataset="d", reader="dicom", path="w.dcm", window="bone"), tmp_path, Problems()
    )
    assert c.image.data != a.image.data


def test_series_central_slice_in_instance_order(tmp_path: Path) -> None:
    src = TEST_FILES / "dicomdirtests" / "98892003" / "MR700"
    shutil.copytree(src, tmp_path / "MR700")
    (tmp_path / "MR700" / "README.txt").write_text("not dicom")  # ignored, not a problem
    problems = Problems()
    (rec,) = read_source(
        SourceSpec(dataset="d", reader="dicom_series", path="MR700"), tmp_path, problems
    )
    assert len(problems) == 0
    assert rec.meta["n_slices"] == 7 and rec.meta["slice_index"] == 3
    chosen = pydicom.dcmread(tmp_path / rec.meta["source_file"])
    positions = []
    for p in sorted((tmp_path / "MR700").iterdir()):
        if p.suffix != ".txt":
            ds = pydicom.dcmread(p)
            ori = np.array(ds.ImageOrientationPatient, float)
            positions.append(
                float(np.dot(np.array(ds.ImagePositionPatient, float), np.cross(ori[:3], ori[3:])))
            )
    own = float(
        np.dot(
            np.array(chosen.ImagePositionPatient, float),
            np.cross(
                np.array(chosen.ImageOrientationPatient, float)[:3],
                np.array(chosen.ImageOrientationPatient, float)[3:],
            ),
        )
    )
    assert own == sorted(positions)[3]  # the middle slice along the normal
    assert rec.value("Modality") == "MR" and rec.case_id == "98890234"
