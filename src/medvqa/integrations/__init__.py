"""Meet other tools where they are: lmms-eval task exports, an Inspect AI task, prediction imports.

- :func:`export_lmms_eval`: a BENCH/ as an lmms-eval task folder (YAML + ``utils.py`` + Parquet).
- ``medvqa.integrations.inspect``: an Inspect AI ``Task`` over a BENCH/ (needs inspect_ai, so it
  is imported on its own, never from here).
- :func:`write_run` with :data:`READERS`: VLMEvalKit, lmms-eval and Inspect result files → RUN/
  (``medvqa import-predictions``); :func:`agreement`: where medvqa's parser and the tool's
  disagree on the same responses (``medvqa agreement``).
"""

from __future__ import annotations

from medvqa.integrations._agreement import Agreement, Disagreement, agreement
from medvqa.integrations._lmms_eval import LmmsExport, export_lmms_eval
from medvqa.integrations._predictions import Imported, ImportedFile, ImportResult, write_run
from medvqa.integrations._readers import READERS, read_inspect, read_lmms_eval, read_vlmevalkit

__all__ = [
    "READERS",
    "Agreement",
    "Disagreement",
    "ImportResult",
    "Imported",
    "ImportedFile",
    "LmmsExport",
    "agreement",
    "export_lmms_eval",
    "read_inspect",
    "read_lmms_eval",
    "read_vlmevalkit",
    "write_run",
]
