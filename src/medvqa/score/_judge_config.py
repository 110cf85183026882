"""How the failure-mode judge is asked (``medvqa score --judge``).

Kept apart from the judge (the prompt, the LLM client, the run's files) so the command line reads
its defaults at start-up, each stated once, here.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass
from pathlib import Path

from medvqa.models import LLMSettings

#: The judge's reply cap and per-request timeout by default (its reply is two short labels).
JUDGE_MAX_TOKENS = 48
JUDGE_TIMEOUT_S = 120.0


@dataclass(frozen=True)
class JudgeConfig:
    """How the judge is asked.

    Attributes:
        llm: the judge model and how it is called (the one LLM-call config; judges use
            :data:`JUDGE_MAX_TOKENS` and :data:`JUDGE_TIMEOUT_S` unless told otherwise).
        max_items: most candidates asked (None = all).
        images: send the item's images when the judge backend reads images.
        prompt_path: another prompt YAML (None = the shipped one).

    """

    llm: LLMSettings
    _: KW_ONLY
    max_items: int | None = None
    images: bool = False
    prompt_path: Path | None = None

    @property
    def model(self) -> str:
        """The judge's model spec."""
        return self.llm.model

    @classmethod
    def for_model(cls, spec: str, *, api_key_env: str = LLMSettings.api_key_env,
                  concurrency: int = LLMSettings.concurrency,
                  max_items: int | None = None, images: bool = False,
                  prompt_path: Path | None = None) -> JudgeConfig:
        """The judge ``spec`` with the judges' own token and time limits."""
        return cls(LLMSettings(spec, api_key_env=api_key_env, concurrency=concurrency,
                               max_tokens=JUDGE_MAX_TOKENS, timeout_s=JUDGE_TIMEOUT_S),
                   max_items=max_items, images=images, prompt_path=prompt_path)
