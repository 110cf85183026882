"""Structures of a response: an inference log's fields, an answer given by index."""

from __future__ import annotations

from medvqa.reading import make_parser
from medvqa.reading._shapes import find_shapes

CXR = {"A": "Pleural effusion", "B": "Pneumothorax", "C": "Pulmonary oedema", "D": "Normal"}
MULTI = {"A": "Mass", "B": "Calcification", "C": "Architectural distortion", "D": "Asymmetry"}


def test_a_log_line_with_an_answer_field_is_a_structure_its_reference_set_aside() -> None:
    shapes = find_shapes("id=q7 pred=B gt=C latency=80ms")
    assert [s.kind for s in shapes] == ["log"]
    assert {leaf.path[0]: leaf.role for leaf in shapes[0].leaves}["gt"] == "other"
    parser = make_parser("strict")
    assert parser.parse("id=q7 pred=B gt=C correct=False", CXR, "single").choice == "B"
    assert parser.parse("sample=3 raw_output='C' latency=812ms", CXR, "single").choice == "C"
    assert parser.parse("case=9 pred=['A','D'] ref=['A']", MULTI, "multi").choice == ["A", "D"]
    assert find_shapes("x=1 y=2") == []  # no answer field: no structure


def test_an_index_counts_from_zero_or_one_so_only_its_ends_are_read() -> None:
    parser = make_parser("strict")
    assert parser.parse('{"index": 1}', CXR, "single").choice is None
    assert parser.parse('{"answer_idx": 0}', CXR, "single").choice == "A"
    assert parser.parse('{"answer_index": 4}', CXR, "single").choice == "D"
    # an index beside the answer is the sample's
    assert parser.parse('{"index": 17, "answer": "B"}', CXR, "single").choice == "B"


def test_a_log_line_with_an_empty_quoted_answer_is_read_without_failing():
    from medvqa.reading import make_parser

    options = {"A": "Yes", "B": "No"}
    got = make_parser("strict").parse('id=7 pred="" gt="B"', options, "yesno")
    assert got.choice is None
    got = make_parser("strict").parse("id=7 pred='' gt=B", options, "yesno")
    assert got.choice is None
