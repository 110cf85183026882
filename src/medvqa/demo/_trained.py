"""The demo's image-reading model: a small CNN trained on the shipped data, then stressed.

The text-only models of the demo (random, frequent, SmolLM2) cannot depend on the image, so
their controls read "no evidence it needs the image". A small CNN trained here (LMOD's baseline,
at a reduced input size so the demo stays within its time budget on two cores) does read the
image: its clean − blind delta is real, and corruptions at severities 1, 3 and 5 draw a
degradation curve. It is trained, run and scored through the same commands a user types.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from medvqa.train import FAST_CNN, ClassifierPreset


@dataclass(frozen=True)
class DemoTraining:
    """A classifier trained on one demo benchmark and the conditions it is run under."""

    recipe: str
    preset: ClassifierPreset = FAST_CNN
    conditions: tuple[str, ...] = ("clean", "blind", "corrupt:all@1", "corrupt:all@3",
                                   "corrupt:all@5")
    splits: tuple[str, ...] = ("test",)


#: Recipes of DEMO_PLAN that get a trained classifier.
DEMO_TRAINING: dict[str, DemoTraining] = {
    # 40 training photographs for five balanced grades: the CNN stays near chance, and its
    # controls say so. One corruption severity only: corrupting 1024-pixel photographs is slow.
    "idrid_dr_grade": DemoTraining("idrid_dr_grade",
                                   conditions=("clean", "blind", "corrupt:all@3")),
    # 28-pixel images: training, blind and every corruption severity cost seconds.
    "retinamnist_dr_grade": DemoTraining("retinamnist_dr_grade"),
    # Asked on test and test_tiny (30 items, not 15), so the clean - blind interval is narrow
    # enough to tell a model that reads the image from one that does not.
    "lc25000_lung": DemoTraining("lc25000_lung", splits=("test", "test_tiny")),
}


def train_steps(step: Callable[[str, list[str]], None], recipe: str, bench_dir: Path,
                out: Path, seed: int) -> list[str]:
    """Train, stress and score the demo classifier of ``recipe``; return its RUN/ folder."""
    plan = DEMO_TRAINING.get(recipe)
    if plan is None:
        return []
    cnn = plan.preset
    run_dir = out / "runs" / f"{recipe}--supervised_{cnn.arch}"
    step(f"train {cnn.arch} on {recipe}",
         ["train", "classifier", str(bench_dir), "--arch", cnn.arch, "--out", str(run_dir),
          "--image-size", str(cnn.image_size), "--epochs", str(cnn.epochs),
          "--patience", str(cnn.patience), "--splits", ",".join(plan.splits),
          "--seed", str(seed),
          "--device", "cpu"])
    for split in plan.splits:
        step(f"run supervised:{cnn.arch} under controls on {recipe} ({split})",
             ["run", str(bench_dir), "--model", f"supervised:{run_dir}", "--out", str(run_dir),
              "--split", split, "--seed", str(seed),
              "--conditions", ",".join(plan.conditions)])
    step(f"score supervised:{cnn.arch} on {recipe}",
         ["score", str(bench_dir), str(run_dir), "--seed", str(seed)])
    return [str(run_dir)]
