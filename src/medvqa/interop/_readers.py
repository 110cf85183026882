"""Readers of other tools' result files (see ``_predictions``): VLMEvalKit, lmms-eval, Inspect.

- VLMEvalKit writes ``{model}_{dataset}.xlsx`` (or ``.tsv`` / ``.csv``) at inference: the
  benchmark's rows plus a ``prediction`` column; evaluating it writes
  ``{model}_{dataset}_exact_matching_result.xlsx`` (``_{judge}_result`` with an LLM judge): the
  same rows plus its own verdict, ``hit``. Either file imports; the answers are the same, and
  ``hit`` becomes ``tool_scores.jsonl`` (what ``medvqa agreement`` compares). Given the
  predictions file, a result file beside it is read for ``hit``. Rows are keyed by medvqa's
  ``id`` column when the TSV came from ``medvqa export``, else by ``index``. Cells are read as
  text (a prediction ``None`` stays text).
- lmms-eval writes ``samples_{task}.jsonl`` with ``--log_samples``: one line per document with
  ``doc_id`` (position in the split), ``filtered_resps`` / ``resps``, ``target``, ``arguments``
  (the prompt first; the task and split last) and, in recent versions, ``doc``; keyed by
  ``doc.id`` when present, else by position (``#doc_id``), with the split, target and prompt
  kept so the import can tell which split the positions count in.
- Inspect AI writes ``.eval`` (zip) or ``.json`` logs; read with ``inspect_ai.log.read_eval_log``
  when inspect_ai is installed (``.json`` also without it). Samples are keyed by their ``id``
  (medvqa's task sets it to the item id); the answer is ``output.completion``, an errored sample
  an error.
"""

from __future__ import annotations

import csv
import glob
import io
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from medvqa._optional import optional_import
from medvqa._path_guard import read_utf8
from medvqa._registry import Entry, Registry
from medvqa.errors import BadInputError
from medvqa.interop._exporters import LMMS_EVAL_SPLIT
from medvqa.interop._imported import Imported, ImportedFile
from medvqa.schema import NESTED_TOO_DEEPLY


