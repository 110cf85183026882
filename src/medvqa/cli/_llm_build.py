"""CLI of the LLM-driven builders: ``medvqa build captions`` and ``medvqa build reports``.

Only argument parsing and rendering live here; the work is in ``medvqa.curate.llm``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console

from medvqa.cli._console import print_skipped

if TYPE_CHECKING:
    from medvqa.models import LLMSettings

captions_app = typer.Typer(add_completion=False)
reports_app = typer.Typer(add_completion=False)
_out = Console()
_err = Console(stderr=True)

_MODEL_HELP = "Model spec: smollm2 (default, local), hf:PATH, openai:MODEL@URL, random."

# Options both builders take, declared once.
_MODEL = typer.Option("smollm2", "--model", help=_MODEL_HELP)
_CACHE = typer.Option(None, "--cache", help="SQLite response cache (resumable).")
_BATCH_SIZE = typer.Option(8, "--batch-size", help="Prompts per forward pass (local models).")
_TRIES = typer.Option(2, "--tries", help="Attempts per generation when the reply is invalid.")
_CONSTRAIN = typer.Option(
    True, "--constrain/--no-constrain", help="JSON-schema constrained decoding."
)
_FORCE = typer.Option(False, "--force", help="Replace a benchmark already at -o (otherwise "
                      "refused: its audit, card and runs would no longer match).")
_LOCAL_ONLY = typer.Option(False, "--local-only", help="Refuse any non-loopback endpoint.")
_API_KEY_ENV = typer.Option(
    "", "--api-key-env",
    help="Variable holding the API key (default: the backend's, OPENAI_API_KEY or "
    "ANTHROPIC_API_KEY).",
)


def _settings(
    model: str,
    cache: Path | None,
    max_tokens: int,
    batch_size: int,
    tries: int,
    constrain: bool,
    local_only: bool,
    seed: int,
    api_key_env: str,
) -> LLMSettings:
    from medvqa.curate.llm import check_local
    from medvqa.models import LLMSettings

    if local_only:
        check_local(model)
    return LLMSettings(
        model=model,
        cache_path=cache,
        max_tokens=max_tokens,
        seed=seed,
        batch_size=batch_size,
        tries=tries,
        constrain=constrain,
        local_only=local_only,
        api_key_env=api_key_env,
    )


def _summary(out: Path, counts: dict[str, Any], problems: object) -> None:
    from medvqa.curate.llm import DROPPED_FILE, drop_lines, drop_summary
    from medvqa.schema import iter_json_lines

    print_skipped(problems, _err)  # type: ignore[arg-type]
    dropped = [r.value for r in iter_json_lines(out / DROPPED_FILE) if isinstance(r.value, dict)]
    for line in drop_lines(dropped):
        _out.print(line, highlight=False, soft_wrap=True, markup=False)
    flagged = counts.get("flagged_by_judges")
    marked = f"; {flagged} marked for review by the judges" if flagged else ""
    _out.print(
        f"wrote {out}: kept {counts.get('items')} of {counts.get('generated')} generated"
        f"{drop_summary(counts.get('dropped', {}))}{marked}; see dropped.jsonl, review.jsonl",
        highlight=False,
        soft_wrap=True,
    )


@captions_app.command()
def build_captions(
    captions: Path = typer.Argument(None, help="CSV/JSONL with id, caption [, image, case_id]."),
    out: Path | None = typer.Option(None, "-o", "--out", help="BENCH/ folder to write."),
    model: str = _MODEL,
    judges: str = typer.Option(
        "smollm2,smollm2", "--judges", help="Comma-separated judge model specs ('' = no judging)."
    ),
    min_judge_score: int = typer.Option(
        3, "--min-judge-score", help="Every judge, every criterion ≥ this (1-5)."
    ),
    judge_action: str = typer.Option(
        "drop", "--judge-action",
        help="Below --min-judge-score: drop the item, or keep it marked for review.",
    ),
    types: str = typer.Option("open,closed,single,multi", "--types", help="Question types."),
    keywords: str = typer.Option(
        "", "--keywords", help="Keyword list (mira_ir or YAML); '' = no filter."
    ),
    min_keywords: int = typer.Option(
        2, "--min-keywords", help="Keep captions with ≥ k distinct terms."
    ),
    sweep_file: Path | None = typer.Option(
        None, "--sweep", help="Labelled CSV: print P/R/F1 for k=1..5 and exit."
    ),
    fewshot: Path | None = typer.Option(
        None, "--fewshot", help="Gold examples YAML (default: shipped)."
    ),
    limit: int = typer.Option(0, "--limit", help="Use only the first N captions (0 = all)."),
    cache: Path | None = _CACHE,
    max_tokens: int = typer.Option(200, "--max-tokens", help="Generated tokens per reply."),
    batch_size: int = _BATCH_SIZE,
    tries: int = _TRIES,
    constrain: bool = _CONSTRAIN,
    local_only: bool = _LOCAL_ONLY,
    seed: int = typer.Option(0, "--seed", help="Seed."),
    name: str = typer.Option("captions", "--name", help="Benchmark name."),
    force: bool = _FORCE,
    api_key_env: str = _API_KEY_ENV,
) -> None:
    """Build QA items from image captions (MIRA): keyword filter → LLM questions → LLM judges.

    Example: medvqa build captions captions.csv -o bench/cap --keywords mira_ir --limit 20
    """
    from medvqa.curate.llm import CaptionsConfig, keyword_sweep
    from medvqa.curate.llm import build_captions as run
    from medvqa.errors import UsageError

    if sweep_file is not None:
        _out.print(f"{'k':>2} {'precision':>9} {'recall':>7} {'F1':>6}   tp fp fn tn")
        for r in keyword_sweep(keywords or "mira_ir", sweep_file):
            _out.print(
                f"{r.k:>2} {r.precision:9.3f} {r.recall:7.3f} {r.f1:6.3f}   "
                f"{r.tp} {r.fp} {r.fn} {r.tn}",
                highlight=False,
            )
        return
    if captions is None or out is None:
        raise UsageError("give a captions file and -o BENCH/ (or --sweep LABELLED.csv)")
    if judge_action not in {"drop", "review"}:
        raise UsageError(f"--judge-action {judge_action!r}: use drop or review")
    args = (cache, max_tokens, batch_size, tries, constrain, local_only, seed, api_key_env)
    judge_specs = [j.strip() for j in judges.split(",") if j.strip()]
    result = run(
        CaptionsConfig(
            captions=captions,
            out=out,
            generator=_settings(model, *args),
            judges=[
                _settings(j, cache, 48, batch_size, tries, constrain, local_only, seed, api_key_env)
                for j in judge_specs
            ],
            types=[t.strip() for t in types.split(",") if t.strip()],
            keywords=keywords or None,
            min_keywords=min_keywords,
            fewshot=fewshot,
            min_judge_score=min_judge_score,
            judge_action=judge_action,
            limit=limit,
            seed=seed,
            name=name,
            force=force,
        )
    )
    _summary(result.out, result.counts, result.problems)


@reports_app.command()
def build_reports(
    reports: Path = typer.Argument(..., help="JSONL/CSV with id, text (or a folder of .txt)."),
    out: Path | None = typer.Option(
        None, "-o", "--out", help="BENCH/ folder (or schema YAML with --induce-schema)."
    ),
    schema: str = typer.Option("", "--schema", help="lirads, lungrads, rano, or a schema YAML."),
    induce: bool = typer.Option(
        False, "--induce-schema", help="Propose a schema YAML from a sample and stop."
    ),
    sample: int = typer.Option(8, "--sample", help="Reports shown to the LLM for --induce-schema."),
    model: str = _MODEL,
    mcq: bool = typer.Option(True, "--mcq/--no-mcq", help="Also generate report-derived MCQs."),
    limit: int = typer.Option(0, "--limit", help="Use only the first N reports (0 = all)."),
    cache: Path | None = _CACHE,
    max_tokens: int = typer.Option(320, "--max-tokens", help="Generated tokens per reply."),
    batch_size: int = _BATCH_SIZE,
    tries: int = _TRIES,
    constrain: bool = _CONSTRAIN,
    local_only: bool = _LOCAL_ONLY,
    seed: int = typer.Option(0, "--seed", help="Seed of distractors and option order."),
    name: str = typer.Option("reports", "--name", help="Benchmark name."),
    force: bool = _FORCE,
    api_key_env: str = _API_KEY_ENV,
) -> None:
    """Build QA items from radiology reports: schema → grounded extraction → questions.

    Example: medvqa build reports reports.jsonl --schema lirads -o bench/liver --local-only
    """
    from medvqa.curate.llm import ReportsConfig, induce_schema, read_texts, write_schema
    from medvqa.curate.llm import build_reports as run
    from medvqa.errors import UsageError
    from medvqa.sources import Problems

    settings = _settings(
        model, cache, max_tokens, batch_size, tries, constrain, local_only, seed, api_key_env
    )
    if out is None:
        raise UsageError(
            "give the output with -o (BENCH/ folder, or YAML with --induce-schema)"
        )
    if induce:
        problems = Problems()
        induced = induce_schema(settings, read_texts(reports, "report", problems), sample, seed)
        write_schema(induced, out)
        _out.print(
            f"wrote {out}: {len(induced.fields)} proposed fields. Review and edit it, then run "
            f"medvqa build reports {reports} --schema {out} -o BENCH/",
            highlight=False,
            soft_wrap=True,
        )
        return
    if not schema:
        raise UsageError(
            "give --schema (lirads, lungrads, rano or a YAML) or --induce-schema"
        )
    result = run(
        ReportsConfig(
            reports=reports,
            out=out,
            schema=schema,
            generator=settings,
            mcq=mcq,
            seed=seed,
            limit=limit,
            name=name,
            force=force,
        )
    )
    _summary(result.out, result.counts, result.problems)
