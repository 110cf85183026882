"""The blind sets are frozen, well formed, and the rules never read one worse than at first look."""

from __future__ import annotations

import pytest

from medvqa.measurements._blind_sets import blind_figures, blind_sets, read_figures

_SETS = blind_sets()


def test_at_least_two_sets_of_300_and_one_held_out():
    assert len(_SETS) >= 2 and all(len(s.rows) >= 300 for s in _SETS)
    assert any(s.role.startswith("held out") for s in _SETS)


@pytest.mark.parametrize("blind", _SETS, ids=[s.name for s in _SETS])
def test_every_record_is_well_formed(blind):
    ids = [r["id"] for r in blind.rows]
    assert len(ids) == len(set(ids))
    for r in blind.rows:
        want = r["intended"]
        if r["question_type"] == "multi" and want is not None:
            assert want == sorted(want) and set(want) <= set(r["options"]), r["id"]
        else:
            assert want is None or want in r["options"], r["id"]


@pytest.mark.parametrize("blind", _SETS, ids=[s.name for s in _SETS])
def test_the_rules_read_no_set_worse_than_at_first_look(blind):
    now, was = read_figures(blind.rows), blind.first_look
    assert now["false_credit"] <= was["false_credit"], (blind.name, now, was)
    assert now["wrong"] <= was["wrong"], (blind.name, now, was)
    assert now["read"] >= was["read"] - 0.02 * was["clear"], (blind.name, now, was)


def test_the_bench_prints_first_look_beside_current():
    names = [f.name for f in blind_figures()]
    assert all("first look" in n for n in names) and len(names) == 3 * len(_SETS)
