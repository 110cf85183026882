"""JSON extraction from replies, grounding checks and the --local-only guard (pure functions)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from medvqa.curate.llm import (
    answer_supported,
    check_local,
    extract_json,
    is_loopback_host,
    span_in_text,
)
from medvqa.errors import BadInputError

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda kids: (
        st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=5), kids, max_size=3)
    ),
    max_leaves=8,
)


@given(
    st.dictionaries(st.text(max_size=6), json_values, max_size=4),
    st.text(alphabet="abc :.\n", max_size=20),
)
def test_property_object_after_prose_is_recovered(obj: dict, prose: str) -> None:
    assert extract_json(f"{prose}```json\n{json.dumps(obj)}\n```") == obj


@pytest.mark.parametrize("text", ["", "no json here", '{"a": 1', '```json\n{"q": \n```'])
def test_no_complete_object_is_an_error(text: str) -> None:
    with pytest.raises(ValueError, match="no complete JSON"):
        extract_json(text)


def test_inner_object_of_a_truncated_reply_is_not_the_reply() -> None:
    with pytest.raises(ValueError, match="cut short"):
        extract_json('{"question": "Q?", "options": {"A": "x", "B": "y"}, "answer": "A", "expl')


def test_span_must_be_a_quote_of_the_report() -> None:
    report = "FINDINGS: A 7 mm solid nodule in the right upper lobe.\nIMPRESSION: Lung-RADS 3."
    assert span_in_text('"solid nodule in the right  upper lobe"', report)
    assert not span_in_text("spiculated nodule", report)
    assert not span_in_text("a", report)


def test_answer_support_needs_the_answer_words() -> None:
    assert answer_supported("Lung-RADS 4B", "IMPRESSION: Lung-RADS 4B.")
    assert not answer_supported("Left lower lobe", "nodule in the right upper lobe")


@pytest.mark.parametrize(
    "spec",
    [
        "smollm2",
        "random",
        "frequent",
        "hf:/models/x",
        "openai:m@http://127.0.0.1:8000/v1",
        "openai:m@http://[::1]:8/v1",
        "openai:m@http://localhost:11434/v1",
        "openai:m@http://127.8.9.1/v1",
    ],
)
def test_local_specs_are_allowed(spec: str) -> None:
    check_local(spec)


@pytest.mark.parametrize(
    "spec",
    [
        "openai:gpt-4o",
        "openai:m@https://api.openai.com/v1",
        "openai:m@http://10.0.0.5:8000/v1",
        "openai:m@http://myhost:8000/v1",
        "openai:m@http://127.0.0.1.example.com/v1",
        "anthropic:claude",
    ],
)
def test_remote_specs_are_refused(spec: str) -> None:
    with pytest.raises(BadInputError, match="--local-only"):
        check_local(spec)


@given(st.ip_addresses())
def test_property_loopback_iff_ip_is_loopback(ip) -> None:  # type: ignore[no-untyped-def]
    assert is_loopback_host(str(ip)) == ip.is_loopback
