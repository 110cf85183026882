"""Condition names: parse, expand and look up (``medvqa run --conditions …``).

Concrete names, as written in predictions.jsonl: ``clean``, ``blind``, ``blind:grey``,
``noise``, ``text-only``, ``corrupt:NAME@S`` (S = 1–5), ``swap``, ``permute@K``, ``ood``.
Specs may abbreviate families: ``corrupt:all@1-5`` (every corruption at every severity),
``corrupt:jpeg`` (severities 1–5), ``corrupt:all@3``, ``permute`` (shifts 0 … 9, enough for ten
options; ``permute@0-K`` for more), ``permute@0-3``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import NamedTuple

from medvqa._registry import Registry
from medvqa.conditions._base import Condition
from medvqa.conditions._corruptions import CORRUPTIONS, SEVERITIES
from medvqa.conditions._table import CONDITIONS

#: Shifts that ``permute`` expands to: items with up to this many options get every shift.
DEFAULT_PERMUTE_SHIFTS = 10

#: Only for its "did you mean …?" errors: the corruptions themselves live in CORRUPTIONS.
CORRUPTION_NAMES: Registry[str] = Registry("corruption", {k: "" for k in CORRUPTIONS})


def check_corruption(name: str) -> None:
    """Raise UnknownNameError (with close matches) unless ``name`` is a corruption."""
    if name not in CORRUPTIONS:
        CORRUPTION_NAMES.get(name)


def split_name(name: str) -> tuple[str, str, str]:
    """``"corrupt:jpeg@3"`` → ``("corrupt", "jpeg", "3")``; missing parts are ``""``.

    >>> split_name("permute@2")
    ('permute', '', '2')
    """
    head, _, param = name.strip().partition("@")
    family, _, variant = head.partition(":")
    return family.strip(), variant.strip(), param.strip()


def _int_range(text: str, what: str) -> list[int]:
    """``"3"`` → [3]; ``"1-5"`` → [1, 2, 3, 4, 5]."""
    lo, dash, hi = text.partition("-")
    try:
        a, b = int(lo), int(hi) if dash else int(lo)
    except ValueError:
        raise ValueError(f"{what}: {text!r} is not a number or a range like 1-5") from None
    if b < a:
        raise ValueError(f"{what}: empty range {text!r}")
    return list(range(a, b + 1))


def expand_conditions(specs: list[str]) -> list[str]:
    """Concrete condition names for the specs, in order, without duplicates.

    >>> expand_conditions(["clean", "corrupt:jpeg@2-3", "permute@0-1"])
    ['clean', 'corrupt:jpeg@2', 'corrupt:jpeg@3', 'permute@0', 'permute@1']

    Raises:
        UnknownNameError: an unknown family or corruption (with "did you mean").
        ValueError: a malformed severity or shift.
    """
    out: list[str] = []
    for spec in specs:
        family, variant, param = split_name(spec)
        CONDITIONS.get(family)  # unknown family → "did you mean …?"
        if family == "corrupt":
            names = list(CORRUPTIONS) if variant in {"", "all"} else [variant]
            for n in names:
                check_corruption(n)
            severities = _int_range(param, spec) if param else list(SEVERITIES)
            bad = [s for s in severities if s not in SEVERITIES]
            if bad:
                raise ValueError(f"{spec}: severities must be 1–5, not {bad}")
            out += [f"corrupt:{n}@{s}" for n in names for s in severities]
        elif family == "permute":
            shifts = _int_range(param, spec) if param else list(range(DEFAULT_PERMUTE_SHIFTS))
            out += [f"permute@{k}" for k in shifts]
        else:
            out.append(spec.strip())
    return list(dict.fromkeys(out))


class ConditionInfo(NamedTuple):
    """What scoring and reports know of a condition: read from its class, never its name.

    Attributes:
        name: the concrete name, as in predictions.jsonl.
        known: whether the name is a registered condition (an imported run may carry others).
        removes: what it takes away from what the model is shown (see ``REMOVABLE``).
        curve: (curve name, level) when it is a point of a severity curve (corruptions).
        combined_as: the combined condition it belongs to (``permute@k`` → ``permute``).
    """

    name: str
    known: bool
    removes: frozenset[str]
    curve: tuple[str, int] | None
    combined_as: str

    @property
    def baseline(self) -> bool:
        """The reference every other condition is compared with: a known one removing nothing."""
        return self.known and not self.removes


@functools.lru_cache(maxsize=1024)
def describe(name: str) -> ConditionInfo:
    """The :class:`ConditionInfo` of ``name``; ``known`` is False for an unregistered name.

    >>> describe("clean").baseline, describe("blind").removes, describe("corrupt:jpeg@3").curve
    (True, frozenset({'image'}), ('jpeg', 3))
    >>> describe("permute@2").combined_as, describe("my-own").known
    ('permute', False)
    """
    try:
        cond = get_condition(name)
    except (KeyError, ValueError):
        return ConditionInfo(name, False, frozenset(), None, "")
    return ConditionInfo(name, True, cond.removes, cond.curve, cond.combined_as)


def baseline_of(names: Iterable[str]) -> str | None:
    """The baseline condition among ``names`` (``clean``), or None when none is there.

    >>> baseline_of(["blind", "clean"]), baseline_of(["blind"])
    ('clean', None)
    """
    return next((n for n in names if describe(n).baseline), None)


def condition_order(name: str) -> tuple[int, str]:
    """Sort key: the baseline first, then by name (metrics.json's and reports' order)."""
    return (0 if describe(name).baseline else 1, name)


def get_condition(name: str, seed: int = 0) -> Condition:
    """The condition called ``name`` (a concrete name, see :func:`expand_conditions`).

    Raises:
        UnknownNameError: an unknown family or corruption, with close matches.
        ValueError: a malformed or out-of-range parameter.
    """
    family, variant, param = split_name(name)
    factory = CONDITIONS.get(family)
    return factory(seed, variant, param)
