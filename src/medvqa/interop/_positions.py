"""Which split a log that numbers documents was run on: checked, never assumed.

lmms-eval logs each document's position in the split it evaluated (``doc_id``), not medvqa's
item id (older versions keep no ``doc``). The N-th document of ``val`` and the N-th of ``test``
are different items, so importing a ``val`` log as ``test`` would score every answer against
the wrong question, with nothing unmatched to warn. What the log keeps beside the position
decides instead: the split it names (lmms-eval's request arguments end with it), and for every
document the gold ``target`` and the ``prompt`` sent, which must fit the item at that position
(the target as medvqa's lmms-eval task writes it; the item's question inside the prompt).

:func:`choose_split` checks the split asked for (``--split``) or named by the log against that
evidence and refuses a mismatch in one line naming the split that does fit; with neither, it
picks the one split every document fits (the format's default when several fit).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from medvqa.errors import BadInputError
from medvqa.interop._imported import Imported
from medvqa.schema import Item


@dataclass(frozen=True)
class SplitChoice:
    """The split positional keys count in, and how it was decided.

    Attributes:
        split: the split (None: no positional key, nothing to decide).
        how: ``given`` (``--split``), ``named`` (by the log), ``matched`` (the one split the
            targets and prompts fit), ``default`` (several or no evidence: the format's default).
        checked: positional answers whose target or prompt was checked against the item.
    """

    split: str | None
    how: str = ""
    checked: int = 0


def lmms_target(item: Item) -> str:
    """The gold answer as medvqa's lmms-eval task writes it (``doc_to_target``)."""
    answer = item.answer if isinstance(item.answer, list) else [item.answer]
    return ",".join(str(a) for a in answer)


def _fits(answer: Imported, item: Item | None) -> bool | None:
    """Whether the logged target and prompt fit ``item`` (None: nothing logged to check)."""
    if answer.target is None and not answer.prompt:
        return None
    if item is None:
        return False
    if answer.target is not None and answer.target != lmms_target(item):
        return False
    return not answer.prompt or item.question in answer.prompt


def _misfits(positional: Sequence[Imported], order: list[Item]) -> tuple[int, int]:
    """(answers checked, of those the ones that do not fit) if positions count in ``order``."""
    checked = bad = 0
    for a in positional:
        n = int(a.key[1:])
        fit = _fits(a, order[n] if n < len(order) else None)
        if fit is not None:
            checked += 1
            bad += not fit
    return checked, bad


def choose_split(answers: Iterable[Imported], items: dict[str, Item], given: str | None,
                 default: str | None, source: Path) -> SplitChoice:
    """The split the ``#N`` keys of ``answers`` count in (see the module docstring).

    Args:
        answers: the reader's answers (only ``#N`` keys matter).
        items: the benchmark's items by id, in benchmark order.
        given: the split asked for (``--split``), or None.
        default: the format's default split, used when nothing else decides.
        source: the log (named in messages).

    Raises:
        BadInputError: the split given or named does not fit the log, the log names two
            splits, or no split fits it (one line; names the split that fits, if one does).

    """
    positional = [a for a in answers if a.key.startswith("#") and a.key[1:].isdigit()]
    if not positional:
        return SplitChoice(given)
    splits: list[str] = list(dict.fromkeys(str(it.split) for it in items.values()))
    orders = {s: [it for it in items.values() if it.split == s] for s in splits}
    fits: dict[str, tuple[int, int]] = {s: _misfits(positional, orders[s]) for s in splits}
    fitting = [s for s, (checked, bad) in fits.items() if checked and not bad]
    named = sorted({a.split for a in positional if a.split})
    if len(named) > 1:
        raise BadInputError(f"{source}: the samples come from several splits "
                            f"({', '.join(named)}); import one split's log at a time")
    wanted, how = (given, "given") if given else (named[0], "named") if named else (None, "")
    if wanted is not None:
        origin = "--split" if how == "given" else "the samples' own arguments name"
        hint = (f"; they fit split {fitting[0]!r} (--split {fitting[0]})"
                if len(fitting) == 1 else "")
        if wanted not in orders:
            raise BadInputError(f"{source}: {origin} {wanted!r}, but the benchmark has no "
                                f"{wanted!r} items (it has {', '.join(splits)}){hint}")
        checked, bad = fits[wanted]
        if bad:
            raise BadInputError(
                f"{source}: {origin} {wanted!r}, but {bad} of {checked} samples do not fit the "
                f"{wanted!r} item at their doc_id (target or prompt differ){hint}")
        return SplitChoice(wanted, how, checked)
    if not any(checked for checked, _ in fits.values()):
        return SplitChoice(default, "default")  # nothing logged to check positions against
    if len(fitting) == 1:
        return SplitChoice(fitting[0], "matched", fits[fitting[0]][0])
    if default in fitting:
        return SplitChoice(default, "default", fits[default][0])
    if fitting:
        raise BadInputError(f"{source}: the samples fit several splits "
                            f"({', '.join(fitting)}); say which with --split")
    raise BadInputError(f"{source}: the samples fit no split of the benchmark at their doc_id "
                        "(targets or prompts differ everywhere); was the log made from this "
                        "benchmark's lmms-eval export?")
