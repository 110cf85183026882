"""The item-quality check (``medvqa audit --irt irt.json``): what the zoo's answers say of items.

``medvqa irt fit`` calibrates the items on scored runs and flags those whose key looks wrong
(stronger models get them wrong, or agree on another answer), that look broken (near-zero
discrimination, misfit) or that tell nothing (every model alike). This check reads irt.json —
of these very items (items_sha256), else it is refused — and reports one finding per kind.
"""

from __future__ import annotations

from pathlib import Path

from medvqa.benchmark.audit._model import Finding
from medvqa.errors import BadInputError
from medvqa.schema import (
    BROKEN_FLAGS,
    FLAG_REASONS,
    LABEL_ERROR_FLAGS,
    UNINFORMATIVE_FLAGS,
    InputError,
    IrtCalibration,
    read_json,
)

#: Item ids listed in one finding (``n_items`` has the count).
SHOWN = 50

_KINDS = (
    (LABEL_ERROR_FLAGS, "warning", "suspected of a wrong answer key"),
    (BROKEN_FLAGS, "warning", "look broken or ambiguous"),
    (UNINFORMATIVE_FLAGS, "note", "are uninformative (every model answered alike)"),
)


def item_quality(path: Path, items_sha256: str) -> tuple[IrtCalibration, list[Finding]]:
    """The calibration and one finding per kind of flagged item.

    Raises:
        BadInputError: irt.json is missing or malformed, or calibrated other items.
    """
    try:
        cal = read_json(path, IrtCalibration)
    except (InputError, OSError) as exc:
        raise BadInputError(f"--irt: {exc}") from None
    if cal.items_sha256 != items_sha256:
        raise BadInputError(f"{path}: items_sha256: calibrated on other items "
                            f"({cal.items_sha256[:12]}…, not {items_sha256[:12]}…)")
    findings = []
    taken: set[str] = set()
    for flags, severity, what in _KINDS:
        hit = [it for it in cal.items if set(it.flags) & flags and it.id not in taken]
        if not hit:
            continue
        taken.update(it.id for it in hit)
        counts: dict[str, int] = {}
        for it in hit:
            for f in set(it.flags) & flags:
                counts[f] = counts.get(f, 0) + 1
        why = "; ".join(f"{n} {FLAG_REASONS[f].split(':')[0]}" for f, n in sorted(counts.items()))
        findings.append(Finding(
            check="item-quality", severity=severity,  # type: ignore[arg-type]
            message=f"{len(hit)} of {len(cal.items)} items {what} ({cal.item_model} on "
                    f"{len(cal.models)} models): {why}",
            items=sorted(it.id for it in hit)[:SHOWN], n_items=len(hit),
            data={"by_flag": dict(sorted(counts.items())), "models": len(cal.models),
                  "item_model": cal.item_model}))
    return cal, findings
