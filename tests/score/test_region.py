"""LMOD region recognition (seed 002, §4.2): the reader and hand-computed golden scores."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from medvqa.reading import make_parser, read_regions, region_scores
from medvqa.schema import Item, Prediction
from medvqa.score._block import metrics_block
from medvqa.score._rows import score_row

GOLD = {"1": "optic disc", "2": "optic cup", "5": "macula"}
# (response, precision, recall, F1, HR) — computed by hand from LMOD's definitions:
# P = predicted regions, C = those with an ID on the image AND its type, T = regions on it;
# precision |C|/|P|, recall |C|/|T|, HR 1 − |P ∖ T|/|P|.
GOLDEN = [
    ("Region ID: 1; Type: optic disc\nRegion ID: 2; Type: optic cup\nRegion ID: 5; Type: macula",
     1.0, 1.0, 1.0, 1.0),
    # IDs right, types swapped: nothing correctly typed, nothing hallucinated.
    ("Region ID: 1; Type: optic cup\nRegion ID: 2; Type: optic disc", 0.0, 0.0, 0.0, 1.0),
    # One right, one ID that is not on the image: P 1/2, R 1/3, F1 0.4, HR 1/2.
    ("Region ID: 1; Type: optic disc\nRegion ID: 4; Type: macula", 0.5, 1 / 3, 0.4, 0.5),
    ("Region ID: 17; Type: banana", 0.0, 0.0, 0.0, 0.0),
    # Three IDs sharing one type: only region 1 is a disc.
    ("Region ID: 1, 2, 5; Type: optic disc", 1 / 3, 1 / 3, 1 / 3, 1.0),
    ("Region ID: 1; Type: Optic-Disc.", 1.0, 1 / 3, 0.5, 1.0),
    # Region 2 without a type is predicted but not correctly typed.
    ("Region ID: 2\nRegion ID: 5; Type: macula", 0.5, 1 / 3, 0.4, 1.0),
    # One line, two fields; the second type contains the word "region".
    ("Region ID: 5; Type: macula, Region ID: 9; Type: macular region", 0.5, 1 / 3, 0.4, 0.5),
    # The same ID with two types counts once, untyped.
    ("Region ID: 1; Type: optic disc\nRegion ID: 1; Type: optic cup", 0.0, 0.0, 0.0, 1.0),
]


@pytest.mark.parametrize(("response", "precision", "recall", "f1", "hr"), GOLDEN,
                         ids=[g[0][:36] for g in GOLDEN])
def test_region_golden_scores(response, precision, recall, f1, hr):
    s = region_scores(read_regions(response), GOLD)
    assert s == pytest.approx((precision, recall, f1, hr))


@pytest.mark.parametrize("response", [
    "I cannot identify the 2 regions in this image.", "The image is 512x512 pixels.", "2 and 7",
    "", "No image was provided, so no regions can be typed.", "Type: optic disc",
    "I'm sorry, but Region ID: 1; Type: optic disc",
])
def test_region_reads_nothing_from_refusals_and_other_numbers(response):
    assert read_regions(response) is None
    assert make_parser("region").parse(response, {}, "region").invalid
    s = region_scores(read_regions(response), GOLD)
    assert (s.precision, s.recall, s.f1) == (0.0, 0.0, 0.0)
    assert math.isnan(s.hallucination_resistance)  # undefined, never a perfect 1


def test_region_reader_forms():
    assert read_regions("Region 3: Optic disc; Region #4 - Type: cup") == {"3": "optic disc",
                                                                          "4": "cup"}
    assert read_regions("Region IDs: 03 and 5; Type: macula.") == {"3": "macula", "5": "macula"}


def _item(iid: str, case: str) -> Item:
    return Item(id=iid, question="Type each region.", options={}, answer=["1", "2", "5"],
                question_type="region", case_id=case,
                meta={"regions": [{"id": k, "type": v} for k, v in GOLD.items()]})


def test_region_rows_and_block_count_invalid_and_leave_it_out_of_hr():
    parser = make_parser("region")
    right = score_row(_item("a", "p1"), Prediction(item_id="a", response=GOLDEN[0][0]), parser)
    banana = score_row(_item("b", "p2"), Prediction(item_id="b", response="Region ID: 17; "
                                                    "Type: banana"), parser)
    refused = score_row(_item("c", "p3"), Prediction(item_id="c", response="I cannot tell."),
                        parser)
    assert right.correct and not banana.correct and not refused.correct
    assert refused.invalid and not banana.invalid
    block = metrics_block([right, banana, refused], 199, 0, True)
    assert block.invalid_rate.value == pytest.approx(1 / 3)
    assert block.region["precision"].value == pytest.approx(1 / 3)  # (1 + 0 + 0) / 3
    assert block.region["hallucination_resistance"].value == pytest.approx(0.5)  # (1 + 0) / 2


def test_ids_right_types_wrong_is_not_correct():
    row = score_row(_item("a", "p1"), Prediction(item_id="a", response=GOLDEN[1][0] +
                                                 "\nRegion ID: 5; Type: optic disc"),
                    make_parser("region"))
    assert row.choice == ["1", "2", "5"] and not row.correct


@settings(max_examples=100, deadline=None)
@given(pred=st.dictionaries(st.sampled_from("123456789"), st.sampled_from(
    ["optic disc", "optic cup", "macula", None])), gold=st.dictionaries(
    st.sampled_from("123456789"), st.sampled_from(["optic disc", "optic cup", "macula"]),
    min_size=1))
def test_region_scores_are_bounded_and_hr_is_id_precision(pred, gold):
    s = region_scores(pred, gold)
    assert all(0.0 <= v <= 1.0 for v in (s.precision, s.recall, s.f1))
    if pred:
        assert s.precision <= s.hallucination_resistance  # typed ⊆ existing IDs
        assert s.hallucination_resistance == pytest.approx(
            sum(k in gold for k in pred) / len(pred))
    else:
        assert math.isnan(s.hallucination_resistance)
