"""``medvqa review``: serve the app, add reviewers, agreement statistics, export, human exam."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from medvqa.cli._help import default_of
from medvqa.review import AppConfig, StatsConfig

review_app = typer.Typer(
    help="Expert review and human exam of a benchmark (needs the `review` extra).",
    no_args_is_help=True,
)
_out = Console()



def _app(name: str) -> Any:
    """The default of an AppConfig field."""
    return default_of(AppConfig, name)


def _stats(name: str) -> Any:
    """The default of a StatsConfig field."""
    return default_of(StatsConfig, name)


_DB = typer.Option(None, "--db", help="SQLite file or postgresql://… URL "
                   "[default: BENCH.review.sqlite beside the first BENCH/].")


def default_db(benches: list[Path], db: str | None) -> str:
    """``--db``, or ``BENCH.review.sqlite`` beside the first benchmark (never inside it)."""
    if db:
        return db
    if not benches:
        from medvqa.errors import UsageError

        raise UsageError("--db is needed when no BENCH/ is named")
    b = Path(benches[0]).resolve()
    return str(b.parent / f"{b.name}.review.sqlite")


def _serve(app: object, host: str, port: int) -> None:
    from medvqa._optional import optional_import

    uvicorn = optional_import("uvicorn")
    if host not in ("127.0.0.1", "localhost", "::1"):
        _out.print(f"[yellow]warning:[/yellow] listening on {host}: put it behind HTTPS "
                   "(--secure-cookies) before clinicians use it")
    uvicorn.run(app, host=host, port=port, log_level="warning")


def serve_command(
    benches: list[Path] = typer.Argument(..., help="BENCH/ folders to review."),
    db: str = _DB,
    host: str = typer.Option("127.0.0.1", "--host", help="Address to bind (loopback default)."),
    port: int = typer.Option(8765, "--port", help="TCP port."),
    per_item: int = typer.Option(
        _app("per_item"), "--per-item", help="Independent reviews per item."),
    session_hours: float = typer.Option(
        _app("session_ttl_s") / 3600, "--session-hours", help="Login lifetime."),
    runs: Path = typer.Option(None, "--runs", help="Folder for RUN/s of finished exams."),
    secure_cookies: bool = typer.Option(
        _app("secure_cookies"), "--secure-cookies", help="Behind HTTPS."),
) -> None:
    """Start the review web app. Example: medvqa review serve bench/captions."""
    from medvqa.review import AppConfig, create_app

    cfg = AppConfig(benches=list(benches), db=default_db(benches, db), per_item=per_item,
                    session_ttl_s=session_hours * 3600, runs_dir=runs,
                    secure_cookies=secure_cookies)
    app = create_app(cfg)
    _out.print(f"review app on http://{host}:{port}/  (database {cfg.db})")
    _serve(app, host, port)


def add_reviewer_command(
    name: str = typer.Argument(..., help="Reviewer name."),
    role: str = typer.Option("reviewer", "--role", help="reviewer | admin"),
    bench: list[Path] = typer.Option([], "--bench", help="Assign this BENCH/ (repeatable)."),
    db: str = _DB,
) -> None:
    """Create a reviewer and print their login token (shown once; stored hashed).

    For an existing reviewer, ``--bench`` assigns more benchmarks (no new token).
    """
    from medvqa.review import ReviewStore, load_bench

    store = ReviewStore(default_db(list(bench), db))
    keys = [load_bench(b).key for b in bench]
    if keys and store.reviewer_by_name(name) is not None:
        for key in keys:
            store.assign(name, key)
        _out.print(f"reviewer {name} exists; assigned {', '.join(keys)}")
        return
    token = store.add_reviewer(name, role, keys)
    _out.print(f"reviewer {name} ({role}), assigned: {', '.join(keys) or 'none'}")
    _out.print("token (shown once, give it to them privately):")
    typer.echo(token)


def stats_command(
    bench: Path = typer.Argument(..., help="The BENCH/ reviewed."),
    db: str = _DB,
    per_item: int = typer.Option(
        _stats("per_item"), "--per-item", help="Reviews an item needs to be final."),
    resamples: int = typer.Option(_stats("resamples"), "--resamples", help="Bootstrap resamples."),
    seed: int = typer.Option(_stats("seed"), "--seed", help="Bootstrap seed."),
    judge_threshold: int = typer.Option(
        _stats("judge_threshold"), "--judge-threshold",
        help="A judge keeps an item when every score is ≥ this."),
    output: Path = typer.Option(None, "--output", "-o", help="Also write the JSON here."),
) -> None:
    """Inter-rater agreement (per criterion and category) and LLM judges vs experts."""
    from medvqa.review import ReviewStore, StatsConfig, load_bench, review_stats
    from medvqa.store import atomic_write_text

    b = load_bench(bench)
    cfg = StatsConfig(per_item=per_item, resamples=resamples, seed=seed,
                      judge_threshold=judge_threshold)
    stats = review_stats(b, ReviewStore(default_db([bench], db)), cfg)
    text = json.dumps(stats, indent=2, sort_keys=True)
    if output:
        atomic_write_text(output, text + "\n")
    _print_stats(stats)


def _fmt(block: dict[str, Any]) -> str:
    v, ci = block.get("value"), block.get("ci")
    if v is None:
        return "n/a"
    return f"{v:.3f}" + (f" [{ci[0]:.3f}, {ci[1]:.3f}]" if ci else "")


def _print_stats(stats: dict[str, Any]) -> None:
    from rich.table import Table

    _out.print(f"items {stats['items']}, reviewed {stats['reviewed']}, decisions "
               f"{stats['decisions']}, reviewers {', '.join(stats['reviewers']) or 'none'}; "
               + ", ".join(f"{k} {n}" for k, n in stats["status"].items()))
    t = Table("label", "n", "% agreement", "Fleiss κ", "Krippendorff α")
    rows = [("verdict", stats["verdict"]), ("keep", stats["keep"])]
    rows += [(f"criterion {k}", v) for k, v in stats["criteria"].items()]
    rows += [(f"category {k}", v) for k, v in stats["by_category"].items()]
    for label, b in rows:
        t.add_row(label, str(b["n"]), _fmt(b["percent_agreement"]), _fmt(b["fleiss_kappa"]),
                  _fmt(b["krippendorff_alpha"]))
    _out.print(t)
    if stats["keep"]["cohen_kappa"]:
        c = Table("pair", "n", "Cohen κ (keep)")
        for pair, b in stats["keep"]["cohen_kappa"].items():
            c.add_row(pair, str(b["n"]), _fmt(b))
        _out.print(c)
    r = stats.get("readings") or {}
    if r.get("questions"):
        _out.print(f"reader audit: {r['questions']} responses queued; "
                   + ", ".join(f"{k} {n}" for k, n in r["status"].items())
                   + f"; read by two or more: {r['n']}, % agreement "
                   f"{_fmt(r['percent_agreement'])}, Fleiss κ {_fmt(r['fleiss_kappa'])}; "
                   + "; ".join(f"Cohen κ {p} {_fmt(b)}" for p, b in r["cohen_kappa"].items()),
                   highlight=False, soft_wrap=True)
    if stats["judges"]:
        j = Table("LLM judge vs experts", "n", "% agreement", "Cohen κ", "Krippendorff α")
        for name, b in stats["judges"].items():
            j.add_row(name, str(b["n"]), _fmt(b["percent_agreement"]), _fmt(b["cohen_kappa"]),
                      _fmt(b["krippendorff_alpha"]))
        _out.print(j)


def export_command(
    bench: Path = typer.Argument(..., help="The BENCH/ reviewed (left untouched)."),
    output: Path = typer.Option(..., "--output", "-o", help="New benchmark folder."),
    db: str = _DB,
    per_item: int = typer.Option(
        _stats("per_item"), "--per-item", help="Reviews an item needs to be final."),
    resamples: int = typer.Option(_stats("resamples"), "--resamples", help="Bootstrap resamples."),
    seed: int = typer.Option(_stats("seed"), "--seed", help="Bootstrap seed."),
    judge_threshold: int = typer.Option(
        _stats("judge_threshold"), "--judge-threshold", help="See `review stats`."),
) -> None:
    """Write the reviewed benchmark as a new version with a changelog and the review stats."""
    from medvqa.errors import BadInputError
    from medvqa.review import (
        ReviewStore,
        StatsConfig,
        check_export_target,
        export_reviewed,
        load_bench,
    )

    b = load_bench(bench)
    cfg = StatsConfig(per_item=per_item, resamples=resamples, seed=seed,
                      judge_threshold=judge_threshold)
    check_export_target(b.path, output)
    where = default_db([bench], db)
    if "://" not in where and not Path(where).is_file():  # not made here: nothing to read
        raise BadInputError(f"{where}: no review database: nobody has reviewed {bench} yet; "
                            "nothing was exported (review it first with `medvqa review serve`, "
                            "or give the --db that holds the reviews)")
    r = export_reviewed(b, ReviewStore(where), output, cfg)
    _out.print(f"wrote {r.out}: kept {r.kept} (edited {r.edited}), removed {r.removed}, "
               f"left out unresolved {r.unresolved}; see {r.out / 'CHANGELOG.md'}")


def exam_command(
    bench: Path = typer.Argument(..., help="The BENCH/ to sit."),
    split: str = typer.Option("test_tiny", "--split", help="Split the experts answer."),
    db: str = _DB,
    runs: Path = typer.Option(Path("runs"), "--runs", help="Folder for the RUN/s."),
    write_runs: bool = typer.Option(
        False, "--write-runs", help="Write every examinee's RUN/ now and exit (no server)."),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to bind."),
    port: int = typer.Option(8765, "--port", help="TCP port."),
) -> None:
    """Human exam: experts answer a split; each becomes a RUN/ of model human:NAME."""
    from medvqa.review import (
        AppConfig,
        ReviewStore,
        create_app,
        exam_items,
        load_bench,
        run_slug,
        write_exam_run,
    )

    dbs = default_db([bench], db)
    b = load_bench(bench)
    exam_items(b, split)
    if write_runs:
        from medvqa.errors import BadInputError

        store = ReviewStore(dbs)
        examinees = [r for r in store.reviewers() if store.answers(b.key, split, r)]
        if not examinees:  # a run of nobody's answers is no human baseline: say so
            raise BadInputError(f"{bench}: nobody has answered the {split} exam yet; no RUN/ "
                                "was written (serve it first: `medvqa review exam "
                                f"{bench} --split {split}`)")
        for r in examinees:
            out = write_exam_run(b, store, r, split, runs / run_slug(r.name, split))
            _out.print(f"wrote {out} (model human:{r.name})")
        return
    app = create_app(AppConfig(benches=[bench], db=dbs, exam_split=split, runs_dir=runs))
    _out.print(f"exam on http://{host}:{port}/exam/0/{split}  (RUN/s go to {runs})")
    _serve(app, host, port)


review_app.command("serve")(serve_command)
review_app.command("add-reviewer")(add_reviewer_command)
review_app.command("stats")(stats_command)
review_app.command("export")(export_command)
review_app.command("exam")(exam_command)
