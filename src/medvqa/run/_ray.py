"""``medvqa run --executor ray``: the run's requests answered by Ray actors, journaled here.

The driver (this process) does everything that makes a run exact: it streams the items, builds
each (item, condition) request, looks it up in the cache, and commits every answer to the RUN/
journal as it arrives, in benchmark order, exactly once (the journal's primary key). The work is
distributed: :class:`RayBackend` is an ordinary model backend whose ``generate`` sends a batch
to the least-busy of ``workers`` Ray actors. Each actor holds a real backend: an ``openai:``
client for its share of the ``--endpoint`` URLs, or an ``hf:`` model on the ``num_gpus`` Ray
gave it.

Each actor bounds its own requests in flight (its share of the run's ``--concurrency``; one
batch at a time for a local model), and the driver keeps one batch more than that queued at
each actor (``queue_ahead``), so an actor starts its next request the moment one finishes
instead of waiting a round trip to the driver; the endpoints never see more than the run's
concurrency. Image conditions are perturbed on the actors too (:meth:`RayBackend.perturb_pool`):
the driver ships an item's source images ahead of its requests, an actor returns the perturbed
PNGs, and the driver writes them to RUN/perturbed, where the request builder finds them.

A killed actor loses only the requests it had in flight: their calls fail, the runner retries
them (on another actor, or on this one once Ray has restarted it), and whatever had been
answered is already in the journal; a rerun sends nothing twice. Its perturbation jobs are
done by the request builder instead.

Ray is an optional extra (``pip install 'medvqa[ray]'``), imported only here.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import replace
from pathlib import Path
from typing import Any

from medvqa._optional import MissingDependencyError, optional_import
from medvqa.benchmark import ImageInput
from medvqa.conditions import PerturbedCache
from medvqa.errors import BadInputError
from medvqa.models import (
    EndpointUnreachableError,
    GenerateRequest,
    GenerateResponse,
    ModelConfig,
    ModelRequestError,
    TransientModelError,
    parse_model_spec,
)
from medvqa.run._config import RayOptions

log = logging.getLogger(__name__)

#: Requests handed to an HTTP actor per call (answered concurrently inside the actor).
HTTP_BATCH = 8




def shard_endpoints(urls: Sequence[str], workers: int) -> list[list[str]]:
    """Endpoints of each worker: disjoint shares when there are enough, else round robin.

    >>> shard_endpoints(["a", "b", "c", "d"], 2)
    [['a', 'c'], ['b', 'd']]
    >>> shard_endpoints(["a"], 2)
    [['a'], ['a']]
    """
    if not urls:
        return [[] for _ in range(workers)]
    if len(urls) >= workers:
        return [list(urls[i::workers]) for i in range(workers)]
    return [[urls[i % len(urls)]] for i in range(workers)]


def worker_configs(config: ModelConfig, workers: int) -> list[ModelConfig]:
    """Each worker's ModelConfig: the same model, its share of the endpoints."""
    spec = parse_model_spec(config.spec)
    if spec.kind != "openai":
        return [config] * workers
    urls = list(dict.fromkeys(([spec.base_url] if spec.base_url else []) + list(config.endpoints)))
    out = []
    for share in shard_endpoints(urls, workers):
        head = f"openai:{spec.name}@{share[0]}" if share else config.spec
        out.append(replace(config, spec=head, endpoints=tuple(share[1:])))
    return out


