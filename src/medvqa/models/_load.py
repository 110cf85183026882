"""``load_model``: build the backend a spec names, through the backend registry.

It is the only place backends are built; which factory serves which prefix is the table in
:mod:`medvqa.models._backends`.
"""

from __future__ import annotations

from pathlib import Path

from medvqa.errors import BadInputError
from medvqa.models._backends import backend_factory
from medvqa.models._base import ModelBackend, ModelConfig
from medvqa.models._spec import parse_model_spec


def load_model(config: ModelConfig, bench_dir: Path | None = None) -> ModelBackend:
    """Build the backend named by ``config.spec`` (not started: call ``await backend.start()``).

    Raises:
        BadInputError: an unknown kind (with a suggestion), or a kind not available here.
    """
    try:
        spec = parse_model_spec(config.spec)
    except ValueError as exc:
        raise BadInputError(str(exc)) from None
    return backend_factory(spec.kind)(config, spec, bench_dir)
