"""Sending a run's requests: build what is still to do, send it, journal answers as they arrive.

:class:`RequestSender` turns the selection into requests (skipping what the journal already
holds), hands them to :func:`~medvqa.run.complete_requests` (cache, concurrency, retries),
and commits every answer to the journal as it arrives. Failures found before sending (a prompt
that cannot be rendered, an image that leaves the benchmark or does not decode, a condition
that cannot transform an image) are that item's error; the rest of the run goes on.

The run stops early, instead of recording the same failure for every item, when the endpoint
refuses the key (401/403: :class:`~medvqa.models.EndpointAuthError` stops everything at once,
like an unreachable endpoint) or when the first ``SendSettings.stop_after_failures`` requests
sent all failed without one success.
"""

from __future__ import annotations

import json
import logging
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from medvqa.benchmark import ImageInput, ImageLoader, ImageLoadError, PromptError, render_prompt
from medvqa.conditions import Condition
from medvqa.errors import BadInputError
from medvqa.models import (
    Completion,
    EndpointAuthError,
    EndpointUnreachableError,
    GenerateRequest,
    ModelBackend,
    ResponseCache,
    RetryPolicy,
    complete_requests,
)
from medvqa.run._journal import JournalRow, PredictionJournal
from medvqa.run._selection import ItemSelection
from medvqa.schema import Item

log = logging.getLogger(__name__)

#: Distinct error messages kept for the summary.
KEPT_MESSAGES = 5


class RunStoppedError(BadInputError):
    """The run stopped early because the endpoint refused or failed every request."""


@dataclass(frozen=True)
class SendSettings:
    """How requests are sent.

    Attributes:
        concurrency: most requests in flight.
        policy: retries, backoff and timeout.
        retry_errors: ask again the (item, condition) pairs whose prediction is an error.
        stop_after_failures: stop when this many requests were sent and every one failed
            (0 = never stop).

    """

    concurrency: int
    policy: RetryPolicy
    retry_errors: bool = False
    stop_after_failures: int = 50


@dataclass
class SendCounts:
    """What one invocation sent, and how it went (filled as answers arrive).

    ``errors`` counts every error recorded; ``unsent_errors`` those found before a request
    could be built (a prompt that does not render, an image that does not load), which were
    never sent.
    """

    selected: int = 0
    already_done: int = 0
    sent: int = 0
    cached: int = 0
    errors: int = 0
    sent_ok: int = 0
    completed: int = 0
    unsent_errors: int = 0

    def __post_init__(self) -> None:
        self.messages: list[str] = []

    def note(self, message: str | None) -> None:
        """Keep the first few distinct error messages."""
        if message and len(self.messages) < KEPT_MESSAGES and message not in self.messages:
            self.messages.append(message)


def build_request(
    item: Item, cond: Condition, template: Any, loader: ImageLoader, text_only: bool
) -> GenerateRequest:
    """Build the request for one item under one condition (no copies beyond the condition's).

    Raises:
        PromptError: the prompt cannot be rendered.
        ImageLoadError: an image leaves the benchmark folder, is missing or does not decode.

    """
    shown = cond.transform_item(item)
    prompt = render_prompt(shown, template)
    images: tuple[ImageInput, ...] = ()
    if not text_only and item.images:
        loaded = loader.load_all(item.images)
        try:
            images = cond.transform_images(item, loaded) or ()
        except Exception as exc:  # noqa: BLE001 - one bad image must not stop the run
            raise ImageLoadError(
                f"condition {cond.name} could not transform the image of {item.id}: "
                f"{type(exc).__name__}: {exc}"
            ) from None
    return GenerateRequest(
        item_id=item.id,
        condition=cond.name,
        prompt=prompt,
        images=images,
        options=shown.options,
        question_type=shown.question_type,
        system=None,
    )


