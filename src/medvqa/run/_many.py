"""Many models in one command: one RunConfig per entry of models.yaml, one summary row each.

Every model runs into its own sub-folder of ``--out`` (named by its display name), one after
another in this process, so the images read for one model and the perturbed images of every
control stay in the process-wide caches (and RUN/perturbed on disk) for the next.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from medvqa.run._models_file import ModelsFile, model_config_for
from medvqa.run._runner import RunConfig, RunSummary


@dataclass(frozen=True)
class PlannedRun:
    """One model's run: its display name and config."""

    name: str
    config: RunConfig


@dataclass(frozen=True)
class SummaryRow:
    """One row of the table printed after a many-model run."""

    name: str
    spec: str
    run_dir: Path
    answered: int
    errors: int
    items_per_s: float
    elapsed_s: float
    failed: str = ""


def plan_runs(models: ModelsFile, base: RunConfig) -> list[PlannedRun]:
    """One RunConfig per model: ``base`` (the command line) with the entry's own settings."""
    plans = []
    for entry in models.models:
        config = replace(
            base,
            out_dir=Path(base.out_dir) / entry.display_name,
            model=model_config_for(entry, models.defaults, base.model),
            prompt=entry.prompt or base.prompt,
            perturbed_dir=base.perturbed_dir or Path(base.out_dir) / "perturbed",
            name=entry.name,
        )
        plans.append(PlannedRun(entry.display_name, config))
    return plans


def summary_row(plan: PlannedRun, summary: RunSummary | None, failed: str = "") -> SummaryRow:
    """The table row of one finished (or refused) run."""
    if summary is None:
        return SummaryRow(plan.name, plan.config.model.spec, plan.config.out_dir, 0, 0, 0.0, 0.0,
                          failed)
    return SummaryRow(plan.name, plan.config.model.spec, summary.run_dir, summary.predictions,
                      summary.prediction_errors, summary.items_per_s, summary.elapsed_s, failed)


def run_dirs(models: ModelsFile, out: Path) -> list[Path]:
    """The RUN/ folders a models.yaml run writes (for ``medvqa report --models``)."""
    return [Path(out) / entry.display_name for entry in models.models]
