"""Other tools' formats, each a row of its table: meet users where their data and results are.

- :data:`IMPORTERS`: published benchmarks → BENCH/ (VQA-RAD, SLAKE, PathVQA, PMC-VQA,
  OmniMedVQA, PathMMU, MammoVQA, VLMEvalKit TSVs, any table); each is also a recipe type, and
  :data:`IMPORT_FORMATS` are those ``medvqa import FORMAT SOURCE`` reads from a download.
- :data:`EXPORTERS`: a BENCH/ → VLMEvalKit TSVs, Hugging Face Parquet, an lmms-eval task;
  :func:`write_card`: a Hugging Face dataset card (README.md) for any BENCH/, with the
  integrity audit's summary (``medvqa card``; the Parquet export writes it too).
- :data:`READERS`: VLMEvalKit, lmms-eval and Inspect result files → RUN/ (:func:`write_run`,
  ``medvqa import-predictions``); :func:`agreement`: where medvqa's parser and the tool's
  disagree on the same responses.
- ``medvqa.interop.inspect``: an Inspect AI ``Task`` over a BENCH/ (needs inspect_ai, so it is
  imported on its own, never from here).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from medvqa._lazy import lazy_exports

if TYPE_CHECKING:
    from medvqa.interop._agreement import Agreement, Disagreement, agreement
    from medvqa.interop._card import CardConfig, card_text, write_card
    from medvqa.interop._citations import citation_for
    from medvqa.interop._export_lmms_eval import LmmsExport, export_lmms_eval
    from medvqa.interop._export_parquet import ParquetExport, export_parquet
    from medvqa.interop._export_vlmevalkit import VlmExport, export_vlmevalkit
    from medvqa.interop._exporters import (
        EXPORTERS,
        LMMS_EVAL_SPLIT,
        ExportConfig,
        ExportSummary,
        export_benchmark,
    )
    from medvqa.interop._import_formats import hub_dataset, import_recipe
    from medvqa.interop._import_predictions import PredictionsImport, import_predictions
    from medvqa.interop._imported import Imported, ImportedFile
    from medvqa.interop._importers import IMPORT_FORMATS, IMPORTERS, ImportFormat, import_format
    from medvqa.interop._predictions import ImportResult, write_run
    from medvqa.interop._readers import READERS, read_inspect, read_lmms_eval, read_vlmevalkit

_WHERE: dict[str, str] = {
    "Agreement": "_agreement",
    "Disagreement": "_agreement",
    "agreement": "_agreement",
    "CardConfig": "_card",
    "card_text": "_card",
    "write_card": "_card",
    "citation_for": "_citations",
    "LmmsExport": "_export_lmms_eval",
    "export_lmms_eval": "_export_lmms_eval",
    "ParquetExport": "_export_parquet",
    "export_parquet": "_export_parquet",
    "VlmExport": "_export_vlmevalkit",
    "export_vlmevalkit": "_export_vlmevalkit",
    "EXPORTERS": "_exporters",
    "LMMS_EVAL_SPLIT": "_exporters",
    "ExportConfig": "_exporters",
    "ExportSummary": "_exporters",
    "export_benchmark": "_exporters",
    "hub_dataset": "_import_formats",
    "import_recipe": "_import_formats",
    "IMPORT_FORMATS": "_importers",
    "IMPORTERS": "_importers",
    "ImportFormat": "_importers",
    "import_format": "_importers",
    "PredictionsImport": "_import_predictions",
    "import_predictions": "_import_predictions",
    "Imported": "_imported",
    "ImportedFile": "_imported",
    "ImportResult": "_predictions",
    "write_run": "_predictions",
    "READERS": "_readers",
    "read_inspect": "_readers",
    "read_lmms_eval": "_readers",
    "read_vlmevalkit": "_readers",
}


__all__ = [
    "EXPORTERS",
    "IMPORTERS",
    "IMPORT_FORMATS",
    "LMMS_EVAL_SPLIT",
    "READERS",
    "Agreement",
    "CardConfig",
    "Disagreement",
    "ExportConfig",
    "ExportSummary",
    "ImportFormat",
    "ImportResult",
    "Imported",
    "ImportedFile",
    "LmmsExport",
    "ParquetExport",
    "PredictionsImport",
    "VlmExport",
    "agreement",
    "card_text",
    "citation_for",
    "export_benchmark",
    "export_lmms_eval",
    "export_parquet",
    "export_vlmevalkit",
    "hub_dataset",
    "import_format",
    "import_predictions",
    "import_recipe",
    "read_inspect",
    "read_lmms_eval",
    "read_vlmevalkit",
    "write_card",
    "write_run",
]


__getattr__, __dir__ = lazy_exports(__name__, _WHERE, globals())
