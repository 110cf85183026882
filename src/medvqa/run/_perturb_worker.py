"""A perturbation worker process: ``python -m medvqa.run._perturb_worker``.

Reads pickled jobs ``(job_id, [(condition name, seed), …], cache folder, item, images)`` from
stdin, perturbs each image under each condition through the on-disk
:class:`~medvqa.conditions.PerturbedCache` (so the result lands in the folder), and writes
``(job_id, error or None)`` to stdout. A plain child process is used instead of
:mod:`multiprocessing` because spawn re-imports the parent's ``__main__`` (an unguarded user
script would run again in every worker) and fork copies the runner's threads' locks.
"""

from __future__ import annotations

import pickle
import sys
from pathlib import Path
from typing import Any

from medvqa.benchmark import ImageInput
from medvqa.conditions import Condition, ImageCondition, PerturbedCache, get_condition


def perturb_item(todo: list[tuple[str, int]], item: Any, images: list[tuple[bytes, str, str]],
                 conditions: dict[tuple[str, int], Condition],
                 cache: PerturbedCache) -> list[tuple[str, ImageInput]]:
    """Every image of ``item`` under each ``(condition name, seed)`` of ``todo``, by cache key.

    ``images`` are the item's source images as shipped to a worker: ``(bytes, MIME, sha256)``.

    The results also land in ``cache`` (and in its folder, when it has one). ``conditions``
    memoizes the condition objects between jobs.

    Raises:
        ValueError: a condition in ``todo`` does not perturb images.

    """
    inputs = [ImageInput(data, mime, sha) for data, mime, sha in images]
    done = []
    for name, seed in todo:
        cond = conditions.get((name, seed))
        if cond is None:
            cond = conditions.setdefault((name, seed), get_condition(name, seed=seed))
        if not isinstance(cond, ImageCondition):
            raise ValueError(f"{name} does not perturb images")
        cond.cache = cache
        for index, image in enumerate(inputs):
            done.append((cond.cache_key(item, index, image), cond._one(item, index, image)))
    return done


def perturb_job(job: tuple[Any, ...], conditions: dict[tuple[str, int], Condition],
                caches: dict[str, PerturbedCache]) -> None:
    """Perturb one item's images under its conditions into the job's cache folder."""
    _, todo, folder, item, images = job
    cache = caches.setdefault(folder, PerturbedCache(max_bytes=16 << 20, folder=Path(folder)))
    perturb_item(todo, item, images, conditions, cache)


def main() -> None:
    """Serve jobs until stdin closes."""
    conditions: dict[tuple[str, int], Condition] = {}
    caches: dict[str, PerturbedCache] = {}
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    while True:
        try:
            job = pickle.load(stdin)  # noqa: S301 - the parent process wrote it
        except EOFError:
            return
        try:
            perturb_job(job, conditions, caches)
            error = None
        except Exception as exc:  # noqa: BLE001 - reported to the parent, which falls back
            error = f"{type(exc).__name__}: {exc}"
        pickle.dump((job[0], error), stdout)
        stdout.flush()


if __name__ == "__main__":
    main()
