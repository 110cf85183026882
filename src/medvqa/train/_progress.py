"""Rich progress bars for training: steps within an epoch, and epochs with the val metric."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
)


class EpochProgress:
    """A bar per epoch's steps, and one line per finished epoch (loss, val accuracy)."""

    def __init__(self, console: Console, epochs: int):
        self.console = console
        self.epochs = epochs
        self.bar = Progress(TextColumn("[bold]epoch {task.fields[epoch]}/{task.fields[of]}"),
                            BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                            console=console, transient=True)
        self.task: Any = None

    def __enter__(self) -> EpochProgress:
        self.bar.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.bar.stop()

    def update(self, event: Any) -> None:
        """Take a :class:`~medvqa.train._classifier.TrainEvent`."""
        if event.kind == "start":
            if event.resumed_from:
                self.console.print(f"resuming from epoch {event.resumed_from}")
            self.task = self.bar.add_task("train", total=event.steps, epoch=event.epoch + 1,
                                          of=self.epochs)
        elif event.kind == "step" and self.task is not None:
            self.bar.update(self.task, completed=event.step, epoch=event.epoch)
        elif event.kind == "epoch" and event.row is not None:
            r = event.row
            self.console.print(f"epoch {r.epoch}: train loss {r.train_loss:.4f} · val loss "
                               f"{r.val_loss:.4f} · val accuracy {r.val_accuracy:.3f} · "
                               f"{r.images_per_s:.0f} images/s")
            if self.task is not None:
                self.bar.update(self.task, completed=0, epoch=r.epoch + 1)


class StepProgress:
    """One bar over optimisation steps, with the running loss."""

    def __init__(self, console: Console):
        self.bar = Progress(TextColumn("[bold]{task.fields[name]}"), BarColumn(),
                            MofNCompleteColumn(), TextColumn("loss {task.fields[loss]}"),
                            TimeElapsedColumn(), console=console, transient=True)
        self.tasks: dict[str, Any] = {}

    def __enter__(self) -> StepProgress:
        self.bar.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.bar.stop()

    def update(self, name: str, step: int, total: int, loss: float) -> None:
        """One optimisation step of adapter ``name`` done."""
        if name not in self.tasks:
            self.tasks[name] = self.bar.add_task(name, total=total, name=name, loss="-")
        self.bar.update(self.tasks[name], completed=step, loss=f"{loss:.4f}")
