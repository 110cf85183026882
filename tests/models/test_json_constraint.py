"""Constrained decoding keeps the settings medvqa asks for: field order and the whitespace cap.

lm-format-enforcer's ``TokenEnforcer`` replaces its parser's config with one of its own; these
tests walk the real enforcer over a character-level tokenizer (one token per printable ASCII
character, so each step's allowed tokens are the allowed characters) and check what may come
next.
"""

from __future__ import annotations

import string

import numpy as np
import pytest

pytest.importorskip("lmformatenforcer")

from medvqa.curate.llm._qa import qa_json_schema  # noqa: E402
from medvqa.models._json_constraint import MAX_WHITESPACE_RUN, json_prefix_fn  # noqa: E402


class CharTokenizer:
    """Token ``i`` is the ``i``-th printable ASCII character; the last id is end-of-sequence."""

    chars = [c for c in string.printable if c not in "\x0b\x0c"]

    def __init__(self) -> None:
        self.eos_token_id = len(self.chars)
        self.all_special_ids = [self.eos_token_id]

    def __len__(self) -> int:
        return len(self.chars) + 1

    def encode(self, text: str) -> list[int]:
        return [self.chars.index(c) for c in text]

    def decode(self, tokens: list[int]) -> str:
        return "".join(self.chars[t] for t in tokens if t != self.eos_token_id)


def _next_chars(text: str) -> set[str]:
    tok = CharTokenizer()
    allowed = json_prefix_fn(tok, qa_json_schema("single"))
    sent = tok.encode("JSON:")  # the first call's sequence is the prompt
    ok = allowed(0, np.array(sent))
    for token in tok.encode(text):  # one generated token at a time, as generate() calls it
        assert token in ok, f"{text!r}: {tok.chars[token]!r} refused after {tok.decode(sent)!r}"
        sent.append(token)
        ok = allowed(0, np.array(sent))
    return {tok.chars[t] for t in ok if t != tok.eos_token_id}


def test_fields_come_in_the_order_the_schema_requires() -> None:
    assert _next_chars('{"') == {"q"}  # question_type, not answer or explanation
    assert "a" not in _next_chars('{"question_type": "single", "')
    assert _next_chars('{"question_type": "single", "question": "Why?", "options": {"') == {"A"}


def test_whitespace_runs_are_capped() -> None:
    assert " " in _next_chars("{" + " " * (MAX_WHITESPACE_RUN - 1))
    assert " " not in _next_chars("{" + " " * MAX_WHITESPACE_RUN)
