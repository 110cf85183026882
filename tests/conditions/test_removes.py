"""Every condition declares what it removes, from one vocabulary; scoring reads the declaration."""

from __future__ import annotations

import pytest

from medvqa.conditions import CONDITIONS, REMOVABLE, expand_conditions, get_condition, removes
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
    assert removes("no-such-condition") == frozenset()
