"""The units a quantity is written in: each unit's dimension and its size in the base unit.

>>> UNITS["cm"], UNITS["centile"]
(('length', Fraction(10, 1)), ('percentile', Fraction(1, 1)))
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Final

__all__ = ["UNITS", "UNIT_RE", "unit"]


def _unit_table() -> dict[str, tuple[str, Fraction]]:
    """:data:`UNITS` from its compact spelling ("(s)": the plural too; "_": a space)."""
    out: dict[str, tuple[str, Fraction]] = {}
    for line in _UNIT_SPEC.strip().splitlines():
        dim, groups = line.split(":", 1)
        for group in groups.split(";"):
            forms, factor = group.rsplit("=", 1)
            for form in forms.split():
                for f in ([form[:-3], form[:-3] + "s"] if form.endswith("(s)") else [form]):
                    out[f.replace("_", " ")] = (dim.strip(), Fraction(factor))
    return out


_UNIT_SPEC: Final = """
length: nm=1/1000000; \u00b5m \u03bcm um micron(s) micrometre(s) micrometer(s)=1/1000; mm \
millimetre(s) millimeter(s)=1; cm centimetre(s) centimeter(s)=10; m metre(s) meter(s)=1000
area: mm\u00b2 mm2 sq_mm=1; cm\u00b2 cm2 sq_cm=100; m\u00b2 m2=1000000
volume: \u00b5L \u03bcL uL microlitre(s) microliter(s)=1/1000; mL ml millilitre(s) \
milliliter(s) cc cm\u00b3 cm3=1; dL dl=100; L l litre(s) liter(s)=1000
mass: \u00b5g \u03bcg ug mcg microgram(s)=1/1000000; mg milligram(s)=1/1000; g gram(s)=1; kg \
kilogram(s)=1000
time: ms msec millisecond(s)=1/1000; s sec secs second(s)=1; min mins minute(s)=60; h hr hrs \
hour(s)=3600; day(s)=86400; wk wks week(s)=604800; month(s)=2629800; yr yrs year(s)=31557600
percent: % percent per_cent pct=1
percentile: percentile(s) centile(s)=1
velocity: mm/s=1/10; cm/s cm/sec=1; m/s m/sec=100
pressure: mmHg mm_Hg=1; kPa=750062/100000; cmH2O cm_H2O=735559/1000000
absorbed dose: Gy gray=1; cGy=1/100; mGy=1/1000
effective dose: Sv=1; mSv=1/1000; \u00b5Sv \u03bcSv uSv=1/1000000
attenuation: HU Hounsfield_unit(s)=1
rate: bpm beats_per_minute beats/min breaths_per_minute breaths/min /min=1
angle: \u00b0 deg degree(s)=1
frequency: Hz=1; kHz=1000; MHz=1000000
mass concentration: pg/mL=1/1000000; ng/mL \u00b5g/L=1/1000; mg/L \u00b5g/mL=1; mg/dL=10; \
g/L=1000; g/dL=10000
molar concentration: nmol/L=1/1000000; \u00b5mol/L umol/L=1/1000; mmol/L=1; mol/L=1000
"""
#: Written unit → (its dimension, its size in the dimension's base unit). One-letter units are
#: read only as written (m, s, h, g, l, L); the others in any case.
UNITS: Final = _unit_table()
def _folded(written: str) -> str:
    """A unit's case-free key: lower case, one space, the micro sign as the Greek mu (NFKC)."""
    return " ".join(written.lower().replace("\u00b5", "\u03bc").split())


_UNIT_CI: Final = {_folded(k): v for k, v in UNITS.items() if len(k) > 1}
#: Any written unit (longest first; one-letter units case-sensitive).
UNIT_RE: Final = "|".join(
    (r"(?i:" + r"[ \t]+".join(map(re.escape, k.split())) + ")") if len(k) > 1 else re.escape(k)
    for k in sorted(UNITS, key=len, reverse=True))


def unit(written: str) -> tuple[str, Fraction]:
    """A written unit's dimension and size (any case for units of two letters or more)."""
    return UNITS.get(written) or _UNIT_CI[_folded(written)]
