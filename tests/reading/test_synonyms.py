"""The shipped synonym table (``resources/answers/synonyms.yaml``) and how the reader uses it:
a synonym names its option, never two options, never one another option is written as; the
yes/no findings reader counts a synonym of the question's words as the finding asked about."""

from __future__ import annotations

import re

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from medvqa._resources import shipped_text
from medvqa.reading import make_parser
from medvqa.reading._fold import phrase_tokens
from medvqa.reading._option_forms import (
    abbreviations_of,
    forms,
    synonym_forms,
    synonym_groups,
    synonyms_of,
)
from medvqa.reading._variants import PhraseIndex

TEXT = shipped_text("resources", "answers", "synonyms.yaml")
GROUPS = synonym_groups()
ALL = [g for groups in GROUPS.values() for g in groups]
SPECIALTIES = {"radiology", "chest_radiograph", "mammography", "fundus_oct", "pathology",
               "dermatology"}
YN = {"A": "Yes", "B": "No"}
PARSER = make_parser("strict")


def _keys(term: str) -> set[tuple[str, ...]]:
    """A term's folded words, as written and with its hyphens closed up."""
    return {phrase_tokens(term)[0], phrase_tokens(term.replace("-", ""))[0]}


def _read(response: str, options: dict[str, str], qtype: str = "single", question: str = ""):
    return PARSER.parse(response, options, qtype, question=question)


def test_the_file_loads_with_a_header_and_every_specialty():
    data = yaml.safe_load(TEXT)
    assert data["version"] == 1
    assert set(data["synonyms"]) == SPECIALTIES == set(GROUPS)
    header = TEXT.split("version:")[0]
    for words in ("What:", "Source and rationale:", "How it is used:", "written for medvqa",
                  "SNOMED", "redistributed"):
        assert words in header
    assert sum(len(g) for g in GROUPS.values()) >= 500
    assert min(len(g) for g in GROUPS.values()) >= 40


def test_every_group_has_two_terms_or_more_and_no_term_twice():
    for groups in GROUPS.values():
        for group in groups:
            assert len(group) >= 2, group
            keys = [frozenset(_keys(t)) for t in group]
            assert len(set(keys)) == len(keys), f"a term written twice in {group}"
            assert all(t == t.lower() and t.strip() == t for t in group), group


def test_no_term_is_in_two_groups():
    seen: dict[tuple[str, ...], tuple[str, ...]] = {}
    for groups in GROUPS.values():
        for group in groups:
            for term in group:
                for key in _keys(term):
                    other = seen.setdefault(key, group)
                    assert other is group, f"{term!r} is in {other} and in {group}"


def test_synonyms_of_gives_the_other_terms_spelling_folded():
    assert synonyms_of("Baker cysts") == ["popliteal cyst"]
    assert "pleural effusion" in synonyms_of("pleural fluid")
    assert "pleural fluid" not in synonyms_of("pleural fluid")
    assert synonyms_of("Nonalcoholic fatty liver disease") == [
        "metabolic dysfunction-associated steatotic liver disease"]
    assert synonyms_of("tumour") == []
    assert synonyms_of("") == []


def test_an_option_is_also_named_by_its_synonyms_and_those_of_its_parts():
    assert "acoustic neuroma" in forms("Vestibular schwannoma")
    assert "acoustic neuroma" not in forms("Vestibular schwannoma", synonyms=False)
    assert "baker's cyst" in synonym_forms("Popliteal cysts")
    assert "free air" in synonym_forms("Free gas (pneumoperitoneum)")
    # the full names of an abbreviation the option is
    assert "hepatoma" in synonym_forms("HCC")
    # abbreviations of a synonym
    assert "EDH" in abbreviations_of("Extradural haemorrhage")
    assert "EDH" not in abbreviations_of("Extradural haemorrhage", synonyms=False)


@pytest.mark.parametrize(("response", "options", "expected"), [
    ("Acoustic neuroma.", {"A": "Meningioma", "B": "Vestibular schwannoma"}, "B"),
    ("There is free air under the diaphragm.",
     {"A": "Pneumoperitoneum", "B": "Pleural effusion", "C": "Pneumothorax"}, "A"),
    ("Moderate free fluid in the abdomen.", {"A": "Ascites", "B": "Haemoperitoneum"}, "A"),
    ("A bone bruise of the lateral femoral condyle.",
     {"A": "Meniscal tear", "B": "Bone marrow oedema"}, "B"),
    ("This is a Baker's cyst.", {"A": "Popliteal cyst", "B": "Ganglion cyst"}, "A"),
    ("Atopic eczema", {"A": "Psoriasis", "B": "Atopic dermatitis"}, "B"),
    ("Gallstones with posterior acoustic shadowing.",
     {"A": "Cholelithiasis", "B": "Gallbladder polyp"}, "A"),
    ("Fluid is seen in Morison's pouch.",
     {"A": "Hepatorenal pouch", "B": "Pouch of Douglas"}, "A"),
    ("Rodent ulcer", {"A": "Melanoma", "B": "Basal cell carcinoma"}, "B"),
    ("Answer: pleural fluid", {"A": "Pleural effusion", "B": "Pneumothorax"}, "A"),
    # a synonym's abbreviation: EDH stands for extradural haematoma
    ("EDH", {"A": "Extradural haemorrhage", "B": "Subdural haemorrhage"}, "A"),
    # negated synonyms are negated
    ("No acoustic neuroma; this is a meningioma.",
     {"A": "Meningioma", "B": "Vestibular schwannoma"}, "A"),
])
def test_a_synonym_reads_its_option(response, options, expected):
    got = _read(response, options)
    assert (got.choice, got.invalid) == (expected, False)


