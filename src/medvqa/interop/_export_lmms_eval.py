"""Export a BENCH/ as an lmms-eval task folder: YAML + ``utils.py`` + prompts + Parquet data.

Layout of ``OUT/``:

- ``medvqa_<name>.yaml``: the task (``generate_until``; ``dataset_path: parquet`` with
  ``dataset_kwargs.data_files`` naming each split's file of ``OUT/dataset``, the Parquet export,
  relative to the YAML: lmms-eval's config loader anchors relative ``data_files`` of a local
  builder at the YAML's folder (``lmms_eval.utils._maybe_resolve_yaml_local_data_files``), so the
  folder can be moved or copied to another machine; ``datasets`` gives exactly medvqa's splits;
  the split evaluated is ``test_split``; metric ``accuracy``, mean);
- ``utils.py``: ``doc_to_visual``, ``doc_to_text``, ``doc_to_target``, ``process_results``
  (standalone: a copy of ``medvqa/interop/_lmms_utils.py``);
- ``prompts.json``: item id → medvqa's rendered prompt (the same text ``medvqa run`` sends);
- ``dataset/``: the Parquet export (``medvqa export --format parquet``).

Run with ``lmms-eval --include_path OUT --tasks medvqa_<name> --log_samples …`` and import the
``samples_*.jsonl`` it writes with ``medvqa import-predictions lmms-eval``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import yaml

from medvqa.benchmark import load_template, render_prompt
from medvqa.errors import BadInputError
from medvqa.interop._export_parquet import export_parquet
from medvqa.schema import BENCHMARK_FILE, ITEMS_FILE, Benchmark, Item, read_json, read_jsonl
from medvqa.store import atomic_write_text


@dataclass
class LmmsExport:
    """What an lmms-eval export wrote."""

    out: Path
    task: str
    yaml_path: Path
    split: str
    rows: dict[str, int]


def task_name(bench_name: str) -> str:
    """lmms-eval task name for a benchmark (``medvqa_`` + lower-case word characters).

    >>> task_name("VQA-RAD 1.0")
    'medvqa_vqa_rad_1_0'
    """
    return "medvqa_" + re.sub(r"[^a-z0-9]+", "_", bench_name.lower()).strip("_")


def export_lmms_eval(bench: Path, out: Path, split: str = "test", template: str = "default",
                     max_new_tokens: int = 64) -> LmmsExport:
    """Write the task folder for ``bench`` at ``out`` (see the module docstring).

    Raises:
        BadInputError: the benchmark has no item in ``split``.

    """
    bench, out = Path(bench), Path(out)
    card = read_json(bench / BENCHMARK_FILE, Benchmark)
    tmpl = load_template(template)
    prompts = {i.id: render_prompt(i, tmpl) for i in read_jsonl(bench / ITEMS_FILE, Item)}
    out.mkdir(parents=True, exist_ok=True)
    res = export_parquet(bench, out / "dataset")
    if split not in res.rows:
        raise BadInputError(f"{bench}: no items in split {split!r} (has {', '.join(res.rows)})")
    name = task_name(card.name)
    data_files = {s: f"dataset/data/{s}-00000-of-00001.parquet" for s in res.rows}
    missing = [f for f in data_files.values() if not (out / f).is_file()]
    if missing:  # the Parquet export's layout changed: the task would not load
        raise BadInputError(f"{out}: {missing[0]} was not written by the Parquet export")
    config = {
        "task": name,
        "dataset_path": "parquet",
        "dataset_kwargs": {"data_files": data_files},
        "test_split": split,
        "output_type": "generate_until",
        "doc_to_visual": "!function utils.doc_to_visual",
        "doc_to_text": "!function utils.doc_to_text",
        "doc_to_target": "!function utils.doc_to_target",
        "process_results": "!function utils.process_results",
        "generation_kwargs": {"max_new_tokens": max_new_tokens, "temperature": 0,
                              "do_sample": False},
        "metric_list": [{"metric": "accuracy", "aggregation": "mean",
                         "higher_is_better": True}],
        "metadata": {"version": card.version, "medvqa_items_sha256": card.items_sha256,
                     "prompt_template": template, "license": card.license},
    }
    text = yaml.safe_dump(config, sort_keys=False, allow_unicode=True)
    # lmms-eval's loader resolves `!function module.attr` tags; safe_dump would quote them.
    text = re.sub(r"'(!function [\w.]+)'", r"\1", text)
    yaml_path = out / f"{name}.yaml"
    atomic_write_text(yaml_path, text)
    atomic_write_text(out / "prompts.json", json.dumps(prompts, ensure_ascii=False, indent=0))
    utils = (resources.files("medvqa.interop") / "_lmms_utils.py").read_text("utf-8")
    atomic_write_text(out / "utils.py", utils)
    return LmmsExport(out, name, yaml_path, split, res.rows)
