"""What the value readers share (medvqa.reading._numbers): ordinals and statistical notation."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from medvqa.reading._numbers import ORDINAL_RE, ordinal_value, statistical

_UNITS = ["", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
          "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth",
          "sixteenth", "seventeenth", "eighteenth", "nineteenth"]
_TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]


def _spelled(n: int) -> str:
    """An ordinal in words, written independently of the module (1 … 100)."""
    if n == 100:
        return "hundredth"
    if n < 20:
        return _UNITS[n]
    tens, unit = divmod(n, 10)
    return _TENS[tens][:-1] + "ieth" if not unit else f"{_TENS[tens]}-{_UNITS[unit]}"


def _digits(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@given(n=st.integers(1, 100), upper=st.booleans())
def test_every_ordinal_reads_as_its_number(n: int, upper: bool) -> None:
    words = _spelled(n).title() if upper else _spelled(n)
    for written in (words, _digits(n), words.replace("-", " ")):
        assert re.fullmatch(ORDINAL_RE, written), written
        assert ordinal_value(written) == n, written


@pytest.mark.parametrize(("text", "number"), [
    ("95% CI", "95"), ("a 95 % confidence interval", "95"), ("90% credible interval", "90"),
    ("p < 0.05", "0.05"), ("p=0.01", "0.01"), ("P \u2264 0.001", "0.001"),
    ("p-value 0.03", "0.03"), ("p value 0.2", "0.2"), ("OR 2.3", "2.3"), ("aOR = 1.8", "1.8"),
    ("HR 1.4", "1.4"), ("RR: 0.7", "0.7"), ("n = 40", "40"), ("N=12", "12"), ("SD 2", "2"),
    ("IQR 3", "3"), ("\u03ba = 0.61", "0.61"), ("r = 0.8", "0.8"),
])
def test_statistical_notation(text: str, number: str) -> None:
    s = text.index(number)
    assert statistical(text, s, s + len(number)), text


@pytest.mark.parametrize(("text", "number"), [
    ("Grade 3", "3"), ("N1", "1"), ("cN2", "2"), ("for 2 weeks", "2"), ("PASI 18", "18"),
    ("45% stenosis", "45"), ("95th percentile", "95"), ("EF 45%", "45"), ("top 5", "5"),
    ("or 3", "3"), ("T2", "2"), ("type 2 diabetes", "2"),
])
def test_values_are_no_statistics(text: str, number: str) -> None:
    s = text.index(number)
    assert not statistical(text, s, s + len(number)), text
