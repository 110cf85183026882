r"""``region``: LMOD anatomical recognition (seed 002, §4.2), scored by region *type*.

The prompt asks for ``Region ID: xxx; Type: xxx`` per labelled box. :func:`read_regions` reads
those pairs and nothing else:

- a region is named only in a field ``Region ID: 3`` (also ``Region 3``, ``Region #3``,
  ``Region IDs: 3, 5`` — several IDs share the type that follows); its type is the text after
  ``Type:`` up to the end of the line, ``;`` or the next region field;
- numbers outside such fields are never IDs ("cannot identify the 2 regions", "512x512");
- a refusal ("I cannot identify…", "no image") or a response with no region field is invalid;
- an ID given two different types counts once, with no type (it cannot be correctly typed);
- reasoning blocks are set aside and, when a final-answer marker ("Final answer:") is followed
  by region fields, only what follows the last such marker is read (:func:`locate_regions`).

:func:`region_scores`, per image (LMOD's definitions): with P the predicted regions, T the
regions on the image and C ⊆ P the predicted regions whose ID is on the image *and* whose type
equals that region's type (lower case, punctuation and spacing ignored):
precision = |C| / |P|, recall = |C| / |T|, F1 their harmonic mean, hallucination resistance
HR = 1 − |{r ∈ P : r ∉ T}| / |P| (IDs that do not exist on the image). An invalid prediction
(P empty) has precision = recall = F1 = 0 and **no** HR (undefined: nothing was predicted); it
is counted in the invalid rate, and HR is averaged over valid predictions only.

>>> read_regions("Region ID: 3; Type: optic disc\nRegion ID: 1; Type: cup")
{'3': 'optic disc', '1': 'cup'}
>>> s = region_scores({"1": "cup", "4": "disc"}, {"1": "cup", "2": "disc"})
>>> (s.precision, s.recall, s.hallucination_resistance)
(0.5, 0.5, 0.5)
"""

from __future__ import annotations

import math
import re
from typing import Final, NamedTuple

from medvqa.reading._base import ParsedAnswer, abstain
from medvqa.reading._book import refuses
from medvqa.reading._locate import final_segments, set_aside_reasoning

_KEY: Final = r"\bregion\s*(?:ids?|numbers?|#|no\.?)?\s*[:=#]?\s*"
_FIELD: Final = re.compile(
    _KEY + r"(?P<ids>\d+(?:\s*(?:,|and|&|/)\s*\d+)*)(?![\dx\u00d7])"
    r"(?P<rest>(?:(?!" + _KEY + r"\d)[^\n])*)",  # the type runs up to the next region field
    re.IGNORECASE,
)
_TYPE: Final = re.compile(r"^\s*[;,:\-\u2013)]?\s*(?:\(?\s*type\s*[:=]?\s*)?(?P<t>[^;\n]*)",
                          re.IGNORECASE)
_INT: Final = re.compile(r"\d+")
_NORM: Final = re.compile(r"[^\w]+")


def normalize_type(text: str) -> str:
    """Lower case, punctuation and spacing ignored: ``Optic-Disc.`` → ``optic disc``."""
    return " ".join(_NORM.sub(" ", text.lower()).split())


def read_regions(response: object) -> dict[str, str | None] | None:
    """Region ID → type named in ``response`` (type None if missing); None when invalid."""
    if not isinstance(response, str) or refuses(response):
        return None
    out: dict[str, str | None] = {}
    conflicted: set[str] = set()
    for m in _FIELD.finditer(response):
        t = _TYPE.match(m["rest"])
        kind = normalize_type(t["t"]) if t is not None else ""
        for rid in _INT.findall(m["ids"]):
            rid = str(int(rid))
            if rid in out and out[rid] != (kind or None):
                conflicted.add(rid)
            out[rid] = kind or None
    for rid in conflicted:
        out[rid] = None
    return out or None


class RegionScores(NamedTuple):
    """Per-image region scores in [0, 1]; ``hallucination_resistance`` is NaN when invalid."""

    precision: float
    recall: float
    f1: float
    hallucination_resistance: float


def region_scores(pred: dict[str, str | None] | None,
                  gold: dict[str, str | None]) -> RegionScores:
    """LMOD's precision, recall and F1 over correctly typed regions, and HR over IDs.

    ``gold`` maps each region on the image to its type (None: type unknown, then the ID alone
    decides). ``pred`` None or empty is an invalid prediction.
    """
    if not pred:
        return RegionScores(0.0, 0.0, 0.0, math.nan)
    truth = {str(k): (normalize_type(v) if v else None) for k, v in gold.items()}
    typed = sum(1 for rid, kind in pred.items()
                if rid in truth and (truth[rid] is None or (kind is not None
                                                            and kind == truth[rid])))
    precision = typed / len(pred)
    recall = typed / len(truth) if truth else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    hallucinated = sum(1 for rid in pred if rid not in truth)
    # 1 − hallucinated/|P|, written so that it is exactly |P ∩ T| / |P| in floating point.
    return RegionScores(precision, recall, f1, (len(pred) - hallucinated) / len(pred))


def gold_regions(answer: list[str] | str, meta: dict[str, object]) -> dict[str, str | None]:
    """The image's regions → types from the item's ``meta.regions`` (IDs from ``answer``)."""
    ids = [answer] if isinstance(answer, str) else list(answer)
    types: dict[str, str | None] = {str(int(i)) if str(i).isdigit() else str(i): None
                                    for i in ids}
    regions = meta.get("regions")
    if isinstance(regions, list):
        for r in regions:
            if isinstance(r, dict) and "id" in r:
                rid = str(r["id"])
                rid = str(int(rid)) if rid.isdigit() else rid
                if rid in types:
                    types[rid] = str(r.get("type") or "") or None
    return types


def locate_regions(response: object) -> dict[str, str | None] | None:
    """:func:`read_regions` of the located answer.

    Reasoning is set aside; when region fields follow a final-answer marker, what follows the
    last such marker is read, else the whole trace-free text.

    >>> locate_regions("<think>Region ID: 9; Type: cup?</think>Region ID: 1; Type: disc")
    {'1': 'disc'}
    """
    if not isinstance(response, str):
        return None
    text = set_aside_reasoning(response).text
    if refuses(text):
        return None
    for seg in reversed(final_segments(text)):
        got = read_regions(text[seg.start:])
        if got:
            return got
    return read_regions(text)


class RegionParser:
    """Region ID lists from LMOD-format responses (``Region ID: …; Type: …``)."""

    style = "region"
    compares_text = False

    def parse(self, response: object, options: dict[str, str], question_type: str, *,
              question: str = "") -> ParsedAnswer:
        """The region IDs named in the located answer (sorted); invalid when none or a refusal."""
        regions = locate_regions(response)
        if regions:
            return ParsedAnswer(sorted(regions, key=int), False)
        if not isinstance(response, str) or not response.strip():
            return abstain("empty")
        return abstain("refusal" if refuses(set_aside_reasoning(response).text)
                       else "no_answer")
