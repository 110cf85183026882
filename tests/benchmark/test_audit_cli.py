"""``medvqa audit`` end to end: files written, exit codes a CI can gate on, reproducible bytes,
bad inputs answered in one line, and ``medvqa validate``'s cheap leak warnings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _audit_helpers import lung_files

from medvqa.benchmark.audit import AuditFile
from medvqa.cli import main


@pytest.fixture(autouse=True)
def _wide(monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "300")


def _run(argv: list[str], capsys) -> tuple[int, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    out = capsys.readouterr()
    return int(exit_info.value.code or 0), out.out + out.err


def test_vqa_rad_published_split_passes_the_error_gate(vqa_rad: Path, tmp_path: Path,
                                                       capsys) -> None:
    code, text = _run(["audit", str(vqa_rad), "-o", str(tmp_path / "a.json")], capsys)
    assert code == 0, text
    assert "published" in text
    audit = AuditFile.model_validate_json((tmp_path / "a.json").read_text())
    assert audit.summary.by_severity["published"] > 0
    html = (tmp_path / "a.html").read_text()
    assert "data:image/jpeg;base64," in html and "<script" not in html


def test_fail_on_warning_exits_three(vqa_rad: Path, tmp_path: Path, capsys) -> None:
    code, text = _run(["audit", str(vqa_rad), "-o", str(tmp_path / "a.json"), "--no-html",
                       "--fail-on", "warning"], capsys)
    assert code == 3, text
    assert not (tmp_path / "a.html").exists()


def test_an_error_fails_the_default_gate(arranged, tmp_path: Path, capsys) -> None:
    a, b = lung_files(2)
    bench = arranged([("train", "p1", a), ("test", "p1", b)])
    code, _ = _run(["audit", str(bench), "--no-html"], capsys)
    assert code == 3 and (bench / "audit.json").is_file()
    code, _ = _run(["audit", str(bench), "--no-html", "--fail-on", "never"], capsys)
    assert code == 0


def test_same_inputs_same_bytes(vqa_rad: Path, tmp_path: Path, capsys) -> None:
    for name in ("a", "b"):
        _run(["audit", str(vqa_rad), "-o", str(tmp_path / f"{name}.json"), "--no-html",
              "--fail-on", "never"], capsys)
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()


def test_unreadable_image_is_reported_not_fatal(arranged, capsys) -> None:
    a, b = lung_files(2)
    bench = arranged([("test", "c1", a), ("test", "c2", b)])
    rel = json.loads((bench / "items.jsonl").read_text().splitlines()[1])["images"][0]
    (bench / rel).write_bytes(b"\xff\xd8\xff broken jpeg")
    code, text = _run(["audit", str(bench), "--no-html"], capsys)
    assert code == 0, text
    audit = AuditFile.model_validate_json((bench / "audit.json").read_text())
    assert audit.benchmark.unreadable == 1
    assert [f.severity for f in audit.findings if f.check == "unreadable-image"] == ["warning"]


def test_validate_prints_cheap_leaks_as_warnings(vqa_rad: Path, capsys) -> None:
    code, text = _run(["validate", str(vqa_rad)], capsys)
    assert code == 0, text
    assert "leak:" in text and "published split" in text
    assert "no problems" in text


def test_validate_of_a_leak_free_benchmark_warns_nothing(arranged, capsys) -> None:
    files = lung_files(4)
    bench = arranged([("train" if k < 2 else "test", f"c{k}", f) for k, f in enumerate(files)])
    code, text = _run(["validate", str(bench)], capsys)
    assert code == 0 and "leak:" not in text


def test_exact_near_search_is_recorded_and_finds_the_same(vqa_rad: Path, tmp_path: Path,
                                                          capsys) -> None:
    files = {}
    for name, flag in (("sampled", []), ("exact", ["--exact-near"])):
        files[name] = tmp_path / f"{name}.json"
        code, text = _run(["audit", str(vqa_rad), "-o", str(files[name]), "--no-html",
                           "--fail-on", "never", *flag], capsys)
        assert code == 0, text
    sampled, exact = (AuditFile.model_validate_json(files[n].read_text()) for n in files)
    assert sampled.settings.near_search == "sampled" and exact.settings.near_search == "exact"
    assert [f.model_dump() for f in sampled.findings] == [f.model_dump() for f in exact.findings]


def test_corner_views_are_recorded_and_old_files_still_load(vqa_rad: Path, tmp_path: Path,
                                                            capsys) -> None:
    out = tmp_path / "audit.json"
    code, text = _run(["audit", str(vqa_rad), "-o", str(out), "--no-html", "--fail-on",
                       "never"], capsys)
    assert code == 0, text
    raw = json.loads(out.read_text())
    assert raw["settings"]["hash_version"] == 2
    assert (raw["settings"]["corner_views"], raw["settings"]["corner_cut"]) == (4, 0.035)
    # A file of hash version 1 (written before corner views) has neither field.
    for key in ("corner_views", "corner_cut"):
        del raw["settings"][key]
    raw["settings"]["hash_version"] = 1
    old = AuditFile.model_validate_json(json.dumps(raw))
    assert (old.settings.corner_views, old.settings.corner_cut) == (0, 0.0)


def test_no_corner_views_is_recorded(vqa_rad: Path, tmp_path: Path, capsys) -> None:
    target = tmp_path / "a.json"
    code, text = _run(["audit", str(vqa_rad), "-o", str(target), "--no-html", "--fail-on",
                       "never", "--no-corner-views"], capsys)
    assert code == 0, text
    assert AuditFile.model_validate_json(target.read_text()).settings.corner_views == 0
    _run(["audit", str(vqa_rad), "-o", str(target), "--no-html", "--fail-on", "never"], capsys)
    assert AuditFile.model_validate_json(target.read_text()).settings.corner_views == 4
