"""Which split an lmms-eval log that numbers its documents was run on: checked, never assumed."""

from __future__ import annotations

from pathlib import Path

import pytest

from medvqa.errors import BadInputError
from medvqa.interop._imported import Imported
from medvqa.interop._positions import choose_split
from medvqa.schema import Item

LOG = Path("samples_x.jsonl")


def _items() -> dict[str, Item]:
    opts = {"A": "yes", "B": "no"}
    rows = [("t0", "test", "A"), ("t1", "test", "B"), ("v0", "val", "B"), ("v1", "val", "A")]
    return {i: Item(id=i, question=f"Is {i} abnormal?", options=opts, answer=a,
                    question_type="yesno", split=s) for i, s, a in rows}


def _log(split: str = "", targets: str = "BA", prompts: bool = True) -> list[Imported]:
    ids = ["v0", "v1"]
    return [Imported(f"#{n}", "A", split=split, target=t,
                     prompt=f"Question: Is {ids[n]} abnormal?" if prompts else None)
            for n, t in enumerate(targets)]


def test_the_one_split_that_fits_is_found() -> None:
    got = choose_split(_log(), _items(), None, "test", LOG)
    assert (got.split, got.how, got.checked) == ("val", "matched", 2)


def test_the_split_the_log_names_is_checked() -> None:
    assert choose_split(_log("val"), _items(), None, "test", LOG).how == "named"
    with pytest.raises(BadInputError, match="own arguments name 'test', but 2 of 2 samples"):
        choose_split(_log("test"), _items(), None, "test", LOG)


def test_a_split_the_benchmark_lacks_is_named() -> None:
    with pytest.raises(BadInputError, match="has no 'train' items .it has test, val.; they fit "
                                            "split 'val'"):
        choose_split(_log(), _items(), "train", "test", LOG)


def test_nothing_logged_to_check_falls_back_to_the_default() -> None:
    bare = [Imported("#0", "A"), Imported("#1", "B")]
    assert choose_split(bare, _items(), None, "test", LOG).split == "test"
    assert choose_split([Imported("lung-001", "A")], _items(), None, "test", LOG).split is None


def test_several_splits_fitting_take_the_default_or_ask() -> None:
    # Targets alone (no prompts): B, A fits val; A, B fits test; "A", "B" fits test only.
    assert choose_split(_log(targets="AB", prompts=False), _items(), None, "test",
                        LOG).split == "test"
    items = _items()
    items["v0"] = items["v0"].model_copy(update={"answer": "A"})
    items["v1"] = items["v1"].model_copy(update={"answer": "B"})
    with pytest.raises(BadInputError, match="fit several splits .test, val.; say which"):
        choose_split(_log(targets="AB", prompts=False), items, None, None, LOG)
