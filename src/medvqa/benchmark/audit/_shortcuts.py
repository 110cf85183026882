"""Shortcuts in the items themselves: answer letters, option cues, answer classes per split.

Tallied in one pass over the items (:class:`ShortcutTally`, no item kept), then tested:

- ``answer-letter-balance``: per question type, the answer letters against each item's
  expectation (an item with k options adds 1/k to each of its letters), Pearson's χ². A
  benchmark whose answer is "C" more often than chance teaches a letter, not a finding.
  ``grade`` options follow the grade order, so there the letters are the classes: a note.
- ``option-cue``: for single-answer items, how often the answer is the longest option, the
  most specific one (most distinct content words, numbers included) or the most hedged one
  (most hedging words: may, possibly, likely, suggest, consistent with …), against chance:
  under "the answer sits at random among the options" an item whose cue picks m of its k
  options holds the answer there with probability m/k; the hits are tested one-sided with the
  exact Poisson-binomial tail. Items where the cue ties every option (or, for hedging, no
  option hedges) are left out.
- ``answer-class-balance``: per split and question type, the answer classes (the answer
  option's text): the share of the most frequent class against mean 1/k (what always giving
  that answer scores, against a uniform guess); a warning from 20 items and 0.2 above chance.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from medvqa.benchmark.audit._model import Finding, Severity
from medvqa.benchmark.audit._stats import chi_square_gof, poisson_binomial_sf, signif
from medvqa.benchmark.audit._text import STOP, answer_key, normalise, words
from medvqa.schema import Item

HEDGES = ("may", "might", "could", "possibly", "possible", "probably", "probable", "likely",
          "suggest", "suggests", "suggestive", "suspicious", "consistent with", "compatible with",
          "cannot be excluded", "cannot be ruled out", "not excluded", "perhaps", "maybe",
          "appears", "seems", "usually", "often", "typically", "generally", "approximately",
          "some", "partly", "partially", "questionable", "uncertain", "equivocal")

#: Smallest class count per split for an answer-class warning; smallest excess over chance.
MIN_CLASS_ITEMS, CLASS_EXCESS = 20, 0.2


def length_score(text: str) -> float:
    """Characters of the option text (stripped).

    >>> length_score("  benign ")
    6.0
    """
    return float(len(text.strip()))


def specificity_score(text: str) -> float:
    """Distinct content words: not a stop word, three letters or more, or holding a digit.

    >>> specificity_score("Mass in the left upper lobe, 2 cm")
    5.0
    """
    return float(len({w for w in words(text)
                      if any(c.isdigit() for c in w) or (len(w) >= 3 and w not in STOP)}))


def hedge_score(text: str) -> float:
    """Hedging words and phrases in the option text.

    >>> hedge_score("Possibly a benign lesion, may be consistent with a cyst")
    3.0
    """
    padded = f" {normalise(text)} "
    return float(sum(padded.count(f" {h} ") for h in HEDGES))


CUES: dict[str, Callable[[str], float]] = {
    "longest": length_score,
    "most specific": specificity_score,
    "most hedged": hedge_score,
}


@dataclass
class _Cue:
    trials: Counter[float] = field(default_factory=Counter)
    hits: int = 0
    follow: float = 0.0
    chance: float = 0.0


@dataclass
class _Letters:
    observed: Counter[str] = field(default_factory=Counter)
    expected: defaultdict[str, float] = field(default_factory=lambda: defaultdict(float))
    n: int = 0


@dataclass
class _Classes:
    counts: Counter[str] = field(default_factory=Counter)
    chance: float = 0.0


class ShortcutTally:
    """Running tallies of the shortcut checks; :meth:`add` each item, then :meth:`findings`."""

    def __init__(self) -> None:
        self.letters: dict[str, _Letters] = defaultdict(_Letters)
        self.cues: dict[str, _Cue] = {name: _Cue() for name in CUES}
        self.classes: dict[tuple[str, str], _Classes] = defaultdict(_Classes)

    def add(self, item: Item) -> None:
        """Count one item."""
        qt, k = item.question_type, len(item.options)
        if qt not in {"single", "yesno", "grade", "multi"} or k < 2:
            return
        self.classes[(qt, item.split)].counts[answer_key(item)] += 1
        self.classes[(qt, item.split)].chance += 1 / k
        if qt == "multi" or not isinstance(item.answer, str):
            return
        letters = self.letters[qt]
        letters.n += 1
        letters.observed[item.answer] += 1
        for letter in item.options:
            letters.expected[letter] += 1 / k
        if qt != "single":
            return
        for name, score in CUES.items():
            scores = {letter: score(text) for letter, text in item.options.items()}
            top = max(scores.values())
            picked = [letter for letter, s in scores.items() if s == top]
            if len(picked) == k or (name == "most hedged" and top == 0):
                continue
            cue = self.cues[name]
            cue.trials[len(picked) / k] += 1
            cue.chance += 1 / k
            if item.answer in picked:
                cue.hits += 1
                cue.follow += 1 / len(picked)

    def findings(self, alpha: float) -> list[Finding]:
        """Every shortcut finding (``alpha``: the tests' significance level)."""
        return self._letters(alpha) + self._cues(alpha) + self._classes()

    def _letters(self, alpha: float) -> list[Finding]:
        out = []
        for qt, t in sorted(self.letters.items()):
            test = chi_square_gof(t.observed, t.expected)
            unbalanced = test.df > 0 and test.p_value < alpha
            severity: Severity = "warning" if unbalanced and qt != "grade" else "note"
            shares = ", ".join(f"{k} {t.observed.get(k, 0)}/{t.expected[k]:.1f}"
                               for k in sorted(t.expected))
            verdict = "unbalanced" if unbalanced else "balanced"
            extra = " (grade letters follow the grades: this is class balance)" if (
                qt == "grade") else ""
            out.append(Finding(
                check="answer-letter-balance", severity=severity,
                message=f"{qt} items: answer letters {verdict} against each item's expectation "
                        f"(observed/expected {shares}; χ² {test.statistic:.2f}, df {test.df}, "
                        f"p {signif(test.p_value, 3)}){extra}",
                n_items=t.n,
                data={"question_type": qt, "n": t.n, "observed": dict(sorted(t.observed.items())),
                      "expected": {k: signif(v) for k, v in sorted(t.expected.items())},
                      "chi2": signif(test.statistic), "df": test.df,
                      "p_value": signif(test.p_value)}))
        return out

    def _cues(self, alpha: float) -> list[Finding]:
        out = []
        for name, cue in self.cues.items():
            n = sum(cue.trials.values())
            if not n:
                continue
            expected = sum(p * c for p, c in cue.trials.items())
            p = poisson_binomial_sf(cue.hits, cue.trials)
            shortcut = p < alpha and cue.hits > expected
            severity: Severity = "warning" if shortcut else "note"
            out.append(Finding(
                check="option-cue", severity=severity,
                message=f"the {name} option is the answer in {cue.hits} of {n} single-answer "
                        f"items ({expected:.1f} expected by chance, one-sided p "
                        f"{signif(p, 3)}); always picking it scores {cue.follow / n:.3f} "
                        f"against chance {cue.chance / n:.3f}",
                n_items=int(n),
                data={"cue": name, "n": int(n), "hits": cue.hits,
                      "expected_hits": signif(expected), "p_value": signif(p),
                      "follower_accuracy": signif(cue.follow / n),
                      "chance": signif(cue.chance / n)}))
        return out

    def _classes(self) -> list[Finding]:
        out = []
        for (qt, split), c in sorted(self.classes.items()):
            n = sum(c.counts.values())
            top, top_n = sorted(c.counts.items(), key=lambda kv: (-kv[1], kv[0]))[0]
            share, chance = top_n / n, c.chance / n
            skewed = n >= MIN_CLASS_ITEMS and share - chance >= CLASS_EXCESS
            severity: Severity = "warning" if skewed else "note"
            out.append(Finding(
                check="answer-class-balance", severity=severity,
                message=f"{split} {qt} items: the most frequent answer {top!r} is "
                        f"{top_n} of {n} ({share:.2f}; a uniform guess scores {chance:.2f})",
                n_items=n, splits=[split],
                data={"question_type": qt, "split": split, "n": n, "classes": len(c.counts),
                      "top": dict(sorted(c.counts.items(), key=lambda kv: (-kv[1], kv[0]))[:20]),
                      "majority_share": signif(share), "chance": signif(chance)}))
        return out
