"""A small real benchmark for training: LC25000 lung tiles, two categories, shuffled options."""

from __future__ import annotations

import random
from pathlib import Path

from medvqa.schema import Benchmark, CreatedWith, Item, write_json, write_jsonl
from medvqa.store import ImageStore

REPO = Path(__file__).resolve().parents[2]
LUNG = REPO / "data" / "lc25000_lung_224" / "lung_image_sets"
TISSUE = {"lung_aca": "adenocarcinoma", "lung_n": "benign lung tissue",
          "lung_scc": "squamous cell carcinoma"}


def write_train_bench(root: Path, per_class: int = 16, *, splits: tuple[str, ...] = (
        "train", "train", "train", "val", "test"), categories: tuple[str, ...] = (
        "tissue", "benign"), one_class: bool = False) -> Path:
    """A benchmark of real lung tiles: ``tissue`` (3 classes) and ``benign`` (yes/no) items.

    Options are shuffled per item (seeded), so letters differ between items of one class.
    """
    store = ImageStore(root)
    rng = random.Random(0)
    items = []
    for cls, text in TISSUE.items():
        for i, path in enumerate(sorted((LUNG / cls).glob("*.jpeg"))[:per_class]):
            rel = store.add_file(path)
            split = splits[i % len(splits)]
            for cat in categories:
                if cat == "tissue":
                    texts = list(TISSUE.values())
                    gold = text
                else:
                    texts = ["yes", "no"]
                    gold = "yes" if (cls == "lung_n" or one_class) else "no"
                rng.shuffle(texts)
                options = {"ABC"[j]: t for j, t in enumerate(texts)}
                answer = next(k for k, v in options.items() if v == gold)
                items.append(Item(
                    id=f"{cat}/{path.stem}", images=[rel], question=f"{cat}: what is shown?",
                    options=options, answer=answer,
                    question_type="single" if cat == "tissue" else "yesno", category=cat,
                    case_id=path.stem, source="LC25000", split=split))
    sha = write_jsonl(root / "items.jsonl", items)
    write_json(root / "benchmark.json", Benchmark(
        name="lung-train", created_with=CreatedWith(tool_version="test"), items_sha256=sha))
    return root
