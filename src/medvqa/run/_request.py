"""``medvqa run`` as one library call: check the request, then run one model or a models.yaml.

The command line only parses its options into a :class:`~medvqa.run._config.RunRequest` and
renders what :func:`run_models` reports through :class:`RunEvents` (a progress bar, a summary
line, a table); every rule about what may be run, and how, is here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol

from medvqa.errors import BadInputError, UsageError
from medvqa.run._config import EXECUTORS, RunConfig, RunRequest

if TYPE_CHECKING:
    from medvqa.models import ModelBackend
    from medvqa.run._many import SummaryRow
    from medvqa.run._runner import RunProgress, RunSummary


class RunEvents(Protocol):
    """What a caller is told while :func:`run_models` works (the command line renders it)."""

    def model_started(self, name: str, spec: str) -> None:
        """A model of a models.yaml starts (not called for a single ``--model``)."""

    def progress(self, progress: RunProgress) -> None:
        """Requests finished so far in the current run."""

    def model_finished(self, summary: RunSummary) -> None:
        """The current run ended; its summary."""

    def model_refused(self, name: str, error: str) -> None:
        """A model of a models.yaml was refused (bad input); the others go on."""


@dataclass(frozen=True)
class RunOutcome:
    """What :func:`run_models` did.

    Attributes:
        rows: one per model (a single ``--model`` gives one row).
        summary: a single model's run summary (None for a models.yaml).
    """

    rows: list[SummaryRow]
    summary: RunSummary | None = None

    @property
    def refused(self) -> list[SummaryRow]:
        """The models that were refused."""
        return [r for r in self.rows if r.failed]


def check_request(request: RunRequest, environ: Mapping[str, str]) -> None:
    """Refuse a request that cannot run as asked, before anything is sent.

    Raises:
        BadInputError: neither or both of a model and a models file; an unknown executor; a
            misspelt placement flag; an adapter for a backend that takes none; a display name
            that is not one short line, or one given with a models file; ``--weights-root``
            without a models file.
        UsageError: an API key the model needs is not set.
    """
    from medvqa.models import (
        backend_info,
        check_placement_flags,
        display_name_problem,
        missing_key_problem,
    )

    model = request.config.model
    if bool(model.spec) == (request.models_file is not None):
        raise BadInputError("give either --model SPEC or --models models.yaml (one of them)")
    name = request.config.name
    if name is not None and request.models_file is not None:
        raise BadInputError("--name names one --model; in models.yaml give each model a `name`")
    if request.weights_roots and request.models_file is None:
        raise BadInputError("--weights-root is read with --models only (a --model or --adapter "
                            "you type is read where it points)")
    if name is not None and (problem := display_name_problem(name)):
        raise BadInputError(f"--name {name!r}: {problem}")
    if request.executor not in EXECUTORS:
        raise BadInputError(f"--executor {request.executor!r}: use {' or '.join(EXECUTORS)}")
    if model.spec:
        problem = missing_key_problem(model.spec, model.api_key_env, environ)
        if problem is not None:
            raise UsageError(problem)
    check_placement_flags(device=model.device, dtype=model.dtype, device_map=model.device_map,
                          attn_implementation=model.attn_implementation)
    if model.extra.get("adapter"):
        prefix = model.spec.partition(":")[0]
        if not model.spec or not backend_info(prefix).adapter:
            raise BadInputError(f"--adapter: only hf:PATH and smollm2 models take an adapter, "
                                f"not {model.spec!r}")


def _with_max_tokens(request: RunRequest) -> RunConfig:
    """The request's config with max_tokens resolved from the benchmark when not given."""
    from medvqa.run._max_tokens import default_max_tokens

    config = request.config
    tokens = request.max_tokens or default_max_tokens(config.bench_dir)
    return replace(config, model=replace(config.model, max_tokens=tokens))


def _backend(config: RunConfig, request: RunRequest) -> ModelBackend | None:
    """The Ray-distributed backend for ``config``, or None (the runner loads it)."""
    if request.executor != "ray":
        return None
    from medvqa.run._ray import RayBackend

    return RayBackend(config.model, replace(request.ray, concurrency=config.concurrency),
                      bench_dir=config.bench_dir)


def _run_one(config: RunConfig, request: RunRequest, events: RunEvents) -> RunSummary:
    from medvqa.run._runner import run_benchmark

    summary = run_benchmark(config, events.progress, backend=_backend(config, request))
    events.model_finished(summary)
    return summary


def run_models(request: RunRequest, events: RunEvents,
               environ: Mapping[str, str]) -> RunOutcome:
    """Run one model, or every model of ``request.models_file`` in turn.

    Args:
        request: what to run.
        events: told of progress and of each model's end.
        environ: where API keys are looked for (the command line passes ``os.environ``).

    Raises:
        BadInputError: the request or the single model's run is refused (a refused model of a
            models.yaml is reported through ``events`` and in the outcome instead).
    """
    from medvqa.run._many import plan_runs, summary_row
    from medvqa.run._models_file import load_models_file, missing_keys
    from medvqa.run._models_weights import resolve_weights

    check_request(request, environ)
    config = _with_max_tokens(request)
    if request.models_file is None:
        from medvqa.run._many import PlannedRun

        summary = _run_one(config, request, events)
        return RunOutcome([summary_row(PlannedRun(config.model.spec, config), summary)],
                          summary)
    models = load_models_file(request.models_file)
    resolve_weights(request.models_file, models, request.weights_roots)
    plans = plan_runs(models, config)
    missing_keys(request.models_file, [p.config.model for p in plans], environ)
    rows = []
    for plan in plans:
        events.model_started(plan.name, plan.config.model.spec)
        try:
            rows.append(summary_row(plan, _run_one(plan.config, request, events)))
        except BadInputError as exc:  # one model refused: say so, go on with the others
            events.model_refused(plan.name, str(exc))
            rows.append(summary_row(plan, None, str(exc)))
    return RunOutcome(rows)
