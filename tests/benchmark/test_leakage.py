"""Leakage across splits, found on small benchmarks of real lung tiles and on VQA-RAD."""

from __future__ import annotations

import io
import json
from pathlib import Path

from _audit_helpers import jpeg_copy, lung_files, png_copy
from PIL import Image, ImageOps

from medvqa.benchmark.audit import AuditConfig, run_audit


def _checks(bench: Path, **kw) -> dict[str, list]:
    audit = run_audit(AuditConfig(bench, workers=1, **kw))
    out: dict[str, list] = {}
    for f in audit.findings:
        out.setdefault(f.check, []).append(f)
    return out


def test_a_clean_split_has_no_leak(arranged) -> None:
    files = lung_files(6)
    bench = arranged([("train" if k < 4 else "test", f"c{k}", f) for k, f in enumerate(files)])
    found = _checks(bench)
    assert not any(k.startswith("split-") for k in found), list(found)


def test_case_across_train_and_test_is_an_error(arranged) -> None:
    a, b = lung_files(2)
    found = _checks(arranged([("train", "patient-1", a), ("test", "patient-1", b)]))
    (leak,) = found["split-case"]
    assert leak.severity == "error" and leak.splits == ["test", "train"]
    assert leak.items == ["it-000", "it-001"]


def test_case_across_test_and_test_tiny_is_a_note(arranged) -> None:
    a, b = lung_files(2)
    (leak,) = _checks(arranged([("test", "p", a), ("test_tiny", "p", b)]))["split-case"]
    assert leak.severity == "note"


def test_same_file_in_two_splits(arranged) -> None:
    (a,) = lung_files(1)
    found = _checks(arranged([("train", "c1", a), ("val", "c2", a)]))
    (leak,) = found["split-bytes"]
    assert leak.severity == "warning" and leak.images[0].splits == ["train", "val"]


def test_resaved_file_is_a_pixel_leak(arranged) -> None:
    (a,) = lung_files(1)
    found = _checks(arranged([("train", "c1", a), ("test", "c2", png_copy(a))]))
    (leak,) = found["split-pixels"]
    assert leak.severity == "error" and len(leak.images) == 2
    assert "split-bytes" not in found


def test_reencoded_copy_is_a_near_duplicate_leak(arranged) -> None:
    a, b = lung_files(2)
    found = _checks(arranged([("train", "c1", a), ("test", "c2", jpeg_copy(a)),
                              ("test", "c3", b)]))
    (leak,) = found["split-near"]
    assert leak.severity == "warning" and leak.distance is not None  # likeness: a warning
    assert leak.distance <= 12 and not leak.data["mirrored"]
    assert len(leak.images) == 2 and leak.items == ["it-000", "it-001"]


def test_near_duplicates_within_a_split_are_notes(arranged) -> None:
    (a,) = lung_files(1)
    (leak,) = _checks(arranged([("test", "c1", a), ("test", "c2", jpeg_copy(a))]))["split-near"]
    assert leak.severity == "note"


def test_flipped_copy_is_found_only_with_the_mirrored_search(arranged) -> None:
    (a,) = lung_files(1)
    buf = io.BytesIO()
    with Image.open(a) as im:
        ImageOps.mirror(im).save(buf, "PNG")
    bench = arranged([("train", "c1", a), ("test", "c2", buf.getvalue())])
    (leak,) = _checks(bench)["split-near"]
    assert leak.data["mirrored"] and "mirrored" in leak.message
    assert "split-near" not in _checks(bench, mirrored=False)


def test_published_split_reports_published(arranged) -> None:
    a, b = lung_files(2)
    bench = arranged([("train", "p", a), ("test", "p", b)])
    card = json.loads((bench / "benchmark.json").read_text())
    card["published_split"] = "the publisher's train / test files"
    (bench / "benchmark.json").write_text(json.dumps(card))
    (leak,) = _checks(bench)["split-case"]
    assert leak.severity == "published"


def test_vqa_rad_leaks_are_published(vqa_rad: Path) -> None:
    audit = run_audit(AuditConfig(vqa_rad))
    assert audit.benchmark.published_split
    leaks = [f for f in audit.findings if f.check in {"split-case", "split-bytes"}]
    assert leaks and all(f.severity == "published" for f in leaks)
    assert audit.summary.by_check["split-bytes"]["published"] >= 10
    assert audit.summary.leaked_items["test"] == audit.counts["by_split"]["test"]
    assert not audit.fails("error")
