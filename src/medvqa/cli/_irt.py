"""``medvqa irt``: calibrate a benchmark's items on a zoo of runs (``medvqa.irt.fit_irt``)."""

from __future__ import annotations

from pathlib import Path

import typer

from medvqa.cli._help import default_of
from medvqa.irt import IrtFitConfig

irt_app = typer.Typer(
    help="Item response theory: item difficulty and discrimination from a zoo of runs, "
         "suspect items, the calibration adaptive runs use.",
    no_args_is_help=True,
)

#: Flagged items listed on the console (irt.json has them all).
SHOWN_FLAGGED = 10


@irt_app.command("fit")
def fit_command(
    bench: Path = typer.Argument(..., help="The BENCH/ folder whose items are calibrated."),
    runs: list[Path] = typer.Option(..., "--runs", help="A scored RUN/ folder of this benchmark "
                                    "(repeat the option: at least five models in all)."),
    out: Path = typer.Option(..., "-o", "--out", help="irt.json to write."),
    model: str = typer.Option(default_of(IrtFitConfig, "item_model"), "--model",
                              help="2pl (a slope per item) or 1pl (one shared slope)."),
    conditions: str = typer.Option(
        ",".join(default_of(IrtFitConfig, "conditions")), "--conditions",
        help="Conditions whose answers make the zoo: each run under each is one model."),
    seed: int = typer.Option(default_of(IrtFitConfig, "seed"), "--seed",
                             help="Seed of the cross-validation folds and item splits."),
    folds: int = typer.Option(default_of(IrtFitConfig, "folds"), "--folds",
                              help="Folds of models for cross-validation (below 2: none)."),
    guessing: str = typer.Option(
        default_of(IrtFitConfig, "guessing"), "--guessing",
        help="Guessing floor of each item: chance (1/k for k options, a 3PL with the floor "
             "fixed) or none (the 2PL)."),
    exposure_rate: float = typer.Option(
        default_of(IrtFitConfig, "exposure_rate"), "--exposure-rate",
        help="Sympson-Hetter cap: the largest share of adaptive tests that may give one item "
             "(0: no exposure parameters)."),
    to_review: bool = typer.Option(
        default_of(IrtFitConfig, "to_review"), "--to-review", help="Put the suspect items into the "
                                   "review app's queue (BENCH/flagged.jsonl), with the reason."),
) -> None:
    """Fit a 1PL or 2PL model to the runs' scored answers; list suspect items.

    Example: medvqa irt fit bench/vqa_rad --runs runs/a --runs runs/b ... -o irt.json
    """
    from rich.console import Console
    from rich.markup import escape

    from medvqa.irt import fit_irt
    from medvqa.schema import FLAG_REASONS

    config = IrtFitConfig(bench, tuple(runs), out, model.lower(),
                          tuple(c.strip() for c in conditions.split(",") if c.strip()),
                          seed, folds, to_review=to_review, guessing=guessing.lower(),
                          exposure_rate=exposure_rate)
    result = fit_irt(config)
    cal = result.calibration
    con = Console(highlight=False)

    def say(text: str) -> None:
        con.print(escape(text), soft_wrap=True)

    q = cal.quality
    say(f"{cal.item_model}: {len(cal.items)} items, {len(cal.models)} models "
        f"({', '.join(cal.conditions)}); converged: {'yes' if cal.converged else 'no'} "
        f"after {cal.iterations} iterations; slope prior N({cal.priors.slope_mean:.2f}, "
        f"{cal.priors.slope_sd:.2f}²), intercept prior N({cal.priors.intercept_mean:.2f}, "
        f"{cal.priors.intercept_sd:.2f}²)")
    if cal.cv is not None:
        cv = cal.cv
        losses = ", ".join(f"{k} {v:.3f}" for k, v in cv.log_loss.items())
        say(f"held-out models ({cv.folds} folds): log-loss {losses}; accuracy error "
            f"{cv.accuracy_mae:.3f}")
        if cv.adaptive_items is not None:
            at = (f"SE {cv.adaptive_target_se}" if cv.adaptive_target_se is not None
                  else "each model's full-run SE")
            replays = f"{cv.replays} " if cv.replays is not None else ""
            say(f"{replays}adaptive replays at {at}: {cv.adaptive_items:.0f} items "
                f"on average, error {cv.adaptive_error:.3f}, 95 % coverage "
                f"{cv.adaptive_coverage:.2f}; interval inflation {cal.interval_inflation:.2f}")
    say(f"suspected label errors: {q.suspected_label_errors}; broken or ambiguous: {q.broken}; "
        f"uninformative: {q.uninformative}")
    flagged = [it for it in cal.items if it.flags and set(it.flags) - {
        "all-right", "all-wrong", "unanswered"}]
    for it in flagged[:SHOWN_FLAGGED]:
        why = "; ".join(FLAG_REASONS[f] for f in it.flags)
        say(f"  {it.id}: {why}")
    if len(flagged) > SHOWN_FLAGGED:
        say(f"  … and {len(flagged) - SHOWN_FLAGGED} more (see {result.path})")
    for note in result.notes:
        say(f"note: {note}")
    say(f"wrote {result.path}")
    if result.flagged_path is not None:
        say(f"wrote {result.flagged} item(s) to the review queue: {result.flagged_path}")
