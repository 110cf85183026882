"""``--executor ray``: a local Ray instance of 2 workers against loopback chat servers.

Ray starts in seconds on two cores, so the instance is shared by the module's few tests.
"""

from __future__ import annotations

import asyncio
import os
import signal
import threading
from collections import Counter
from pathlib import Path

import pytest

from medvqa.models import ModelConfig
from medvqa.run import RunConfig, RunProgress, run_benchmark
from medvqa.run._ray import RayBackend, RayOptions
from medvqa.schema import Prediction, RunInfo, read_json, read_jsonl
from medvqa.testing import ChatServer

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def _config(bench: Path, out: Path, spec: str, endpoints: tuple[str, ...] = ()) -> RunConfig:
    return RunConfig(bench_dir=bench, out_dir=out, concurrency=16,
                     conditions=["clean", "blind"], max_retries=6, backoff_s=0.1,
                     model=ModelConfig(spec=spec, endpoints=endpoints, timeout_s=10))


def test_two_workers_share_four_endpoints_and_journal_in_order(local_ray, bench_factory,
                                                               tmp_path: Path) -> None:
    bench = bench_factory(tmp_path / "bench", 24)
    with ChatServer() as a, ChatServer() as b, ChatServer() as c, ChatServer() as d:
        config = _config(bench, tmp_path / "run", f"openai:m@{a.url}", (b.url, c.url, d.url))
        backend = RayBackend(config.model, RayOptions(workers=2), bench_dir=bench)
        assert [w.endpoints for w in backend.configs] == [(c.url,), (d.url,)]
        summary = run_benchmark(config, backend=backend)
        served = [sum(s.counts.values()) for s in (a, b, c, d)]
    assert summary.sent == 48 and summary.errors == 0
    assert all(n > 0 for n in served) and sum(served) == 48
    info = read_json(tmp_path / "run" / "run.json", RunInfo)
    assert info.model_info["executor"] == "ray" and len(info.model_info["endpoints"]) == 4
    local = _config(bench, tmp_path / "local", f"openai:m@{a.url}")
    preds = list(read_jsonl(tmp_path / "run" / "predictions.jsonl", Prediction))
    with ChatServer() as a2:
        local.model = ModelConfig(spec=f"openai:m@{a2.url}", timeout_s=10)
        run_benchmark(local)
    same = list(read_jsonl(tmp_path / "local" / "predictions.jsonl", Prediction))
    # Benchmark order, exactly as a local run writes it.
    assert [(p.item_id, p.condition) for p in preds] == [(p.item_id, p.condition) for p in same]


def test_a_killed_worker_loses_only_its_in_flight_requests(local_ray, bench_factory,
                                                            tmp_path: Path) -> None:
    bench = bench_factory(tmp_path / "bench", 30)
    with ChatServer(latency_s=0.05) as server:
        config = _config(bench, tmp_path / "run", f"openai:m@{server.url}")
        options = RayOptions(workers=2, concurrency=16)
        backend = RayBackend(config.model, options, bench_dir=bench)
        victim = backend.worker_pids()[0]
        killed = threading.Event()

        def kill_midway(p: RunProgress) -> None:
            if not killed.is_set() and p.completed >= 12:
                os.kill(victim, signal.SIGKILL)
                killed.set()

        summary = run_benchmark(config, kill_midway, backend=backend)
        assert killed.is_set() and backend.info["worker_failures"] >= 1
        preds = list(read_jsonl(tmp_path / "run" / "predictions.jsonl", Prediction))
        keys = Counter((p.item_id, p.condition) for p in preds)
        assert len(keys) == 60 and set(keys.values()) == {1}
        assert all(p.error is None and p.response == "A" for p in preds)
        # At most the requests in flight at the kill were sent twice.
        assert 60 <= sum(server.counts.values()) <= 60 + config.concurrency
        assert summary.errors == 0
        again = run_benchmark(config, backend=RayBackend(config.model, options, bench_dir=bench))
        assert again.sent == 0 and again.already_done == 60


def test_a_bad_spec_in_a_worker_is_one_line(local_ray, tmp_path: Path) -> None:
    from medvqa.errors import BadInputError

    with pytest.raises(BadInputError, match="not a local checkpoint"):
        RayBackend(ModelConfig(spec=f"hf:{tmp_path}/nothing"), RayOptions(workers=1))


def test_actors_bound_the_endpoints_to_the_run_concurrency(local_ray, bench_factory,
                                                           tmp_path: Path) -> None:
    bench = bench_factory(tmp_path / "bench", 40)
    with ChatServer(latency_s=0.05) as server:
        config = _config(bench, tmp_path / "run", f"openai:m@{server.url}")
        config.concurrency, config.conditions = 6, ["clean"]
        backend = RayBackend(config.model, RayOptions(workers=2, concurrency=6), bench_dir=bench)
        assert backend.queue_ahead > 0  # the driver keeps more than 6 queued at the actors
        summary = run_benchmark(config, backend=backend)
    assert summary.sent == 40 and summary.errors == 0
    assert server.peak_in_flight == 6


