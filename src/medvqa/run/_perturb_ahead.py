"""Perturb images ahead of the runner, in a process pool, into an on-disk cache.

A control run asks every item under several image conditions; perturbing and PNG-encoding
those images is CPU work that, done in the runner's request builder, competes with the event
loop for the GIL (measured: the conditions added 62–73 % to a run). Here the items are
taken in blocks of :data:`BLOCK`; while the runner builds the requests of one block, the
perturbations of the next ones are computed by worker processes (one per core, started lazily;
plain child processes, see :mod:`._perturb_worker`). Each result is written to the run's
on-disk cache (``RUN/perturbed``, or one folder shared by every model of a models.yaml run),
where the builder reads it instead of perturbing. Results are the same bytes as in-process
perturbation (a pure function of the pixels and the seeded generator), so cache keys,
responses and predictions do not change. A rerun, or the next model, finds every image
on disk and perturbs nothing.

The workers are local processes (:class:`_Pool`) by default; a backend that has workers of its
own offers them instead (``perturb_pool()``: the Ray executor's actors, whose results are sent
back and written here), so perturbing is spread with the requests.
"""

from __future__ import annotations

import itertools
import logging
import os
import pickle
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any, BinaryIO, Protocol

from medvqa.benchmark import ImageLoader, ImageLoadError
from medvqa.conditions import Condition, ImageCondition, PerturbedCache
from medvqa.schema import Item

log = logging.getLogger(__name__)

#: Items per look-ahead block.
BLOCK = 32
#: Blocks perturbed ahead of the one being sent.
DEPTH = 2
#: Folder name of the on-disk cache inside RUN/.
PERTURBED_DIR = "perturbed"

class PerturbPool(Protocol):
    """Workers that run perturbation jobs ``(todo, cache folder, item, images)``."""

    def submit(self, job: tuple[Any, ...]) -> Future[str | None]:
        """Start ``job``; the future gives its error, or None once its images are cached."""
        ...

    def close(self) -> None:
        """Stop the workers (or let go of them)."""
        ...


def perturb_ahead(config: Any, conditions: list[Condition], loader: ImageLoader,
                  model: Any = None) -> PerturbAhead | None:
    """The look-ahead for a run (``config`` is its RunConfig), or None without image conditions.

    Attaches the disk cache (``config.perturbed_dir`` or RUN/perturbed) to the image conditions
    either way. A ``model`` with ``perturb_pool(cache, workers)`` (the Ray executor) may offer
    its own workers; otherwise local ones are used. No workers (``config.perturb_workers == 0``,
    the default on two cores, see :func:`default_perturb_workers`) keeps perturbation in the
    request builder.
    """
    if not any(isinstance(c, ImageCondition) for c in conditions):
        return None
    folder = config.perturbed_dir or Path(config.out_dir) / PERTURBED_DIR
    cache = attach_disk_cache(conditions, Path(folder))
    offer = getattr(model, "perturb_pool", None)
    remote = offer(cache, config.perturb_workers) if offer is not None else None
    if remote is not None:
        return PerturbAhead(conditions, loader, cache, pool=remote)
    workers = (default_perturb_workers() if config.perturb_workers is None
               else config.perturb_workers)
    if workers == 0:
        return None
    return PerturbAhead(conditions, loader, cache, workers)


#: Cores left to the event loop and the request builder before any go to perturbing.
RESERVED_CORES = 2


def default_perturb_workers(cores: int | None = None) -> int:
    """Worker processes for perturbing ahead: the cores beyond :data:`RESERVED_CORES`.

    Measured on 2 cores (``medvqa bench --only conditions``, 224² images, 200 ms server): a pool
    of 2 workers added 26–28 % to a 7-condition run, perturbing in the request builder −1–3 %;
    the pool competes with the event loop it is meant to relieve. With more cores the pool
    takes what the loop does not need.

    >>> default_perturb_workers(2), default_perturb_workers(8)
    (0, 6)
    """
    cores = cores if cores is not None else (os.cpu_count() or 1)
    return max(0, cores - RESERVED_CORES)


def attach_disk_cache(conditions: Iterable[Condition], folder: Path) -> PerturbedCache:
    """Give every image condition one cache backed by ``folder`` (created); return it."""
    folder.mkdir(parents=True, exist_ok=True)
    cache = PerturbedCache(folder=folder)
    for cond in conditions:
        if isinstance(cond, ImageCondition):
            cond.cache = cache
    return cache