def test_a_synonym_shared_by_two_options_reads_none():
    options = {"A": "Pneumoperitoneum", "B": "Free air", "C": "Pneumothorax"}
    got = _read("Free intraperitoneal gas.", options)
    assert got.invalid and got.choice is None
    # each option's own text still reads it: a synonym never takes another option's text
    assert _read("Free air", options).choice == "B"
    assert _read("Pneumoperitoneum", options).choice == "A"


def test_an_own_abbreviation_wins_over_a_synonym_s():
    options = {"A": "Hepatoma", "B": "Hepatocellular carcinoma", "C": "Haemangioma"}
    assert _read("HCC", options).choice == "B"
    assert _read("HCC", {"A": "Hepatoma", "B": "Haemangioma"}).choice == "A"


@pytest.mark.parametrize(("response", "question", "expected"), [
    ("No pleural fluid.", "Is there a pleural effusion?", "B"),
    ("There is no pleural fluid.", "Is there a pleural effusion?", "B"),
    ("Pleural fluid is absent.", "Is there a pleural effusion?", "B"),
    ("No pleural effusion.", "Is there fluid in the pleural space?", "B"),
    ("No free air.", "Is there pneumoperitoneum?", "B"),
    ("Pleural fluid is seen at the left base.", "Is there a pleural effusion?", "A"),
    ("Free air is seen under the diaphragm.", "Is there pneumoperitoneum?", "A"),
    # the existing rules still hold: a qualified absence, a question about normality
    ("No large pleural fluid collection.", "Is there a pleural effusion?", None),
    ("No pleural fluid.", "Is the pleural space normal?", None),
    # a synonym of another finding is not the question's
    ("No pleural fluid.", "Is there a pneumothorax?", None),
])
def test_the_findings_reader_counts_a_synonym_of_the_question_s_finding(response, question,
                                                                       expected):
    got = _read(response, YN, "yesno", question)
    assert got.choice == expected
    assert got.invalid is (expected is None)


@pytest.mark.parametrize("first", [True, False], ids=["first-term-offered", "last-term-offered"])
def test_every_synonym_names_its_option(first):
    """Each group offered as one option among all the groups' (its first term, or its last):
    each of its other terms names that option alone, as a whole."""
    items: list[tuple[str, str]] = []
    answers: list[tuple[str, str]] = []
    for n, group in enumerate(g for groups in GROUPS.values() for g in groups):
        offered = group[0] if first else group[-1]
        items.append((f"g{n}", offered.capitalize()))
        answers += [(f"g{n}", t) for t in group if t != offered]
    index = PhraseIndex(tuple(items))
    misread = []
    for key, answer in answers:
        text = f"consistent with {answer}"
        found = [(s, e, sorted(k)) for s, e, k in index.find_by_tokens(text, text.lower())]
        if found != [(16, len(text), [key])]:
            misread.append((key, answer, found))
    assert not misread


_SENTENCES = ("{}", "{}.", "Answer: {}", "**{}**", "The image shows {}.",
              "Findings are most consistent with {}.", "Diagnosis: {} (see above).")


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(ALL), st.data())
def test_a_synonym_in_any_case_and_sentence_reads_its_option_and_its_negation_does_not(
        group, data):
    offered, written = data.draw(st.permutations(group))[:2]
    if any(len(w) == 1 for w in re.findall(r"[^\W_]+", written)):
        written = written.lower()  # a capital standing alone may be a letter ("S sign")
    else:
        written = "".join(c.upper() if data.draw(st.booleans()) else c for c in written)
    sentence = data.draw(st.sampled_from(_SENTENCES))
    options = {"A": "Lichen planus", "B": offered.capitalize(), "C": "Glomus tumour"}
    assert _read(sentence.format(written), options).choice == "B"
    negated = _read(f"This is not {written}; it is lichen planus.", options)
    assert negated.choice == "A"
