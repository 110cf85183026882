"""Build the labelled response set shipped as ``resources/answers/labelled_responses.jsonl``.

Every row is one response to one item (``labelled_sets.py``) written from a template of one
family (``labelled_banks.py``), with the answer a careful clinician-grader would read from it
(``intended``: a letter, a sorted list of letters for multiple choice, or null where the
response must not be scored: negated, hedged, refused, a trace that never commits, a letter
that is part of a name, two options). Items, letters and the other options named are drawn
with one seeded generator, so the file is the same on every run:

    python tests/score/labelled_set.py   # rewrites the shipped file

``docs/answer-reading.md`` lists the families and their counts.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from labelled_banks import (
    ABBREVIATIONS,
    AMBIGUOUS,
    BOXED,
    FINAL_REVISED,
    HEDGED,
    HEDGED_YESNO,
    JSON,
    LANG_CHOICE,
    LANG_NO,
    LANG_YES,
    LETTER_NAMES_NULL,
    LETTER_NAMES_READ,
    LETTER_NAMES_READ_LETTERS,
    MODEL_STYLE,
    NEGATED,
    NEGATION_SCOPE,
    NEGATIVE_FINDINGS,
    NOT_COMMITTED,
    PLAIN_LETTER,
    PLAIN_TEXT,
    POSITIVE_FINDINGS,
    REFUSAL,
    RESTATED,
    SPELLING,
    THINK,
    THINK_FINAL,
    THINK_OPEN,
    THINK_REVISED,
    THOUGHTS,
    VERBOSE,
    YES_SYNONYMS,
    YESNO_SYNONYMS,
)
from labelled_sets import CHOICES, MULTI, YESNO, ChoiceSet

REPO = Path(__file__).resolve().parents[2]
SHIPPED = REPO / "src" / "medvqa" / "resources" / "answers" / "labelled_responses.jsonl"
YN_OPTIONS = {"A": "Yes", "B": "No"}
BY_KEY = {c.key: c for c in CHOICES}
#: Families whose responses must not be scored (intended null).
_WEIGHED = {"negation-scope", "verbose-dismissal", "negated", "hedged", "ambiguous-two",
            "final-answer-revised", "think-revised"}
MUST_ABSTAIN = ("negated", "hedged", "refusal", "not-committed", "letters-in-names",
                "ambiguous-two", "model-style-abstain")


class _Builder:
    def __init__(self, seed: int = 2026):
        self.rng = random.Random(seed)
        self.rows: list[dict[str, Any]] = []
        self.counts: dict[str, int] = {}

    def add(self, family: str, response: str, options: dict[str, str], qtype: str,
            intended: str | list[str] | None, specialty: str, question: str) -> None:
        n = self.counts[family] = self.counts.get(family, 0) + 1
        self.rows.append({"id": f"{family}-{n:03d}", "family": family, "response": response,
                          "options": options, "question_type": qtype, "intended": intended,
                          "specialty": specialty, "question": question})

    def slots(self, cs: ChoiceSet, letter: str | None = None) -> dict[str, str]:
        letters = list(cs.options)
        pick = letter or self.rng.choice(letters)
        others = [x for x in letters if x != pick]
        self.rng.shuffle(others)
        o, p = others[0], others[-1] if len(others) > 1 else others[0]
        return {"L": pick, "T": cs.options[pick], "t": _lower(cs.options[pick]),
                "E": cs.evidence[pick], "O": o, "OT": cs.options[o], "ot": _lower(cs.options[o]),
                "OE": cs.evidence[o], "P": p, "PT": cs.options[p], "pt": _lower(cs.options[p]),
                "PE": cs.evidence[p], "Q": cs.question}

    def choice_rows(self, family: str, templates: list[str], n: int,
                    intended: bool = True) -> None:
        """``n`` rows over the templates in turn, each on the next choice item.

        Items whose options read oddly inside the template are skipped for it: two-option items
        where a third option is named, and option texts that start with "No" where other options
        are negated or weighed ("No diabetic retinopathy is excluded").
        """
        i = 0
        while self.counts.get(family, 0) < n:
            cs = CHOICES[(i * 7 + len(self.rows)) % len(CHOICES)]
            template = templates[self.counts.get(family, 0) % len(templates)]
            i += 1
            if ("{P" in template or "{p" in template) and len(cs.options) < 3:
                continue
            if family in _WEIGHED and any(v.startswith("No ") for v in cs.options.values()):
                continue
            s = self.slots(cs)
            self.add(family, template.format(**s), cs.options, "single",
                     s["L"] if intended else None, cs.specialty, cs.question)


def _lower(text: str) -> str:
    """An option text as written inside a sentence (abbreviations kept)."""
    return text if text[:2].isupper() else text[0].lower() + text[1:]


def _listing(cs: ChoiceSet, style: int) -> str:
    forms = ["{k}. {v}", "({k}) {v}", "{k}) {v}", "- {k}: {v}"]
    return "\n".join(forms[style % len(forms)].format(k=k, v=v) for k, v in cs.options.items())


def _marked(cs: ChoiceSet, chosen: set[str], style: int) -> str:
    style %= 5
    rows = list(cs.options.items())
    check, cross, ballot, empty = "\u2713", "\u2717", "\u2611", "\u2610"
    if style == 0:
        body = "\n".join(f"| {k}. {v} | {check if k in chosen else cross} |" for k, v in rows)
        return f"| Option | Present |\n|---|---|\n{body}"
    if style == 1:
        body = "\n".join(f"| {v} | {'Yes' if k in chosen else 'No'} |" for k, v in rows)
        return f"| Finding | Seen? |\n| --- | --- |\n{body}"
    if style == 2:
        return "Checklist:\n" + "\n".join(f"- [{'x' if k in chosen else ' '}] {k}. {v}"
                                          for k, v in rows)
    if style == 3:
        return "\n".join(f"- {v}: {'present' if k in chosen else 'absent'}" for k, v in rows)
    return "\n".join(f"{ballot if k in chosen else empty} {v}" for k, v in rows)


def build() -> list[dict[str, Any]]:
    """Every row of the labelled set, in family order."""
    b = _Builder()
    b.choice_rows("plain-letter", PLAIN_LETTER, 40)
    b.choice_rows("plain-text", PLAIN_TEXT, 40)
    for i in range(36):
        cs = CHOICES[(i * 5) % len(CHOICES)]
        s = b.slots(cs)
        open_, close = THINK[i % len(THINK)]
        thought = THOUGHTS[i % len(THOUGHTS)].format(**s)
        final = THINK_FINAL[(i // 2) % len(THINK_FINAL)].format(**s)
        sep = ["\n\n", "\n", " ", ""][i % 4]
        b.add("think-closed", f"{open_}\n{thought}\n{close}{sep}{final}", cs.options, "single",
              s["L"], cs.specialty, cs.question)
    b.choice_rows("think-open-or-stray", THINK_OPEN, 15)
    b.choice_rows("think-revised", THINK_REVISED, 20)
    b.choice_rows("boxed", BOXED, 25)
    b.choice_rows("json", JSON, 25)
    for i, yes in enumerate([True, False, True, False, True]):
        yn = YESNO[i * 2]
        text = ['{"answer": "Yes"}', '{"answer": false}', '```json\n{"answer": true}\n```',
                '{"final_answer": "No", "reason": "' + yn.absent + '"}',
                '{"answer": "yes", "finding": "' + yn.present + '"}'][i]
        b.add("json", text, YN_OPTIONS, "yesno", "A" if yes else "B", yn.specialty, yn.question)
    for i in range(24):
        cs = CHOICES[(i * 3) % len(CHOICES)]
        s = b.slots(cs)
        b.add("table-checklist", _marked(cs, {s["L"]}, i), cs.options, "single", s["L"],
              cs.specialty, cs.question)
    for i in range(6):
        cs = MULTI[i % 2]
        chosen = sorted(b.rng.sample(list(cs.options), 2))
        b.add("table-checklist", _marked(cs, set(chosen), i), cs.options, "multi", chosen,
              cs.specialty, cs.question)
    b.choice_rows("final-answer-revised", FINAL_REVISED, 25)
    for i in range(25):
        cs = CHOICES[(i * 3 + 1) % len(CHOICES)]
        s = b.slots(cs)
        text = RESTATED[i % len(RESTATED)].format(listing=_listing(cs, i), **s)
        b.add("restated-options", text, cs.options, "single", s["L"], cs.specialty, cs.question)
    for i in range(32):
        yn = YESNO[i % len(YESNO)]
        template = YESNO_SYNONYMS[i % len(YESNO_SYNONYMS)]
        yes = (i % len(YESNO_SYNONYMS)) < YES_SYNONYMS
        text = template.format(Y=yn.present, N=yn.absent, F=yn.finding)
        b.add("yesno-synonyms", text, YN_OPTIONS, "yesno", "A" if yes else "B", yn.specialty,
              yn.question)
    _languages(b)
    _spelling_and_abbreviations(b)
    b.choice_rows("negation-scope", NEGATION_SCOPE, 30)
    b.choice_rows("verbose-dismissal", VERBOSE, 30)
    for i in range(28):
        yn = YESNO[i % len(YESNO)]
        if i % 4 == 3:
            text = POSITIVE_FINDINGS[(i // 4) % len(POSITIVE_FINDINGS)]
            intended = "A"
        else:
            text, intended = NEGATIVE_FINDINGS[i % len(NEGATIVE_FINDINGS)], "B"
        text = text.format(F=_article(yn.finding) if "there is {F}" in text.lower() else
                           yn.finding, Y=yn.present, N=yn.absent)
        b.add("findings", text[0].upper() + text[1:], YN_OPTIONS, "yesno", intended,
              yn.specialty, yn.question)
    for text, letter in zip(LETTER_NAMES_READ, LETTER_NAMES_READ_LETTERS, strict=True):
        cs = BY_KEY["organism"]
        b.add("names-read-by-text", text, cs.options, "single", letter, cs.specialty,
              cs.question)
    by_key = {c.key: c for c in CHOICES + MULTI}
    for key, text, intended in MODEL_STYLE:
        cs = by_key[key]
        family = "model-style" if intended is not None else "model-style-abstain"
        b.add(family, text, cs.options, "multi" if isinstance(intended, list) else "single",
              intended, cs.specialty, cs.question)
    _must_abstain(b)
    return b.rows


def _article(finding: str) -> str:
    return ("an " if finding[0] in "aeiou" else "a ") + finding if not finding.endswith(
        ("s", "air")) else finding


def _languages(b: _Builder) -> None:
    es = {"ptx": "hay un neumot\u00f3rax", "effusion": "hay derrame pleural",
          "fracture": "hay una fractura", "free_air": "hay aire libre"}
    for i in range(14):
        yn = YESNO[i % len(YESNO)]
        text = LANG_YES[i % len(LANG_YES)].format(es=es.get(yn.key, "est\u00e1 presente"))
        b.add("other-languages", text, YN_OPTIONS, "yesno", "A", yn.specialty, yn.question)
    for i in range(14):
        yn = YESNO[(i + 5) % len(YESNO)]
        b.add("other-languages", LANG_NO[i % len(LANG_NO)], YN_OPTIONS, "yesno", "B",
              yn.specialty, yn.question)
    zh = {"A": "\u662f", "B": "\u5426"}
    for i, (text, letter) in enumerate([("\u662f", "A"), ("\u5426", "B"), ("B", "B"),
                                        ("\u7b54\u6848\uff1a\u662f", "A")]):
        yn = YESNO[i]
        b.add("other-languages", text, zh, "yesno", letter, yn.specialty, yn.question)
    for i in range(12):
        cs = CHOICES[(i * 5 + 2) % len(CHOICES)]
        s = b.slots(cs)
        b.add("other-languages", LANG_CHOICE[i % len(LANG_CHOICE)].format(**s), cs.options,
              "single", s["L"], cs.specialty, cs.question)
    for text, letter in (("Neumot\u00f3rax.", "B"), ("Pneumothorax (Pneumothorax).", "B"),
                         ("\u00c9panchement pleural.", "A")):
        cs = BY_KEY["cxr"]
        b.add("other-languages", text, cs.options, "single", letter, cs.specialty, cs.question)


def _spelling_and_abbreviations(b: _Builder) -> None:
    for key, rows in SPELLING.items():
        cs = BY_KEY[key]
        for text, letter in rows:
            b.add("spelling-variants", text, cs.options, "single", letter, cs.specialty,
                  cs.question)
    for key, rows in ABBREVIATIONS.items():
        cs = BY_KEY[key]
        for text, letter in rows:
            b.add("abbreviations", text, cs.options, "single", letter, cs.specialty,
                  cs.question)
    # An abbreviation of two offered options is not an answer.
    two = {"A": "Pulmonary embolism", "B": "Pleural effusion", "C": "Pneumonia", "D": "Normal"}
    for text in ("PE", "PE on the left.", "Findings in keeping with PE."):
        b.add("ambiguous-two", text, two, "single", None, "radiology",
              "What is the main finding?")


def _must_abstain(b: _Builder) -> None:
    b.choice_rows("negated", NEGATED, 30, intended=False)
    b.choice_rows("hedged", HEDGED, 32, intended=False)
    for i in range(8):
        yn = YESNO[(i * 3) % len(YESNO)]
        b.add("hedged", HEDGED_YESNO[i % len(HEDGED_YESNO)].format(F=yn.finding).capitalize(),
              YN_OPTIONS, "yesno", None, yn.specialty, yn.question)
    b.choice_rows("refusal", REFUSAL, 24, intended=False)
    for i in range(6):
        yn = YESNO[(i * 5) % len(YESNO)]
        b.add("refusal", REFUSAL[i * 2].format(t="yes", L="A"), YN_OPTIONS, "yesno", None,
              yn.specialty, yn.question)
    b.choice_rows("not-committed", NOT_COMMITTED, 24, intended=False)
    cs = BY_KEY["organism"]
    for text in LETTER_NAMES_NULL:
        b.add("letters-in-names", text, cs.options, "single", None, cs.specialty, cs.question)
    for text, key in (("T2-weighted images show it best.", "brain"),
                      ("Vitamin D deficiency, not any of these.", "liver_path"),
                      ("Type B dissection.", "chest_ct"), ("Hepatitis C.", "liver_path"),
                      ("Class A.", "rash")):
        cs = BY_KEY[key]
        b.add("letters-in-names", text, cs.options, "single", None, cs.specialty, cs.question)
    b.choice_rows("ambiguous-two", AMBIGUOUS, 22, intended=False)


def rows_as_jsonl(rows: list[dict[str, Any]]) -> str:
    """The shipped file's text: one JSON object per line, keys in a fixed order."""
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)


def iter_families(rows: list[dict[str, Any]]) -> Iterator[tuple[str, int, bool]]:
    """(family, rows, must abstain) in order of first appearance."""
    seen: dict[str, int] = {}
    for r in rows:
        seen[r["family"]] = seen.get(r["family"], 0) + 1
    for fam, n in seen.items():
        yield fam, n, fam in MUST_ABSTAIN


if __name__ == "__main__":
    built = build()
    SHIPPED.write_text(rows_as_jsonl(built), encoding="utf-8")
    for fam, n, null in iter_families(built):
        print(f"{fam:22s} {n:4d} {'must abstain' if null else ''}")
    print(f"{'total':22s} {len(built):4d}", file=sys.stderr)
