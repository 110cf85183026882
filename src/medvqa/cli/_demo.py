"""``medvqa demo``: build, run, score and report on shipped real data with a real local model."""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from pathlib import Path

import typer
from rich.console import Console

from medvqa.demo import DEMO_PLAN, DemoRun, train_steps


def _model_slug(run: DemoRun) -> str:
    return run.model.replace(":", "_").replace("/", "_")


#: Captions and tries of the demo's caption build: SmolLM2-135M under constrained decoding needs
#: room (tokens) to close its JSON and a second try for a reply the validator refused, and enough
#: captions that some items pass the judge — so the review app has something to show.
DEMO_CAPTIONS, DEMO_TRIES, DEMO_CAPTION_TOKENS = 6, 2, 200
#: Zero-shot: shown the shipped (interventional radiology) example, SmolLM2 copied its question
#: onto 5 of 6 pathology captions (dropped as copied_example), so the demo shows it none.
#: Tried since (2026-12-03), and why the step still keeps none, so the demo says so instead:
#: a JSON-schema ``pattern`` holding the question to "What|Which|… ?" and options to three
#: characters or more costs lm-format-enforcer 2-3 s a token on a CPU (a 200-token reply takes
#: minutes), too slow for a demo; length bounds (options 3-80 characters, the question at most
#: 160) with a prompt asking for a question and answer texts gave options that repeat the
#: caption's first words (4 of 6, "repeated option text"), the question still the caption
#: pasted (1), a reply cut short (1). No rule dropped an item that was right.
NO_EXAMPLES = "# no gold examples: SmolLM2 copies a shown example verbatim\nexamples: []\n"
#: SmolLM2 as judge rates every SmolLM2 question relevance 1: the judge's threshold (the
#: default, 3) marks such items for the experts (`--judge-action review`) instead of dropping
#: them, so the experts see the judge's doubt and `medvqa review stats` can compare judge and
#: experts. Items that are not items (degenerate options, no question, an answer not in the
#: caption) never get that far: the structural checks drop them, and the demo says so.
JUDGE_MIN_SCORE = 3


def _captions_step(
    step: Callable[[str, list[str]], None], out: Path, data_root: Path, seed: int,
    console: Console,
) -> Path | None:
    """MIRA's caption → QA → judge path with SmolLM2 on real PathMMU explanations.

    SmolLM2-135M writes poor questions; the step shows the pipeline validating, counting and
    dropping them honestly (see bench/captions/dropped.jsonl). When none is kept, the demo
    says so and why, and shows no caption benchmark (None) instead of garbage.
    """
    import json

    mapping = data_root / CAPTIONS_SOURCE
    rows = [r for r in json.loads(mapping.read_text("utf-8"))["test_tiny"] if r.get("explanation")]
    src = out / "captions" / "socialpath_explanations.jsonl"
    src.parent.mkdir(parents=True, exist_ok=True)
    src.write_text("".join(json.dumps({"id": f"socialpath-{r['No']}", "caption": r["explanation"]})
                           + "\n" for r in rows[:DEMO_CAPTIONS]), "utf-8")
    fewshot = out / "captions" / "fewshot_none.yaml"
    fewshot.write_text(NO_EXAMPLES, "utf-8")
    bench = out / "bench" / "captions"
    step("build captions (caption -> QA -> judge, SmolLM2)",
         ["build", "captions", str(src), "-o", str(bench), "--force", "--model", "smollm2",
          "--judges", "smollm2", "--types", "single", "--max-tokens", str(DEMO_CAPTION_TOKENS),
          "--tries", str(DEMO_TRIES), "--fewshot", str(fewshot),
          "--min-judge-score", str(JUDGE_MIN_SCORE), "--judge-action", "review",
          "--seed", str(seed), "--cache", str(out / "captions" / "cache.sqlite"), "--local-only"])
    from medvqa.curate.llm import drop_summary

    counts = json.loads((bench / "benchmark.json").read_text("utf-8")).get("counts", {})
    if not counts.get("items"):
        console.print(f"[yellow]captions: kept 0 of {counts.get('generated', 0)}"
                      f"{drop_summary(counts.get('dropped', {}))}[/yellow] — SmolLM2-135M wrote "
                      "no usable item; the report and the review app show no caption "
                      f"benchmark (what was generated and why it was dropped: "
                      f"{bench / 'dropped.jsonl'})", highlight=False, soft_wrap=True)
        return None
    step("validate captions", ["validate", str(bench)])
    return bench


#: The shipped data the caption step reads (PathMMU's explanations).
CAPTIONS_SOURCE = "pathmmu_socialpath/socialpath_mapping.json"


