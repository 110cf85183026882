"""``medvqa import-predictions FORMAT FILE``: another tool's result file → RUN/."""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from medvqa.errors import BadInputError
from medvqa.interop._readers import READERS
from medvqa.schema import CLEAN

if TYPE_CHECKING:
    from medvqa.interop._predictions import ImportResult


@dataclass(frozen=True)
class PredictionsImport:
    """One ``medvqa import-predictions``.

    Attributes:
        format: a row of :data:`~medvqa.interop._readers.READERS`.
        source: the tool's result file.
        bench: the BENCH/ the tool was run on.
        out: the RUN/ folder to write.
        condition: the condition the tool's run was under (checked by the caller against the
            condition table, which lies above this room).
        split: the split the tool ran on, for logs that number documents instead of naming
            items ("" = the split the log names, or the one its targets and prompts fit, or
            the format's ``default_split``: lmms-eval's test, as medvqa exports it); checked
            against the log either way.
    """

    format: str
    source: Path
    bench: Path
    out: Path
    _: KW_ONLY
    condition: str = CLEAN
    split: str = ""


def import_predictions(config: PredictionsImport) -> ImportResult:
    """Read ``config.source`` with its format's reader and write it as a RUN/.

    Raises:
        medvqa._registry.UnknownNameError: an unknown format.
        BadInputError: the file does not exist, or nothing in it matches an item.
    """
    from medvqa.interop._predictions import write_run

    reader = READERS.get(config.format)
    row = READERS.row(config.format)
    if not config.source.is_file():
        raise BadInputError(f"{config.source}: not found")
    default = getattr(row, "default_split", "") or None
    return write_run(config.bench, config.out, reader(config.source), config.format,
                     config.source, config.split or None, config.condition, default)
