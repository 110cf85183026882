"""Choice questions: seeded phrasing, seeded option order and balanced answer letters.

Phrasing is chosen with the seed, options shuffled with the seed, and answer letters balanced
over a topic (each letter is the answer about equally often).
"""

from __future__ import annotations

import string

import numpy as np

from medvqa.rng import rng_for

LETTERS = string.ascii_uppercase


def choose_question(questions: list[str], seed: int, item_id: str) -> str:
    """One phrasing, chosen by ``(seed, item_id)``."""
    if len(questions) == 1:
        return questions[0]
    return questions[int(rng_for(seed, item_id, "question").integers(len(questions)))]


def balanced_positions(n: int, k: int, seed: int, topic: str) -> list[int]:
    """``n`` answer positions in ``0..k-1``, so letter counts are balanced by construction.

    Each position is used ``n // k`` or ``n // k + 1`` times, in a seeded order.
    """
    if n == 0:
        return []
    base = np.arange(n) % k
    return [int(p) for p in rng_for(seed, topic, "positions").permutation(base)]


def single_options(
    answer: str,
    choices: list[str],
    position: int | None,
    seed: int,
    item_id: str,
    max_options: int = 0,
) -> tuple[dict[str, str], str]:
    """Options (letter → text) and the answer letter for a one-answer question.

    Args:
        answer: the correct option text (must be in ``choices``).
        choices: every option text in canonical order.
        position: where the answer goes (0-based); None keeps canonical order (grades).
        seed: build seed.
        item_id: item id (distractor order and sampling depend on it).
        max_options: keep at most this many options (answer plus sampled distractors); 0 = all.

    """
    rng = rng_for(seed, item_id, "options")
    others = [c for c in choices if c != answer]
    if max_options and len(others) > max_options - 1:
        keep = sorted(rng.choice(len(others), size=max_options - 1, replace=False).tolist())
        others = [others[i] for i in keep]
    if position is None:
        keep_set = set(others) | {answer}
        ordered = [c for c in choices if c in keep_set]
    else:
        others = [others[i] for i in rng.permutation(len(others))]
        position = min(position, len(others))
        ordered = others[:position] + [answer] + others[position:]
    options = {LETTERS[i]: text for i, text in enumerate(ordered)}
    letter = LETTERS[ordered.index(answer)]
    return options, letter


def multi_options(
    answers: list[str], choices: list[str], shuffle: bool, seed: int, item_id: str
) -> tuple[dict[str, str], list[str]]:
    """Options and the sorted answer letters for a multi-label question."""
    order = list(choices)
    if shuffle:
        order = [order[i] for i in rng_for(seed, item_id, "options").permutation(len(order))]
    options = {LETTERS[i]: text for i, text in enumerate(order)}
    letters = sorted(LETTERS[order.index(a)] for a in answers)
    return options, letters
