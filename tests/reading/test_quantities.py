"""Quantities read as values (medvqa.reading._quantities): percentages and fractions,
percentiles, quantities in qualifiers, one quantity among words, statistical notation.

Each row is (option texts, question, text, expected mentions); a mention is written as its
letters (sorted), ``~`` marking one that spans options, ``""`` one that names nothing.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from medvqa.reading._quantities import read_quantity
from medvqa.reading._values import option_values

CDR = ("0.30-0.40", "0.41-0.50", "0.51-0.60", "> 0.60")
CDR_Q = "What is the cup-to-disc ratio?"
EF = ("< 40 %", "40-50 %", "51-60 %", "> 60 %")
SMALL_PCT = ("< 0.5 %", "0.5-1 %", "> 1 %")
RATIO_ABOVE_ONE = ("0.5-1.0", "1.1-1.5", "> 1.5")
GROWTH = ("< 3rd percentile", "3rd-10th percentile", "10th-90th percentile",
          "> 90th percentile")
CENTILES = ("Below the 3rd centile", "3rd to 10th centile", "Above the 10th centile")
PASI = ("Mild (PASI < 5)", "Moderate (PASI 5-10)", "Severe (PASI > 10)")
SIZE_WORDS = ("Small (< 1 cm)", "Medium (1-2 cm)", "Large (> 2 cm)")
CDAI = ("Remission (CDAI < 150)", "Mild (CDAI 150-220)", "Moderate (CDAI 221-450)",
        "Severe (CDAI > 450)")
EMBOLIC = ("Coils", "Gelfoam", "Microspheres (500-700 \u00b5m)")
EFFUSION = ("Normal", "Trace", "Large effusion (> 500 mL)")
HEART_RATE = ("< 60 bpm", "60-100 bpm", "> 100 bpm")
COUNT = ("1", "2-3", "4 or more")


def read(options: tuple[str, ...], question: str, text: str,
         bare: bool = False) -> tuple[str, ...]:
    ov = option_values(tuple(zip("ABCDEFGH", options, strict=False)), question)
    assert ov is not None and ov.kind == "quantity", options
    return tuple("".join(sorted(m.letters)) + ("~" if m.spans_options else "")
                 for m in ov.find(text, bare=bare))


PERCENT_ROWS = [
    # a percentage against unitless fractions (ophthalmology: cup-to-disc ratio)
    (CDR, CDR_Q, "\u2248 45 %", ("B",)), (CDR, CDR_Q, "45%", ("B",)), (CDR, "", "45 %", ("B",)),
    (CDR, CDR_Q, "55 percent", ("C",)), (CDR, CDR_Q, "a ratio of 35%", ("A",)),
    (CDR, CDR_Q, "70%", ("D",)), (CDR, CDR_Q, "about 40-45%", ("AB~",)),
    (CDR, CDR_Q, "0.45", ("B",)),
    # traps: no percent sign, fractions of another size, a ratio above one
    (CDR, CDR_Q, "45", ()), (CDR, CDR_Q, "the ratio is 45", ("",)), (CDR, "", "45", ()),
    (CDR, CDR_Q, "45 mm", ("",)),
    (RATIO_ABOVE_ONE, "", "45%", ("",)),
    # a fraction against percentages needs a bare answer (cardiology: ejection fraction)
    (EF, "", "0.45", ()), (EF, "", "EF 0.45", ()), (EF, "", "45 %", ("B",)),
]


@pytest.mark.parametrize(("options", "question", "text", "expected"), PERCENT_ROWS)
def test_percentages_and_fractions(options: tuple[str, ...], question: str, text: str,
                                   expected: tuple[str, ...]) -> None:
    assert read(options, question, text) == expected


@pytest.mark.parametrize(("options", "text", "expected"), [
    (EF, "0.45", ("B",)), (EF, "0.55", ("C",)), (EF, "0.7", ("D",)), (EF, "45", ("B",)),
    (EF, "Answer: 0.35", ("A",)), (EF, "0.45-0.50", ("B",)),
    (SMALL_PCT, "0.7", ("B",)),  # the options are fractions of a percent: 0.7 %
    (CDR, "0.45", ("B",)), (CDR, "45 %", ("B",)), (CDR, "45", ("",)),
])
def test_a_bare_fraction_reads_percentages(options: tuple[str, ...], text: str,
                                           expected: tuple[str, ...]) -> None:
    assert read(options, "", text, bare=True) == expected


PERCENTILE_ROWS = [
    # paediatrics and obstetrics: ordinals, "centile" = "percentile", "the" after a bound
    (GROWTH, "", "the 2nd centile", ("A",)), (GROWTH, "", "2nd percentile", ("A",)),
    (GROWTH, "", "ninety-fifth percentile", ("D",)), (GROWTH, "", "5th percentile", ("B",)),
    (GROWTH, "", "below the 3rd centile", ("A",)), (GROWTH, "", "the 50th centile", ("C",)),
    (GROWTH, "", "between the 10th and 50th centile", ("C",)),
    (GROWTH, "", "the twenty-fifth centile", ("C",)), (GROWTH, "", "first percentile", ("A",)),
    (GROWTH, "", "50 percentile", ("C",)), (GROWTH, "", "the 5th to 50th centile", ("BC~",)),
    (CENTILES, "", "the 2nd percentile", ("A",)), (CENTILES, "", "75th centile", ("C",)),
    (CENTILES, "", "3rd centile", ("B",)), (CENTILES, "", "5th centile", ("B",)),
    # an ordinal without "percentile" is no quantity; a percentage is no percentile
    (GROWTH, "", "50th", ()), (GROWTH, "", "the 3rd", ()), (GROWTH, "", "3rd trimester", ()),
    (GROWTH, "", "the second image", ()), (GROWTH, "", "50%", ("",)),
]


@pytest.mark.parametrize(("options", "question", "text", "expected"), PERCENTILE_ROWS)
def test_percentiles_and_ordinals(options: tuple[str, ...], question: str, text: str,
                                  expected: tuple[str, ...]) -> None:
    assert read(options, question, text) == expected


def test_an_ordinal_option_is_a_percentile_only() -> None:
    assert read_quantity("3rd degree") is None and read_quantity("2nd") is None
    r = read_quantity("3rd-10th percentile")
    assert r is not None and (r.iv.lo, r.iv.hi, r.unit) == (3, 10, "percentile")


QUALIFIER_ROWS = [
    # dermatology: the set is read by the values in its qualifiers
    (PASI, "", "a PASI of ~18", ("C",)), (PASI, "", "PASI 7", ("B",)),
    (PASI, "", "PASI score of 4.5", ("A",)), (PASI, "", "PASI 5", ("B",)),
    (PASI, "", "The PASI was 12 at baseline.", ("C",)),
    (PASI, "", "DLQI 18", ()), (PASI, "", "DLQI 12.5", ()), (PASI, "", "18", ()),
    (PASI, "", "BSA 18%", ("",)), (PASI, "", "PASI 75 response", ("C",)),
    # gastroenterology: a disease activity index
    (CDAI, "", "CDAI of 300", ("C",)), (CDAI, "", "CDAI 120", ("A",)),
    (CDAI, "", "HBI 6", ()),
    # sizes in qualifiers
    (SIZE_WORDS, "", "a 2.5 cm mass", ("C",)), (SIZE_WORDS, "", "8 mm", ("A",)),
    (SIZE_WORDS, "", "2 cm", ("B",)), (SIZE_WORDS, "", "15 mL", ("",)),
]


@pytest.mark.parametrize(("options", "question", "text", "expected"), QUALIFIER_ROWS)
def test_quantities_in_qualifiers(options: tuple[str, ...], question: str, text: str,
                                  expected: tuple[str, ...]) -> None:
    assert read(options, question, text) == expected


def test_a_named_quantity_keeps_its_name() -> None:
    r = read_quantity("Moderate (PASI 5-10)")
    assert r is not None and r.name == ("pasi",) and r.qualified
    assert read_quantity("Grade 1-2") is None  # a scale word names a scale, not a quantity
    assert read_quantity("PI-RADS 3") is None


ALONE_ROWS = [
    # interventional radiology: one option carries a quantity, the others are words
    (EMBOLIC, "particles of 0.5 to 0.7 mm", ("C",)), (EMBOLIC, "600 \u00b5m spheres", ("C",)),
    (EMBOLIC, "0.6 mm", ("C",)), (EMBOLIC, "between 550 and 650 microns", ("C",)),
    (EMBOLIC, "particles of 100-300 \u00b5m", ("",)), (EMBOLIC, "2 mm", ("",)),
    (EMBOLIC, "0.3 to 0.6 mm", ("",)), (EMBOLIC, "600", ()), (EMBOLIC, "5 mL", ("",)),
    # pulmonology: a bound
    (EFFUSION, "about 800 mL of fluid", ("C",)), (EFFUSION, "1.2 L", ("C",)),
    (EFFUSION, "200 mL", ("",)), (EFFUSION, "3 cm", ("",)),
]


@pytest.mark.parametrize(("options", "text", "expected"), ALONE_ROWS)
def test_one_quantity_option_among_words(options: tuple[str, ...], text: str,
                                         expected: tuple[str, ...]) -> None:
    assert read(options, "", text) == expected


@pytest.mark.parametrize("options", [
    ("Coils", "500-700"),  # no unit
    ("Mass", "5 mm"),  # a point: a value would name the other option's word too
    ("Coils", "Grade 2 (1-2 cm)", "Grade 3"),  # another option is a value
    ("Pneumonia", "Effusion"),
])
def test_no_lone_quantity_where_it_is_not_plain(options: tuple[str, ...]) -> None:
    ov = option_values(tuple(zip("ABC", options, strict=False)))
    assert ov is None or ov.kind != "quantity" or len(ov.letters) >= 2


STAT_ROWS = [
    (EF, "95% CI", ("",)), (EF, "EF 45% (95% CI 40-50%)", ("B", "", "")),
    (EF, "95 % confidence interval", ("",)), (CDR, "p < 0.05", ("",)),
    (CDR, "p-value 0.45", ("",)), (CDR, "OR 0.45", ("",)), (CDR, "HR = 0.45", ("",)),
    (CDR, "kappa 0.45", ("",)), (CDR, "r = 0.45", ("",)),
    (COUNT, "n = 40 patients", ("",)), (COUNT, "N = 3", ("",)), (COUNT, "3 lesions", ("B",)),
    (HEART_RATE, "HR 80 bpm", ("B",)), (HEART_RATE, "80 bpm (SD 10)", ("B", "")),
    (EF, "SD 5%", ("",)),
]


@pytest.mark.parametrize(("options", "text", "expected"), STAT_ROWS)
def test_statistical_notation_is_no_value(options: tuple[str, ...], text: str,
                                          expected: tuple[str, ...]) -> None:
    question = "How many lesions are there?" if options is COUNT else CDR_Q if options is CDR \
        else ""
    assert read(options, question, text) == expected
    assert all(not letters for letters in read(options, question, text, bare=True)[1:]) or \
        options is HEART_RATE


@st.composite
def _fraction_cuts(draw: st.DrawFn) -> list[int]:
    return sorted(draw(st.lists(st.integers(1, 99), min_size=3, max_size=5, unique=True)))


@settings(max_examples=150, deadline=None)
@given(cuts=_fraction_cuts(), point=st.integers(0, 100))
def test_a_percentage_reads_as_its_fraction(cuts: list[int], point: int) -> None:
    """p % of unitless fraction options names what the fraction p / 100 names, and the bare
    fraction p / 100 of percentage options names what p % names."""
    fractions = [f"{a / 100:.2f}-{b / 100:.2f}" for a, b in zip(cuts, cuts[1:], strict=False)]
    percents = [f"{a}-{b} %" for a, b in zip(cuts, cuts[1:], strict=False)]
    letters = "ABCDE"[:len(fractions)]
    frac = option_values(tuple(zip(letters, fractions, strict=False)), CDR_Q)
    pct = option_values(tuple(zip(letters, percents, strict=False)))
    assert frac is not None and pct is not None
    want = frozenset(k for k, a, b in zip(letters, cuts, cuts[1:], strict=False)
                     if a <= point <= b)
    as_fraction = f"{point / 100:.2f}"
    assert [m.letters for m in frac.find(f"It is {point} %.")] == [want]
    assert [m.letters for m in frac.find(f"It is {as_fraction}.")] == [want]
    assert [m.letters for m in pct.find(f"{point} %")] == [want]
    assert [m.letters for m in pct.find(as_fraction, bare=True)] == [want]


@settings(max_examples=150, deadline=None)
@given(lo=st.integers(1, 900), width=st.integers(1, 500), point=st.integers(0, 2000),
       unit=st.sampled_from([("\u00b5m", 1), ("mm", 1000)]))
def test_a_lone_quantity_option_reads_only_inside(lo: int, width: int, point: int,
                                                  unit: tuple[str, int]) -> None:
    hi = lo + width
    ov = option_values((("A", "Coils"), ("B", f"Particles ({lo}-{hi} \u00b5m)"),
                        ("C", "Gelfoam")))
    assert ov is not None and ov.letters == frozenset("B")
    written, size = unit
    text = f"{point / size:g} {written}"
    got = [m.letters for m in ov.find(f"We used {text} particles.")]
    assert got == [frozenset("B") if lo <= point <= hi else frozenset()], text


@settings(max_examples=200, deadline=None)
@given(label=st.sampled_from(["p", "P", "OR", "aOR", "HR", "RR", "n", "N", "SD", "IQR", "kappa",
                              "p-value", "CI"]),
       sep=st.sampled_from([" ", " = ", "=", ": ", " < ", " \u2264 "]),
       number=st.sampled_from(["0.05", "0.45", "2.3", "40", "45", "3", "80", "0.001"]),
       options=st.sampled_from([CDR, EF, COUNT, HEART_RATE, PASI, SIZE_WORDS]),
       bare=st.booleans(), level=st.integers(80, 99))
def test_statistics_never_name_an_option(label: str, sep: str, number: str,
                                         options: tuple[str, ...], bare: bool,
                                         level: int) -> None:
    ov = option_values(tuple(zip("ABCD", options, strict=False)), CDR_Q)
    assert ov is not None
    for text in (f"{label}{sep}{number}", f"({level}% CI)", f"{level} % confidence interval"):
        assert all(not m.letters for m in ov.find(text, bare=bare)), text
