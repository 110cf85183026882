"""``medvqa build captions`` end to end through a real scripted HTTP server (openai: backend)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from _scripted import ScriptedServer

from medvqa.benchmark import validate_benchmark
from medvqa.curate.llm import CaptionsConfig, build_captions
from medvqa.models import LLMSettings
from medvqa.schema import Item, read_jsonl

CAPTIONS = """id,caption,image
c1,"Digital subtraction angiography of the hepatic artery shows a blush before embolization.",
c2,"Balloon angioplasty of a femoral artery stenosis with a residual dissection.",
c3,"Chest radiograph with consolidation.",
"""


def _qa_reply(prompt: str) -> str:
    qtype = re.search(r'question_type \("(\w+)"\)', prompt).group(1)  # type: ignore[union-attr]
    repaired = "Your previous reply could not be used" in prompt
    if qtype == "open":  # prose first time, valid after the repair note
        if not repaired:
            return "The vessel is the hepatic artery."
        return json.dumps(
            {
                "question_type": "open",
                "question": "Which artery is shown here?",
                "options": {},
                "answer": "The hepatic artery.",
                "explanation": "The caption names the hepatic artery.",
            }
        )
    if qtype == "closed":
        return json.dumps(
            {
                "question_type": "closed",
                "question": "Is there a residual dissection?",
                "options": {},
                "answer": "yes",
                "explanation": "The caption reports one.",
            }
        )
    if qtype == "single":
        return (
            "```json\n"
            + json.dumps(
                {
                    "question_type": "single",
                    "question": "What procedure is shown in the image?",
                    "options": {
                        "A": "Angioplasty",
                        "B": "Biopsy",
                        "C": "Drainage",
                        "D": "Ablation",
                    },
                    "answer": "A",
                    "explanation": "A balloon angioplasty is described.",
                }
            )
            + "\n```"
        )
    return json.dumps(
        {
            "question_type": "multi",
            "question": "Which findings are present here?",
            "options": {"A": "Stenosis", "B": "Dissection", "C": "Aneurysm"},
            "answer": ["D"],
            "explanation": "Letter D does not exist.",
        }
    )


def _reply(system: str, prompt: str) -> str:
    if system.startswith("You review"):
        low = "residual dissection?" in prompt  # the closed questions get a low clarity score
        return json.dumps({"relevance": 4, "complexity": 3, "clarity": 2 if low else 4})
    return _qa_reply(prompt)


@pytest.fixture()
def server():  # type: ignore[no-untyped-def]
    with ScriptedServer(_reply) as srv:
        yield srv


def _config(tmp_path: Path, spec: str, **kw) -> CaptionsConfig:  # type: ignore[no-untyped-def]
    src = tmp_path / "caps.csv"
    src.write_text(CAPTIONS)
    gen = LLMSettings(model=spec, cache_path=tmp_path / "cache.sqlite", tries=2)
    kw.setdefault("judges", [gen, LLMSettings(model=spec, tries=1)])
    return CaptionsConfig(captions=src, out=tmp_path / "bench", generator=gen, **kw)


def test_pipeline_validates_counts_and_drops_honestly(
    tmp_path: Path, server: ScriptedServer
) -> None:
    res = build_captions(_config(tmp_path, server.spec(), keywords="mira_ir", min_keywords=2))
    counts = res.counts
    assert counts["captions_filtered"] == 1  # the chest radiograph has no IR terms
    assert counts["generated"] == 8  # 2 captions × 4 types
    # The scripted replies are the same for every caption: on c1 (an angiography), the
    # "Angioplasty" answer and the "residual dissection" question are not in the caption.
    assert counts["dropped"] == {"check:ungrounded": 2, "generate:schema": 2,
                                 "judge:low_score": 1}
    items = list(read_jsonl(res.out / "items.jsonl", Item))
    assert sorted(i.id for i in items) == ["c1-open", "c2-open", "c2-single"]
    assert validate_benchmark(res.out).ok
    dropped = [json.loads(x) for x in (res.out / "dropped.jsonl").read_text().splitlines()]
    assert {d["reason"] for d in dropped} == {"schema", "ungrounded", "low_score"}
    assert {d["key"] for d in dropped if d["reason"] == "ungrounded"} == {"c1:single",
                                                                          "c1:closed"}
    assert all(
        "not among the option letters" in d["detail"] for d in dropped if d["stage"] == "generate"
    )


def test_items_keep_provenance_and_go_to_review(tmp_path: Path, server: ScriptedServer) -> None:
    res = build_captions(_config(tmp_path, server.spec(), keywords="mira_ir"))
    item = next(i for i in read_jsonl(res.out / "items.jsonl", Item) if i.id == "c1-open")
    prov = item.meta["provenance"]
    assert prov["source_id"] == "c1" and prov["generator"] == server.spec()
    assert len(prov["prompt_sha256"]) == 64 and prov["attempts"] == 2  # repaired once
    assert set(prov["judges"]) == {"judge1", "judge2"}
    assert prov["judges"]["judge1"]["scores"] == {"relevance": 4, "complexity": 3, "clarity": 4}
    assert "vascular_anatomy:hepatic artery" in prov["keywords"]
    review = [json.loads(x) for x in (res.out / "review.jsonl").read_text().splitlines()]
    assert [r["item_id"] for r in review] == [
        i.id for i in read_jsonl(res.out / "items.jsonl", Item)
    ]
    assert all(r["status"] == "pending" for r in review)


def test_rebuild_is_byte_identical_and_served_from_cache(
    tmp_path: Path, server: ScriptedServer
) -> None:
    cfg = _config(tmp_path, server.spec())
    cfg.judges = [
        cfg.generator,
        LLMSettings(model=server.spec("judge2"), cache_path=tmp_path / "c"),
    ]
    build_captions(cfg)
    first = (cfg.out / "items.jsonl").read_bytes()
    sent = len(server.received)
    cfg.force = True  # building over a benchmark needs it
    build_captions(cfg)
    assert (cfg.out / "items.jsonl").read_bytes() == first
    assert len(server.received) == sent  # generator and both judges answered from the cache


def test_bad_rows_are_skipped_and_named(tmp_path: Path, server: ScriptedServer) -> None:
    cfg = _config(tmp_path, server.spec(), types=["single"], judges=[])
    cfg.captions.write_text(
        'id,caption,image\nc1,"Angioplasty.",\n,"no id",\nc3,"",\nc4,"x",missing.png\n'
    )
    res = build_captions(cfg)
    messages = [str(p) for p in res.problems]
    assert any(":3" in m and "id: missing" in m for m in messages)
    assert any(":4" in m and "caption: empty" in m for m in messages)
    assert any(":5" in m and "missing.png" in m for m in messages)
    assert res.counts["items"] == 1 and res.counts["skipped"] == 3
