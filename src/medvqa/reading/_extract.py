"""The answer extractor: an LLM reads, under constraint, only the responses the rules could not.

The core of ``medvqa score --extract MODEL_SPEC`` (the command wires it in): given responses
the strict rules marked invalid *for want of a reading* (reason ``no_answer``, see
:data:`~medvqa.reading.WANTS_READING`; never a refusal, hedge, negation or two options
the rules found), ask any model backend through the project's one LLM client which option the
response chose. The reply is constrained to one letter of the item, a set of letters (multiple
choice) or ``NONE`` — a JSON schema enumerating them, enforced by the backend where it declares
structured output (``structured`` in the backend table) and validated afterwards anyway. A
reply outside that set is a per-item error and is never scored. Requests go through
:func:`medvqa.models.complete` into the run's ``cache.sqlite`` (a rerun asks nothing already
answered; the cache key holds the full prompt). Every decision records ``extracted_by``: the
model spec and the prompt's SHA-256. The extractor never overrides a rule decision
(:func:`rescue`).

Typical use::

    extractor = prepare_extractor(ExtractConfig(LLMSettings("smollm2")))   # checks first
    result = extract_answers(extractor, candidates, run_dir / "cache.sqlite")
    parsed = rescue(parsed, result.by_key.get((item_id, condition)))
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from medvqa.errors import BadInputError
from medvqa.models import GenerateRequest, LLMSettings, ModelConfig
from medvqa.reading._base import WANTS_READING, ParsedAnswer
from medvqa.reading._extract_prompt import (
    ExtractPrompt,
    ReplyError,
    extract_schema,
    load_extract_prompt,
    read_reply,
    render_extract,
)
from medvqa.reading._locate import set_aside_reasoning
from medvqa.schema import Item

__all__ = ["EXTRACT_CONDITION", "ExtractCandidate", "ExtractConfig", "ExtractResult",
           "ExtractedBy", "Extraction", "Extractor", "eligible", "extract_answers",
           "prepare_extractor", "rescue"]

log = logging.getLogger(__name__)

#: Cache condition prefix of extractor requests (kept apart from the run's own answers).
EXTRACT_CONDITION = "answer-extract"
#: The extractor's reply cap by default (a JSON object with a letter or a short list).
EXTRACT_MAX_TOKENS = 24


@dataclass(frozen=True)
class ExtractConfig:
    """How the extractor is asked.

    Attributes:
        llm: the extractor model and how it is called (the one LLM-call configuration; its
            ``max_tokens`` is capped at :data:`EXTRACT_MAX_TOKENS` unless lower).
        prompt_path: another prompt YAML (None = the shipped ``prompts/extract.yaml``).
        max_items: most candidates asked (None = all), in the order given.
    """

    llm: LLMSettings
    prompt_path: Path | None = None
    max_items: int | None = None

    @classmethod
    def for_model(cls, spec: str, *, api_key_env: str = "", concurrency: int = 8,
                  max_items: int | None = None, prompt_path: Path | None = None,
                  ) -> ExtractConfig:
        """The extractor ``spec`` (any backend: ``smollm2``, ``hf:…``, ``openai:…@URL`` …)."""
        return cls(LLMSettings(spec, api_key_env=api_key_env, concurrency=concurrency,
                               max_tokens=EXTRACT_MAX_TOKENS), prompt_path, max_items)


@dataclass(frozen=True)
class ExtractCandidate:
    """One response the rules could not read.

    Attributes:
        item_id: the item.
        condition: the condition it was answered under.
        question: the question as the model was shown it.
        options: letter → text, as shown.
        question_type: ``single``, ``multi``, ``yesno`` or ``grade``.
        response: the raw response (its reasoning is set aside before it is quoted).
    """

    item_id: str
    condition: str
    question: str
    options: dict[str, str]
    question_type: str
    response: str

    @classmethod
    def from_item(cls, item: Item, condition: str, response: str) -> ExtractCandidate:
        """The candidate of ``item`` (as shown under ``condition``) and its response."""
        return cls(item.id, condition, item.question, dict(item.options), item.question_type,
                   response)

    @property
    def multi(self) -> bool:
        """Whether the reply may name several letters."""
        return self.question_type == "multi"


@dataclass(frozen=True)
class ExtractedBy:
    """Who read an extracted answer: the model spec, and the prompt's version and SHA-256."""

    model: str
    prompt_sha256: str
    prompt_version: int


