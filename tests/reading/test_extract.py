"""The answer extractor core against a real loopback chat server (and, slow, the real SmolLM2):
constrained output, the run's cache, bad replies as per-item errors, one-line bad input."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from medvqa.errors import BadInputError
from medvqa.models import LLMSettings
from medvqa.reading import (
    ExtractCandidate,
    ExtractConfig,
    abstain,
    eligible,
    extract_answers,
    load_extract_prompt,
    make_parser,
    prepare_extractor,
    rescue,
)
from medvqa.reading._extract_prompt import ReplyError, read_reply
from medvqa.testing import ChatServer

CXR = {"A": "Pleural effusion", "B": "Pneumothorax", "C": "Pulmonary oedema"}
MM = {"A": "Mass", "B": "Calcification", "C": "Asymmetry"}


def _cand(i: int, response: str, options: dict[str, str] = CXR,
          qtype: str = "single") -> ExtractCandidate:
    return ExtractCandidate(f"q{i}", "clean", "What is the main finding?", options, qtype,
                            response)


def reader(prompt: str, body: dict) -> str:
    """A scripted extractor: reads the quoted reply and answers in the constrained shape."""
    reply = prompt.split('"""')[1]
    if "garbage" in reply:
        return "I think it is probably B, but who knows."
    if "second and third" in reply:
        return '{"answer": ["B", "C"]}'
    if "lung edge" in reply:
        return '{"answer": "B"}'
    if "letter Z" in reply:
        return '{"answer": "Z"}'
    return '{"answer": "NONE"}'


def _text(body: dict) -> str:
    """The user prompt of a request body (plain or as content parts)."""
    content = body["messages"][-1]["content"]
    return content if isinstance(content, str) else "".join(
        p.get("text", "") for p in content if p.get("type") == "text")


def _settings(url: str, **kw: object) -> LLMSettings:
    return LLMSettings(f"openai:reader@{url}", max_retries=0, timeout_s=10, **kw)  # type: ignore


def test_only_no_answer_abstentions_are_eligible() -> None:
    parser = make_parser("strict")
    assert eligible(parser.parse("The lung edge is visible at the apex.", CXR, "single"))
    for text in ("Pneumothorax cannot be excluded.", "I don't know.", "Not a pneumothorax.",
                 "Pleural effusion or pneumothorax.", "<think>B", "B"):
        assert not eligible(parser.parse(text, CXR, "single")), text


def test_constrained_replies_rescue_record_and_cache(tmp_path: Path) -> None:
    cands = [_cand(1, "The lung edge is visible at the apex."),
             _cand(2, "An opacity of uncertain nature."),
             _cand(3, "The second and third findings.", MM, "multi")]
    cache = tmp_path / "cache.sqlite"
    with ChatServer(reply=reader) as server:
        extractor = prepare_extractor(ExtractConfig(_settings(server.url)))
        result = extract_answers(extractor, cands, cache)
        sent = len(server.bodies)
        again = extract_answers(extractor, cands, cache)
        assert len(server.bodies) == sent == 3  # the second pass came from cache.sqlite
        bodies = list(server.bodies)
    assert [(e.choice, e.status) for e in result.extractions] == [
        ("B", "rescued"), (None, "none"), (["B", "C"], "rescued")]
    assert [e.as_dict() for e in again.extractions] == [e.as_dict() for e in result.extractions]
    schema = bodies[0]["response_format"]["json_schema"]["schema"]
    assert schema["properties"]["answer"]["enum"] == ["A", "B", "C", "NONE"]
    multi = next(b for b in bodies if "second and third" in _text(b))
    assert multi["response_format"]["json_schema"]["schema"]["properties"]["answer"]["type"] == \
        "array"
    by = result.extractions[0].extracted_by
    assert by.model.startswith("openai:reader@") and by.prompt_sha256 == \
        load_extract_prompt().sha256
    assert result.counts() == {"candidates": 3, "asked": 3, "rescued": 2, "none": 1,
                               "errors": 0}
    assert result.provenance["constrained"] and result.provenance["prompt_sha256"] == \
        by.prompt_sha256


def test_reasoning_is_set_aside_before_the_response_is_quoted(tmp_path: Path) -> None:
    with ChatServer(reply=reader) as server:
        extract_answers(prepare_extractor(ExtractConfig(_settings(server.url))),
                        [_cand(1, "<think>I bet it is A</think>The lung edge is visible.")],
                        tmp_path / "c.sqlite")
        prompt = _text(server.bodies[0])
    assert "I bet it is A" not in prompt and "lung edge" in prompt


def test_replies_outside_the_set_are_per_item_errors(tmp_path: Path) -> None:
    cands = [_cand(1, "garbage reply"), _cand(2, "The letter Z, clearly."),
             _cand(3, "The lung edge is visible.")]
    with ChatServer(reply=reader) as server:
        result = extract_answers(prepare_extractor(ExtractConfig(_settings(server.url))), cands,
                                 tmp_path / "c.sqlite")
    got = [(e.status, e.choice) for e in result.extractions]
    assert got == [("error", None), ("error", None), ("rescued", "B")]
    assert "outside the allowed answers" in (result.extractions[0].error or "")
    by = result.by_key
    assert not rescue(abstain("no_answer"), by[("q1", "clean")]).choice


