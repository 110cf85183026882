"""``medvqa run --executor ray``: the run's requests answered by Ray actors, journaled here.

The driver (this process) does everything that makes a run exact: it streams the items, builds
each (item, condition) request, looks it up in the cache, and commits every answer to the RUN/
journal as it arrives, in benchmark order, exactly once (the journal's primary key). Only the
answering is distributed: :class:`RayBackend` is an ordinary model backend whose ``generate``
sends a batch to the least-busy of ``workers`` Ray actors. Each actor holds a real backend:
an ``openai:`` client for its share of the ``--endpoint`` URLs, or an ``hf:`` model on the
``num_gpus`` Ray gave it. A killed actor loses only the requests it had in flight: their calls
fail, the runner retries them (on another actor, or on this one once Ray has restarted it), and
whatever had been answered is already in the journal; a rerun sends nothing twice.

Ray is an optional extra (``pip install 'medvqa[ray]'``), imported only here.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from medvqa._optional import MissingDependencyError, optional_import
from medvqa.errors import BadInputError
from medvqa.models import (
    GenerateRequest,
    GenerateResponse,
    ModelConfig,
    ModelRequestError,
    TransientModelError,
    parse_model_spec,
)

log = logging.getLogger(__name__)

#: Requests handed to an HTTP actor per call (answered concurrently inside the actor).
HTTP_BATCH = 8


@dataclass(frozen=True)
class RayOptions:
    """How to distribute.

    Attributes:
        address: Ray cluster address (``""``: start or join a local instance).
        workers: actors per model.
        gpus: GPUs per actor (local ``hf:`` models; 0 for HTTP backends).
        cpus: CPUs reserved per actor (0 lets HTTP actors share cores).
        max_restarts: times Ray restarts a dead actor.
    """

    address: str = ""
    workers: int = 2
    gpus: float = 0.0
    cpus: float = 0.0
    max_restarts: int = 3


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


class _Worker:
    """The actor body: one real backend, answering batches concurrently."""

    def __init__(self, config: ModelConfig, bench_dir: str | None):
        from medvqa.models import load_model

        self.problem = ""
        self.backend: Any = None
        try:
            self.backend = load_model(config, Path(bench_dir) if bench_dir else None)
        except Exception as exc:  # noqa: BLE001 - reported to the driver as one line
            self.problem = str(exc)
        self.started = False

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

    async def generate(self, requests: list[GenerateRequest]) -> list[Any]:
        """``("ok", response)`` or ``(error kind, message)`` per request."""
        from medvqa.models import EndpointUnreachableError, ModelRequestError

        if not self.started:
            await self.backend.start()
            self.started = True
        http = int(getattr(self.backend, "batch_size", 1) or 1) == 1
        parts = [[r] for r in requests] if http else [requests]

        async def one(part: list[GenerateRequest]) -> list[Any]:
            try:
                return [("ok", r) for r in await self.backend.generate(part)]
            except EndpointUnreachableError as exc:
                return [("transient", f"ray worker: {exc}")] * len(part)
            except TransientModelError as exc:
                return [("transient", str(exc))] * len(part)
            except ModelRequestError as exc:
                return [("request", str(exc))] * len(part)

        done = await asyncio.gather(*(one(p) for p in parts))
        return [x for part in done for x in part]


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
        remote = ray.remote(_Worker).options(
            num_cpus=options.cpus, num_gpus=options.gpus, max_restarts=options.max_restarts,
            max_task_retries=0, max_concurrency=1000,
        )
        bench = str(bench_dir) if bench_dir is not None else None
        self.configs = worker_configs(config, options.workers)
        self.actors = [remote.remote(c, bench) for c in self.configs]
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
        """Nothing to do: actors start their backends on their first batch."""

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