def _cell(value: Any) -> str:
    """A spreadsheet cell as text: None → "", 3.0 → "3" (an index written as a float)."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _table(path: Path) -> tuple[list[str], list[list[str]]]:
    """Header and rows of an xlsx (openpyxl), TSV or CSV file, every cell as written (text)."""
    suffix = path.suffix.lower()
    if suffix in {".xlsx", ".xlsm"}:
        openpyxl = optional_import("openpyxl")
        try:
            book = openpyxl.load_workbook(path, read_only=True, data_only=True)
        except Exception as exc:  # noqa: BLE001 - openpyxl raises many types for a bad file
            raise BadInputError(f"{path}: not an xlsx workbook: {exc}") from None
        rows = [[_cell(v) for v in row] for row in book.worksheets[0].iter_rows(values_only=True)]
        book.close()
    else:
        csv.field_size_limit(1 << 30)  # base64 image cells exceed the 128 KiB default
        rows = list(csv.reader(io.StringIO(read_utf8(path), newline=""),
                               delimiter="\t" if suffix == ".tsv" else ","))
    if not rows:
        raise BadInputError(f"{path}: empty file")
    return rows[0], rows[1:]


def read_vlmevalkit(path: Path) -> ImportedFile:
    """Answers of a VLMEvalKit result file (xlsx, tsv or csv with a ``prediction`` column)."""
    header, rows = _table(path)
    if "prediction" not in header:
        raise BadInputError(f"{path}: not a VLMEvalKit result file: no prediction column "
                            f"(found: {', '.join(header[:12])})")
    key = "id" if "id" in header else "index"
    if key not in header:
        raise BadInputError(f"{path}: no id or index column to match items by")
    at = {name: k for k, name in enumerate(header)}

    def get(row: list[str], name: str) -> str:
        k = at.get(name)
        return row[k] if k is not None and k < len(row) else ""

    notes: list[str] = []
    hits = {get(r, key): get(r, "hit") for r in rows} if "hit" in header else None
    if hits is None:
        hits, result = _vlmevalkit_hits(path, key)
        notes.append(f"VLMEvalKit's own verdicts (hit) read from {result.name}" if result else
                     f"{path.name} has no VLMEvalKit verdicts (hit), so `medvqa agreement` "
                     "will have nothing to compare: VLMEvalKit writes them to "
                     f"{path.stem}_exact_matching_result{path.suffix} when it evaluates this "
                     "file; import that file instead, or put it beside this one")
    answers = [Imported(get(r, key), get(r, "prediction"),
                        tool_correct=_verdict(hits.get(get(r, key), "")))
               for r in rows if any(r)]
    # VLMEvalKit names the file {model}_{dataset}; both may contain "_", so keep the stem whole.
    stem = path.stem.removesuffix("_exact_matching_result")
    return ImportedFile(answers, model=f"vlmevalkit:{stem}", notes=notes)


def _vlmevalkit_hits(path: Path, key: str) -> tuple[dict[str, str], Path | None]:
    """VLMEvalKit's verdicts for a predictions file, from its evaluation result beside it.

    ``{stem}_exact_matching_result.*`` is preferred (VLMEvalKit's rule-based matching), then
    any ``{stem}_{judge}_result.*``. Empty when there is none.
    """
    found = [f for f in sorted(path.parent.glob(f"{glob.escape(path.stem)}_*_result.*"))
             if f.suffix.lower() in {".xlsx", ".xlsm", ".tsv", ".csv"}]
    found.sort(key=lambda f: "_exact_matching_result" not in f.name)
    for result in found:
        header, rows = _table(result)
        if "hit" in header and key in header:
            at = {name: k for k, name in enumerate(header)}
            return {r[at[key]]: r[at["hit"]] for r in rows
                    if len(r) > max(at[key], at["hit"])}, result
    return {}, None


def _verdict(value: Any) -> bool | None:
    """A tool's per-item score as right/wrong (``C``/``I``, 1/0, true/false); None if absent."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return value >= 1
    text = str(value).strip().upper()
    if text in {"C", "1", "1.0", "TRUE", "CORRECT"}:
        return True
    if text in {"I", "0", "0.0", "FALSE", "INCORRECT"}:
        return False
    return None


def _lmms_text(rec: dict[str, Any]) -> str | None:
    for key in ("filtered_resps", "resps"):
        value = rec.get(key)
        while isinstance(value, list) and value:
            value = value[0]
        if isinstance(value, str):
            return value
    return None


def _lmms_arguments(args: Any) -> tuple[str | None, str]:
    """The prompt and the split in a sample's logged request ``arguments``.

    lmms-eval logs the JSON-able request arguments of a ``generate_until`` document:
    ``[prompt, generation_kwargs, doc_id, task, split]`` (older logs nest them one level
    deeper, one list per request).
    """
    while isinstance(args, list) and args and isinstance(args[0], list):
        args = args[0]
    if not isinstance(args, list) or not args:
        return None, ""
    prompt = args[0] if isinstance(args[0], str) else None
    tail = [a for a in args[1:] if isinstance(a, str)]
    return prompt, tail[-1] if len(tail) >= 2 else ""


def read_lmms_eval(path: Path) -> ImportedFile:
    """Answers of an lmms-eval ``samples_*.jsonl`` log (``--log_samples``)."""
    answers: list[Imported] = []
    with io.StringIO(read_utf8(path)) as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except ValueError as exc:
                raise BadInputError(f"{path}:{lineno}: not JSON: {exc}") from None
            except RecursionError:  # a line of thousands of nested brackets
                raise BadInputError(f"{path}:{lineno}: not JSON: {NESTED_TOO_DEEPLY}") from None
            if not isinstance(rec, dict) or "doc_id" not in rec:
                raise BadInputError(f"{path}:{lineno}: not an lmms-eval sample (no doc_id)")
            raw = rec.get("doc")
            doc: dict[str, Any] = raw if isinstance(raw, dict) else {}
            key = str(doc["id"]) if doc.get("id") else f"#{rec['doc_id']}"
            text = _lmms_text(rec)
            metric = next((rec[m] for m in ("accuracy", "exact_match") if m in rec), None)
            prompt, split = _lmms_arguments(rec.get("arguments"))
            target = rec.get("target")
            answers.append(Imported(
                key, text, None if text is not None else "no response",
                tool_correct=_verdict(metric) if metric is not None else None,
                split=str(doc.get("split") or split),
                target=target if isinstance(target, str) else None, prompt=prompt))
    # samples_{task}.jsonl, or {date}_samples_{task}.jsonl in recent versions.
    task = path.stem.split("samples_", 1)[-1].split("_20")[0]
    return ImportedFile(answers, model=f"lmms-eval:{task}")


def _inspect_samples(path: Path) -> tuple[list[Any], str, dict[str, object]]:
    try:
        from inspect_ai.log import read_eval_log
    except ImportError:
        have_reader = False
    else:
        have_reader = True
    if have_reader:
        try:
            log = read_eval_log(str(path))
        except Exception as exc:  # noqa: BLE001 - the reader raises many types for bad files
            raise BadInputError(f"{path}: not an Inspect log: {_one_line(exc)}") from None
        samples = [s.model_dump() for s in (log.samples or [])]
        cfg = log.eval.model_generate_config.model_dump(exclude_none=True)
        return samples, log.eval.model, cfg
    if path.suffix != ".json":
        raise BadInputError(f"{path}: reading .eval logs needs inspect_ai: "
                            "pip install 'medvqa[interop]'")
    try:
        data = json.loads(read_utf8(path))
    except ValueError as exc:
        raise BadInputError(f"{path}: not an Inspect JSON log: {exc}") from None
    except RecursionError:
        raise BadInputError(f"{path}: not an Inspect JSON log: {NESTED_TOO_DEEPLY}") from None
    if not isinstance(data, dict) or not isinstance(data.get("eval", {}), dict):
        raise BadInputError(f"{path}: not an Inspect JSON log (expected an object with "
                            "'eval' and 'samples')")
    return data.get("samples") or [], str(data.get("eval", {}).get("model", "")), {}


def _one_line(exc: Exception) -> str:
    r"""A third-party reader's error in one line (pydantic's run over several).

    >>> _one_line(ValueError("1 validation error for EvalLog\n  Input should be a dict\n  see"))
    '1 validation error for EvalLog: Input should be a dict'
    """
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return ": ".join(lines[:2]) or type(exc).__name__


def read_inspect(path: Path) -> ImportedFile:
    """Answers of an Inspect AI log (``.eval`` or ``.json``)."""
    samples, model, params = _inspect_samples(path)
    answers = []
    for s in samples:
        err = s.get("error")
        message = (err.get("message") if isinstance(err, dict) else str(err)) if err else None
        text = (s.get("output") or {}).get("completion")
        if not message and text is None:
            message = "no output"
        scores = s.get("scores") or {}
        first = next(iter(scores.values()), None)
        verdict = _verdict(first.get("value")) if isinstance(first, dict) else None
        # Later epochs repeat an item: write_run keeps the first and reports the others.
        answers.append(Imported(str(s.get("id")), text, message, tool_correct=verdict))
    return ImportedFile(answers, model=f"inspect:{model}", params=params)


@dataclass(frozen=True)
class PredictionFormat(Entry):
    """A reader's row.

    Attributes:
        default_split: the split a log that numbers documents was run on, unless told
            ("" = none assumed).
    """

    default_split: str = ""


_R = "medvqa.interop._readers"

#: Other tools' result files that ``medvqa import-predictions FORMAT`` reads.
READERS: Registry[Callable[[Path], ImportedFile]] = Registry("prediction format", {
    "vlmevalkit": PredictionFormat(f"{_R}:read_vlmevalkit", "VLMEvalKit's predictions "
                                   ".xlsx/.tsv, or its *_exact_matching_result.xlsx"),
    "lmms-eval": PredictionFormat(f"{_R}:read_lmms_eval", "lmms-eval's samples_*.jsonl "
                                  "(--log_samples)", default_split=LMMS_EVAL_SPLIT),
    "inspect": PredictionFormat(f"{_R}:read_inspect", "an Inspect AI log (.eval or .json)"),
})