def test_the_extractor_never_overrides_a_rule_decision(tmp_path: Path) -> None:
    with ChatServer(reply=reader) as server:
        result = extract_answers(prepare_extractor(ExtractConfig(_settings(server.url))),
                                 [_cand(1, "The lung edge is visible.")], tmp_path / "c.sqlite")
    decision = result.extractions[0]
    for ruled in (abstain("hedge"), abstain("refusal"), abstain("negated"),
                  abstain("ambiguous"), make_parser("strict").parse("A", CXR, "single")):
        assert rescue(ruled, decision) == ruled
    assert rescue(abstain("no_answer"), decision).choice == "B"


def test_unreachable_extractor_is_one_line(tmp_path: Path) -> None:
    extractor = prepare_extractor(ExtractConfig(_settings("http://127.0.0.1:9/v1")))
    with pytest.raises(BadInputError, match="unreachable") as err:
        extract_answers(extractor, [_cand(1, "The lung edge is visible.")], tmp_path / "c.db")
    assert "\n" not in str(err.value)


def test_bad_spec_is_refused_before_anything_is_asked() -> None:
    with pytest.raises(BadInputError, match=r"--extract 'smolm2'.*smollm2") as err:
        prepare_extractor(ExtractConfig(LLMSettings("smolm2")))
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("field", ["version", "system", "user"])
def test_prompt_with_a_missing_field_names_file_and_field(tmp_path: Path, field: str) -> None:
    data = {"version": 1, "system": "s", "user": "{response}"}
    del data[field]
    bad = tmp_path / "extract.yaml"
    bad.write_text(json.dumps(data))
    with pytest.raises(BadInputError, match=rf"extract\.yaml.*'{field}'") as err:
        prepare_extractor(ExtractConfig(LLMSettings("smollm2"), prompt_path=bad))
    assert "\n" not in str(err.value)


def test_prompt_with_an_unknown_placeholder_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "extract.yaml"
    bad.write_text("version: 1\nsystem: s\nuser: '{response} {gold}'\n")
    with pytest.raises(BadInputError, match=r"'user'.*gold"):
        load_extract_prompt(bad)


@given(text=st.text(max_size=60), multi=st.booleans())
def test_any_reply_reads_inside_the_set_or_is_an_error(text: str, multi: bool) -> None:
    letters = ["A", "B", "C"]
    try:
        got = read_reply(text, letters, multi)
    except ReplyError:
        return
    picked = got if isinstance(got, list) else [got]
    assert got is None or set(picked) <= set(letters)
    assert multi or not isinstance(got, list)


@pytest.mark.parametrize(("reply", "multi", "expected"), [
    ('{"answer": "C"}', False, "C"), ("B", False, "B"), ('"a"', False, "A"),
    ('```json\n{"answer": "NONE"}\n```', False, None), ('{"answer": ["NONE"]}', True, None),
    ('{"answer": ["C", "A"]}', True, ["A", "C"]),
])
def test_read_reply_accepts_the_constrained_shapes(reply: str, multi: bool, expected) -> None:
    assert read_reply(reply, ["A", "B", "C"], multi) == expected


@pytest.mark.parametrize(("reply", "multi"), [
    ('{"answer": "D"}', False), ('{"answer": ["A", "B"]}', False), ('{"answer": ["A", "NONE"]}',
                                                                    True),
    ('{"choice": "A"}', False), ("The answer is A.", False), ('{"answer": ["A", "A"]}', True),
    ("", False),
])
def test_read_reply_refuses_everything_else(reply: str, multi: bool) -> None:
    with pytest.raises(ReplyError):
        read_reply(reply, ["A", "B", "C"], multi)


@pytest.mark.slow
def test_real_smollm2_answers_inside_the_constrained_set(tmp_path: Path) -> None:
    """SmolLM2-135M with JSON-schema constrained decoding: every reply is a letter or NONE."""
    cands = [_cand(1, "The visceral pleural line with nothing beyond it settles it."),
             _cand(2, "The second and third are present.", MM, "multi")]
    extractor = prepare_extractor(ExtractConfig(LLMSettings("smollm2", batch_size=1)))
    assert extractor.constrained
    result = extract_answers(extractor, cands, tmp_path / "cache.sqlite")
    assert result.counts()["errors"] == 0
    for e, c in zip(result.extractions, cands, strict=True):
        picked = e.choice if isinstance(e.choice, list) else [e.choice]
        assert e.choice is None or set(picked) <= set(c.options)
        assert re.fullmatch(r"\s*\{.*\}\s*", e.reply or "", re.DOTALL)


def test_prompt_yaml_goes_through_the_shared_loader(tmp_path: Path) -> None:
    bomb = tmp_path / "extract.yaml"
    bomb.write_text("version: 1\nsystem: &s s\nuser: *s\n")
    with pytest.raises(BadInputError, match=r"extract\.yaml:2: an anchor \(&s\) is not read"):
        load_extract_prompt(bomb)
