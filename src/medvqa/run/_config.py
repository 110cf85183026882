"""What ``medvqa run`` is asked to do: the config types, and every default of the command.

A light module (dataclasses only): the command line shows these defaults in its help at
start-up, and states none of them itself.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass, field
from pathlib import Path

from medvqa.benchmark import MAX_IMAGE_PIXELS
from medvqa.irt import AdaptiveSettings
from medvqa.models import ModelConfig, RetryPolicy
from medvqa.schema import CLEAN

#: Where a run's requests are answered: in this process, or by actors of a Ray cluster.
EXECUTORS = ("local", "ray")


@dataclass(frozen=True)
class AdaptiveRun:
    """An adaptive run (``medvqa run --adaptive irt.json``): ask only the informative items.

    Attributes:
        irt: the calibration (``medvqa irt fit``) of this benchmark's items.
        target_se: stop when the estimated full-benchmark accuracy's standard error is at most
            this.
        budget: most items asked (None: no limit but the benchmark).
        exposure: the exposure control (``sympson-hetter``: the calibration's exposure
            parameters; ``randomesque``; ``none``).
        randomesque: ``exposure="randomesque"``: the next item is drawn among this many most
            informative.
        batch: items chosen (and sent) at once.
    """

    irt: Path
    _: KW_ONLY
    target_se: float = AdaptiveSettings.target_se
    budget: int | None = AdaptiveSettings.budget
    randomesque: int = AdaptiveSettings.randomesque
    exposure: str = AdaptiveSettings.exposure
    batch: int = AdaptiveSettings.batch


@dataclass
class RunConfig:
    """What ``medvqa run`` was asked to do.

    Attributes:
        bench_dir: the BENCH/ folder.
        out_dir: the RUN/ folder (created if missing).
        model: the model to run.
        prompt: prompt template name or YAML path; None uses benchmark.json's.
        conditions: condition specs (``clean``, ``blind``, ``corrupt:all@1-5``, …).
        concurrency: most requests in flight.
        limit: ask only the first N selected items.
        split: ask only items of this split.
        category: ask only items of this category.
        retry_errors: ask again the items whose prediction is an error.
        force_new: forget earlier predictions in RUN/ and the responses in its cache.sqlite,
            and start afresh: every request is asked again (an endpoint may now serve another
            model under the same name; a cached answer would hide that).
        seed: seed of the random conditions and of the retry jitter. Apart from
            ``model.seed`` on purpose: a models.yaml entry may sample with its own seed, while
            every model of the file must see the same perturbed images (one shared cache).
        max_retries: retries of transient errors before an error is recorded.
        backoff_s: first backoff wait in seconds (doubles per retry).
        stop_after_failures: stop the run when this many requests were sent and every one
            failed (0 = never stop early).
        max_retry_after_s: most seconds waited when the endpoint sends ``Retry-After``.
        perturbed_dir: on-disk cache of perturbed images (None: RUN/perturbed); runs that
            share it perturb each image once.
        perturb_workers: processes that perturb images ahead (None: the cores beyond two,
            so none on a 2-core machine; 0: none, the request builder perturbs in-process).
        max_image_pixels: most pixels (width × height) of one image, read from its header
            before anything is decoded; a larger image is that item's error (0: no cap below
            Pillow's own ceiling).
        name: the model's display name in run.json, reports, plots and the console (None:
            the resumed run's, else derived from the spec by
            :func:`medvqa.models.display_name`).
        adaptive: ask adaptively from a calibration instead of every selected item (None: a
            normal run).

    """

    bench_dir: Path
    out_dir: Path
    model: ModelConfig
    _: KW_ONLY
    prompt: str | None = None
    conditions: list[str] = field(default_factory=lambda: [CLEAN])
    concurrency: int = 16
    limit: int | None = None
    split: str | None = None
    category: str | None = None
    retry_errors: bool = False
    force_new: bool = False
    seed: int = 0
    max_retries: int = RetryPolicy.max_retries
    backoff_s: float = RetryPolicy.backoff_s
    stop_after_failures: int = 50
    max_retry_after_s: float = RetryPolicy.max_retry_after_s
    perturbed_dir: Path | None = None
    perturb_workers: int | None = None
    max_image_pixels: int = MAX_IMAGE_PIXELS
    name: str | None = None
    adaptive: AdaptiveRun | None = None


@dataclass(frozen=True)
class RayOptions:
    """How to distribute.

    Attributes:
        address: Ray cluster address (``""``: start or join a local instance).
        workers: actors per model.
        gpus: GPUs per actor (local ``hf:`` models; 0 for HTTP backends).
        cpus: CPUs reserved per actor (0 lets HTTP actors share cores).
        max_restarts: times Ray restarts a dead actor.
        concurrency: the run's most requests in flight, shared out among the actors of an
            HTTP model (0: no limit on the actors, nothing queued ahead).
    """

    _: KW_ONLY
    address: str = ""
    workers: int = 2
    gpus: float = 0.0
    cpus: float = 0.0
    max_restarts: int = 3
    concurrency: int = 0


@dataclass(frozen=True)
class RunRequest:
    """One ``medvqa run``: one model, or every model of a models.yaml, here or over Ray.

    Attributes:
        config: the run; with ``models_file``, the base every model's run starts from (its
            ``model.spec`` is then empty).
        models_file: a models.yaml whose every model runs into ``config.out_dir/NAME``.
        executor: one of :data:`EXECUTORS`.
        ray: how to distribute (``executor="ray"``).
        max_tokens: most tokens generated (None: by the benchmark's question types, see
            ``medvqa.run.default_max_tokens``).
        weights_roots: folders the user named (``--weights-root``) where ``models_file`` may
            name local weights besides its own folder (``medvqa.run._models_weights``).
    """

    config: RunConfig
    _: KW_ONLY
    models_file: Path | None = None
    weights_roots: tuple[Path, ...] = ()
    executor: str = "local"
    ray: RayOptions = field(default_factory=RayOptions)
    max_tokens: int | None = None
