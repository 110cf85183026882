"""The one configuration of "call an LLM": builders, judges and filters all take it.

It names the model and how to ask it (generation settings, cache, concurrency, retries, the
reply-repair rounds of structured calls, the local-only guard) and turns itself into the
:class:`ModelConfig` of a call, with the structured-output constraint its backend understands.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass
from pathlib import Path
from typing import Any

from medvqa.models._backends import structured_extra
from medvqa.models._base import ModelConfig
from medvqa.models._retry import RetryPolicy


@dataclass(frozen=True)
class LLMSettings:
    """Which model answers, and how it is asked.

    Attributes:
        model: model spec (``smollm2``, ``hf:PATH``, ``openai:MODEL@URL``, ``random``…).
        cache_path: SQLite response cache shared with runs (None: no cache).
        max_tokens: cap on generated tokens per reply.
        temperature: sampling temperature (0 = greedy).
        seed: seed of sampling and of random baselines.
        batch_size: prompts per forward pass for local models.
        concurrency: requests in flight for HTTP backends.
        max_retries: transport retries of transient errors (429, 5xx, timeouts).
        tries: attempts per task when the reply is invalid (1 = no repair round).
        constrain: constrain decoding to the JSON schema where the backend supports it.
        local_only: refuse any model whose endpoint is not on this machine.
        api_key_env: environment variable holding the API key ("" = the backend's default).
        timeout_s: per-request timeout in seconds.
    """

    model: str = "smollm2"
    _: KW_ONLY
    cache_path: Path | None = None
    max_tokens: int = 256
    temperature: float = 0.0
    seed: int = 0
    batch_size: int = 8
    concurrency: int = 8
    max_retries: int = RetryPolicy.max_retries
    tries: int = 3
    constrain: bool = True
    local_only: bool = False
    api_key_env: str = ""
    timeout_s: float = 300.0


    def model_config(self, purpose: str, json_schema: dict[str, Any] | None) -> ModelConfig:
        """The :class:`ModelConfig` of one call whose reply should follow ``json_schema``.

        Args:
            purpose: a short name of what the reply is (the schema's name for OpenAI servers).
            json_schema: the reply's JSON schema, or None for free text.
        """
        extra = structured_output(self.model, purpose, json_schema) if self.constrain else {}
        return ModelConfig(
            spec=self.model,
            api_key_env=self.api_key_env,
            temperature=self.temperature,
            max_tokens=self.max_tokens,
            timeout_s=self.timeout_s,
            seed=self.seed,
            batch_size=self.batch_size,
            extra=extra,
        )


def structured_output(
    spec: str, purpose: str, json_schema: dict[str, Any] | None
) -> dict[str, Any]:
    """The backend parameters that constrain a reply to ``json_schema`` (``{}`` where none can).

    Which mechanism a backend takes is its ``structured`` column in the backend table
    (:data:`medvqa.models.BACKENDS`): local transformers models decode under
    lm-format-enforcer (``json_schema``), OpenAI-compatible servers take ``response_format``,
    others get no constraint (the reply is still validated).
    """
    if json_schema is None:
        return {}
    return structured_extra(spec, purpose, json_schema)
