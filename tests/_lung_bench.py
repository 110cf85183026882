"""A small benchmark of real lung tiles, written by tests (``make_bench``; the ``bench`` fixture).

Importable from every test folder (pytest puts this folder, the root conftest's, on the path).
"""

from __future__ import annotations

from pathlib import Path

from medvqa.schema import Benchmark, CreatedWith, Item, file_sha256, write_json, write_jsonl
from medvqa.store import ImageStore

DATA = Path(__file__).resolve().parents[1] / "data"
LUNG = DATA / "lc25000_lung_224" / "lung_image_sets"
LABELS = {"lung_aca": "adenocarcinoma", "lung_n": "benign", "lung_scc": "squamous cell carcinoma"}
OPTIONS = {"A": "adenocarcinoma", "B": "benign", "C": "squamous cell carcinoma"}


def make_bench(root: Path, n: int = 12, *, items: list[Item] | None = None) -> Path:
    """Write a benchmark of ``n`` real lung tiles (round robin over classes) to ``root``."""
    store = ImageStore(root)
    if items is None:
        files = {k: sorted((LUNG / k).glob("*.jpeg")) for k in LABELS}
        items = []
        for i in range(n):
            cls = list(LABELS)[i % 3]
            rel = store.add_file(files[cls][i // 3])
            letter = next(k for k, v in OPTIONS.items() if v == LABELS[cls])
            items.append(
                Item(
                    id=f"lung-{i:03d}",
                    images=[rel],
                    question=f"[lung-{i:03d}] What tissue does this H&E tile show?",
                    options=dict(OPTIONS),
                    answer=letter,
                    question_type="single",
                    category=cls,
                    case_id=f"case-{i // 2}",
                    source="LC25000",
                    split="test" if i % 4 else "train",
                )
            )
    sha = write_jsonl(root / "items.jsonl", items)
    assert sha == file_sha256(root / "items.jsonl")
    write_json(
        root / "benchmark.json",
        Benchmark(
            name="lung-test",
            created_with=CreatedWith(tool_version="test"),
            items_sha256=sha,
        ),
    )
    return root
