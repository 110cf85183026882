"""A build names every dropped generation and why, one line each, up to a limit."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from medvqa.curate.llm import DROPPED_FILE, drop_lines


def _record(n: int) -> dict[str, str]:
    return {"key": f"c{n}:single", "stage": "check", "reason": "degenerate_options",
            "detail": "options: option texts\nare option letters"}


def test_each_drop_is_one_line_with_its_reason() -> None:
    (line,) = drop_lines([_record(0)])
    assert line == ("dropped c0:single (check, degenerate options): options: option texts "
                    "are option letters")


@given(st.integers(0, 60), st.integers(1, 30))
def test_every_drop_is_named_or_counted(n: int, limit: int) -> None:
    lines = drop_lines([_record(i) for i in range(n)], limit)
    named = [line for line in lines if line.startswith("dropped ")]
    assert len(named) == min(n, limit)
    assert all("\n" not in line for line in lines)
    if n > limit:
        assert lines[-1] == f"… and {n - limit} more dropped (every one in {DROPPED_FILE})"
    else:
        assert len(lines) == n
