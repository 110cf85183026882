"""A small real benchmark for the review app: mammograms (greyscale, one with a region box) and
lung tiles, a hostile ``<script>`` item, LLM judges' scores in review.jsonl, a test_tiny split."""

from __future__ import annotations

from pathlib import Path

from medvqa.schema import Benchmark, CreatedWith, Item, ReviewRecord, write_json, write_jsonl
from medvqa.store import ImageStore

DATA = Path(__file__).resolve().parents[2] / "data"
XSS = "<script>alert('x')</script>"


def judge(rel: int, comp: int, clar: int) -> dict:
    return {"model": "smollm2", "scores": {"relevance": rel, "complexity": comp, "clarity": clar},
            "error": None, "prompt_sha256": "0" * 64}


def write_review_bench(root: Path) -> Path:
    """Write BENCH/ with 6 items to ``root``; item ids r0…r5."""
    store = ImageStore(root)
    mammo = [store.add_file(DATA / "mini_mias" / "all-mias" / f) for f in ("mdb119.jpg",
                                                                             "mdb095.jpg")]
    lung = sorted((DATA / "lc25000_lung_224" / "lung_image_sets" / "lung_n").glob("*.jpeg"))
    tiles = [store.add_file(p) for p in lung[:4]]
    opts = {"A": "benign", "B": "malignant"}
    items = [
        Item(id="r0", images=[mammo[0]], question="Is the marked region benign or malignant?",
             options=dict(opts), answer="A", question_type="single", category="mammo",
             split="test", meta={"explanation": "Smooth margins.",
                                 "regions": [{"id": "R1", "type": "mass",
                                              "box": [400, 300, 700, 600]}],
                                 "provenance": {"source_text": "A benign mass in the left "
                                                "breast with smooth margins.",
                                                "grounding_span": "benign mass"}}),
        Item(id="r1", images=[mammo[1]], question="What density is this breast?",
             options={"A": "fatty", "B": "glandular", "C": "dense"}, answer="B",
             question_type="single", category="mammo", split="test"),
        Item(id="r2", images=[tiles[0]], question=f"Which tissue {XSS} is shown?",
             options={"A": f"lung {XSS}", "B": "colon"}, answer="A", question_type="single",
             category="lung", split="test"),
        Item(id="r3", images=[tiles[1]], question="Is this lung tissue?",
             options={"A": "yes", "B": "no"}, answer="A", question_type="yesno",
             category="lung", split="test"),
        Item(id="t0", images=[tiles[2]], question="Which organ is this tile from?",
             options={"A": "lung", "B": "liver", "C": "kidney"}, answer="A",
             question_type="single", category="lung", split="test_tiny"),
        Item(id="t1", images=[tiles[3]], question="Is the tissue malignant?",
             options={"A": "yes", "B": "no"}, answer="B", question_type="yesno",
             category="lung", split="test_tiny"),
    ]
    digest = write_jsonl(root / "items.jsonl", items)
    write_json(root / "benchmark.json", Benchmark(
        name="reviewtest", version="1.0", created_with=CreatedWith(tool_version="test"),
        counts={"items": len(items)}, items_sha256=digest))
    judged = {"r0": {"judge1": judge(5, 4, 5), "judge2": judge(4, 3, 4)},
              "r1": {"judge1": judge(5, 5, 5), "judge2": judge(2, 4, 4)},
              "r2": {"judge1": judge(3, 3, 3), "judge2": judge(4, 4, 4)},
              "r3": {"judge1": judge(5, 5, 4), "judge2": judge(5, 5, 5)}}
    by_id = {i.id: i for i in items}
    review = [
        ReviewRecord(item_id=k, source_id=f"caption-{k}",
                     source_text=by_id[k].meta.get("provenance", {}).get("source_text", ""),
                     images=by_id[k].images, question=by_id[k].question,
                     options=by_id[k].options, answer=by_id[k].answer,
                     question_type=by_id[k].question_type, judges=v)
        for k, v in judged.items()
    ]
    write_jsonl(root / "review.jsonl", review)
    return root