@dataclass(frozen=True)
class Extraction:
    """The extractor's decision on one candidate.

    Attributes:
        item_id: the item.
        condition: the condition.
        choice: the letter (sorted letters for multi) it read; None for NONE or an error.
        status: ``rescued`` (a choice), ``none`` (the reply said NONE) or ``error`` (the
            request failed or the reply was outside the allowed set: never scored).
        reply: the raw reply, None when the request failed.
        error: what went wrong, for ``error``.
        extracted_by: model and prompt.
    """

    item_id: str
    condition: str
    choice: str | list[str] | None
    status: str
    reply: str | None
    error: str | None
    extracted_by: ExtractedBy

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready record (one line of an audit file)."""
        return {"item_id": self.item_id, "condition": self.condition, "choice": self.choice,
                "status": self.status, "reply": self.reply, "error": self.error,
                "extracted_by": {"model": self.extracted_by.model,
                                 "prompt_sha256": self.extracted_by.prompt_sha256,
                                 "prompt_version": self.extracted_by.prompt_version}}


@dataclass
class ExtractResult:
    """Every decision, and what to record about the extractor.

    Attributes:
        extractions: one per asked candidate, in the order asked.
        candidates: how many were offered (some may not have been asked: ``max_items``).
        provenance: model, parameters, whether decoding was constrained, prompt version, hash
            and source.
    """

    extractions: list[Extraction]
    candidates: int
    provenance: dict[str, Any] = field(default_factory=dict)

    @property
    def by_key(self) -> dict[tuple[str, str], Extraction]:
        """(item id, condition) → its extraction."""
        return {(e.item_id, e.condition): e for e in self.extractions}

    def counts(self) -> dict[str, int]:
        """``candidates``, ``asked``, ``rescued``, ``none``, ``errors``."""
        status = [e.status for e in self.extractions]
        return {"candidates": self.candidates, "asked": len(status),
                "rescued": status.count("rescued"), "none": status.count("none"),
                "errors": status.count("error")}


@dataclass(frozen=True)
class Extractor:
    """A checked extractor: the prompt read, the spec parsed, the constraint chosen."""

    config: ExtractConfig
    prompt: ExtractPrompt
    constrained: bool
    bench_dir: Path | None = None

    @property
    def extracted_by(self) -> ExtractedBy:
        """What every decision of this extractor records."""
        return ExtractedBy(self.config.llm.model, self.prompt.sha256, self.prompt.version)

    def model_config(self, letters: list[str], multi: bool) -> ModelConfig:
        """The call's :class:`ModelConfig`, constrained to ``letters`` (and NONE)."""
        settings = self.config.llm
        config = settings.model_config("answer_extract", extract_schema(letters, multi))
        return replace(config, max_tokens=min(settings.max_tokens, EXTRACT_MAX_TOKENS))


def eligible(parsed: ParsedAnswer) -> bool:
    """Whether the rules abstained for want of a reading (the only case an extractor is asked).

    >>> from medvqa.reading import abstain
    >>> eligible(abstain("no_answer")), eligible(abstain("hedge"))
    (True, False)
    >>> eligible(ParsedAnswer("A", False))
    False
    """
    return parsed.invalid and parsed.reason in WANTS_READING


def rescue(parsed: ParsedAnswer, extraction: Extraction | None) -> ParsedAnswer:
    """The answer after extraction: a rule decision always stands.

    Only a ``no_answer`` abstention takes the extractor's choice, and only when it named one.

    >>> from medvqa.reading import abstain
    >>> by = ExtractedBy("smollm2", "0" * 64, 1)
    >>> rescue(abstain("no_answer"), Extraction("q", "clean", "B", "rescued", "B", None, by))
    ParsedAnswer(choice='B', invalid=False, reason=None, rule='extractor')
    >>> rescue(abstain("hedge"), Extraction("q", "clean", "B", "rescued", "B", None, by)).invalid
    True
    """
    if extraction is None or not eligible(parsed) or extraction.status != "rescued":
        return parsed
    return ParsedAnswer(extraction.choice, False, None, "extractor")


