"""MIRA's caption keyword filter (seed 001): keep captions with at least k distinct curated terms.

Terms come from an editable YAML list in categories (``resources/keywords/mira_ir.yaml`` ships
100 interventional-radiology terms in MIRA's five categories). Matching is case-insensitive on
word boundaries, so ``stent`` does not match ``stentless``; the last word may take a plural
(``-s``, ``-es``, ``-y`` → ``-ies``) and the parts of a term may be joined by a hyphen, a space
or nothing (``stent-graft`` = ``stent graft`` = ``stentgraft``). A term counts once per caption
however often it occurs. ``sweep`` reports precision / recall / F1 of "≥ k terms" for each k
against a labelled sample, as MIRA's threshold study did (their choice: k = 2).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError

from medvqa._path_guard import read_utf8
from medvqa._resources import shipped_path
from medvqa._yaml_loader import YamlError, load_yaml
from medvqa.errors import BadInputError


class KeywordList(BaseModel):
    """A curated term list (the YAML file's shape)."""

    name: str = Field(description="List name.")
    description: str = Field(default="", description="What the list is for.")
    categories: dict[str, list[str]] = Field(description="Category → terms.")


@dataclass(frozen=True)
class KeywordHit:
    """One distinct term found in a text."""

    term: str
    category: str


@dataclass(frozen=True)
class SweepRow:
    """Filter quality at one threshold ``k`` (keep a text with ≥ k distinct terms)."""

    k: int
    tp: int
    fp: int
    fn: int
    tn: int
    precision: float
    recall: float
    f1: float


def load_keywords(name_or_path: str | Path = "mira_ir") -> KeywordList:
    """A keyword list from a YAML file, or a shipped one by name (``mira_ir``).

    Raises:
        BadInputError: missing file or a file not shaped like :class:`KeywordList`.
    """
    path = Path(name_or_path)
    if path.suffix not in {".yaml", ".yml"}:
        shipped = shipped_path("resources", "keywords", f"{name_or_path}.yaml")
        text = shipped.read_text("utf-8") if shipped.is_file() else None
        where = f"keyword list {name_or_path!r}"
    else:
        text = read_utf8(path) if path.is_file() else None  # not UTF-8: one line
        where = str(path)
    if text is None:
        raise BadInputError(f"{where}: not found (give a YAML file or 'mira_ir')")
    try:
        return KeywordList.model_validate(load_yaml(text, where))
    except YamlError:
        raise
    except ValidationError as exc:
        raise BadInputError(f"{where}: not a keyword list: {str(exc).splitlines()[0]}") from None


def term_pattern(term: str) -> str:
    """Regex source matching ``term`` with its plural and hyphen / space variants.

    >>> bool(re.fullmatch(term_pattern("stent-graft"), "stent grafts", re.I))
    True
    """
    parts = [p for p in re.split(r"[\s\-]+", term.strip()) if p]
    if not parts:
        raise ValueError("empty term")
    *head, last = parts
    if len(last) > 2 and last[-1].lower() == "y" and last[-2].lower() not in "aeiou":
        tail = re.escape(last[:-1]) + r"(?:y|ies)"
    else:
        tail = re.escape(last) + r"(?:s|es)?"
    body = r"[\s\-]?".join([*(re.escape(p) for p in head), tail])
    return rf"(?<![\w\-]){body}(?![\w])"


class KeywordMatcher:
    """Finds the distinct terms of a :class:`KeywordList` in texts.

    Args:
        keywords: the list; a term listed under two categories keeps the first.
    """

    def __init__(self, keywords: KeywordList):
        self.keywords = keywords
        self._terms: list[tuple[str, str, re.Pattern[str]]] = []
        seen: set[str] = set()
        for category, terms in keywords.categories.items():
            for term in terms:
                if term.lower() in seen or not term.strip():
                    continue
                seen.add(term.lower())
                self._terms.append((term, category, re.compile(term_pattern(term), re.I)))

    def __len__(self) -> int:
        return len(self._terms)

    def hits(self, text: str) -> list[KeywordHit]:
        """Distinct terms found in ``text``, in list order."""
        return [KeywordHit(t, c) for t, c, rx in self._terms if rx.search(text)]

    def count(self, text: str) -> int:
        """Number of distinct terms in ``text``."""
        return sum(1 for _, _, rx in self._terms if rx.search(text))

    def keep(self, text: str, min_terms: int) -> bool:
        """True when ``text`` has at least ``min_terms`` distinct terms."""
        return self.count(text) >= min_terms


def _ratio(num: float, den: float) -> float:
    return num / den if den else 0.0


def sweep(
    matcher: KeywordMatcher,
    labelled: Iterable[tuple[str, bool]],
    ks: Sequence[int] = (1, 2, 3, 4, 5),
) -> list[SweepRow]:
    """Precision, recall and F1 of "≥ k terms" against labels (True = in domain), per k.

    Precision = TP / (TP + FP), recall = TP / (TP + FN), F1 their harmonic mean; each is 0 when
    its denominator is 0.
    """
    counts = [(matcher.count(text), bool(label)) for text, label in labelled]
    rows = []
    for k in ks:
        tp = sum(1 for n, y in counts if n >= k and y)
        fp = sum(1 for n, y in counts if n >= k and not y)
        fn = sum(1 for n, y in counts if n < k and y)
        tn = len(counts) - tp - fp - fn
        p, r = _ratio(tp, tp + fp), _ratio(tp, tp + fn)
        rows.append(SweepRow(k, tp, fp, fn, tn, p, r, _ratio(2 * p * r, p + r)))
    return rows
