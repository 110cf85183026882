"""Every condition declares what it removes, from one vocabulary; scoring reads the declaration."""

from __future__ import annotations

import pytest

from medvqa.conditions import (
    CONDITIONS,
    REMOVABLE,
    baseline_of,
    describe,
    expand_conditions,
    get_condition,
)
from medvqa.score._failure_modes import out_of_domain, shows_no_image


@pytest.mark.parametrize("family", CONDITIONS.names())
def test_every_condition_declares_what_it_removes(family: str) -> None:
    for name in expand_conditions([family])[:3]:
        taken = get_condition(name).removes
        assert taken <= REMOVABLE
        assert bool(taken) == (family != "clean")


def test_scoring_reads_the_declaration() -> None:
    assert [shows_no_image(c) for c in ("blind", "noise", "text-only", "ood", "swap")] == [
        True, True, True, False, False]
    assert out_of_domain("ood") and not out_of_domain("corrupt:jpeg@3")
    assert describe("no-such-condition").removes == frozenset()
    assert not describe("no-such-condition").baseline


def test_what_scoring_derives_comes_from_the_classes() -> None:
    """Baseline, severity curves and combined conditions are declared, not read off names."""
    assert baseline_of(["swap", "clean", "blind"]) == "clean"
    assert baseline_of(["swap", "permute@0"]) is None  # permute@0 removes the options' order
    assert describe("corrupt:motion@5").curve == ("motion", 5)
    assert describe("blind:grey").curve is None
    assert {describe(f"permute@{k}").combined_as for k in range(3)} == {"permute"}
    assert describe("swap").combined_as == ""
