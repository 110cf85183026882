"""audit.html: one self-contained page; every text from the benchmark escaped."""

from __future__ import annotations

import re
from pathlib import Path

from medvqa.benchmark.audit import AuditConfig
from medvqa.report import AuditReportConfig, write_audit_report
from medvqa.schema import Item
from medvqa.store import ImageStore

LUNG = Path(__file__).resolve().parents[2] / "data" / "lc25000_lung_224" / "lung_image_sets"
EVIL = '<script>alert("x")</script><img src=http://example.com/x.png>'


def test_untrusted_text_is_escaped_and_thumbnails_inline(tmp_path: Path, bench_factory) -> None:
    root = tmp_path / "bench"
    store = ImageStore(root)
    a, b = sorted(LUNG.rglob("*.jpeg"))[:2]
    ra, rb = store.add_file(a), store.add_file(b)
    yn = {"A": "Yes", "B": "No"}
    items = [Item(id=f"{EVIL}{n}", images=[ra], question=f"Is it {EVIL}?", options=yn,
                  answer="AB"[n], question_type="yesno", case_id="p1", split=split)
             for n, split in enumerate(["train", "test"])]
    items.append(Item(id="other", images=[rb], question="q", options=yn, answer="A",
                      question_type="yesno", case_id="p2", split="test"))
    bench_factory(root, items=items)
    audit = write_audit_report(AuditReportConfig(AuditConfig(root), tmp_path / "a.json",
                                                 html=tmp_path / "a.html"))
    assert {f.check for f in audit.findings} >= {"label-conflict", "split-case", "split-bytes"}
    html = (tmp_path / "a.html").read_text()
    assert "<script" not in html and "&lt;script&gt;" in html
    sources = re.findall(r'<img src="([^"]*)"', html)
    assert sources and all(s.startswith("data:image/jpeg;base64,") for s in sources)
    assert 'src="http' not in html and "<link" not in html
