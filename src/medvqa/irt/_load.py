"""Reading irt.json back: the calibration, checked against the benchmark, as an item bank."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from medvqa.errors import BadInputError
from medvqa.irt._model import ItemBank
from medvqa.schema import InputError, IrtCalibration, Item, read_json


def load_calibration(path: Path, items_sha256: str | None = None) -> IrtCalibration:
    """Read irt.json; with ``items_sha256``, refuse a calibration of other items.

    Raises:
        BadInputError: the file is missing or malformed (names the field), or it calibrated
            other items (another benchmark or version).
    """
    path = Path(path)
    if not path.is_file():
        raise BadInputError(f"{path}: file is missing (write it with `medvqa irt fit`)")
    try:
        cal = read_json(path, IrtCalibration)
    except InputError as exc:
        raise BadInputError(str(exc)) from None
    if items_sha256 is not None and cal.items_sha256 != items_sha256:
        raise BadInputError(
            f"{path}: items_sha256: calibrated on other items ({cal.benchmark!r} "
            f"{cal.benchmark_version!r}, {cal.items_sha256[:12]}…, not {items_sha256[:12]}…); "
            "calibrate this benchmark version with `medvqa irt fit`")
    return cal


def bank_of(cal: IrtCalibration, items: list[Item]) -> ItemBank:
    """The calibration's items as a bank in the order of ``items`` (benchmark order).

    Raises:
        BadInputError: an item of the benchmark that the calibration does not have.
    """
    by_id = {it.id: it for it in cal.items}
    missing = [it.id for it in items if it.id not in by_id]
    if missing:
        raise BadInputError(f"irt.json has no parameters for {len(missing)} item(s) "
                            f"({', '.join(missing[:5])}); calibrate this benchmark again")
    rows = [by_id[it.id] for it in items]
    cov = np.array([[[r.a_se**2, r.ad_cov], [r.ad_cov, r.d_se**2]] for r in rows]).reshape(-1, 2, 2)
    keys = [it.case_id if it.case_id is not None else f"\x00{it.id}" for it in items]
    _, cases = np.unique(np.asarray(keys, dtype=object).astype(str), return_inverse=True)
    return ItemBank(np.array([r.a for r in rows]), np.array([r.d for r in rows]), cov,
                    np.asarray(cases).reshape(-1), np.array([r.c for r in rows]),
                    np.array([r.exposure_k for r in rows]))