class PerturbAhead:
    """Look-ahead perturbation of the next block of items (see module docstring).

    Args:
        conditions: the run's conditions (only image conditions are perturbed ahead).
        loader: reads the items' image bytes.
        cache: the shared disk-backed cache (from :func:`attach_disk_cache`).
        workers: local processes (default: the machine's cores), started on the first job.
        pool: workers to use instead of local processes (see :class:`PerturbPool`).
    """

    def __init__(self, conditions: list[Condition], loader: ImageLoader, cache: PerturbedCache,
                 workers: int | None = None, pool: PerturbPool | None = None):
        self.conditions = [c for c in conditions if isinstance(c, ImageCondition)]
        self.loader = loader
        self.cache = cache
        self.workers = max(1, workers or os.cpu_count() or 1)
        self._pool: PerturbPool | None = pool
        self.submitted = 0

    def _ensure_pool(self) -> PerturbPool:
        if self._pool is None:
            self._pool = _Pool(self.workers)
        return self._pool

    def _submit(self, block: list[tuple[int, Item]]) -> list[Future[Any]]:
        """Start the perturbations of ``block`` that are not cached yet."""
        futures = []
        for _, item in block:
            if not item.images:
                continue
            try:
                images = self.loader.load_all(item.images)
            except ImageLoadError:
                continue  # the builder records the error for this item
            todo = [(c.name, c.seed) for c in self.conditions if c.applies_to(item) and not all(
                self.cache.contains(c.cache_key(item, i, im)) for i, im in enumerate(images))]
            if not todo:
                continue
            # One job per item: its images are decoded once for all its conditions.
            payload = [(im.data, im.mime, im.sha256) for im in images]
            futures.append(self._ensure_pool().submit(
                (todo, str(self.cache.folder), item, payload)))
            self.submitted += 1
        return futures

    def _collect(self, futures: list[Future[Any]]) -> None:
        """Wait for ``futures`` (their images are then on disk, where the builder reads them)."""
        for fut in futures:
            error = fut.result()
            if error is not None:  # the builder perturbs this one in-process instead
                log.debug("perturbation ahead failed (%s); done in the builder", error)

    def items(self, selection: Iterable[tuple[int, Item]]) -> Iterator[tuple[int, Item]]:
        """``selection``, while the images of the blocks after the current one are perturbed.

        The first block is yielded at once and perturbed by the request builder, so the first
        requests go out without waiting for the workers; the workers start on the
        :data:`DEPTH` blocks after it, and each later block is yielded once its images are on
        disk.
        """
        if not self.conditions:
            yield from selection
            return
        source = iter(selection)

        def take() -> list[tuple[int, Item]]:
            return [x for _, x in zip(range(BLOCK), source, strict=False)]

        first = take()
        queued: deque[tuple[list[tuple[int, Item]], list[Future[Any]]]] = deque()
        try:
            for _ in range(DEPTH):
                block = take()
                if block:
                    queued.append((block, self._submit(block)))
            yield from first
            while queued:
                block, pending = queued.popleft()
                following = take()
                if following:
                    queued.append((following, self._submit(following)))
                self._collect(pending)
                yield from block
        finally:
            for _, pending in queued:
                for fut in pending:
                    fut.cancel()

    def close(self) -> None:
        """Stop the worker processes."""
        if self._pool is not None:
            self._pool.close()
            self._pool = None


class _Pool:
    """``workers`` child processes of :mod:`._perturb_worker`; jobs go round robin."""

    def __init__(self, workers: int):
        cmd = [sys.executable, "-m", "medvqa.run._perturb_worker"]
        self.procs = [subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
                      for _ in range(workers)]
        self.futures: dict[int, Future[str | None]] = {}
        self.lock = threading.Lock()
        self.ids = itertools.count()
        self.turn = itertools.cycle(range(workers))
        self.readers = [threading.Thread(target=self._read, args=(p.stdout,), daemon=True)
                        for p in self.procs]
        for t in self.readers:
            t.start()

    def submit(self, job: tuple[Any, ...]) -> Future[str | None]:
        """Send ``job`` to the next worker; the future gives its error or None."""
        fut: Future[str | None] = Future()
        job_id = next(self.ids)
        with self.lock:
            self.futures[job_id] = fut
            proc = self.procs[next(self.turn)]
        try:
            assert proc.stdin is not None
            pickle.dump((job_id, *job), proc.stdin)
            proc.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            self._finish(job_id, f"worker gone: {exc}")
        return fut

    def _finish(self, job_id: int, error: str | None) -> None:
        with self.lock:
            fut = self.futures.pop(job_id, None)
        if fut is not None and not fut.done():
            fut.set_result(error)

    def _read(self, stream: BinaryIO | None) -> None:
        assert stream is not None
        while True:
            try:
                job_id, error = pickle.load(stream)  # noqa: S301 - our own child wrote it
            except (EOFError, OSError, pickle.UnpicklingError):
                break
            self._finish(job_id, error)
        with self.lock:  # a dead worker: its jobs fall back to the builder
            pending = list(self.futures)
        for job_id in pending:
            self._finish(job_id, "worker exited")

    def close(self) -> None:
        """Close stdin (workers exit after their current job) and wait for them."""
        for p in self.procs:
            if p.stdin is not None:
                p.stdin.close()
        for p in self.procs:
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                p.kill()
