"""Reasoning models think aloud in ``<think>…</think>``; the answer is what follows.

The raw text is kept in predictions.jsonl (the thinking is evidence); only the parser sees the
stripped text, so a letter mentioned while thinking is never taken for the answer.
"""

from __future__ import annotations

OPEN, CLOSE = "<think>", "</think>"


def strip_thinking(text: str) -> str:
    """The answer part of a reasoning model's text.

    After the last ``</think>`` when there is one (some servers drop the opening tag); nothing
    after an unclosed ``<think>`` (the thinking was cut off by ``max_tokens``: no answer).

    >>> strip_thinking("<think>A looks wrong, so</think> B")
    'B'
    >>> strip_thinking("the options</think>C")
    'C'
    >>> strip_thinking("Answer: <think>A or")
    'Answer:'
    >>> strip_thinking("plain A")
    'plain A'
    """
    if CLOSE in text:
        return text.rpartition(CLOSE)[2].strip()
    if OPEN in text:
        return text.partition(OPEN)[0].strip()
    return text
