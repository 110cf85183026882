"""``medvqa bench`` section ``train``: CNN training speed, LoRA speed, the demo CNN's accuracy.

- small-CNN training images/s on the CPU (synthetic 128-pixel images, so it runs anywhere);
- LoRA steps/s for SmolLM2-135M on the CPU (batch 8, the tiny overfit benchmark);
- the demo classifier's test accuracy with its 95 % CI on each shipped demo dataset, against the
  frequent-answer baseline on the same items (target: the CI's lower end above the baseline).
  These need the repository's ``data/`` folder and are skipped without it.
"""

from __future__ import annotations

import io
import tempfile
import time
from pathlib import Path

import numpy as np

from medvqa.measurements._figure import BenchFigure
from medvqa.train import FAST_CNN

#: Fundus datasets first; RetinaMNIST is the shipped fundus set large enough to learn from.
ACCURACY_RECIPES = ("idrid_dr_grade", "lc25000_lung", "retinamnist_dr_grade")


def _synthetic_bench(root: Path, n: int, size: int = 128) -> Path:
    """``n`` two-class items: bright or dark noise images, half train, some val."""
    from PIL import Image

    from medvqa.schema import Benchmark, CreatedWith, Item, write_json, write_jsonl
    from medvqa.store import ImageStore

    rng = np.random.default_rng(0)
    store = ImageStore(root)
    items = []
    for i in range(n):
        label = i % 2
        pixels = rng.integers(0, 128, (size, size, 3), dtype=np.uint8) + 100 * label
        buf = io.BytesIO()
        Image.fromarray(pixels.astype(np.uint8)).save(buf, format="PNG")
        rel = store.add_bytes(buf.getvalue(), ".png")
        items.append(Item(id=f"s{i}", images=[rel], question="Bright or dark?",
                          options={"A": "dark", "B": "bright"}, answer="AB"[label],
                          question_type="single",
                          category="c", split="val" if i % 10 == 0 else "train"))
    sha = write_jsonl(root / "items.jsonl", items)
    write_json(root / "benchmark.json",
               Benchmark(name="synthetic", created_with=CreatedWith(tool_version="bench"),
                         items_sha256=sha))
    return root


def _cnn_speed(tmp: Path, quick: bool) -> list[BenchFigure]:
    from medvqa.train import ClassifierConfig, train_classifier

    bench = _synthetic_bench(tmp / "synthetic", 160 if quick else 640)
    result = train_classifier(ClassifierConfig(
        bench_dir=bench, out_dir=tmp / "cnn", epochs=2 if quick else 3, patience=10,
        device="cpu", image_size=128))
    rate = float(np.median([r.images_per_s for r in result.rows]))
    return [BenchFigure("train", f"small-CNN training images/s, 128 px, batch 32, CPU "
                        f"({result.train_items} images/epoch)", rate, "images/s")]


def _lora_speed(tmp: Path, quick: bool) -> list[BenchFigure]:
    from medvqa.testing import write_text_bench
    from medvqa.train import LoraTrainConfig, train_lora

    bench = write_text_bench(tmp / "text", 16)
    steps = 3 if quick else 8
    t0 = time.perf_counter()
    result = train_lora(LoraTrainConfig(bench_dir=bench, model="smollm2", out_dir=tmp / "lora",
                                        batch_size=8, epochs=steps, device="cpu"))[0]
    total = time.perf_counter() - t0
    return [
        BenchFigure("train", "LoRA steps/s, SmolLM2-135M, r=8, batch 8, CPU", result.steps_per_s,
                    "steps/s"),
        BenchFigure("train", f"LoRA end to end ({steps} steps, load + save)", total, "s"),
    ]


def _accuracy(tmp: Path, data_root: Path) -> list[BenchFigure]:
    """Demo CNN vs frequent on the test split of each demo dataset."""
    from medvqa.models import ModelConfig
    from medvqa.recipes import BuildConfig, build_benchmark
    from medvqa.run import RunConfig, run_benchmark
    from medvqa.score import ScoreConfig, score_run
    from medvqa.train import ClassifierConfig, predict_splits, train_classifier

    figures = []
    for recipe in ACCURACY_RECIPES:
        plan = FAST_CNN
        bench = tmp / recipe
        build_benchmark(BuildConfig(recipe, bench, seed=0, data_root=data_root))
        cnn = tmp / f"{recipe}-cnn"
        t0 = time.perf_counter()
        train_classifier(ClassifierConfig(bench_dir=bench, out_dir=cnn, arch=plan.arch,
                                          image_size=plan.image_size, epochs=plan.epochs,
                                          patience=plan.patience, device="cpu"))
        train_s = time.perf_counter() - t0
        splits = ("test", "test_tiny")
        predict_splits(bench, cnn, splits, device="cpu", seed=0, retrained=True)
        freq = tmp / f"{recipe}-frequent"
        for i, split in enumerate(splits):
            run_benchmark(RunConfig(bench_dir=bench, out_dir=freq, split=split,
                                    model=ModelConfig(spec="frequent"), force_new=i == 0))
        acc: dict[str, tuple[float, list[float | None], int]] = {}
        for name, run in (("cnn", cnn), ("frequent", freq)):
            block = score_run(ScoreConfig(bench, run, resamples=1999)).metrics
            overall = block.conditions["clean"].overall
            value = overall.accuracy.value
            acc[name] = (float("nan") if value is None else value, overall.accuracy.ci,
                         overall.n)
        (value, ci, n), (base, _, _) = acc["cnn"], acc["frequent"]
        lo = ci[0] if ci and ci[0] is not None else float("nan")
        hi = ci[1] if ci and ci[1] is not None else float("nan")
        figures.append(BenchFigure(
            "train", f"demo small-CNN test accuracy, {recipe} (n={n}, 95% CI "
            f"[{lo:.2f}, {hi:.2f}], frequent {base:.2f}, trained in {train_s:.0f} s)",
            value, "accuracy", "CI above frequent", bool(lo > base)))
    return figures


def bench_train(quick: bool, data_root: Path = Path("data")) -> list[BenchFigure]:
    """Train figures: CNN images/s, LoRA steps/s, demo CNN accuracy vs frequent."""
    with tempfile.TemporaryDirectory(prefix="medvqa-bench-train-") as tmp:
        figures = _cnn_speed(Path(tmp), quick)
        figures += _lora_speed(Path(tmp), quick)
        if (data_root / "lc25000_lung_224").is_dir():
            figures += _accuracy(Path(tmp), data_root)
    return figures
