"""Structured LLM calls for the builders: prompt → JSON → validated value, retried when invalid.

Every call goes through :func:`medvqa.run.complete`, so generation uses the same backends, SQLite
cache and transport retries as ``medvqa run``. On top of that, a reply that is not valid JSON or
fails validation is asked again with the validation error appended to the prompt (a different
prompt, so a greedy model can answer differently and the cache key changes), at most
``tries`` times in all; then the task is dropped and its last error kept for the count.
Where the backend supports it the reply is constrained to the JSON schema while it is decoded
(lm-format-enforcer for local transformers models, ``response_format`` for OpenAI-compatible
servers); validation still runs, because truncation can cut a constrained document short.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from pydantic import ValidationError

from medvqa.curate.llm._jsontext import extract_json
from medvqa.curate.llm._local import check_local
from medvqa.models import GenerateRequest, LLMSettings, ModelConfig

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Appended to the prompt when a reply is asked again.
REPAIR_NOTE = (
    "\n\nYour previous reply could not be used: {error}. "
    "Reply again with one JSON object only, following the instructions above."
)


@dataclass(frozen=True)
class Task:
    """One prompt to answer; ``key`` names it in outcomes and cache conditions.

    ``json_schema``, when set, replaces the call's schema for this task (e.g. an evidence
    field constrained to quotes of this task's report).
    """

    key: str
    prompt: str
    system: str | None = None
    json_schema: dict[str, Any] | None = field(default=None, compare=False)


@dataclass
class Outcome(Generic[T]):
    """What came of one task.

    Attributes:
        key: the task key.
        value: the validated value, or None when every attempt failed.
        raw: the last raw reply.
        attempts: replies requested (1 … tries).
        error: why the last attempt was rejected (None when ``value`` is set).
        prompt_sha256: SHA-256 of the first prompt (system + user), for provenance.
        errors: every rejection reason, in order.
    """

    key: str
    value: T | None
    raw: str | None
    attempts: int
    error: str | None
    prompt_sha256: str
    errors: list[str] = field(default_factory=list)


def prompt_sha256(task: Task) -> str:
    """Hex SHA-256 of the task's system and user prompt."""
    return hashlib.sha256(f"{task.system or ''}\x1f{task.prompt}".encode()).hexdigest()


def _short(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(object)"
        return f"{where}: {first['msg'].removeprefix('Value error, ')}"
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def generate_structured(
    settings: LLMSettings,
    purpose: str,
    tasks: Sequence[Task],
    parse: Callable[[Task, Any], T],
    json_schema: dict[str, Any] | None = None,
) -> list[Outcome[T]]:
    """Answer every task with a validated value or a counted failure (see module docstring).

    Args:
        settings: model and generation settings.
        purpose: short name of the call (``qa``, ``judge``, ``extract``…), part of the cache
            condition so different uses of one prompt never share a cache entry.
        tasks: prompts to answer.
        parse: turns (task, decoded JSON) into a value; raises ValueError (or a pydantic
            ValidationError) to reject the reply with a reason.
        json_schema: JSON schema the reply must follow, for constrained decoding.

    Returns:
        One outcome per task, in input order.

    Raises:
        BadInputError: ``local_only`` is set and the model is not local (nothing is sent), or
            the endpoint is unreachable.
    """
    from medvqa.models import complete

    if settings.local_only:
        check_local(settings.model)
    configs: dict[str, ModelConfig] = {}
    outcomes = [Outcome[T](t.key, None, None, 0, None, prompt_sha256(t)) for t in tasks]
    pending = list(range(len(tasks)))
    for attempt in range(max(1, settings.tries)):
        if not pending:
            break
        # Tasks that share a schema share one call (and batches); others get their own.
        groups: dict[str, list[int]] = {}
        for i in pending:
            schema = tasks[i].json_schema or json_schema
            key = json.dumps(schema, sort_keys=True) if schema is not None else ""
            if key not in configs:
                configs[key] = settings.model_config(purpose, schema)
            groups.setdefault(key, []).append(i)
        responses: dict[int, Any] = {}
        for key, members in groups.items():
            requests = []
            for i in members:
                task, prev = tasks[i], outcomes[i].error
                prompt = task.prompt + (REPAIR_NOTE.format(error=prev) if prev else "")
                requests.append(
                    GenerateRequest(
                        item_id=task.key,
                        condition=f"{purpose}@{attempt}",
                        prompt=prompt,
                        system=task.system,
                        question_type="open",
                    )
                )
            got = complete(
                configs[key],
                requests,
                settings.cache_path,
                settings.concurrency,
                settings.max_retries,
            )
            responses.update(zip(members, got, strict=True))
        still = []
        for i in pending:
            out, resp = outcomes[i], responses[i]
            out.attempts, out.raw = attempt + 1, resp.text
            try:
                if resp.text is None:
                    raise ValueError(f"model error: {resp.error}")
                out.value, out.error = parse(tasks[i], extract_json(resp.text)), None
            except (ValueError, ValidationError, TypeError, KeyError) as exc:
                out.error = _short(exc)
                out.errors.append(out.error)
                still.append(i)
        log.info(
            "%s attempt %d: %d of %d valid",
            purpose,
            attempt + 1,
            len(pending) - len(still),
            len(pending),
        )
        pending = still
    return outcomes