def _captions_root(data_root: Path | None) -> Path:
    """The data folder holding :data:`CAPTIONS_SOURCE`: ``data_root``, else as builds find it."""
    from medvqa.errors import BadInputError
    from medvqa.sources import find_data_root

    if data_root is not None:
        return data_root
    if (Path("data") / CAPTIONS_SOURCE).is_file():
        return Path("data")
    found = find_data_root([CAPTIONS_SOURCE])
    if found is None:
        raise BadInputError(f"no sample data holds {CAPTIONS_SOURCE}: run `medvqa data install` "
                            "once, or pass --data-root DATA_DIR")
    return found


def demo_command(
    ctx: typer.Context,
    out: Path = typer.Option(Path("demo-out"), "--out", "-o", help="Folder for everything."),
    data_root: Path | None = typer.Option(
        None, "--data-root", help="The sample data folder (default: as `medvqa build` finds "
        "it: ./data, the folder `medvqa data install` filled, or the checkout's data/)."
    ),
    seed: int = typer.Option(0, "--seed", help="Seed for builds, models and bootstrap."),
    no_llm: bool = typer.Option(False, "--no-llm", help="Skip SmolLM2 (baselines only)."),
    fresh: bool = typer.Option(False, "--fresh", help="Delete OUT first instead of resuming."),
) -> None:
    """Build four benchmarks from shipped real data; run baselines, SmolLM2, a CNN; report.

    Example: medvqa demo --out demo-out
    """
    root = ctx.find_root().command  # the demo drives the real commands of this app

    console = Console()
    if fresh and out.exists():
        shutil.rmtree(out)
    start = time.perf_counter()
    run_dirs: list[str] = []

    def step(title: str, args: list[str]) -> None:
        console.rule(f"[bold]{title}")
        console.print(f"[dim]$ medvqa {' '.join(args)}[/dim]", soft_wrap=True, highlight=False)
        t0 = time.perf_counter()
        code = root.main(args=args, prog_name="medvqa", standalone_mode=False)
        if isinstance(code, int) and code != 0:
            raise typer.Exit(code)
        console.print(f"[dim]{title}: {time.perf_counter() - t0:.1f} s "
                      f"(total {time.perf_counter() - start:.0f} s)[/dim]", highlight=False)

    # No --data-root: the builds find the sample data as `medvqa build` does, from any folder.
    root_args = ["--data-root", str(data_root)] if data_root is not None else []
    for bench in DEMO_PLAN:
        bench_dir = out / "bench" / bench.recipe
        step(
            f"build {bench.recipe}",
            ["build", bench.recipe, "-o", str(bench_dir), "--force", "--seed", str(seed),
             *root_args],
        )
        step(f"validate {bench.recipe}", ["validate", str(bench_dir)])
        for run in bench.runs:
            if no_llm and run.model == "smollm2":
                continue
            run_dir = out / "runs" / f"{bench.recipe}--{_model_slug(run)}"
            args = ["run", str(bench_dir), "--model", run.model, "--out", str(run_dir),
                    "--split", "test", "--seed", str(seed),
                    "--conditions", ",".join(run.conditions)]
            if run.limit:
                args += ["--limit", str(run.limit)]
            if run.max_tokens:
                args += ["--max-tokens", str(run.max_tokens)]
            step(f"run {run.model} on {bench.recipe}", args)
            styles = ["--styles", ",".join(("strict", *run.compare_styles))] \
                if run.compare_styles else []
            step(f"score {run.model} on {bench.recipe}",
                 ["score", str(bench_dir), str(run_dir), "--seed", str(seed), *styles])
            run_dirs.append(str(run_dir))
        # A small CNN trained on the benchmark, run under blind and corruptions.
        run_dirs += train_steps(step, bench.recipe, bench_dir, out, seed)

    captions = None if no_llm else _captions_step(step, out, _captions_root(data_root), seed,
                                                  console)
    # Every benchmark given, so the report's item view shows each item beside its responses.
    built = [a for b in DEMO_PLAN for a in ("--bench", str(out / "bench" / b.recipe))]
    built += ["--bench", str(captions)] if captions else []
    step("report", ["report", *run_dirs, *built, "-o", str(out / "report.html")])
    console.print(
        f"[green]demo finished in {time.perf_counter() - start:.0f} s[/green]: "
        f"open {out / 'report.html'} (Markdown: {out / 'report.md'}; every response: "
        f"{out / 'report.items.html'})"
    )
    if captions:
        console.print("Review the caption-built items in the browser (token printed once):\n"
                      f"  medvqa review add-reviewer you --role admin --bench {captions}\n"
                      f"  medvqa review serve {captions} --per-item 1", highlight=False,
                      soft_wrap=True)
