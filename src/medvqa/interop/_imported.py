"""What a reader of another tool's result file returns: answers keyed by item, unscored.

A light module (dataclasses only): the readers' table is read for help texts at start-up.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from medvqa.schema import CLEAN


@dataclass(frozen=True)
class Imported:
    """One answer from another tool: its key (item id, or ``#N`` = N-th item), text, error.

    A positional key (``#N``) is the N-th item of the split the tool ran on; what the tool
    logged beside it lets the import check which split that was, instead of trusting a default:
    ``split`` (the split the tool names, e.g. lmms-eval's request arguments), ``target`` (the
    gold answer as the tool's task wrote it) and ``prompt`` (the text the model was sent).
    """

    key: str
    response: str | None
    error: str | None = None
    condition: str = CLEAN
    tool_correct: bool | None = None
    split: str = ""
    target: str | None = None
    prompt: str | None = None


@dataclass
class ImportedFile:
    """What a reader found in a result file.

    ``notes`` are lines for the user: where the tool's own verdicts came from, or why there
    are none.
    """

    answers: list[Imported]
    model: str = ""
    params: dict[str, object] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