def placement_shortfall(options: RayOptions, nodes: list[dict[str, float]]) -> str | None:
    """Why the cluster (``nodes``: each live node's resources) can never place every actor.

    Ray would wait for the resources forever (an actor asking for a GPU on a cluster without
    one stays pending), so a request the cluster cannot meet is refused up front: an actor must
    fit on one node, and all of them on the cluster.

    >>> print(placement_shortfall(RayOptions(workers=2, gpus=1), [{"CPU": 8.0}]))
    --ray-gpus 1: no node of the Ray cluster has 1 GPU(s) (use --ray-gpus 0 for openai: models)
    >>> placement_shortfall(RayOptions(workers=2, gpus=0.5), [{"CPU": 8.0, "GPU": 1.0}]) is None
    True
    """
    wants = (("--ray-gpus", "GPU", options.gpus), ("CPUs per actor", "CPU", options.cpus))
    for flag, key, per_actor in wants:
        if per_actor <= 0:
            continue
        if not any(node.get(key, 0.0) >= per_actor for node in nodes):
            hint = " (use --ray-gpus 0 for openai: models)" if key == "GPU" else ""
            return (f"{flag} {per_actor:g}: no node of the Ray cluster has {per_actor:g} "
                    f"{key}(s){hint}")
        fits = sum(int(node.get(key, 0.0) // per_actor) for node in nodes)
        if fits < options.workers:
            return (f"--ray-workers {options.workers} × {flag} {per_actor:g}: the Ray cluster "
                    f"fits {fits} such actor(s); use fewer workers or add nodes")
    return None


def actor_limit(concurrency: int, workers: int, http: bool) -> int:
    """Requests an actor has in flight at once.

    Its share of ``concurrency`` over HTTP (0: no limit); one batch at a time for a local model.

    >>> actor_limit(64, 2, True), actor_limit(0, 2, True), actor_limit(64, 2, False)
    (32, 0, 1)
    """
    if not http:
        return 1
    return -(-concurrency // workers) if concurrency > 0 else 0


class _Worker:
    """The actor body: one real backend, answering batches concurrently."""

    def __init__(self, config: ModelConfig, bench_dir: str | None, concurrency: int = 0,
                 workers: int = 1):
        from medvqa.models import load_model

        self.concurrency, self.workers = concurrency, workers
        self.slots: asyncio.Semaphore | None = None
        self.conditions: dict[tuple[str, int], Any] = {}
        self.problem = ""
        self.backend: Any = None
        try:
            self.backend = load_model(config, Path(bench_dir) if bench_dir else None)
        except Exception as exc:  # noqa: BLE001 - reported to the driver as one line
            self.problem = str(exc)
        self.started = False
        self.http = int(getattr(self.backend, "batch_size", 1) or 1) == 1

    def describe(self) -> dict[str, Any]:
        """Name, params, info and batch size of the backend (or the problem building it)."""
        if self.problem:
            return {"problem": self.problem}
        b = self.backend
        return {"name": b.name, "params": dict(b.params), "info": dict(b.info),
                "batch_size": int(getattr(b, "batch_size", 1) or 1)}

    def pid(self) -> int:
        """The actor's process id (tests kill it)."""
        import os

        return os.getpid()

    async def start(self) -> str:
        """Start the backend once: ``""``, or why its endpoint cannot be reached."""
        if not self.started:
            try:
                await self.backend.start()
            except EndpointUnreachableError as exc:
                return str(exc)
            # Made here, not in __init__: a semaphore belongs to the actor's event loop.
            limit = actor_limit(self.concurrency, self.workers, self.http)
            self.slots = asyncio.Semaphore(limit) if limit else None
            self.started = True
        return ""

    async def generate(self, requests: list[GenerateRequest]) -> list[Any]:
        """``("ok", response)`` or ``(error kind, message)`` per request."""
        if not self.started:
            problem = await self.start()
            if problem:
                return [("transient", f"ray worker: {problem}")] * len(requests)
        parts = [[r] for r in requests] if self.http else [requests]

        async def one(part: list[GenerateRequest]) -> list[Any]:
            try:
                async with self.slots or contextlib.nullcontext():
                    return [("ok", r) for r in await self.backend.generate(part)]
            except EndpointUnreachableError as exc:
                return [("transient", f"ray worker: {exc}")] * len(part)
            except TransientModelError as exc:
                return [("transient", str(exc))] * len(part)
            except ModelRequestError as exc:
                return [("request", str(exc))] * len(part)

        done = await asyncio.gather(*(one(p) for p in parts))
        return [x for part in done for x in part]

    async def perturb(self, todo: list[tuple[str, int]], item: Any,
                      images: list[tuple[bytes, str, str]]) -> list[tuple[str, bytes, str]]:
        """The item's images under each condition of ``todo``: ``(cache key, PNG, sha256)``.

        Computed in a thread, so the requests this actor has in flight go on meanwhile.
        """
        from medvqa.run._perturb_worker import perturb_item

        # Nothing is kept here: the driver writes the results to its RUN/perturbed.
        cache = PerturbedCache(max_bytes=0)
        done = await asyncio.to_thread(perturb_item, todo, item, images, self.conditions, cache)
        return [(key, image.data, image.sha256) for key, image in done]


class RayBackend:
    """A model backend whose answers come from Ray actors (see module docstring).

    Args:
        config: the model, as for a local run (its endpoints are shared out among workers).
        options: address, workers, GPUs and CPUs per actor.
        bench_dir: the benchmark (for baselines that read it).
    """

    def __init__(self, config: ModelConfig, options: RayOptions,
                 bench_dir: Path | None = None):
        try:
            ray = optional_import("ray", "'medvqa[ray]'")
        except MissingDependencyError as exc:
            raise BadInputError(str(exc)) from None
        self._ray = ray
        if not ray.is_initialized():
            try:
                ray.init(address=options.address or None, include_dashboard=False,
                         log_to_driver=False, configure_logging=False)
            except (ConnectionError, ValueError, RuntimeError) as exc:
                raise BadInputError(f"--ray-address {options.address!r}: {exc}") from None
        nodes = [n.get("Resources", {}) for n in ray.nodes() if n.get("Alive")]
        problem = placement_shortfall(options, nodes)
        if problem:
            raise BadInputError(problem)
        remote = ray.remote(_Worker).options(
            num_cpus=options.cpus, num_gpus=options.gpus, max_restarts=options.max_restarts,
            max_task_retries=0, max_concurrency=1000,
        )
        bench = str(bench_dir) if bench_dir is not None else None
        self.configs = worker_configs(config, options.workers)
        self.actors = [remote.remote(c, bench, options.concurrency, options.workers)
                       for c in self.configs]
        described = ray.get([a.describe.remote() for a in self.actors])
        problems = [d["problem"] for d in described if "problem" in d]
        if problems:
            self._kill_all()
            raise BadInputError(problems[0])
        first = described[0]
        self.name = config.spec
        self.params: dict[str, Any] = first["params"]
        inner = first["batch_size"]
        self.batch_size = HTTP_BATCH if inner == 1 else inner
        #: Requests the driver keeps queued at the actors beyond the run's concurrency.
        self.queue_ahead = (self.batch_size * options.workers
                            if options.concurrency or inner > 1 else 0)
        self.info: dict[str, Any] = dict(first["info"]) | {
            "executor": "ray", "ray_workers": options.workers, "ray_gpus": options.gpus,
            "worker_failures": 0,
        }
        if len(self.configs) > 1 and "endpoint" in first["info"]:
            self.info["endpoints"] = sorted(
                {d["info"].get("endpoint", "") for d in described}
                | {u for d in described for u in d["info"].get("endpoints", [])}
            )
        self.outstanding = [0] * len(self.actors)
        self.failures = 0
        self._last = [0.0] * len(self.actors)

    def _kill_all(self) -> None:
        for a in self.actors:
            self._ray.kill(a)

    async def start(self) -> None:
        """Start every actor's backend (in parallel).

        Raises:
            EndpointUnreachableError: an actor cannot reach its endpoint (names the URL).

        """
        problems = await asyncio.gather(*(a.start.remote() for a in self.actors))
        for problem in problems:
            if problem:
                raise EndpointUnreachableError(problem)

    def perturb_pool(self, cache: PerturbedCache,
                     workers: int | None = None) -> RayPerturbPool | None:
        """The actors as perturbation workers whose results go into ``cache``, or None.

        ``workers`` is the run's ``perturb_workers``: 0 keeps perturbing in the driver, a
        positive number always uses the actors, and None uses them only where the cluster has
        CPUs beyond the ones a local run keeps for itself (on a 2-core machine the actors would
        compete with the driver for the same cores: ``medvqa bench --only ray``).
        """
        from medvqa.run._perturb_ahead import default_perturb_workers

        if workers is None:
            # The rule local runs follow, applied to the cluster's CPUs.
            workers = default_perturb_workers(int(self._ray.cluster_resources().get("CPU", 0)))
        return RayPerturbPool(self.actors, cache) if workers else None

    async def aclose(self) -> None:
        """Kill the actors (the Ray instance stays up for other runs)."""
        self._kill_all()

    def worker_pids(self) -> list[int]:
        """Process ids of the actors."""
        return list(self._ray.get([a.pid.remote() for a in self.actors]))

    async def generate(self, requests: Sequence[GenerateRequest]) -> list[GenerateResponse]:
        """Send the batch to the actor with the fewest batches in flight."""
        i = min(range(len(self.actors)), key=lambda k: (self.outstanding[k], self._last[k]))
        self.outstanding[i] += 1
        self._last[i] = time.monotonic()
        t0 = time.perf_counter()
        try:
            results = await self.actors[i].generate.remote(list(requests))
        except self._ray.exceptions.RayActorError as exc:
            self.failures += 1
            self.info["worker_failures"] = self.failures
            raise TransientModelError(f"ray worker {i} died: {type(exc).__name__}") from None
        finally:
            self.outstanding[i] -= 1
        kinds = {k for k, _ in results}
        if kinds == {"ok"}:
            return [r for _, r in results]
        if len(requests) == 1 or "ok" not in kinds:
            kind, message = next((k, m) for k, m in results if k != "ok")
            raise (TransientModelError if kind == "transient" else ModelRequestError)(message)
        # Mixed batch: keep the answers, record the failures (the runner retries no part-batch).
        latency = time.perf_counter() - t0
        return [r if k == "ok" else GenerateResponse(None, latency, error=r)
                for k, r in results]


class RayPerturbPool:
    """Perturbation jobs on the Ray actors, round robin; results written to ``cache`` here.

    A job whose actor died, or that failed, resolves to its error: the request builder then
    perturbs that item in-process, so nothing is lost.
    """

    def __init__(self, actors: list[Any], cache: PerturbedCache):
        self.actors = actors
        self.cache = cache
        self.turn = itertools.cycle(range(len(actors)))

    def submit(self, job: tuple[Any, ...]) -> Future[str | None]:
        """Send ``(todo, folder, item, images)`` to the next actor (the folder is this one's)."""
        todo, _folder, item, images = job
        ref = self.actors[next(self.turn)].perturb.remote(todo, item, images)
        out: Future[str | None] = Future()

        def written(done: Future[Any]) -> None:
            error = None
            try:
                for key, data, sha in done.result():
                    self.cache.put(key, ImageInput(data, "image/png", sha))
            except Exception as exc:  # noqa: BLE001 - the builder perturbs it instead
                error = f"ray worker: {type(exc).__name__}: {exc}"
            if out.set_running_or_notify_cancel():  # False: the run let go of it already
                out.set_result(error)

        ref.future().add_done_callback(written)
        return out

    def close(self) -> None:
        """Nothing to stop: the actors belong to the backend."""
