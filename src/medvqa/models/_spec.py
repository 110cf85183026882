"""Parse ``--model`` strings into a :class:`ModelSpec` (the one parser of model specs)."""

from __future__ import annotations

from dataclasses import dataclass

from medvqa._suggest import did_you_mean

#: spec kinds and an example of each, for help texts and "did you mean" errors.
SPEC_KINDS: dict[str, str] = {
    "random": "random",
    "frequent": "frequent",
    "smollm2": "smollm2",
    "openai": "openai:qwen2.5-vl-7b@http://127.0.0.1:8000/v1",
    "anthropic": "anthropic:claude-sonnet-4-5",
    "hf": "hf:/path/to/model-or-hub-id",
    "supervised": "supervised:RUN_DIR",
    "human": "human:reader1",
}


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
    if kind not in SPEC_KINDS:
        hint = did_you_mean(kind, SPEC_KINDS, n=1)
        raise ValueError(
            f"unknown model kind {kind!r} in {spec!r}.{hint} Known: {', '.join(SPEC_KINDS)}"
        )
    name, base_url = rest, ""
    if kind in {"openai", "anthropic"} and "@" in rest:
        name, _, base_url = rest.partition("@")
    if kind in {"openai", "anthropic", "hf", "supervised", "human"} and not name:
        raise ValueError(f"model spec {spec!r} needs a name, e.g. {SPEC_KINDS[kind]!r}")
    return ModelSpec(kind=kind, name=name, base_url=base_url)