def prepare_extractor(config: ExtractConfig, bench_dir: Path | None = None) -> Extractor:
    """Check the prompt and the model spec before anything is asked.

    Raises:
        BadInputError: one line — a prompt file or field missing, an unknown or malformed spec.
    """
    from medvqa.models import parse_model_spec

    prompt = load_extract_prompt(config.prompt_path)
    try:
        parse_model_spec(config.llm.model)
        constrained = bool(config.llm.model_config("answer_extract",
                                                   extract_schema(["A"], False)).extra)
    except ValueError as exc:
        raise BadInputError(f"--extract {config.llm.model!r}: {exc}") from None
    return Extractor(config, prompt, constrained, bench_dir)


def extract_answers(extractor: Extractor, candidates: list[ExtractCandidate],
                    cache_path: Path | None) -> ExtractResult:
    """Ask the extractor about each candidate (up to ``max_items``), grouped by allowed letters.

    Raises:
        BadInputError: the model cannot be loaded or its endpoint is unreachable (one line).
    """
    from medvqa.models import complete, load_model

    cap = extractor.config.max_items
    chosen = candidates if cap is None else candidates[:cap]
    groups: dict[tuple[tuple[str, ...], bool], list[int]] = defaultdict(list)
    for i, cand in enumerate(chosen):
        groups[(tuple(cand.options), cand.multi)].append(i)
    by = extractor.extracted_by
    out: list[Extraction | None] = [None] * len(chosen)
    llm = extractor.config.llm
    params: dict[str, Any] = {}
    for (letters, multi), members in groups.items():
        model_config = extractor.model_config(list(letters), multi)
        try:
            backend = load_model(model_config, bench_dir=extractor.bench_dir)
        except (ValueError, KeyError) as exc:
            raise BadInputError(f"--extract {llm.model!r}: {exc}") from None
        params = {k: v for k, v in backend.params.items()
                  if k not in {"json_schema", "response_format"}}
        requests = [_request(extractor.prompt, chosen[i]) for i in members]
        log.info("answer extractor %s: %d candidates with letters %s", llm.model, len(members),
                 "".join(letters))
        replies = complete(model_config, requests, cache_path, llm.concurrency, llm.max_retries,
                           backend=backend)
        for i, reply in zip(members, replies, strict=True):
            out[i] = _decide(chosen[i], reply.text, reply.error, list(letters), multi, by)
    return ExtractResult(
        extractions=[e for e in out if e is not None], candidates=len(candidates),
        provenance={"model": llm.model, "model_params": params,
                    "constrained": extractor.constrained, "max_items": cap,
                    **extractor.prompt.provenance()})


def _request(prompt: ExtractPrompt, cand: ExtractCandidate) -> GenerateRequest:
    text = set_aside_reasoning(cand.response).text
    return GenerateRequest(
        item_id=cand.item_id, condition=f"{EXTRACT_CONDITION}:{cand.condition}",
        prompt=render_extract(prompt, cand.question, cand.options, text, cand.multi),
        question_type="open", system=prompt.system)


def _decide(cand: ExtractCandidate, text: str | None, error: str | None, letters: list[str],
            multi: bool, by: ExtractedBy) -> Extraction:
    if error is not None or text is None:
        return Extraction(cand.item_id, cand.condition, None, "error", text,
                          error or "no reply", by)
    try:
        choice = read_reply(text, letters, multi)
    except ReplyError as exc:
        return Extraction(cand.item_id, cand.condition, None, "error", text, str(exc), by)
    status = "none" if choice is None else "rescued"
    return Extraction(cand.item_id, cand.condition, choice, status, text, None, by)
