"""What a metrics.json was computed from, and whether it still describes its run.

``medvqa score`` records, in metrics.json's ``provenance``, the identity of the run it scored
(run.json's model, parameters, prompt, seed, benchmark hash and start time) and the SHA-256 of
the predictions.jsonl it wrote. Anything that changes the run afterwards — ``run --force-new``
with another model, ``--retry-errors``, a resumed run, a hand edit — changes one of them, so
``medvqa report`` and ``medvqa compare`` can tell a stale metrics.json and refuse it, naming the
run and what changed, instead of showing old figures.

Scoring also checks that the run was made for the benchmark it is scored against (run.json's
``items_sha256`` against items.jsonl's bytes); a mismatch is refused unless the user passes
``--allow-other-benchmark``, which is recorded here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from medvqa.errors import BadInputError
from medvqa.schema import METRICS_FILE, PREDICTIONS_FILE, RUN_FILE, RunInfo, file_sha256, read_json

#: run.json fields that identify a run (counts, end time and errors change on every resume).
IDENTITY_FIELDS = ("model", "model_params", "prompt_template", "seed", "items_sha256",
                   "started_at")


class Provenance(BaseModel):
    """``metrics.json``'s ``provenance``: what the figures were computed from."""

    run: dict[str, Any] | None = Field(
        description="run.json's identity (model, model_params, prompt_template, seed, "
        "items_sha256, started_at); null when the run has no run.json.")
    predictions_sha256: str = Field(description="SHA-256 of predictions.jsonl as scored.")
    benchmark_items_sha256: str = Field(description="SHA-256 of the items.jsonl scored against.")
    benchmark_mismatch_allowed: bool = Field(
        default=False, description="True when --allow-other-benchmark scored a run made for "
        "another benchmark (run.items_sha256 differs from benchmark_items_sha256).")


def run_identity(info: RunInfo | None) -> dict[str, Any] | None:
    """The identifying fields of a run.json."""
    if info is None:
        return None
    return {k: getattr(info, k) for k in IDENTITY_FIELDS}


def check_benchmark(info: RunInfo | None, bench_sha: str, run_dir: Path, bench_dir: Path,
                    allow: bool) -> bool:
    """Whether the run was made for another benchmark; refused unless ``allow``.

    Raises:
        BadInputError: the hashes differ and ``allow`` is False (names both, and the flag).

    """
    if info is None or not info.items_sha256 or info.items_sha256 == bench_sha:
        return False
    if allow:
        return True
    raise BadInputError(
        f"{run_dir}: the run was made for another benchmark (run.json items_sha256 "
        f"{info.items_sha256[:12]}…, {bench_dir}/items.jsonl is {bench_sha[:12]}…); score it "
        "against the benchmark it was run on, or pass --allow-other-benchmark (recorded in "
        "metrics.json)"
    )


def stale_reason(run_dir: Path, provenance: dict[str, Any] | None) -> str | None:
    """Why a run's metrics.json no longer describes it, or None when it does."""
    if provenance is None:
        return "it records no provenance (scored by an older medvqa)"
    prov = Provenance.model_validate(provenance)
    info_path = Path(run_dir) / RUN_FILE
    info = read_json(info_path, RunInfo) if info_path.is_file() else None
    now = run_identity(info)
    if prov.run is not None and now is not None:
        changed = [k for k in IDENTITY_FIELDS if prov.run.get(k) != now.get(k)]
        if changed:
            return f"run.json changed since scoring ({', '.join(changed)})"
    pred = Path(run_dir) / PREDICTIONS_FILE
    if not pred.is_file():
        return f"{PREDICTIONS_FILE} is gone"
    if file_sha256(pred) != prov.predictions_sha256:
        return f"{PREDICTIONS_FILE} changed since scoring (a later run, --retry-errors or an edit)"
    return None


def require_fresh(run_dir: Path, provenance: dict[str, Any] | None) -> None:
    """Refuse a stale metrics.json (one line naming the run, what changed, and the fix).

    Raises:
        BadInputError: the metrics no longer describe the run.

    """
    why = stale_reason(run_dir, provenance)
    if why is not None:
        raise BadInputError(
            f"{Path(run_dir) / METRICS_FILE} is stale: {why}; refusing to use it. Score the "
            f"run again: medvqa score BENCH {run_dir}"
        )


def require_fresh_run(run_dir: Path) -> None:
    """:func:`require_fresh` for a RUN/ folder, reading its metrics.json's provenance.

    Raises:
        BadInputError: no metrics.json, an unreadable one, or a stale one.

    """
    import json

    path = Path(run_dir) / METRICS_FILE
    if not path.is_file():
        raise BadInputError(f"{run_dir}: no {METRICS_FILE} (run `medvqa score BENCH {run_dir}`)")
    try:
        data = json.loads(path.read_bytes().decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise BadInputError(f"{path}: not a readable metrics file ({exc})") from None
    provenance = data.get("provenance") if isinstance(data, dict) else None
    require_fresh(run_dir, provenance)
