"""Every text that names one option: its parts, its abbreviations, its binomial short form.

- an option text with a part in brackets (``Glioblastoma (GBM)``) is also named by each part;
- a hyphenated option is also named by its words written together (``nonglaucoma``);
- a binomial name is also named with its genus abbreviated (``Staphylococcus aureus`` by
  ``S. aureus``), as microbiology writes it;
- an option that is a tabled abbreviation is also named by its full names, and an option text
  that contains the full name of a tabled abbreviation is also named with the abbreviation in
  its place ("Moderate non-proliferative diabetic retinopathy" by "Moderate NPDR");
- :func:`abbreviations_of` gives the capitalised abbreviations that name an option.

Abbreviations come from the shipped table ``resources/answers/abbreviations.yaml`` (its header
says what is in it and why).

>>> forms("Staphylococcus aureus")
['Staphylococcus aureus', 'S. aureus']
>>> abbreviations_of("Hepatocellular carcinoma")
['HCC']
"""

from __future__ import annotations

import re
from typing import Any, Final

import yaml

from medvqa._resources import shipped_text
from medvqa.reading._fold import TOKEN, fold, phrase_tokens

__all__ = ["abbreviations_of", "forms"]

_BRACKETED: Final = re.compile(r"^(.+?)\s*[(\[](.+?)[)\]]\s*$")
_BINOMIAL: Final = re.compile(r"^([A-Z][a-z]{3,})\s+([a-z]{3,})$")


def forms(text: str) -> list[str]:
    """The texts that name one option.

    Itself, its bracketed parts, its hyphens closed up, and the full names of an abbreviation
    it is.
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


def abbreviations_of(text: str) -> list[str]:
    """The capitalised abbreviations whose full names include this option text (or a part)."""
    forms = [text]
    m = _BRACKETED.match(text)
    if m:
        forms += [m.group(1), m.group(2)]
    out = []
    for f in forms:
        out += _BY_NAME.get(phrase_tokens(f), [])
        if f.strip() in _ABBREVIATIONS:
            out.append(f.strip())
    return out


def _load() -> dict[str, list[str]]:
    data: Any = yaml.safe_load(shipped_text("resources", "answers", "abbreviations.yaml"))
    out: dict[str, list[str]] = {}
    for table in data["abbreviations"].values():
        for abbr, names in table.items():
            out.setdefault(str(abbr), []).extend(str(n) for n in names)
    return out


_ABBREVIATIONS: Final = _load()
_BY_NAME: Final[dict[tuple[tuple[str, ...], tuple[str, ...]], list[str]]] = {}
for _abbr, _names in _ABBREVIATIONS.items():
    for _name in _names:
        _BY_NAME.setdefault(phrase_tokens(_name), []).append(_abbr)
