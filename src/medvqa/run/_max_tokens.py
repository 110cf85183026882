"""The default ``--max-tokens`` of a run: short for closed questions, LMOD's 512 for generation.

A closed question (one letter, yes/no, a grade) needs a few tokens, and a low cap keeps a
rambling model cheap; an open answer or a list of regions needs room, and LMOD generates up to
512 tokens for every task. So a run that does not set ``--max-tokens`` gets
:data:`GENERATION_MAX_TOKENS` when the benchmark has generation questions and
:data:`CLOSED_MAX_TOKENS` otherwise; the value used is recorded in run.json like any other.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from medvqa.errors import MedvqaError
from medvqa.schema import BENCHMARK_FILE, ITEMS_FILE, Benchmark, read_json

#: Question types whose answer is generated text rather than a choice.
GENERATION_TYPES = frozenset({"open", "region"})
#: Cap for benchmarks of closed questions only.
CLOSED_MAX_TOKENS = 64
#: Cap for benchmarks with generation questions (LMOD's setting).
GENERATION_MAX_TOKENS = 512


def max_tokens_for(question_types: Iterable[str]) -> int:
    """The cap for a benchmark with these question types.

    >>> max_tokens_for(["single", "yesno"]), max_tokens_for(["yesno", "open"])
    (64, 512)
    """
    return GENERATION_MAX_TOKENS if GENERATION_TYPES & set(question_types) else CLOSED_MAX_TOKENS


def default_max_tokens(bench_dir: Path) -> int:
    """The cap for the benchmark in ``bench_dir``.

    Read from the card's ``counts.by_question_type`` (written by every builder); a hand-made
    card without it is answered from items.jsonl. A missing or unreadable benchmark gives the
    closed-question cap: the run itself then reports what is wrong with it.
    """
    try:
        card = read_json(Path(bench_dir) / BENCHMARK_FILE, Benchmark)
    except (OSError, MedvqaError):  # the runner names the problem; this only picks a default
        return CLOSED_MAX_TOKENS
    by_type = card.counts.get("by_question_type")
    if isinstance(by_type, dict) and by_type:
        return max_tokens_for(by_type)
    from medvqa.benchmark import iter_items

    items = Path(bench_dir) / ITEMS_FILE
    if not items.is_file():
        return CLOSED_MAX_TOKENS
    return max_tokens_for({item.question_type for _, item in iter_items(items, [])})