class RequestSender:
    """Sends the requests of one invocation and journals the answers.

    Args:
        model: a started backend.
        conditions: the run's conditions, in order.
        template: the prompt template.
        loader: reads the benchmark's images.
        journal: the run's journal (what is already done, where answers go).
        cache: the response cache.
        settings: how to send.

    """

    def __init__(
        self,
        model: ModelBackend,
        conditions: list[Condition],
        template: Any,
        loader: ImageLoader,
        journal: PredictionJournal,
        cache: ResponseCache,
        settings: SendSettings,
    ) -> None:
        self.model = model
        self.conditions = conditions
        self.template = template
        self.loader = loader
        self.journal = journal
        self.cache = cache
        self.settings = settings
        self.text_only = bool(model.info.get("text_only", False))
        self.counts = SendCounts()
        self._order: dict[int, tuple[int, int]] = {}  # request index -> (line, condition)
        # Failures found before sending; appended by the request builder in a worker thread,
        # drained on the event loop (deque append and popleft are thread-safe).
        self._immediate: deque[JournalRow] = deque()

    def _requests(
        self, selection: Iterable[tuple[int, Item]]
    ) -> Iterator[GenerateRequest]:
        include_errors = not self.settings.retry_errors
        index = 0
        for lineno, item in selection:
            for ci, cond in enumerate(self.conditions):
                if not cond.applies_to(item):
                    continue
                self.counts.selected += 1
                if self.journal.is_done(item.id, cond.name, include_errors=include_errors):
                    self.counts.already_done += 1
                    continue
                try:
                    req = build_request(item, cond, self.template, self.loader, self.text_only)
                except (PromptError, ImageLoadError) as exc:
                    self._immediate.append(
                        JournalRow(item.id, cond.name, lineno, ci, None, 0.0, str(exc))
                    )
                    continue
                self._order[index] = (lineno, ci)
                index += 1
                yield req

    def _flush_immediate(self) -> None:
        rows = [self._immediate.popleft() for _ in range(len(self._immediate))]
        if rows:
            self.journal.add_many(rows)
            self.counts.completed += len(rows)
            self.counts.errors += len(rows)
            self.counts.unsent_errors += len(rows)
            for r in rows:
                self.counts.note(r.error)

    def _journal(self, batch: list[Completion]) -> None:
        rows = []
        for c in batch:
            lineno, ci = self._order.pop(c.index)
            r = c.response
            rows.append(JournalRow(c.request.item_id, c.request.condition, lineno, ci, r.text,
                                   r.latency_s, r.error,
                                   json.dumps(r.sent, sort_keys=True) if r.sent else None))
            if c.cached:
                self.counts.cached += 1
            else:
                self.counts.sent += 1
                self.counts.sent_ok += r.error is None
            if r.error is not None:
                self.counts.errors += 1
                self.counts.note(r.error)
        self.journal.add_many(rows)
        self.counts.completed += len(batch)

    def _check_failing(self) -> None:
        """Stop when every one of the first N requests sent failed."""
        n = self.settings.stop_after_failures
        c = self.counts
        if n and c.sent >= n and c.sent_ok == 0:
            first = c.messages[0] if c.messages else "unknown error"
            raise RunStoppedError(
                f"stopped after the first {c.sent} requests sent all failed (first error: "
                f"{first}); nothing was answered, so the rest was not sent"
            )

    async def send(
        self,
        selection: ItemSelection,
        progress: Callable[[SendCounts], None] | None = None,
        ahead: Any = None,
    ) -> SendCounts:
        """Send what is still to do; ``progress`` is called after each batch of answers.

        ``ahead`` (:func:`medvqa.run._perturb_ahead.perturb_ahead`'s result, or None) perturbs
        the next block's images in worker processes while this block is sent; it is closed
        here.

        Raises:
            BadInputError: the endpoint went away or refused the key (names the URL), or every
                request sent so far failed (:class:`RunStoppedError`). What was answered
                before is in the journal.

        """
        include_errors = not self.settings.retry_errors
        try:
            async for batch in complete_requests(
                self.model,
                self._requests(ahead.items(selection) if ahead is not None else selection),
                self.cache,
                concurrency=self.settings.concurrency,
                policy=self.settings.policy,
                reuse_errors=include_errors,
            ):
                self._journal(batch)
                self._flush_immediate()
                if progress is not None:
                    progress(self.counts)
                self._check_failing()
        except EndpointAuthError as exc:
            raise RunStoppedError(f"model endpoint refused the key: {exc}") from None
        except EndpointUnreachableError as exc:
            raise BadInputError(f"model endpoint unreachable: {exc}") from None
        finally:
            self._flush_immediate()
            if ahead is not None:
                ahead.close()
        if progress is not None:
            progress(self.counts)
        return self.counts
