"""``medvqa train classifier``: a supervised image classifier trained, checked, then run.

Trains on ``split=train`` (random flips as augmentation), keeps the epoch with the best val
accuracy (early stopping after ``patience`` epochs without improvement), saves it (see
``_checkpoint``) and answers the asked splits through the ordinary runner with the
``supervised:RUN`` backend, so RUN/ holds a run.json and predictions.jsonl like any model's.

Deterministic on the CPU: weights are initialised under a forked RNG seeded with ``seed``, and
each epoch's shuffling and flips come from a generator seeded with ``(seed, epoch)``, so a run
resumed after an interruption continues exactly as an uninterrupted one (the optimiser state is
saved with each epoch).
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from medvqa.errors import BadInputError
from medvqa.models import (
    ARCHS,
    CLASSIFIER_DIR,
    ClassifierCard,
    build_net,
    load_trunk_weights,
    to_tensor,
)
from medvqa.train._checkpoint import (
    fingerprint,
    finished,
    load_state,
    save_classifier,
    save_state,
    write_log,
)
from medvqa.train._config import ClassifierConfig
from medvqa.train._data import ClassifierData, Split, load_classifier_data
from medvqa.train._evaluate import EpochRow, evaluate

log = logging.getLogger(__name__)
METHODS = (*ARCHS, "linear-probe")


@dataclass
class TrainEvent:
    """Progress: ``kind`` is ``start``, ``step`` (one batch done) or ``epoch`` (row filled)."""

    kind: str
    epoch: int
    step: int = 0
    steps: int = 0
    row: EpochRow | None = None
    resumed_from: int = 0


@dataclass
class ClassifierResult:
    """What training did: the card, the log, whether it resumed or reused a finished model."""

    out_dir: Path
    card: ClassifierCard
    rows: list[EpochRow] = field(default_factory=list)
    resumed_from: int = 0
    reused: bool = False
    train_items: int = 0
    val_items: int = 0


def _settings(config: ClassifierConfig, data: ClassifierData, weights_sha: str) -> dict[str, Any]:
    keep = ("arch", "heads", "backbone", "epochs", "patience", "batch_size", "lr",
            "weight_decay", "image_size", "seed")
    return {k: getattr(config, k) for k in keep} | {"items_sha256": data.items_sha256,
                                                    "weights_sha256": weights_sha}


def _check(config: ClassifierConfig) -> None:
    if config.arch not in METHODS:
        raise BadInputError(f"--arch {config.arch!r}: choose one of {', '.join(METHODS)}")
    if config.heads not in {"multi", "expert"}:
        raise BadInputError(f"--heads {config.heads!r}: choose multi or expert")
    if config.arch == "linear-probe" and config.backbone not in ARCHS:
        raise BadInputError(f"--backbone {config.backbone!r}: choose one of {', '.join(ARCHS)}")
    if config.weights is not None and not Path(config.weights).is_file():
        raise BadInputError(f"--weights {config.weights}: no such file")


def new_net(config: ClassifierConfig, categories: dict[str, list[str]]) -> Any:
    """The initial network: seeded random init, then ``--weights`` in every trunk if given."""
    import torch

    arch = config.backbone if config.arch == "linear-probe" else config.arch
    mode = "multi" if config.arch == "linear-probe" else config.heads
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(config.seed)
        net = build_net(arch, {c: len(v) for c, v in categories.items()}, mode)
    if config.weights is not None:
        for trunk in net.trunks.values():
            load_trunk_weights(trunk, Path(config.weights), arch)
    return net


def train_classifier(
    config: ClassifierConfig, progress: Callable[[TrainEvent], None] | None = None
) -> ClassifierResult:
    """Train (or resume, or reuse) a classifier in ``config.out_dir/classifier``.

    Raises:
        BadInputError: bad options, a benchmark without train or val items, a category with
            one class, an unreadable image, or ``--weights`` of another architecture; nothing
            is written before these checks pass.
    """
    import hashlib

    from medvqa._optional import require
    from medvqa.models import resolve_device

    require("torch", "safetensors", *(["sklearn"] if config.arch == "linear-probe" else []))
    _check(config)
    device = resolve_device(config.device)
    data = load_classifier_data(config.bench_dir, config.image_size)
    weights_sha = (hashlib.sha256(Path(config.weights).read_bytes()).hexdigest()
                   if config.weights is not None else "")
    net = new_net(config, data.categories)  # checks --weights before anything is written
    settings = _settings(config, data, weights_sha)
    key = fingerprint(settings)
    out = Path(config.out_dir)
    folder = out / CLASSIFIER_DIR
    result = ClassifierResult(out, None, train_items=len(data.train),  # type: ignore[arg-type]
                              val_items=len(data.val))
    done = None if config.fresh else finished(out, key)
    if done is not None:
        result.card, result.reused = done, True
        return result
    card = ClassifierCard(
        method="linear-probe" if config.arch == "linear-probe" else "finetune",
        arch=config.backbone if config.arch == "linear-probe" else config.arch,
        mode="multi" if config.arch == "linear-probe" else config.heads,
        image_size=config.image_size, categories=data.categories, seed=config.seed,
        weights_sha256="", items_sha256=data.items_sha256,
        config=settings | {"fingerprint": key, "train_items": len(data.train),
                           "val_items": len(data.val), "skipped": dict(data.skipped)},
    )
    if config.arch == "linear-probe":
        from medvqa.train._probe import fit_probe

        best, row = fit_probe(net, data, config, device)
        write_log(folder, [asdict(row)])
        result.rows = [row]
    else:
        import torch

        was = torch.are_deterministic_algorithms_enabled()
        torch.use_deterministic_algorithms(True, warn_only=True)
        try:
            best, result.rows, result.resumed_from = _fit(net, data, config, device, folder,
                                                          key, progress)
        finally:  # a process-wide switch: leave it as it was (the demo runs LLMs afterwards)
            torch.use_deterministic_algorithms(was)
        row = max(result.rows, key=_rank)
    result.card = save_classifier(
        folder, best, card.model_copy(update={"best_epoch": row.epoch,
                                              "val_accuracy": row.val_accuracy}))
    return result


def _rank(row: EpochRow) -> tuple[float, float]:
    return (row.val_accuracy, -row.val_loss)


def _fit(net: Any, data: ClassifierData, config: ClassifierConfig, device: str, folder: Path,
         key: str, progress: Callable[[TrainEvent], None] | None
         ) -> tuple[dict[str, Any], list[EpochRow], int]:
    """The epoch loop with early stopping; returns the best weights, the log, the resume epoch."""
    import torch

    net.to(device)
    opt = torch.optim.AdamW(net.parameters(), lr=config.lr, weight_decay=config.weight_decay)
    rows: list[EpochRow] = []
    best: dict[str, Any] = {k: v.detach().clone() for k, v in net.state_dict().items()}
    state = None if config.fresh else load_state(folder, key)
    start = 0
    if state is not None:
        net.load_state_dict(state["net"])
        opt.load_state_dict(state["opt"])
        best, start = state["best"], int(state["epoch"])
        rows = [EpochRow(**r) for r in state["rows"]]
        log.info("resuming %s from epoch %d", folder, start)
    steps = math.ceil(len(data.train) / config.batch_size)
    if progress:
        progress(TrainEvent("start", start, 0, steps, resumed_from=start))
    for epoch in range(start + 1, config.epochs + 1):
        if rows and epoch - max(rows, key=_rank).epoch > config.patience:
            break
        t0 = time.perf_counter()
        gen = torch.Generator().manual_seed(config.seed * 1_000_003 + epoch)
        loss = _train_epoch(net, opt, data.train, config, device, gen, epoch, steps, progress)
        val_loss, val_acc = evaluate(net, data.val, device, config.batch_size)
        dt = time.perf_counter() - t0
        row = EpochRow(epoch, round(loss, 6), round(val_loss, 6), round(val_acc, 6),
                       round(dt, 3), round(len(data.train) / dt, 1))
        if not rows or _rank(row) > _rank(max(rows, key=_rank)):
            best = {k: v.detach().cpu().clone() for k, v in net.state_dict().items()}
        rows.append(row)
        save_state(folder, {"fingerprint": key, "epoch": epoch, "net": net.state_dict(),
                            "opt": opt.state_dict(), "best": best,
                            "rows": [asdict(r) for r in rows]})
        write_log(folder, [asdict(r) for r in rows])
        if progress:
            progress(TrainEvent("epoch", epoch, steps, steps, row))
    return best, rows, start


def _train_epoch(net: Any, opt: Any, split: Split, config: ClassifierConfig, device: str,
                 gen: Any, epoch: int, steps: int,
                 progress: Callable[[TrainEvent], None] | None) -> float:
    import torch

    net.train()
    order = torch.randperm(len(split), generator=gen).numpy()
    flips = torch.rand((len(split), 2), generator=gen).numpy() < 0.5
    total, n = 0.0, 0
    for step in range(steps):
        idx = order[step * config.batch_size:(step + 1) * config.batch_size]
        opt.zero_grad()
        batch_loss = torch.zeros((), device=device)
        for cat in sorted({split.categories[i] for i in idx}):
            sel = [i for i in idx if split.categories[i] == cat]
            imgs = split.images[sel].copy()
            for j, i in enumerate(sel):
                if flips[i, 0]:
                    imgs[j] = imgs[j, :, ::-1]
                if flips[i, 1]:
                    imgs[j] = imgs[j, ::-1, :]
            x = to_tensor(imgs).to(device)
            y = torch.from_numpy(split.labels[sel]).to(device)
            batch_loss = batch_loss + torch.nn.functional.cross_entropy(
                net(x, cat), y, reduction="sum")
        (batch_loss / len(idx)).backward()
        opt.step()
        total += float(batch_loss.detach())
        n += len(idx)
        if progress:
            progress(TrainEvent("step", epoch, step + 1, steps))
    return total / max(n, 1)
