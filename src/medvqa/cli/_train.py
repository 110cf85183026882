"""CLI commands of `medvqa train`: trained baselines as ordinary runs.

Only typer and the two configs (whose fields give every default) are imported at module level;
torch, peft and the trainers load inside the commands.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from medvqa.cli._help import default_of
from medvqa.train import ClassifierConfig, LoraTrainConfig

train_app = typer.Typer(
    help="Train baselines in the same harness: supervised classifiers, LoRA fine-tuning.",
    no_args_is_help=True,
)


def _splits(text: str) -> tuple[str, ...]:
    return tuple(s.strip() for s in text.split(",") if s.strip())


def _c(name: str) -> Any:
    """The default of a ClassifierConfig field."""
    return default_of(ClassifierConfig, name)


def _l(name: str) -> Any:
    """The default of a LoraTrainConfig field."""
    return default_of(LoraTrainConfig, name)


@train_app.command("classifier")
def classifier_command(
    bench: Path = typer.Argument(..., help="Benchmark folder with train and val splits."),
    out: Path = typer.Option(..., "--out", "-o", help="RUN/ folder to write (resumed if there)."),
    arch: str = typer.Option(_c("arch"), "--arch",
                             help="small-cnn | resnet18 | resnet50 | linear-probe"),
    heads: str = typer.Option(_c("heads"), "--heads",
                              help="multi (shared trunk, a head per category) | expert "
                                   "(a model per category)"),
    weights: Path | None = typer.Option(
        None, "--weights", help="Local pretrained trunk state_dict (.pt/.safetensors)."),
    backbone: str = typer.Option(
        _c("backbone"), "--backbone", help="Frozen trunk of linear-probe."),
    epochs: int = typer.Option(_c("epochs"), "--epochs", min=1, help="Most epochs."),
    patience: int = typer.Option(
        _c("patience"), "--patience", min=1, help="Early-stopping patience (epochs)."),
    batch_size: int = typer.Option(
        _c("batch_size"), "--batch-size", min=1, help="Images per step."),
    lr: float = typer.Option(_c("lr"), "--lr", help="AdamW learning rate."),
    image_size: int = typer.Option(
        _c("image_size"), "--image-size", min=16, help="Input size in pixels."),
    splits: str = typer.Option(
        ",".join(_c("splits")), "--splits", help="Splits to answer, e.g. test,test_tiny."),
    seed: int = typer.Option(
        _c("seed"), "--seed", help="Seed of init, shuffling and augmentation."),
    device: str = typer.Option(_c("device"), "--device", help="auto | cpu | cuda | cuda:N"),
    fresh: bool = typer.Option(
        _c("fresh"), "--fresh", help="Discard an earlier training in --out."),
) -> None:
    """Train an image classifier on split=train, early-stop on val, answer SPLITS into RUN/.

    The RUN/ folder is an ordinary run of model supervised:RUN; add controls with
    `medvqa run BENCH --model supervised:RUN --out RUN --conditions blind,corrupt:all@1-5`.

    Example: medvqa train classifier bench/lung/ --arch small-cnn --out runs/lung-cnn
    """
    from rich.console import Console

    from medvqa.models import resolve_device
    from medvqa.train import (
        EpochProgress,
        predict_splits,
        supervised_spec,
        train_classifier,
    )

    config = ClassifierConfig(
        bench_dir=bench, out_dir=out, arch=arch, heads=heads, weights=weights, backbone=backbone,
        epochs=epochs, patience=patience, batch_size=batch_size, lr=lr, image_size=image_size,
        seed=seed, device=device, splits=_splits(splits) or _c("splits"), fresh=fresh)
    console = Console(stderr=True, highlight=False)
    with EpochProgress(console, epochs) as bar:
        result = train_classifier(config, bar.update)
    card = result.card
    if result.reused:
        console.print(f"{out}/classifier: already trained with these settings; reusing it")
    elif result.resumed_from:
        console.print(f"resumed from epoch {result.resumed_from} "
                      f"({out}/classifier/train-state.pt)")
    console.print(
        f"[green]trained[/green] {card.method} {card.arch} ({card.mode} heads, "
        f"{len(card.categories)} categor{'y' if len(card.categories) == 1 else 'ies'}) on "
        f"{result.train_items} train items; best epoch {card.best_epoch}, val accuracy "
        f"{card.val_accuracy:.3f} ({result.val_items} items)")
    n = predict_splits(bench, out, config.splits, device=resolve_device(device), seed=seed,
                       retrained=not result.reused)
    console.print(f"wrote {out}: {n} predictions of {supervised_spec(out)} "
                  f"(splits {', '.join(config.splits)}); score with `medvqa score {bench} {out}`")


@train_app.command("lora")
def lora_command(
    bench: Path = typer.Argument(..., help="Benchmark folder with a train split."),
    model: str = typer.Option(..., "--model", "-m", help="hf:PATH_OR_ID of the base model."),
    out: Path = typer.Option(..., "--out", "-o", help="Folder for the adapter(s)."),
    target: str = typer.Option(_l("target"), "--target", help="answer | answer+explanation"),
    by: str = typer.Option(_l("by"), "--by", help="question_type: one adapter per question type."),
    rank: int = typer.Option(_l("r"), "--r", min=1, help="LoRA rank (MammoVQA: 8)."),
    alpha: int = typer.Option(_l("alpha"), "--alpha", help="LoRA alpha (MammoVQA: 8)."),
    dropout: float = typer.Option(
        _l("dropout"), "--dropout", help="LoRA dropout (MammoVQA: 0.05)."),
    epochs: int = typer.Option(_l("epochs"), "--epochs", min=1, help="Epochs (MammoVQA: 1)."),
    max_steps: int = typer.Option(
        _l("max_steps"), "--max-steps", min=0, help="Stop after N steps (0 = all)."),
    batch_size: int = typer.Option(
        _l("batch_size"), "--batch-size", min=1, help="Batch (MammoVQA: 16)."),
    lr: float = typer.Option(_l("lr"), "--lr", help="Learning rate (MammoVQA: 2e-5)."),
    target_modules: str = typer.Option(",".join(_l("target_modules")), "--target-modules",
                                       help="Comma-separated module names (default: peft's)."),
    split: str = typer.Option(_l("split"), "--split", help="Split to train on."),
    limit: int | None = typer.Option(_l("limit"), "--limit", min=1, help="Only the first N items."),
    seed: int = typer.Option(_l("seed"), "--seed", help="Seed of LoRA init and shuffling."),
    device: str = typer.Option(_l("device"), "--device", help="auto | cpu | cuda | cuda:N"),
    bf16: bool = typer.Option(_l("bf16"), "--bf16", help="Train in bfloat16 (GPUs)."),
) -> None:
    """LoRA fine-tuning (peft) with loss on the answer tokens only; saves the adapter(s).

    Evaluate with `medvqa run BENCH --model hf:PATH --adapter OUT/adapter --out RUN`.

    Example: medvqa train lora bench/mammo/ --model hf:/models/llava --out adapters/mammo
    """
    from rich.console import Console

    from medvqa.train import train_lora

    config = LoraTrainConfig(
        bench_dir=bench, model=model, out_dir=out, target=target, by=by, r=rank, alpha=alpha,
        dropout=dropout, epochs=epochs, max_steps=max_steps, batch_size=batch_size, lr=lr,
        target_modules=_splits(target_modules), split=split, limit=limit, seed=seed,
        device=device, bf16=bf16)
    console = Console(stderr=True, highlight=False)
    from medvqa.train import StepProgress

    with StepProgress(console) as bar:
        results = train_lora(config, bar.update)
    for r in results:
        console.print(f"[green]adapter[/green] {r.adapter_dir}: {r.steps} steps on {r.items} "
                      f"items, loss {r.first_loss:.3f} → {r.last_loss:.3f} "
                      f"({r.steps_per_s:.2f} steps/s)")
