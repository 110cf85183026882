"""Scales read as values (medvqa.reading._scales): ranges, bounds, ordinals, names, suffixes.

Each row is (option texts, question, text, expected mentions); a mention is written as its
letters (sorted), ``~`` marking one that spans options, ``""`` one that names nothing. Texts are
read as part of a response (not ``bare``) unless a table says otherwise.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from medvqa.reading._scales import read_scale
from medvqa.reading._values import option_values

FITZPATRICK = ("Type I-II", "Type III-IV", "Type V-VI")
FITZ_Q = "What is the Fitzpatrick skin type?"
GRADE_PAIRS = ("Grade 1-2", "Grade 3-4")
CTCAE = ("Mild (grade 1)", "Moderate (grade 2)", "Severe (grade \u2265 3)")
VESICO = ("Grade I-II (mild reflux)", "Grade III (moderate)", "Grade IV-V (severe)")
BURNS = ("First-degree", "Second-degree", "Third-degree")
HEART_BLOCK = ("1st degree", "2nd degree", "3rd degree")
LUNG_RADS = ("Lung-RADS 2", "Lung-RADS 3", "Lung-RADS 4A", "Lung-RADS 4B")
BOSNIAK = ("Bosniak I", "Bosniak II", "Bosniak IIF", "Bosniak III", "Bosniak IV")
FIGO = ("FIGO stage IA", "FIGO stage IB", "FIGO stage II", "FIGO stage III")
BIRADS = ("BI-RADS 3", "BI-RADS 4", "BI-RADS 5")
ROMAN = ("Grade I", "Grade II", "Grade III", "Grade IV")
KWB_Q = "What is the Keith-Wagener-Barker grade of the retinopathy?"
KL = ("Grade 0", "Grade 1", "Grade 2", "Grade 3", "Grade 4")
SFU = ("SFU grade 1", "SFU grade 2", "SFU grade 3", "SFU grade 4")
ENDOLEAK = ("Type I", "Type II", "Type III", "Type IV")
TICI = ("TICI 0", "TICI 1", "TICI 2a", "TICI 2b", "TICI 3")
MEHRAN = ("Class I", "Class II", "Class III")


def read(options: tuple[str, ...], question: str, text: str,
         bare: bool = False) -> tuple[str, ...]:
    ov = option_values(tuple(zip("ABCDEFGH", options, strict=False)), question)
    assert ov is not None and ov.kind == "scale", options
    return tuple("".join(sorted(m.letters)) + ("~" if m.spans_options else "")
                 for m in ov.find(text, bare=bare))


RANGE_ROWS = [
    # dermatology: a value inside one range reads it where the question or options name the scale
    (FITZPATRICK, FITZ_Q, "Fitzpatrick 4", ("B",)),
    (FITZPATRICK, FITZ_Q, "Fitzpatrick skin type IV", ("B",)),
    (FITZPATRICK, FITZ_Q, "type IV", ("B",)), (FITZPATRICK, "", "type IV", ("B",)),
    (FITZPATRICK, "", "Type III-IV", ("B",)), (FITZPATRICK, "", "type 6", ("C",)),
    (FITZPATRICK, "", "type III or IV", ("B",)), (FITZPATRICK, "", "types I to IV", ("AB~",)),
    (FITZPATRICK, "", "type II-III", ("AB~",)), (FITZPATRICK, "", "type III or V", ("BC~",)),
    (FITZPATRICK, "", "type IIIa", ("B",)),
    # general grades split in two; urology (reflux) with words after the value
    (GRADE_PAIRS, "", "grade 2", ("A",)), (GRADE_PAIRS, "", "grade 3", ("B",)),
    (GRADE_PAIRS, "", "Grade 1-2", ("A",)), (GRADE_PAIRS, "", "grade 2-3", ("AB~",)),
    (GRADE_PAIRS, "", "grade 2 or 3", ("AB~",)), (GRADE_PAIRS, "", "at least grade 2", ("AB~",)),
    (GRADE_PAIRS, "", "grade \u2265 3", ("B",)), (GRADE_PAIRS, "", "grade IV", ("B",)),
    (VESICO, "", "grade IV", ("C",)), (VESICO, "", "grade 2 reflux", ("A",)),
    (VESICO, "", "grade V", ("C",)),
    # bounds inside a qualifier (oncology toxicity grades)
    (CTCAE, "", "grade 4", ("C",)), (CTCAE, "", "grade 3", ("C",)), (CTCAE, "", "grade 2", ("B",)),
    (CTCAE, "", "grade 3 or higher", ("C",)), (CTCAE, "", "grade 2-3", ("BC~",)),
]

RANGE_TRAPS = [
    (FITZPATRICK, "", "Fitzpatrick 4", ("",)),  # the set does not name this scale
    (FITZPATRICK, FITZ_Q, "type 7", ("",)), (FITZPATRICK, FITZ_Q, "type 0", ("",)),
    (FITZPATRICK, FITZ_Q, "Gleason 4", ("",)), (FITZPATRICK, FITZ_Q, "stage IV", ("",)),
    (FITZPATRICK, FITZ_Q, "type 6-7", ("",)), (FITZPATRICK, FITZ_Q, "4", ()),
    (GRADE_PAIRS, "", "grade 5", ("",)), (GRADE_PAIRS, "", "grade 4-5", ("",)),
    (GRADE_PAIRS, "", "grade 4 or 5", ("",)), (CTCAE, "", "stage 3", ("",)),
]


@pytest.mark.parametrize(("options", "question", "text", "expected"), RANGE_ROWS + RANGE_TRAPS)
def test_scale_ranges_and_bounds(options: tuple[str, ...], question: str, text: str,
                                 expected: tuple[str, ...]) -> None:
    assert read(options, question, text) == expected


def test_range_options_are_read_as_stretches() -> None:
    r = read_scale("Type III-IV")
    assert r is not None and (r.iv.lo, r.iv.hi) == (r.value, r.value._replace(num=4))
    assert read_scale("Grade 2-1") is None  # a range runs upward
    bound = read_scale("Severe (grade \u2265 3)")
    assert bound is not None and bound.iv.hi is None and bound.iv.lo == bound.value
    assert read_scale("grade < 2") is not None and read_scale("grade < 2").iv.lo is None


ORDINAL_ROWS = [
    (BURNS, "", "second-degree burn", ("B",)), (BURNS, "", "a 2nd degree burn", ("B",)),
    (BURNS, "", "3rd-degree", ("C",)), (BURNS, "", "first degree", ("A",)),
    (BURNS, "", "degree 2", ("B",)),
    (HEART_BLOCK, "", "second-degree AV block", ("B",)), (HEART_BLOCK, "", "3rd degree", ("C",)),
    (HEART_BLOCK, "", "complete (third-degree) heart block", ("C",)),
    # an ordinal is a value only before the set's hard word: never alone, never a rank
    (BURNS, "", "the third", ()), (BURNS, "", "3rd", ()), (BURNS, "", "the second option", ()),
    (BURNS, "", "second-grade", ()), (ROMAN, "", "3rd", ()), (ROMAN, "", "the 2nd image", ()),
    (ROMAN, "", "3rd grade", ("C",)),
]


@pytest.mark.parametrize(("options", "question", "text", "expected"), ORDINAL_ROWS)
def test_ordinal_scale_values(options: tuple[str, ...], question: str, text: str,
                              expected: tuple[str, ...]) -> None:
    assert read(options, question, text) == expected
    assert read(options, question, text, bare=True) == expected


ALONE_ROWS = [
    # a suffixed value of exactly one option opening a sentence or between punctuation
    (LUNG_RADS, "4A. Solid nodule of 9 mm.", ("C",)), (LUNG_RADS, "Solid nodule (4B).", ("D",)),
    (LUNG_RADS, "The nodule, 4B, is solid.", ("D",)),
    (LUNG_RADS, "Solid nodule of 9 mm.\n4A", ("C",)),
    (LUNG_RADS, "Solid nodule. 4A: follow-up in 3 months.", ("C",)),
    (BOSNIAK, "IIF. Thin septa with minimal calcification.", ("C",)),
    (FIGO, "IB \u2014 tumour confined to the cervix.", ("B",)),
    # not standing alone, no suffix, or a suffix no option carries: a scale word is needed
    (LUNG_RADS, "A 4A nodule", ()), (LUNG_RADS, "nodule 4A", ()), (LUNG_RADS, "4.", ()),
    (LUNG_RADS, "3. Solid nodule", ()), (LUNG_RADS, "4C. Solid nodule", ()),
    (LUNG_RADS, "Figure 4A.", ("",)), (BIRADS, "4B. Irregular mass.", ()),
    (BOSNIAK, "It is IIF", ()), (BOSNIAK, "II. Thin septa.", ()),
]


@pytest.mark.parametrize(("options", "text", "expected"), ALONE_ROWS)
def test_a_suffixed_value_standing_alone(options: tuple[str, ...], text: str,
                                         expected: tuple[str, ...]) -> None:
    assert read(options, "", text) == expected


NAME_ROWS = [
    # initials of a hyphenated or multi-word name in the question (ophthalmology, rheumatology)
    (ROMAN, KWB_Q, "KWB IV", ("D",)), (ROMAN, KWB_Q, "KWB grade III", ("C",)),
    (ROMAN, KWB_Q, "Keith-Wagener-Barker grade 2", ("B",)), (ROMAN, KWB_Q, "Barker IV", ("D",)),
    (ROMAN, "What is the Keith Wagener Barker grade?", "KWB 4", ("D",)),
    (KL, "What is the Kellgren-Lawrence grade?", "KL 3", ("D",)),
    (KL, "What is the Kellgren Lawrence grade of the knee?", "KL 3", ("D",)),
    (KL, "What is the Kellgren Lawrence grade of the knee?", "Kellgren-Lawrence 2", ("C",)),
    (ROMAN, "What is the grade?", "KWB IV", ("",)), (KL, "What is the grade?", "KL 3", ("",)),
    (ROMAN, KWB_Q, "KW IV", ("",)), (KL, "What is the Kellgren-Lawrence grade?", "LK 3", ("",)),
    # a one-letter lower-case prefix glued to the options' name (neuro-interventional TICI)
    (TICI, "", "mTICI 2b", ("D",)), (TICI, "", "eTICI 3", ("E",)), (TICI, "", "TICI 2B", ("D",)),
    (TICI, "", "mTICI 2", ("CD",)), (TICI, "", "xyTICI 2b", ()), (TICI, "", "MTICI 2b", ("",)),
    (TICI, "", "mtici 2b", ()), (TICI, "", "m TICI 2b", ("D",)),
    # a generic word the options' own name holds, with a spelled number (paediatric urology)
    (SFU, "", "Grade three.", ("C",)), (SFU, "", "grade four", ("D",)), (SFU, "", "SFU 2", ("B",)),
    (SFU, "", "Grade three and grade four are excluded.", ("CD~",)),
    (SFU, "", "Gleason grade three", ("",)), (SFU, "", "stage three", ("",)),
]


@pytest.mark.parametrize(("options", "question", "text", "expected"), NAME_ROWS)
def test_scale_names_initials_and_prefixes(options: tuple[str, ...], question: str, text: str,
                                           expected: tuple[str, ...]) -> None:
    assert read(options, question, text) == expected


SUFFIX_ROWS = [
    # a lower-case suffix the option lacks is compatible (vascular endoleaks, hypertension)
    (ENDOLEAK, "type Ia", ("A",)), (ENDOLEAK, "Type Ib endoleak", ("A",)),
    (ENDOLEAK, "type IIb", ("B",)), (ENDOLEAK, "type IIIa", ("C",)), (MEHRAN, "class Ib", ("A",)),
    (("Type I", "Type Ia", "Type Ib", "Type II"), "type Ia", ("B",)),  # the exact value wins
    (("Type I", "Type Ia", "Type Ib", "Type II"), "type I", ("A",)),
    (("Type I", "Type Ia", "Type Ib", "Type II"), "type Ic", ("A",)),
    (ENDOLEAK, "type Va", ("",)), (ENDOLEAK, "Ia", ()), (ENDOLEAK, "factor Xa", ()),
]


@pytest.mark.parametrize(("options", "text", "expected"), SUFFIX_ROWS)
def test_a_lower_case_suffix_the_option_lacks(options: tuple[str, ...], text: str,
                                             expected: tuple[str, ...]) -> None:
    assert read(options, "", text) == expected


@pytest.mark.parametrize(("options", "text", "expected"), [
    (ENDOLEAK, "Ia", ("A",)), (ENDOLEAK, "IIb", ("B",)), (FITZPATRICK, "III", ("B",)),
    (FITZPATRICK, "4", ("B",)), (LUNG_RADS, "4", ("CD",)), (LUNG_RADS, "4a", ("C",)),
])
def test_bare_values_of_ranges_and_suffixes(options: tuple[str, ...], text: str,
                                            expected: tuple[str, ...]) -> None:
    assert read(options, "", text, bare=True) == expected


@pytest.mark.parametrize("text", ["n = 3", "n=3", "N = 2", "p = 2", "OR 2", "HR 3", "SD 1",
                                  "95% CI 2-3", "r = 1"])
def test_statistical_notation_is_no_scale_value(text: str) -> None:
    for bare in (False, True):
        assert all(not m.letters for m in option_values(
            tuple(zip("ABCD", ROMAN, strict=False))).find(text, bare=bare)), text  # type: ignore[union-attr]


def test_a_node_stage_written_apart_is_still_a_value() -> None:
    nodes = option_values((("A", "N0"), ("B", "N1"), ("C", "N2"), ("D", "N3")))
    assert nodes is not None and [m.letters for m in nodes.find("N 2")] == [frozenset("C")]


_ROMANS = ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"]


@st.composite
def _ranges(draw: st.DrawFn) -> tuple[list[tuple[int, int]], str, str]:
    cuts = sorted(draw(st.lists(st.integers(1, 12), min_size=3, max_size=6, unique=True)))
    spans = [(a, b - 1) for a, b in zip(cuts, cuts[1:], strict=False) if b - 1 > a]
    return spans, draw(st.sampled_from(["Type", "Grade", "Class"])), draw(
        st.sampled_from(["arabic", "roman"]))


def _num(n: int, style: str) -> str:
    return _ROMANS[n] if style == "roman" else str(n)


@settings(max_examples=150, deadline=None)
@given(r=_ranges(), point=st.integers(1, 12), style=st.sampled_from(["arabic", "roman"]))
def test_a_value_names_the_one_range_holding_it(r: tuple[list[tuple[int, int]], str, str],
                                                point: int, style: str) -> None:
    spans, word, option_style = r
    if len(spans) < 2:
        return
    texts = [f"{word} {_num(a, option_style)}-{_num(b, option_style)}" for a, b in spans]
    letters = "ABCDEF"[:len(texts)]
    ov = option_values(tuple(zip(letters, texts, strict=False)))
    assert ov is not None and ov.kind == "scale"
    for letter, text in zip(letters, texts, strict=False):  # an option's own text: that option
        assert [m.letters for m in ov.find(text)] == [frozenset(letter)], text
    holding = frozenset(k for k, (a, b) in zip(letters, spans, strict=False) if a <= point <= b)
    got = ov.find(f"It is {word.lower()} {_num(point, style)} here.")
    assert [m.letters for m in got] == [holding]
