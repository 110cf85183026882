"""``medvqa score`` and ``medvqa compare``: the command line over :mod:`medvqa.score`.

The printing (``medvqa.report``'s console renderer) happens here, in the CLI layer;
:mod:`medvqa.score` itself never imports the report.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from medvqa.cli._console import print_skipped
from medvqa.cli._help import default_of, names_help
from medvqa.models import LLMSettings
from medvqa.reading import STYLES
from medvqa.schema import CLEAN
from medvqa.score import JudgeConfig, ScoreConfig


def _d(name: str) -> Any:
    """The default of a ScoreConfig field."""
    return default_of(ScoreConfig, name)


_AGE_BANDS = ",".join(f"{edge:g}" for edge in _d("age_bands"))


def score_command(
    bench: Path = typer.Argument(..., help="The BENCH/ folder."),
    run: Path = typer.Argument(..., help="The RUN/ folder."),
    style: str = typer.Option(_d("style"), "--style", help=names_help(STYLES)),
    by: str = typer.Option(",".join(_d("by")), "--by",
                           help="Breakdowns, comma-separated: category, source, split, "
                           "question_type or meta.KEY."),
    seed: int = typer.Option(_d("seed"), "--seed",
                             help="Seed of the bootstrap intervals and permutation tests."),
    parser_seed: int = typer.Option(_d("parser_seed"), "--parser-seed",
                                    help="Seed of a seeded style's fallback (pathmmu's random "
                                    "option, as the published scorer)."),
    resamples: int = typer.Option(_d("resamples"), "--resamples", help="Bootstrap resamples."),
    no_cluster: bool = typer.Option(
        not _d("cluster"), "--no-cluster", help="Resample items, not cases."),
    age_bands: str = typer.Option(_AGE_BANDS,
                                  "--age-bands", help="Age band edges, years."),
    judge: str | None = typer.Option(
        None, "--judge", help="Model spec of an LLM judge that sorts the failures the rules "
        "cannot place into LMOD E1–E6 and MIRA categories (smollm2, hf:…, openai:…@URL, "
        "anthropic:…); cached in RUN/cache.sqlite."),
    judge_max_items: int | None = typer.Option(
        None, "--judge-max-items", min=0, help="Ask the judge about at most N failures "
        "(round-robin over conditions)."),
    judge_images: bool = typer.Option(
        default_of(JudgeConfig, "images"), "--judge-images",
        help="Send the item's images to a judge that reads images."),
    judge_prompt: Path | None = typer.Option(
        None, "--judge-prompt", help="Judge prompt YAML (default: the shipped one)."),
    judge_concurrency: int = typer.Option(
        default_of(LLMSettings, "concurrency"), "--judge-concurrency", min=1,
                                          help="Judge requests in flight."),
    extract: str | None = typer.Option(
        None, "--extract", help="Model spec of an answer extractor asked only about the "
        "responses the rules abstain on for want of a reading (never a refusal, hedge or "
        "negation); its reply is constrained to a letter, letters or NONE and never overrides "
        "a rule (smollm2, hf:…, openai:…@URL, anthropic:…); cached in RUN/cache.sqlite, every "
        "decision in RUN/extractions.jsonl."),
    extract_max_items: int | None = typer.Option(
        None, "--extract-max-items", min=0, help="Ask the extractor about at most N responses."),
    extract_prompt: Path | None = typer.Option(
        None, "--extract-prompt", help="Extractor prompt YAML (default: the shipped one)."),
    extract_concurrency: int = typer.Option(
        default_of(LLMSettings, "concurrency"), "--extract-concurrency", min=1,
                                            help="Extractor requests in flight."),
    styles: str | None = typer.Option(
        None, "--styles", help="Styles, comma-separated: the first scores, the others are set "
        "beside it (accuracy, invalid rate, predictions read differently: "
        "RUN/style_disagreements.jsonl), e.g. strict,mammovqa."),
    api_key_env: str = typer.Option(
        default_of(LLMSettings, "api_key_env"), "--api-key-env",
        help="Environment variable with the judge's and the extractor's API key (default: "
        "OPENAI_API_KEY for openai:, ANTHROPIC_API_KEY for anthropic:)."),
    adjudication: str | None = typer.Option(
        None, "--adjudication", help="Human readings from the review app: its database "
        "(BENCH.review.sqlite, or a postgresql:// URL) or a file of `medvqa review "
        "export-adjudication`; they replace the automatic reading where they exist (read_by: "
        "human:NAME), and the run's audit sample gives the reader's error and a "
        "prediction-powered accuracy (metrics.json reading.audit)."),
    allow_other_benchmark: bool = typer.Option(
        _d("allow_other_benchmark"), "--allow-other-benchmark",
        help="Score a run made for another version of the benchmark (items_sha256 differs); "
        "recorded in metrics.json."),
) -> None:
    """Parse responses and write RUN/metrics.json with 95 % bootstrap CIs.

    Example: medvqa score bench/idrid runs/idrid-random --style strict --by category,split

    Example: medvqa score bench/idrid runs/qwen --judge openai:qwen2.5-7b@http://127.0.0.1:8000/v1

    Example: medvqa score bench/mammo runs/qwen --extract smollm2 --styles strict,mammovqa
    """
    from rich.console import Console

    from medvqa.cli._review_audit import load_adjudication
    from medvqa.errors import UsageError
    from medvqa.reading import ExtractConfig
    from medvqa.report import print_metrics
    from medvqa.score import missing_lines, score_run
    from medvqa.store import write_errors_are_bad_input

    judge_config = None if judge is None else JudgeConfig.for_model(
        judge, api_key_env=api_key_env, concurrency=judge_concurrency,
        max_items=judge_max_items, images=judge_images, prompt_path=judge_prompt)
    try:
        edges = tuple(float(x) for x in age_bands.split(","))
    except ValueError:
        raise UsageError(f"--age-bands {age_bands!r}: numbers separated by commas") from None
    compared: tuple[str, ...] = ()
    if styles is not None:
        named = [s.strip() for s in styles.split(",") if s.strip()]
        if not named:
            raise UsageError("--styles: name at least one style, e.g. strict,mammovqa")
        if style != _d("style") and style != named[0]:
            raise UsageError(f"--style {style} and --styles {styles}: the first of --styles is "
                             "the scoring style; give one or the other")
        style, compared = named[0], tuple(dict.fromkeys(named[1:]))
    extract_config = None if extract is None else ExtractConfig.for_model(
        extract, api_key_env=api_key_env, concurrency=extract_concurrency,
        max_items=extract_max_items, prompt_path=extract_prompt)
    found, source = (None, "") if adjudication is None else load_adjudication(adjudication,
                                                                                 bench)
    config = ScoreConfig(
        bench, run, style=style, by=tuple(b for b in by.split(",") if b), seed=seed,
        resamples=resamples, cluster=not no_cluster, age_bands=edges, judge=judge_config,
        allow_other_benchmark=allow_other_benchmark, parser_seed=parser_seed,
        extract=extract_config, compare_styles=compared, adjudication=found,
        adjudication_source=source)
    with write_errors_are_bad_input(config.run_dir, "predictions.jsonl and metrics.json are each "
                                "whole (as before, or fully rewritten)"):
        result = score_run(config)
    err = Console(stderr=True)
    print_skipped(result.problems, err)
    # Breakdowns asked for by name are printed; the default ones are named (metrics.json).
    print_metrics(Console(), result.metrics, run,
                  config.by if config.by != tuple(_d("by")) else ())
    if result.metrics.failure_judge is not None:
        _print_judge(Console(), result.metrics.failure_modes or {})
    if result.problems:
        err.print(f"skipped {result.metrics.skipped} line(s); the rest was scored", soft_wrap=True)
    from rich.markup import escape

    for note in result.notes:
        err.print(f"[yellow]note[/yellow] {escape(note)}", highlight=False, soft_wrap=True)

    ad = result.metrics.adaptive
    if ad is not None and ad.get("accuracy") is not None:
        Console(highlight=False).print(escape(
            f"adaptive estimate of the accuracy on all {ad['items_total']} items: "
            f"{ad['accuracy']:.3f} (95 % CI {ad['ci'][0]:.3f}–{ad['ci'][1]:.3f}) from "
            f"{ad['asked']} items asked (the table's accuracy is of the asked items only, "
            "chosen for being informative)"), soft_wrap=True)
    for line in missing_lines(result.metrics.coverage or {}):
        err.print(f"[yellow]missing[/yellow] {escape(line)}", highlight=False, soft_wrap=True)


def _print_judge(console: Console, modes: dict[str, dict[str, object]]) -> None:
    """One line per condition: what the judge was asked and the labels it gave."""
    for cond, block in modes.items():
        j = block.get("judge")
        if not isinstance(j, dict) or not j["candidates"]:
            continue
        labels = ", ".join(f"{k} {n}" for k, n in {
            **{f"lmod:{t}": n for t, n in j["lmod"].items()},
            **{f"mira:{t}": n for t, n in j["mira"].items()}}.items() if n)
        console.print(
            f"judge {j['model']} on {cond}: asked {j['asked']} of {j['candidates']}, "
            f"errors {j['errors']}; {labels or 'no labels'}", highlight=False, soft_wrap=True)


def _shown(run: Path) -> str:
    """'random (runs/idrid-random)': the run's display name and its folder, told apart."""
    from medvqa.report import load_run

    name = load_run(Path(run)).display
    return name if name == Path(run).name else f"{name} ({run})"


