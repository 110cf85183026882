"""Contamination: this benchmark's images found in another BENCH/ or a plain image folder."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from _audit_helpers import jpeg_copy, lung_files, png_copy

from medvqa.benchmark.audit import AuditConfig, run_audit
from medvqa.errors import BadInputError


def _against(bench: Path, *others: Path):
    audit = run_audit(AuditConfig(bench, against=others, workers=1))
    return audit, {f.check: f for f in audit.findings if f.check.startswith("against-")}


def test_image_folder_with_copies(arranged, tmp_path: Path) -> None:
    a, b, c = lung_files(3)
    bench = arranged([("test", "c1", a), ("test", "c2", b), ("train", "c3", c)])
    folder = tmp_path / "training_images" / "nested"
    folder.mkdir(parents=True)
    shutil.copy(a, folder / "same.jpeg")
    (folder / "resaved.png").write_bytes(png_copy(b))
    (folder / "near.jpg").write_bytes(jpeg_copy(c))
    (folder / "notes.txt").write_text("not an image")
    audit, found = _against(bench, tmp_path / "training_images")
    assert audit.against[0].kind == "images" and audit.against[0].images == 3
    assert found["against-bytes"].severity == "error"
    assert found["against-pixels"].severity == "error"
    assert found["against-near"].severity == "note"  # only a train image: not a scored one
    assert found["against-near"].images[1].path == "nested/near.jpg"


def test_other_benchmark(arranged) -> None:
    a, b = lung_files(2)
    mine = arranged([("test", "c1", a), ("test", "c2", b)], name="mine")
    theirs = arranged([("train", "x", a)], name="theirs")
    audit, found = _against(mine, theirs)
    assert audit.against[0].kind == "benchmark"
    f = found["against-bytes"]
    assert f.data["their_splits"] == ["train"] and f.items == ["it-000"]


def test_unreadable_image_in_folder_is_reported_and_skipped(arranged, tmp_path: Path) -> None:
    (a,) = lung_files(1)
    bench = arranged([("test", "c1", a)])
    folder = tmp_path / "imgs"
    folder.mkdir()
    (folder / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\nbroken")
    shutil.copy(a, folder / "ok.jpeg")
    audit, found = _against(bench, folder)
    assert "against-bytes" in found
    bad = [f for f in audit.findings if f.check == "unreadable-image"]
    assert bad and "broken.png" in bad[0].message


def test_folder_without_images_is_one_clear_error(arranged, tmp_path: Path) -> None:
    (a,) = lung_files(1)
    bench = arranged([("test", "c1", a)])
    (tmp_path / "empty").mkdir()
    with pytest.raises(BadInputError, match="no image files"):
        run_audit(AuditConfig(bench, against=(tmp_path / "empty",)))
