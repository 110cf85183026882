"""Images perturbed ahead by worker processes are the bytes the runner would make itself, and a
second run sharing the on-disk cache perturbs nothing.

The first block of items is perturbed by the request builder (so the first requests go out at
once), so the benchmarks here are longer than one block: the workers must do the rest.
"""

from __future__ import annotations

from pathlib import Path

from medvqa.benchmark import ImageLoader, iter_items
from medvqa.conditions import get_condition
from medvqa.models import ModelConfig
from medvqa.run import RunConfig, run_benchmark
from medvqa.run._perturb_ahead import BLOCK, PerturbAhead, attach_disk_cache
from medvqa.testing import ChatServer

CONDITIONS = ["clean", "blind", "noise", "corrupt:jpeg@2", "ood"]
ITEMS = BLOCK + 8


def _sent_images(bench: Path, out: Path, workers: int | None, perturbed: Path) -> list[str]:
    with ChatServer() as server:
        config = RunConfig(bench_dir=bench, out_dir=out, conditions=CONDITIONS,
                           model=ModelConfig(spec=f"openai:m@{server.url}"),
                           perturb_workers=workers, perturbed_dir=perturbed)
        summary = run_benchmark(config)
        assert summary.errors == 0 and summary.sent == ITEMS * len(CONDITIONS)
        return sorted(server.images)


def test_worker_processes_make_the_same_bytes_and_a_shared_cache_is_reused(
    bench_factory, tmp_path: Path
) -> None:
    bench = bench_factory(tmp_path / "bench", ITEMS)
    in_process = _sent_images(bench, tmp_path / "a", 0, tmp_path / "pa")
    conditions = [get_condition(c) for c in CONDITIONS]
    # The workers alone, into an empty folder: everything after the first block is theirs.
    look = PerturbAhead(conditions, ImageLoader(bench),
                        attach_disk_cache(conditions, tmp_path / "pw"), workers=2)
    try:
        assert len(list(look.items(iter_items(bench / "items.jsonl", [])))) == ITEMS
        assert look.submitted == ITEMS - BLOCK
    finally:
        look.close()
    by_workers = {p.name: p.read_bytes() for p in (tmp_path / "pw").rglob("*.png")}
    by_builder = {p.name: p.read_bytes() for p in (tmp_path / "pa").rglob("*.png")}
    assert by_workers and all(by_builder[name] == data for name, data in by_workers.items())
    # A whole run with workers sends the same images, and leaves the same files.
    ahead = _sent_images(bench, tmp_path / "b", 2, tmp_path / "pb")
    assert in_process == ahead
    files = sorted(p.name for p in (tmp_path / "pb").rglob("*.png"))
    assert files == sorted(by_builder) and files
    conditions = [get_condition(c) for c in CONDITIONS]
    look = PerturbAhead(conditions, ImageLoader(bench), attach_disk_cache(conditions,
                                                                          tmp_path / "pb"))
    try:
        assert len(list(look.items(iter_items(bench / "items.jsonl", [])))) == ITEMS
        assert look.submitted == 0  # everything is on disk already
    finally:
        look.close()
