"""Parse ``--model`` strings into a :class:`ModelSpec` (the one parser of model specs)."""

from __future__ import annotations

from dataclasses import dataclass

from medvqa._registry import UnknownNameError
from medvqa.models._backends import BACKENDS, backend_info

#: spec kinds and an example of each, for help texts (derived from the backend registry).
SPEC_KINDS: dict[str, str] = {prefix: row.example for prefix, row in BACKENDS.rows().items()}


@dataclass(frozen=True)
class ModelSpec:
    """A parsed model spec: ``kind[:name][@base_url]``."""

    kind: str
    name: str = ""
    base_url: str = ""

    def __str__(self) -> str:
        text = self.kind + (f":{self.name}" if self.name else "")
        return text + (f"@{self.base_url}" if self.base_url else "")


def parse_model_spec(spec: str) -> ModelSpec:
    """Parse a model spec string.

    >>> parse_model_spec("openai:qwen2.5-vl-7b@http://127.0.0.1:8000/v1")
    ModelSpec(kind='openai', name='qwen2.5-vl-7b', base_url='http://127.0.0.1:8000/v1')
    >>> parse_model_spec("random")
    ModelSpec(kind='random', name='', base_url='')

    Raises:
        ValueError: unknown kind (with a suggestion) or a missing model name.
    """
    kind, _, rest = spec.strip().partition(":")
    try:
        row = backend_info(kind)
    except UnknownNameError as exc:
        raise ValueError(f"{exc} (in {spec!r})") from None
    name, base_url = rest, ""
    if row.takes_url and "@" in rest:
        name, _, base_url = rest.partition("@")
    if row.needs_name and not name:
        raise ValueError(f"model spec {spec!r} needs a name, e.g. {row.example!r}")
    return ModelSpec(kind=kind, name=name, base_url=base_url)
