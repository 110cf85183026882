"""Property tests: test_tiny takes whole cases and hits its size whenever some cases add up to
it; VLMEvalKit answer cells round-trip."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from medvqa.builders import Draft, assign_splits
from medvqa.interop._import_vlmevalkit import parse_answer
from medvqa.schema import Item


def _drafts(sizes: list[int]) -> list[Draft]:
    out = []
    for c, n in enumerate(sizes):
        for k in range(n):
            item = Item(
                id=f"{c}-{k}",
                question="q",
                options={"A": "x", "B": "y"},
                answer="A",
                question_type="single",
                case_id=f"c{c}",
                source="s",
                split="test",
            )
            out.append(Draft(item))
    return out


def _reachable(sizes: list[int], target: int) -> int:
    reach = {0}
    for n in sizes:
        reach |= {r + n for r in reach if r + n <= target}
    return max(reach)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=25), st.integers(1, 30), st.integers(0, 9))
def test_test_tiny_is_exact_when_possible(sizes: list[int], size: int, seed: int) -> None:
    drafts = _drafts(sizes)
    assign_splits(drafts, {"test": 1.0}, seed, test_tiny=size)
    tiny = [d.item for d in drafts if d.item.split == "test_tiny"]
    assert len(tiny) == _reachable(sizes, size)
    cases = {i.case_id for i in tiny}
    assert all(d.item.split == "test_tiny" for d in drafts if d.item.case_id in cases)


@given(st.sets(st.sampled_from("ABCDEFGH"), min_size=1))
def test_multi_answer_cell_round_trips(letters: set[str]) -> None:
    options = {c: c.lower() for c in "ABCDEFGH"}
    ordered = sorted(letters)
    assert parse_answer(",".join(ordered), "multi", options) == ordered
    assert parse_answer("".join(ordered), "multi", options) == ordered
