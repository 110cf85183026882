"""Who, what, how — first: each benchmark's one-sentence summary and its methods table.

A reviewer reads a leaderboard only after knowing what was run: which model spec, on which
split, read by which parser, with which prompt (name and hash), when, by which medvqa (version
and commit) on which machine. The methods paragraph at the end explains the statistics; this
table, above each leaderboard, says what the figures are of.
"""

from __future__ import annotations

import functools
import hashlib
import json
from typing import Any

from medvqa.report._loaded import LoadedRun

__all__ = ["METHODS_COLUMNS", "methods_rows", "prompt_text", "summary_sentence"]

#: (key, header) of the methods table, in order.
METHODS_COLUMNS = (("model", "Model"), ("spec", "Spec"), ("split", "Split"),
                   ("parser", "Parser style"), ("prompt", "Prompt (name, SHA-256)"),
                   ("date", "Date"), ("version", "medvqa (commit)"), ("hardware", "Hardware"))


@functools.lru_cache(maxsize=64)
def prompt_text(name: str) -> str:
    """'default (3f2a…)': the template's name and the first 12 hex digits of its hash.

    The hash is of the template as this medvqa has it (the name is what run.json records); a
    template not found here is named alone.
    """
    from medvqa.benchmark import load_template

    try:
        t = load_template(name)
    except (OSError, ValueError, LookupError):
        return f"{name} (not found here)"
    body = json.dumps({"option_format": t.option_format, "option_separator": t.option_separator,
                       "templates": t.templates}, sort_keys=True, ensure_ascii=False)
    return f"{name} v{t.version} ({hashlib.sha256(body.encode()).hexdigest()[:12]})"


def _split(run: LoadedRun) -> str:
    chosen = (run.info.selection or {}).get("split") if run.info else None
    if chosen:
        return str(chosen)
    found = sorted({s for c in run.metrics.conditions.values() for s in c.by.get("split", {})})
    return f"every split ({', '.join(found)})" if len(found) > 1 else (found[0] if found else "–")


def methods_rows(runs: list[LoadedRun]) -> list[dict[str, str]]:
    """One row per run: its model as the tables name it, and what it is and how it was run."""
    rows = []
    for r in runs:
        info = r.info
        env = (info.environment if info else {}) or {}
        commit = env.get("commit", "")[:12]
        device = (info.model_info.get("device") if info else None) or ""
        rows.append({
            "model": r.label, "spec": r.spec, "split": _split(r), "parser": r.metrics.style,
            "prompt": prompt_text(info.prompt_template) if info else "–",
            "date": (info.started_at[:10] if info and info.started_at else "–"),
            "version": (info.tool_version if info else "–")
            + (f" ({commit})" if commit else " (commit not recorded)"),
            "hardware": ", ".join(x for x in (env.get("hardware", ""), str(device)) if x)
            or "not recorded",
        })
    return rows


def summary_sentence(name: str, models: int, split: str, head: dict[str, Any] | None,
                     common_note: str) -> str:
    """One sentence a reader can stop after: what was compared and what the headline found."""
    where = f"{name}" + (f" (split {split})" if split else "")
    if head is None:
        return f"{where}: {models} model(s), none with a clean condition scored."
    verdict = head["verdict"] if head["verdict"] != "–" else "no image control was run"
    text = (f"On {where}, {models} model(s) were compared; the most accurate, {head['model']}, "
            f"scored {head['accuracy']} on {head['n']} items against chance {head['random']} "
            f"and the most frequent answer {head['frequent']} ({head['baselines']}); image "
            f"control: {verdict}.")
    if head.get("too_small"):
        text += " The sample is too small to compare models."
    if common_note.startswith("Ranked on"):
        text += " " + common_note.split(";", 1)[0].replace("Ranked on", "Models are ranked on") \
            + ")."
    return text