def test_actors_perturb_the_same_bytes_the_driver_would(local_ray, bench_factory,
                                                        tmp_path: Path) -> None:
    from medvqa.run._perturb_ahead import BLOCK

    n = BLOCK + 6
    bench = bench_factory(tmp_path / "bench", n)
    sent = {}
    for name, workers in (("driver", 0), ("actors", 2)):
        with ChatServer() as server:
            config = _config(bench, tmp_path / name, f"openai:m@{server.url}")
            config.conditions = ["clean", "noise", "corrupt:jpeg@2"]
            config.perturb_workers = workers
            backend = RayBackend(config.model, RayOptions(workers=2, concurrency=16),
                                 bench_dir=bench)
            # On this 2-CPU instance the driver perturbs unless the run asks for workers.
            assert backend.perturb_pool(None, None) is None  # type: ignore[arg-type]
            pool = backend.perturb_pool(None, workers)  # type: ignore[arg-type]
            assert (pool is None) == (workers == 0)
            summary = run_benchmark(config, backend=backend)
            assert summary.errors == 0 and summary.sent == 3 * n
            sent[name] = sorted(server.images)
    assert sent["driver"] == sent["actors"]
    files = {p.name for p in (tmp_path / "actors" / "perturbed").rglob("*.png")}
    assert files == {p.name for p in (tmp_path / "driver" / "perturbed").rglob("*.png")}
    assert len(files) == 2 * n


def test_an_unreachable_endpoint_stops_the_run_at_start(local_ray, bench_factory,
                                                         tmp_path: Path) -> None:
    from medvqa.errors import BadInputError

    bench = bench_factory(tmp_path / "bench", 4)
    with ChatServer() as server:
        url = server.url
    config = _config(bench, tmp_path / "run", f"openai:m@{url}")
    backend = RayBackend(config.model, RayOptions(workers=2, concurrency=16), bench_dir=bench)
    with pytest.raises(BadInputError, match="unreachable.*cannot reach"):
        run_benchmark(config, backend=backend)
    assert not (tmp_path / "run" / "predictions.jsonl").exists()


@pytest.mark.slow
def test_local_vlm_in_actors_answers_as_it_does_in_process(local_ray, bench_factory,
                                                           tmp_path: Path) -> None:
    from medvqa.testing import write_tiny_vlm

    checkpoint = write_tiny_vlm(tmp_path / "vlm")
    bench = bench_factory(tmp_path / "bench", 6)
    model = ModelConfig(spec=f"hf:{checkpoint}", max_tokens=4, batch_size=1, device="cpu")
    answers = {}
    for name in ("local", "ray"):
        config = RunConfig(bench_dir=bench, out_dir=tmp_path / name, model=model,
                           conditions=["clean", "blind"], concurrency=2)
        backend = (RayBackend(model, RayOptions(workers=2, concurrency=2), bench_dir=bench)
                   if name == "ray" else None)
        summary = run_benchmark(config, backend=backend)
        assert summary.sent == 12 and summary.errors == 0
        answers[name] = [(p.item_id, p.condition, p.response) for p in
                         read_jsonl(tmp_path / name / "predictions.jsonl", Prediction)]
    assert answers["ray"] == answers["local"]
    info = read_json(tmp_path / "ray" / "run.json", RunInfo).model_info
    assert info["executor"] == "ray" and info["text_only"] is False


def test_gpus_the_cluster_does_not_have_are_refused_not_waited_for(local_ray) -> None:
    from medvqa.errors import BadInputError

    # The local instance has 2 CPUs and no GPU: Ray would keep such actors pending forever.
    with pytest.raises(BadInputError, match="no node of the Ray cluster has 1 GPU"):
        RayBackend(ModelConfig(spec="random"), RayOptions(workers=2, gpus=1))
    with pytest.raises(BadInputError, match="fits 2 such actor"):
        RayBackend(ModelConfig(spec="random"), RayOptions(workers=3, cpus=1))


def test_a_perturbation_the_run_let_go_of_still_lands_in_the_cache(
    local_ray, bench_factory, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    import logging
    import time

    from medvqa.benchmark import ImageLoader, iter_items
    from medvqa.conditions import PerturbedCache, get_condition

    bench = bench_factory(tmp_path / "bench", 1)
    _, item = next(iter_items(bench / "items.jsonl", []))
    image = ImageLoader(bench).load(item.images[0])
    backend = RayBackend(ModelConfig(spec="random"), RayOptions(workers=1), bench_dir=bench)
    cache = PerturbedCache(folder=tmp_path / "perturbed")
    caplog.set_level(logging.ERROR, logger="concurrent.futures")
    pool = backend.perturb_pool(cache, 1)
    assert pool is not None
    job = ([("noise", 0)], str(cache.folder), item, [(image.data, image.mime, image.sha256)])
    let_go = pool.submit(job)
    assert let_go.cancel()  # as PerturbAhead does when the run stops early
    kept = pool.submit(job)
    assert kept.result(timeout=60) is None
    key = get_condition("noise").cache_key(item, 0, image)
    deadline = time.monotonic() + 10
    while not cache.contains(key) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert cache.contains(key) and let_go.cancelled()
    asyncio.run(backend.aclose())
    # Resolving a future the run had cancelled raised inside the callback thread before.
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
