"""The dataset card: ``medvqa card BENCH/`` and the Parquet export's README.md."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from medvqa.benchmark.audit import AuditConfig, run_audit, write_audit
from medvqa.errors import BadInputError
from medvqa.interop import CardConfig, export_parquet, write_card


def test_card_of_vqa_rad(bench: Path, tmp_path: Path) -> None:
    text = write_card(CardConfig(bench, out=tmp_path / "README.md")).read_text()
    header = text.split("---")[1]
    assert "license: cc0-1.0" in header and "visual-question-answering" in header
    assert "size_categories:\n- n<1K" in header
    for section in ("## Sources", "## Counts", "## How it was built", "## Integrity audit",
                    "## Intended use", "## Known limitations", "## Citations"):
        assert section in text
    assert "| VQA-RAD | CC0 1.0 | <https://osf.io/89kps/> |" in text
    assert "| train | 257 |" in text and "recipe `vqa_rad`, seed 0" in text
    assert "published" in text and "Splits: VQA-RAD phrase_type" in text
    assert "Lau JJ" in text


def test_card_uses_a_current_audit_json(bench: Path, tmp_path: Path) -> None:
    audit = run_audit(AuditConfig(bench)).model_copy(update={"tool_version": "marked"})
    write_audit(audit, tmp_path / "audit.json")
    text = write_card(CardConfig(bench, out=tmp_path / "README.md", audit=tmp_path / "audit.json"))
    assert "medvqa marked" in text.read_text()


def test_audit_of_other_items_is_refused(bench: Path, tmp_path: Path) -> None:
    audit = run_audit(AuditConfig(bench))
    other = audit.model_copy(update={"benchmark": audit.benchmark.model_copy(
        update={"items_sha256": "0" * 64})})
    write_audit(other, tmp_path / "audit.json")
    with pytest.raises(BadInputError, match="an audit of other items"):
        write_card(CardConfig(bench, out=tmp_path / "README.md", audit=tmp_path / "audit.json"))


def test_stale_audit_in_bench_is_redone(bench: Path, tmp_path: Path) -> None:
    copy = tmp_path / "b"
    copy.mkdir()
    for name in ("benchmark.json", "items.jsonl"):
        (copy / name).write_bytes((bench / name).read_bytes())
    (copy / "images").symlink_to(bench / "images")
    audit = json.loads(run_audit(AuditConfig(bench)).model_dump_json())
    audit["benchmark"]["items_sha256"] = "f" * 64
    audit["tool_version"] = "stale"
    (copy / "audit.json").write_text(json.dumps(audit))
    text = write_card(CardConfig(copy)).read_text()
    assert "medvqa stale" not in text and (copy / "README.md").is_file()


def test_parquet_export_card_has_configs_and_audit(bench: Path, tmp_path: Path) -> None:
    export_parquet(bench, tmp_path / "hf")
    text = (tmp_path / "hf" / "README.md").read_text()
    assert "configs:\n- config_name: default" in text
    assert "- split: train\n    path: data/train-*" in text
    assert "## Integrity audit" in text and "split-case" in text


def test_untrusted_card_text_renders_as_text_never_as_html_or_a_script_link(
    bench: Path, tmp_path: Path
) -> None:
    """A downloaded benchmark.json's name, description, sources and URLs: escaped as report.md
    escapes them, so no renderer runs ``<script>`` or follows ``javascript:``."""
    import shutil

    from markdown_it import MarkdownIt

    bench = Path(shutil.copytree(bench, tmp_path / "b"))  # the fixture is shared
    card = json.loads((bench / "benchmark.json").read_text())
    card["name"] = "x<script>alert(1)</script>"
    card["description"] = ("First line.\n\n<script>alert(2)</script>\n"
                           "[click](javascript:alert(3)) <img src=x onerror=alert(4)>")
    card["sources"][0]["dataset"] = "[d](javascript:alert(5))"
    card["sources"][0]["url"] = "javascript:alert(6)"
    card["created_with"]["recipe"] = "r` <script>alert(7)</script> `"
    (bench / "benchmark.json").write_text(json.dumps(card))
    text = write_card(CardConfig(bench, out=tmp_path / "README.md")).read_text()
    rendered = MarkdownIt("commonmark", {"html": True}).enable("table").render(
        text.split("---\n", 2)[2])
    for bad in ("<script", "<img", 'href="javascript:', "<a "):
        assert bad not in rendered, bad
    assert "First line." in rendered and "alert(2)" in rendered  # still readable


def test_a_plain_source_url_stays_a_link(bench: Path, tmp_path: Path) -> None:
    text = write_card(CardConfig(bench, out=tmp_path / "README.md")).read_text()
    assert "<https://osf.io/89kps/>" in text
