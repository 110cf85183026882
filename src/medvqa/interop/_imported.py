"""What a reader of another tool's result file returns: answers keyed by item, unscored.

A light module (dataclasses only): the readers' table is read for help texts at start-up.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from medvqa.schema import CLEAN


@dataclass(frozen=True)
class Imported:
    """One answer from another tool: its key (item id, or ``#N`` = N-th item), text, error."""

    key: str
    response: str | None
    error: str | None = None
    condition: str = CLEAN
    tool_correct: bool | None = None


@dataclass
class ImportedFile:
    """What a reader found in a result file."""

    answers: list[Imported]
    model: str = ""
    params: dict[str, object] = field(default_factory=dict)