def compare_command(
    run_a: Path = typer.Argument(..., help="First scored RUN/."),
    run_b: Path = typer.Argument(None, help="Second scored RUN/ (default: the same run)."),
    condition: str = typer.Option(CLEAN, "--condition", help="Condition of run A."),
    vs_condition: str = typer.Option(CLEAN, "--vs-condition", help="Condition of run B."),
    bench: Path = typer.Option(None, "--bench", help="BENCH/ for case-clustered resampling."),
    no_cluster: bool = typer.Option(
        False, "--no-cluster", help="Compare items even if the runs were scored case-clustered "
        "(without --bench such runs are refused otherwise)."),
    seed: int = typer.Option(_d("seed"), "--seed", help="Bootstrap seed."),
    resamples: int = typer.Option(_d("resamples"), "--resamples", help="Bootstrap resamples."),
    out: Path = typer.Option(None, "--out", "-o", help="Also write the comparison as JSON."),
) -> None:
    """Paired comparison: accuracy difference with a paired bootstrap CI and a paired test.

    McNemar's exact test on items, or the exact cluster sign-flip test when --bench shows that
    cases repeat; a run scored case-clustered needs --bench (or --no-cluster).

    Example: medvqa compare runs/smollm2 --condition clean --vs-condition blind
    """
    import json
    from dataclasses import asdict

    from rich.console import Console

    from medvqa.report import fitted_table, say
    from medvqa.score import compare_runs, require_fresh_run
    from medvqa.store import atomic_write_text

    for r in dict.fromkeys([run_a, run_b or run_a]):
        require_fresh_run(r)
    result = compare_runs(run_a, run_b or run_a, condition, vs_condition, bench, resamples, seed,
                          cluster=not no_cluster)
    console = Console()
    rows = [[which, _shown(path), cond, str(result.n), f"{acc:.3f}"]
            for which, path, cond, acc in (("A", run_a, condition, result.accuracy_a),
                                          ("B", run_b or run_a, vs_condition,
                                           result.accuracy_b))]
    console.print(fitted_table("paired comparison", ["", "run", "condition", "n", "accuracy"],
                               rows, names=(1, 2), width=console.width))
    say(console, f"A − B {result.difference:+.3f} [{result.ci[0]:+.3f}, {result.ci[1]:+.3f}] "
        f"(95 % CI), p {result.p_value:.4g} ({result.test}), on {result.n} paired items")
    say(console, "resampled " + ("cases" if result.clustered else "items"))
    if out:
        atomic_write_text(out, json.dumps(asdict(result) | {"excludes_zero": result.excludes_zero},
                                          indent=2) + "\n")
