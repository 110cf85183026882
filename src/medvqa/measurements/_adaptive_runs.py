"""The real run matrix of the ``adaptive`` bench: the offline models' runs on a shipped dataset.

A benchmark is built from the repository's RetinaMNIST sample (the demo's fundus recipe), and
answered on its test split by ``random`` under several seeds, ``frequent``, and small CNNs
trained here for one and for several epochs, each CNN under its controls (clean, blind, every
corruption at severities 1, 3, 5): every run under every condition is one model of the zoo. All
through the ordinary runner and scorer.
"""

from __future__ import annotations

from pathlib import Path

from medvqa.schema import CLEAN, RUN_FILE, RunInfo, read_json

RECIPE = "retinamnist_dr_grade"
SPLIT = "test"
#: The CNNs' controls: every run under each is a model of the zoo.
CONTROLS = (CLEAN, "blind", "corrupt:all@1", "corrupt:all@3", "corrupt:all@5")
#: Epochs of the CNNs trained (a weak one and a stronger one).
EPOCHS = (1, 8)


def make_runs(tmp: Path, data: Path, quick: bool, seed: int) -> tuple[Path, list[Path],
                                                                      tuple[str, ...]]:
    """Build, run and score; return the benchmark, the runs and the conditions of the zoo."""
    from medvqa.models import ModelConfig
    from medvqa.recipes import BuildConfig, build_benchmark
    from medvqa.run import RunConfig, run_benchmark
    from medvqa.score import ScoreConfig, score_run
    from medvqa.train import FAST_CNN, ClassifierConfig, supervised_spec, train_classifier

    bench = tmp / RECIPE
    build_benchmark(BuildConfig(RECIPE, bench, seed=seed, data_root=data))
    runs: list[Path] = []
    for s in range(3 if quick else 6):
        out = tmp / f"random-{s}"
        run_benchmark(RunConfig(bench_dir=bench, out_dir=out, split=SPLIT, seed=s,
                                model=ModelConfig(spec="random", seed=s)))
        runs.append(out)
    out = tmp / "frequent"
    run_benchmark(RunConfig(bench_dir=bench, out_dir=out, split=SPLIT,
                            model=ModelConfig(spec="frequent")))
    runs.append(out)
    for epochs in EPOCHS[:1] if quick else EPOCHS:
        cnn = tmp / f"cnn-{epochs}"
        train_classifier(ClassifierConfig(bench_dir=bench, out_dir=cnn, arch=FAST_CNN.arch,
                                          image_size=FAST_CNN.image_size, epochs=epochs,
                                          patience=epochs, device="cpu", seed=seed,
                                          splits=()))
        run_benchmark(RunConfig(bench_dir=bench, out_dir=cnn, split=SPLIT, seed=seed,
                                conditions=list(CONTROLS),
                                model=ModelConfig(spec=supervised_spec(cnn))))
        runs.append(cnn)
    for run in runs:
        score_run(ScoreConfig(bench, run, resamples=199))
    asked = read_json(runs[-1] / RUN_FILE, RunInfo).conditions  # corruptions expanded
    return bench, runs, tuple(asked)
