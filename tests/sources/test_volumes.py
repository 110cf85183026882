"""Volumes (seed 003): one representative slice per 3D volume, slice index in meta.

The volume is nibabel's real T1 brain MRI (``tests/data/anatomical.nii`` in the nibabel wheel).
It has no segmentation, so the test DERIVES a mask by thresholding intensity (> 11,000): a
stand-in for a tumour mask, used only to check that the largest-mask slice is the one chosen.
"""

from __future__ import annotations

import io
import shutil
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
from benchcheck import check_bench
from PIL import Image

from medvqa.benchmark import validate_benchmark
from medvqa.errors import BadInputError
from medvqa.recipes import BuildConfig, build_benchmark

nib = pytest.importorskip("nibabel")
ANATOMICAL = Path(str(resources.files("nibabel") / "tests" / "data" / "anatomical.nii"))
THRESHOLD = 11_000

RECIPE = """
name: brain_slices
type: volumes
sources:
  - dataset: nibabel-anatomical
    license: MIT (nibabel test data)
    reader: nifti
    path: vols
    labels: [volumes.csv]
    image_column: volume
    mask_column: mask
    case_column: subject
    slice: {slice}
    modality: MRI (T1)
topics:
  - name: organ
    column: organ
    questions: ["Which organ does this MRI slice show?"]
    options: [brain, liver, lung, kidney]
splits: {{train: 0, val: 0, test: 1}}
"""


@pytest.fixture()
def vols(tmp_path: Path) -> Path:
    (tmp_path / "vols").mkdir()
    shutil.copy(ANATOMICAL, tmp_path / "vols" / "anat.nii")
    img = nib.load(str(ANATOMICAL))
    mask = (np.asanyarray(img.dataobj) > THRESHOLD).astype(np.uint8)  # derived, see docstring
    nib.save(nib.Nifti1Image(mask, img.affine), str(tmp_path / "vols" / "anat_mask.nii.gz"))
    (tmp_path / "volumes.csv").write_text(
        "volume,mask,subject,organ\nanat.nii,anat_mask.nii.gz,s1,brain\nanat.nii,,s2,brain\n"
    )
    return tmp_path


def _build(root: Path, slice_rule: str, **kw: object) -> list:  # noqa: ANN401
    (root / "r.yaml").write_text(RECIPE.format(slice=slice_rule))
    build_benchmark(BuildConfig(str(root / "r.yaml"), root / "out", data_root=root, **kw))  # type: ignore[arg-type]
    return check_bench(root / "out")[1]


def test_largest_mask_slice_is_chosen(vols: Path) -> None:
    items = _build(vols, "largest_mask")
    by_case = {i.case_id: i for i in items}
    volume = np.asanyarray(nib.load(str(ANATOMICAL)).dataobj)
    expected = int(np.argmax((volume > THRESHOLD).reshape(-1, volume.shape[-1]).sum(axis=0)))
    assert expected != volume.shape[-1] // 2  # the rule matters on this volume
    assert by_case["s1"].meta["slice_index"] == expected
    assert by_case["s1"].meta["slice_rule"] == "largest_mask"
    # No mask on the second row: the central slice instead.
    assert by_case["s2"].meta["slice_index"] == volume.shape[-1] // 2
    assert by_case["s2"].meta["n_slices"] == 25


def test_named_index_and_image_orientation(vols: Path) -> None:
    items = _build(vols, "3")
    assert {i.meta["slice_index"] for i in items} == {3}
    arr = np.asarray(Image.open(vols / "out" / items[0].images[0]))
    assert arr.shape == (41, 33)  # rows = y, columns = x (NIfTI is stored x fastest)
    assert items[0].meta["source_file"] == "vols/anat.nii"
    assert items[0].meta["label_rows"] == ["volumes.csv:2"]


def test_volume_items_validate(vols: Path) -> None:
    items = _build(vols, "central")
    assert all(i.options[i.answer] == "brain" for i in items)
    assert validate_benchmark(vols / "out").ok


def test_ct_window_preset_recorded(vols: Path) -> None:
    (vols / "r.yaml").write_text(
        RECIPE.format(slice="central").replace(
            "modality: MRI (T1)", "modality: MRI (T1)\n    window: soft_tissue"
        )
    )
    build_benchmark(BuildConfig(str(vols / "r.yaml"), vols / "out", data_root=vols))
    items = check_bench(vols / "out")[1]
    assert items[0].meta["window"] == [40.0, 400.0]
    arr = np.asarray(Image.open(io.BytesIO((vols / "out" / items[0].images[0]).read_bytes())))
    assert arr.max() == 255  # MR values far above the soft-tissue window saturate


def test_non_volume_source_refused(vols: Path) -> None:
    (vols / "r.yaml").write_text(
        RECIPE.format(slice="central").replace("reader: nifti", "reader: table")
    )
    with pytest.raises(BadInputError, match="type volumes needs"):
        build_benchmark(BuildConfig(str(vols / "r.yaml"), vols / "out", data_root=vols))


def test_missing_volume_is_a_named_problem(vols: Path) -> None:
    with (vols / "volumes.csv").open("a") as fh:
        fh.write("gone.nii,,s3,brain\n")
    (vols / "r.yaml").write_text(RECIPE.format(slice="central"))
    result = build_benchmark(BuildConfig(str(vols / "r.yaml"), vols / "out", data_root=vols))
    assert [str(p).split(":")[:2] for p in result.problems] == [["volumes.csv", "4"]]
    assert len(check_bench(vols / "out")[1]) == 2
