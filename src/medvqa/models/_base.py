"""The protocol every model backend implements: ``await backend.generate(requests)``.

A backend turns rendered requests (prompt text + encoded images) into responses. It never
parses answers and never scores. Failures are typed so the runner can tell what to retry:
:class:`TransientModelError` (429, 5xx, timeouts: retried with backoff, then recorded),
:class:`ModelRequestError` (a 4xx or a bad request: recorded at once), and
:class:`EndpointUnreachableError` (raised by :meth:`ModelBackend.start`: the run stops at once and
names the URL).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass, field
from typing import Any, Protocol, runtime_checkable

from medvqa.benchmark import ImageInput
from medvqa.errors import (  # noqa: F401  (re-exported by medvqa.models)
    EndpointAuthError,
    EndpointUnreachableError,
    ModelError,
    ModelRequestError,
    TransientModelError,
)


@dataclass(frozen=True)
class GenerateRequest:
    """One rendered request.

    Attributes:
        item_id: the item asked.
        condition: the condition it is asked under (``clean``, ``blind``, …).
        prompt: the full rendered user prompt.
        images: encoded images in item order; empty for text-only conditions.
        options: letter → text, for baselines that pick among options without reading.
        question_type: the item's question type.
        system: optional system prompt.
    """

    item_id: str
    condition: str
    prompt: str
    images: tuple[ImageInput, ...] = ()
    options: dict[str, str] = field(default_factory=dict)
    question_type: str = "single"
    system: str | None = None


@dataclass(frozen=True)
class GenerateResponse:
    """The model's raw text, or the error that stopped it; ``latency_s`` in seconds.

    ``sent`` optionally says what the model was actually given (local models: image count,
    image sizes after the processor, prompt tokens); recorded per prediction where kept.
    """

    text: str | None
    latency_s: float
    error: str | None = None
    sent: dict[str, Any] | None = None


@dataclass(frozen=True)
class ModelConfig:
    """Everything needed to build a backend; the CLI fills it, library code never reads env vars.

    Attributes:
        spec: the ``--model`` string (see :func:`medvqa.models.parse_model_spec`).
        api_key_env: name of the environment variable that holds the API key ("" = the
            backend's own default, ``OPENAI_API_KEY`` or ``ANTHROPIC_API_KEY``).
        temperature: sampling temperature (0 = greedy).
        max_tokens: cap on generated tokens.
        timeout_s: per-request timeout in seconds.
        seed: seed for random baselines and sampling.
        batch_size: requests per forward pass for local models.
        extra: backend-specific parameters, recorded in run.json.
        top_p: nucleus sampling mass (None = the backend's default).
        reasoning: the model thinks aloud in ``<think>…</think>``; the text is kept raw and the
            scorer parses what follows the thinking.
        device: local models: ``auto``, ``cpu``, ``cuda``, ``cuda:N`` or ``mps``.
        dtype: local models: ``auto``, ``bfloat16``, ``float16`` or ``float32``.
        device_map: local models: ``""`` (one device) or ``auto`` (spread over every GPU).
        attn_implementation: local models: ``""`` (transformers' default, sdpa),
            ``sdpa``, ``eager`` or ``flash_attention_2``.
        endpoints: more base URLs serving the same ``openai:`` model (least-outstanding).
        requests_per_min: client-side request rate limit (0 = none).
        tokens_per_min: client-side token rate limit (0 = none), counted as ``max_tokens`` plus
            a prompt estimate per request.
    """

    spec: str
    _: KW_ONLY
    api_key_env: str = ""
    temperature: float = 0.0
    max_tokens: int = 64
    timeout_s: float = 60.0
    seed: int = 0
    batch_size: int = 8
    extra: dict[str, Any] = field(default_factory=dict)
    top_p: float | None = None
    reasoning: bool = False
    device: str = "auto"
    dtype: str = "auto"
    device_map: str = ""
    attn_implementation: str = ""
    endpoints: tuple[str, ...] = ()
    requests_per_min: float = 0.0
    tokens_per_min: float = 0.0


@runtime_checkable
class ModelBackend(Protocol):
    """What the runner needs from a model.

    Attributes:
        name: the spec string, for run.json and cache keys.
        params: generation parameters that change answers (part of the cache key).
        info: facts for run.json, e.g. ``{"text_only": True}``.
        batch_size: how many requests :meth:`generate` takes at once with benefit
            (1 for HTTP backends, which the runner calls concurrently instead).
    """

    name: str
    params: dict[str, Any]
    info: dict[str, Any]
    batch_size: int

    async def start(self) -> None:
        """Load weights or check the endpoint; raise EndpointUnreachableError fast."""
        ...

    async def generate(self, requests: Sequence[GenerateRequest]) -> list[GenerateResponse]:
        """Answer ``requests`` in order; raise a ModelError subclass for a failed request."""
        ...

    async def aclose(self) -> None:
        """Release sessions, threads and memory."""
        ...
