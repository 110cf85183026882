"""Every text that names one option: its parts, abbreviations, synonyms, binomial short form.

- an option text with a part in brackets (``Glioblastoma (GBM)``) is also named by each part;
- a hyphenated option is also named by its words written together (``nonglaucoma``);
- a binomial name is also named with its genus abbreviated (``Staphylococcus aureus`` by
  ``S. aureus``), as microbiology writes it;
- an option that is a tabled abbreviation is also named by its full names, and an option text
  that contains the full name of a tabled abbreviation is also named with the abbreviation in
  its place ("Moderate non-proliferative diabetic retinopathy" by "Moderate NPDR");
- an option whose text (or a bracketed part, or the full name of an abbreviation it is) is a
  term of a synonym group is also named by the group's other terms (:func:`synonym_forms`);
- :func:`abbreviations_of` gives the capitalised abbreviations that name an option (also those
  of its synonyms: "EDH" for "Extradural haemorrhage");
- :func:`synonyms_of` gives the other terms of a phrase's group (the yes/no findings reader
  compares a finding with the question's words through it).

Abbreviations come from the shipped table ``resources/answers/abbreviations.yaml``, synonyms from
``resources/answers/synonyms.yaml`` (each header says what is in it and why). Whether a form
names an option on an item (a synonym never names two options, and never one that another
option is written as) is decided per option set by :class:`~._variants.PhraseIndex`.

>>> forms("Staphylococcus aureus")
['Staphylococcus aureus', 'S. aureus']
>>> abbreviations_of("Hepatocellular carcinoma")
['HCC']
>>> synonym_forms("Vestibular schwannoma")
['acoustic neuroma', 'acoustic schwannoma', 'acoustic neurinoma']
>>> synonyms_of("pleural fluid")
['pleural effusion', 'fluid in the pleural space', 'pleural fluid collection']
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any, Final

import yaml

from medvqa._resources import shipped_text
from medvqa.reading._fold import TOKEN, fold, phrase_tokens

__all__ = ["abbreviations_of", "forms", "synonym_forms", "synonym_groups", "synonyms_of"]

_BRACKETED: Final = re.compile(r"^(.+?)\s*[(\[](.+?)[)\]]\s*$")
_BINOMIAL: Final = re.compile(r"^([A-Z][a-z]{3,})\s+([a-z]{3,})$")


def forms(text: str, *, synonyms: bool = True) -> list[str]:
    """The texts that name one option.

    Itself, its bracketed parts, its hyphens closed up, the full names of an abbreviation it
    is, its binomial short form, and (unless ``synonyms`` is False) its synonyms.
    """
    out = [text]
    m = _BRACKETED.match(text)
    if m:
        out += [m.group(1), m.group(2)]
    out += [f.replace("-", "") for f in list(out) if "-" in f]
    for f in list(out):
        out += _ABBREVIATIONS.get(f.strip(), [])
    b = _BINOMIAL.match(text)
    if b:
        out.append(f"{b.group(1)[0]}. {b.group(2)}")
    out += _abbreviated_inside(text)
    return out + synonym_forms(text) if synonyms else out


def synonym_forms(text: str) -> list[str]:
    """The synonyms that name an option: the other terms of the groups its text is in.

    Its text, each bracketed part and the full names of an abbreviation it is are looked up
    (spelling-folded: ``Baker cyst`` finds the group of "baker's cyst"); a synonym with a
    hyphen is also given with it closed up ("nonossifying").
    """
    parts = [text]
    m = _BRACKETED.match(text)
    if m:
        parts += [m.group(1), m.group(2)]
    for f in list(parts):
        parts += _ABBREVIATIONS.get(f.strip(), [])
    out: list[str] = []
    for part in parts:
        for term in synonyms_of(part):
            if term not in out:
                out.append(term)
    return out + [t.replace("-", "") for t in out if "-" in t]


def synonyms_of(phrase: str) -> list[str]:
    """The other terms of the synonym group ``phrase`` is in (spelling-folded); ``[]`` if none."""
    table = _synonym_table()
    own = _keys(phrase)
    group = next((g for k in own if (g := table.group_of.get(k)) is not None), None)
    if group is None:
        return []
    return [t for t in table.groups[group] if not own & _keys(t)]


def synonym_groups() -> dict[str, list[tuple[str, ...]]]:
    """The shipped synonym groups by specialty, as written in the table."""
    table = _synonym_table()
    out: dict[str, list[tuple[str, ...]]] = {}
    for specialty, group in zip(table.specialties, table.groups, strict=True):
        out.setdefault(specialty, []).append(group)
    return out


def _abbreviated_inside(text: str) -> list[str]:
    """The option text with a tabled full name inside it replaced by its abbreviation."""
    raw = TOKEN.findall(text.lower())
    words = [fold(w) for w in raw]
    out: list[str] = []
    for (name, _gaps), abbrs in _BY_NAME.items():
        k = len(name)
        if 1 < k < len(words):
            for i in range(len(words) - k + 1):
                if tuple(words[i:i + k]) == name:
                    out += [" ".join([*raw[:i], a.lower(), *raw[i + k:]]) for a in abbrs]
    return out


def abbreviations_of(text: str, *, synonyms: bool = True) -> list[str]:
    """The capitalised abbreviations whose full names include this option text (or a part).

    Unless ``synonyms`` is False, also those whose full names are its synonyms.
    """
    forms = [text]
    m = _BRACKETED.match(text)
    if m:
        forms += [m.group(1), m.group(2)]
    out = []
    for f in forms:
        out += _BY_NAME.get(phrase_tokens(f), [])
        if f.strip() in _ABBREVIATIONS:
            out.append(f.strip())
    if synonyms:
        for f in synonym_forms(text):
            out += [a for a in _BY_NAME.get(phrase_tokens(f), []) if a not in out]
    return out


def _load() -> dict[str, list[str]]:
    data: Any = yaml.safe_load(shipped_text("resources", "answers", "abbreviations.yaml"))
    out: dict[str, list[str]] = {}
    for table in data["abbreviations"].values():
        for abbr, names in table.items():
            out.setdefault(str(abbr), []).extend(str(n) for n in names)
    return out


def _keys(term: str) -> set[tuple[str, ...]]:
    """The folded words of a term, as written and with its hyphens closed up."""
    words = phrase_tokens(term)[0]
    return {words, phrase_tokens(term.replace("-", ""))[0]} if "-" in term else {words}


class _SynonymTable:
    """The shipped synonym groups: each group's terms, its specialty, and term → group."""

    __slots__ = ("group_of", "groups", "specialties")

    def __init__(self, data: Any):
        self.groups: list[tuple[str, ...]] = []
        self.specialties: list[str] = []
        self.group_of: dict[tuple[str, ...], int] = {}
        for specialty, groups in data["synonyms"].items():
            for group in groups:
                terms = tuple(" ".join(str(t).split()) for t in group)
                for term in terms:
                    for key in _keys(term):
                        self.group_of.setdefault(key, len(self.groups))
                self.groups.append(terms)
                self.specialties.append(str(specialty))


@cache
def _synonym_table() -> _SynonymTable:
    """The synonym table, read once (on first use: most runs never need it)."""
    loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return _SynonymTable(yaml.load(shipped_text("resources", "answers", "synonyms.yaml"),
                                   Loader=loader))


_ABBREVIATIONS: Final = _load()
_BY_NAME: Final[dict[tuple[tuple[str, ...], tuple[str, ...]], list[str]]] = {}
for _abbr, _names in _ABBREVIATIONS.items():
    for _name in _names:
        _BY_NAME.setdefault(phrase_tokens(_name), []).append(_abbr)
