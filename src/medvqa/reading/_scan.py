"""The strict reader's reading of one piece of text: which options it asserts, negates or names.

:func:`scan` reads one text (a whole response, a located answer, or what comes before or after
it) and returns a :class:`Reading`; :mod:`._decide` turns readings into a decision. A text is
read in this order:

1. Markdown is dropped; a hedge that goes on to commit ("I'm not sure, but …") is dropped.
2. The options it names are found: their texts in every form (:mod:`._options`), their values
   (:mod:`._values`), their letters in letter positions (:mod:`._letters`), and on a yes/no
   item the yes/no word that opens it and the findings it states (:mod:`._findings`).
3. With every option's words blanked (an option called "Cannot be assessed" is no refusal),
   a hedge (``hedge``) or a refusal (``refusal``) anywhere decides the text.
4. LMOD's ``FIELD; Explanation: …``: only the field is read.
5. Each mention is asserted, negated or discussed by the words of its clause (the rule table's
   negations, statuses, discussions, concessions, plans; :mod:`._polarity`).
6. Two asserted readings joined by an alternative ("or", a value range across options) are
   alternatives.
"""

from __future__ import annotations

import re
from typing import Final

from medvqa.reading._answer_words import NO_WORDS, YES_WORDS
from medvqa.reading._book import RuleBook, book, word_tokens
from medvqa.reading._findings import asked_parts, finding_answers, names_asked, other_finding
from medvqa.reading._fold import phrase_tokens
from medvqa.reading._letters import letter_mentions, own_text_before, own_text_follows
from medvqa.reading._options import OptionSet, bag_mentions
from medvqa.reading._patterns import ANSWER_LEAD, patterns
from medvqa.reading._polarity import Mention, Polarity
from medvqa.reading._text import blanked, line_starts, matches_at, prepare
from medvqa.reading._values import without_list_numbers
from medvqa.reading.rules import Kind

__all__ = ["NOTHING", "YES_NO_WORDS", "Reading", "restated", "scan", "without_yes_no_format"]


class Reading:
    """What one text says about the options (never changed once made).

    Attributes:
        asserted: letters the text chooses.
        negated: letters it rejects.
        lettered: letters chosen in a letter position (``(B)``, ``Answer: B``, ``B: …``).
        verdict: an abstention found on the way (``refusal``, ``hedge``, ``ambiguous``,
            ``out_of_range``, ``empty``), else None.
        alternatives: two asserted readings are joined as alternatives.
        used_question: the reading depended on the question (a finding rule).
        rule: the id of the rule that decided the verdict, or that read the answer.
        named: every letter named in any way (asserted, negated or discussed).
        letter_named: letters named in a letter position, whatever their state.
    """

    __slots__ = ("alternatives", "asserted", "letter_named", "lettered", "named", "negated",
                 "rule", "used_question", "verdict")

    def __init__(self, asserted: frozenset[str], negated: frozenset[str],
                 lettered: frozenset[str], verdict: str | None, alternatives: bool = False,
                 used_question: bool = False, rule: str | None = None,
                 named: frozenset[str] = frozenset(), letter_named: frozenset[str] = frozenset()):
        self.asserted = asserted
        self.negated = negated
        self.lettered = lettered
        self.verdict = verdict
        self.alternatives = alternatives
        self.used_question = used_question
        self.rule = rule
        self.named = named | asserted | negated
        self.letter_named = letter_named | lettered

    def __repr__(self) -> str:
        return (f"Reading(asserted={sorted(self.asserted)}, negated={sorted(self.negated)}, "
                f"lettered={sorted(self.lettered)}, verdict={self.verdict!r}, "
                f"alternatives={self.alternatives}, rule={self.rule!r})")


_EMPTY: Final[frozenset[str]] = frozenset()
NOTHING: Final = Reading(_EMPTY, _EMPTY, _EMPTY, None)


def _stop(verdict: str, rule: str | None) -> Reading:
    return Reading(_EMPTY, _EMPTY, _EMPTY, verdict, rule=rule)


_LEAD = ANSWER_LEAD
#: The reader's answer lead at the start of a text ("The correct answer is:", "Answer -").
LEAD: Final = re.compile(r"\s*" + _LEAD, re.IGNORECASE)
_ONLY_LETTERS_LEN: Final = 48
_LETTER: Final = re.compile(r"[A-Za-z](?<![A-Za-z][A-Za-z])(?![A-Za-z])")
_RUN_OF_LETTERS: Final = re.compile(rf"^\s*{_LEAD}?([A-Z]{{2,6}})[\s.!]*$", re.IGNORECASE)
# A letter in brackets, and a bare one, in a list of letters ("A, C, (D)").
_BRACKETED: Final = re.compile(r"[(\[][A-Za-z][)\]]")
_BARE: Final = re.compile(r"(?<![(\[A-Za-z])[A-Za-z](?![)\]A-Za-z])")
# (letters joined by a slash are alternatives too: "A/C", "A / B / C")
_OR_LETTERS: Final = re.compile(r"\bor\b|\beither\b|\||\b[A-Za-z]\s*/\s*[A-Za-z]\b",
                                re.IGNORECASE)
#: Every yes and no word of the table as one alternation, longest first.
YES_NO_WORDS: Final = "|".join(re.escape(w) for w in sorted(YES_WORDS | NO_WORDS, key=len,
                                                              reverse=True))
_YN_WORDS = YES_NO_WORDS
# Pictographs before a yes/no word decorate it ("💓 yes 💓"). Marks are not decoration
# (a check or a cross says which row is chosen: the marks reader reads them), nor are signs
# (🚫, ⛔ take the word back).
_DECORATION: Final = r"(?:[\U0001f300-\U0001f5ff\U0001f900-\U0001f9ff]\s*)*"
# (a quoted word only after an answer lead: 'Answer: "No"'; '"No," said the resident' quotes)
_YN_HEAD: Final = re.compile(rf"^\s*{_DECORATION}(?:{_LEAD}[\"']?)?"
                             rf"(?:(?P<w>{_YN_WORDS})(?=$|\s*[\"'.,;:!()\u2014"
                             r"\u3002\uff0c\uff01\uff1b\uff1a\u3001]|\s*-(?!\w)|\s*\n)"
                             r"|(?P<f>yes|yeah|yep|s\u00ed|oui|ja|sim|nope|nah)(?=\s)"
                             r"|(?P<n>no|nein|non|n\u00e3o)(?=\s+(?:there|it|it's|i|the|this|that|we|"
                             r"you|these|they)\b))", re.IGNORECASE)
# A prompt's format label echoed before the answer: "Answer (Yes/No): No", "[Yes/No] → Yes",
# "Yes/No? No": the pair in brackets, or joined by a slash before a colon, question mark or arrow.
_YN_FORMAT: Final = re.compile(
    r"[(\[][ \t]*(?:yes|no)[ \t]*(?:/|\bor\b|\|)[ \t]*(?:yes|no)[ \t]*[)\]][ \t]*:?"
    r"|\b(?:yes|no)[ \t]*/[ \t]*(?:yes|no)[ \t]*(?=[?:\u2192]|->|=>)[?:]?", re.IGNORECASE)


def without_yes_no_format(body: str) -> str:
    """``body`` with a yes/no format label blanked: the prompt's words, not an answer."""
    if "/" not in body and " or " not in body.lower() and "|" not in body:
        return body
    return _YN_FORMAT.sub(lambda m: " " * len(m.group()), body)


# "Yes or no", "yes/no", "Yes, no.": both words at once. Not "Yes, no abnormality": a "no" that
# opens a noun phrase is no answer word (but "Yes no wait", "yes, no, actually" take it back).
_YN_BOTH: Final = re.compile(r"\b(yes|no|true|false)(?:[\s,/]*(?:or|and)\b[\s,/]*(?!\1\b)"
                             r"(?:yes|no|true|false)|[\s,/]*(?!\1\b)(?:yes|true|false|no(?![ \t]+"
                             r"(?!(?:wait|actually|hmm|sorry|correction|scratch|i|on|let)\b)[a-z])))"
                             r"\b")
# Radiology's query: a question mark opening a word ("?pneumothorax") asks, it does not state.
_QUERY: Final = re.compile(r"(?:^|[\s(\[,;:/])\?[a-z]")
_RESTATED: Final = re.compile(r"^[ \t]*(?:[-*\u2022][ \t]*)?[(\[]?([A-Z])[.):\]][ \t]+"
                              r"(\S(?:[^\n]*[^ \t\n])?)[ \t]*$", re.MULTILINE)


def _spaces(m: re.Match[str]) -> str:
    return " " * len(m.group())


_blank: Final = blanked


def letters_only(text: str, bk: RuleBook | None = None) -> re.Match[str] | None:
    """The match of a text that is letters only ("(b)", "A, C"), or None.

    >>> bool(letters_only("(b)")), bool(letters_only("(case 3)"))
    (True, False)
    """
    text = prepare(text)
    if len(text) > _ONLY_LETTERS_LEN:
        return None
    return patterns(bk or book()).only_letters.match(text)


def scan(text: str, ix: OptionSet, qtype: str, question: str = "", *, hedge: bool = True,
         bare: bool = False, bk: RuleBook | None = None, answered: bool = False) -> Reading:
    """Read one text (see the module docstring).

    Args:
        text: the text (normalised: :func:`~._text.normalize`).
        ix: the item's options.
        qtype: the question type (``single``, ``multi``, ``yesno``, ``grade``).
        question: the question, where known (findings answer a yes/no question only when
            they are what it asks).
        hedge: look for hedges too (not in the text before a located answer).
        bare: the text is an answer by itself (a located answer, a field of structured
            output): a number standing alone is a value there.
        bk: the rule book (the shipped one by default).
        answered: the text follows a located yes or no, so a finding that only casts doubt on
            it counts (``finding_answers(lenient=True)``).
    """
    bk = bk or book()
    text = prepare(text)
    lowered = text.lower()
    if len(lowered) != len(text):  # a character whose lower case is longer (İ): keep it
        lowered = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    tokens = word_tokens(lowered)
    lead = bk.search(Kind.HEDGE_LEAD, lowered, tokens)
    if lead is not None and lowered.startswith(lead[1]):
        text, lowered = text[len(lead[1]):].lstrip(), lowered[len(lead[1]):].lstrip()
        tokens = word_tokens(lowered)
    if not text:
        return _stop("empty", "structural.empty")
    spans: list[tuple[int, int, frozenset[str]]] = ix.phrases.find(text, lowered)
    if ix.bags:
        spans = sorted(spans + bag_mentions(text, ix, spans, tokens))
    values = ix.values(question)
    value_mentions = without_list_numbers(text, values.find(text, bare=bare)) \
        if values is not None else []
    if value_mentions and spans:  # a value inside an option's text is that text ("L3–L4")
        value_mentions = [v for v in value_mentions if not any(
            s <= v.start and v.end <= e and e - s > v.end - v.start for s, e, _ in spans)]
    blanked = [(s, e) for s, e, _ in spans] + [(v.start, v.end) for v in value_mentions]
    masked = _blank(lowered, blanked) if blanked else lowered
    words = word_tokens(masked) if blanked else tokens
    if hedge:
        got = _hedged(text, masked, words, blanked, ix, bk)
        if got is not None:
            return _stop("hedge", got)
        if "?" in lowered and _QUERY.search(lowered) is not None:
            return _stop("hedge", "structural.query")
    refusal = bk.search(Kind.REFUSAL, masked, words)
    if refusal is not None:
        exclusion = bk.search(Kind.EXCLUSION_HEDGE, masked, words)
        return _stop("hedge", exclusion[0]) if exclusion else _stop("refusal", refusal[0])
    if hedge:
        exclusion = bk.search(Kind.EXCLUSION_HEDGE, masked, words)
        if exclusion is not None:
            return _stop("hedge", exclusion[0])
    if ":" in text:
        cut = bk.spans(Kind.EXPLANATION, lowered, tokens)
        if cut and cut[0][0] > 0:
            at = cut[0][0]
            if conclusion_asserts(text[cut[0][1]:], ix.keys, ix, qtype, question, bk,
                                  exclude_first=text[:at]):
                return _stop("ambiguous", "conclusion.points-to")
            text, lowered, masked = text[:at], lowered[:at], masked[:at]
            spans = [s for s in spans if s[1] <= at]
            value_mentions = [v for v in value_mentions if v.end <= at]
            words = word_tokens(masked)
    only = letters_only(text, bk) if len(text) <= _ONLY_LETTERS_LEN else None
    run_match = _RUN_OF_LETTERS.match(text) if only is None and qtype == "multi" else None
    if run_match is not None:
        run = run_match.group(1)  # "ABC": a run of distinct option letters
        if set(run) <= ix.keys and len(set(run)) == len(run) and list(run) == sorted(run):
            return Reading(frozenset(run), _EMPTY, frozenset(run), None,
                           rule="structural.letters")
    if only is not None:
        joins = bk.words[Kind.LIST_JOIN]
        listed = [c.upper() for c in _LETTER.findall(only.group(1))
                  if not (c.islower() and c in joins)]
        letters = set(listed)
        if len(listed) > len(letters) + 1 and letters <= ix.keys and not _one_cycle(listed):
            return _stop("ambiguous", "structural.repeated-letters")  # "A B A B A B E A B"
        if len(letters) > 1 and _OR_LETTERS.search(only.group(1)):
            return _stop("ambiguous", "alternative.or")
        if len(letters) > 1 and _BRACKETED.search(only.group(1)) and _BARE.search(
                only.group(1)):
            return _stop("not_committed", "structural.bracketed-letter")
        if letters <= ix.keys and (qtype == "multi" or len(letters) == 1):
            got_letters = frozenset(letters)
            return Reading(got_letters, _EMPTY, got_letters, None, rule="structural.letters")
        return _stop("out_of_range" if not letters <= ix.keys else "ambiguous",
                     "structural.out-of-range" if not letters <= ix.keys else
                     "structural.two-options")
    neutral = bk.spans(Kind.NOT_NEGATION, masked, words)
    if neutral:
        masked = _blank(masked, [(s, e) for s, e, _ in neutral])
        words = word_tokens(masked)
    lettered_at = letter_mentions(text, lowered, ix.words, bk.sources(Kind.LETTER_KEYWORD),
                                  tokens, patterns(bk).letter_free, bk.sources(Kind.LIST_JOIN))
    if lettered_at:  # letters blanked too: "B, C, D excluded" negates the three
        masked = _blank(masked, [(s, e) for _, s, e in lettered_at])
        words = word_tokens(masked)
    mentions = [Mention(s, e, k, "text") for s, e, k in spans]
    mentions += [Mention(v.start, v.end, v.letters, "value", v.spans_options)
                 for v in value_mentions]
    for letter, s, e in lettered_at:
        if letter not in ix.keys:
            return _stop("out_of_range", "structural.out-of-range")
        words_of = ix.words.get(letter, ())
        own = own_text_follows(text, e, words_of)
        before = own_text_before(text, s, words_of) if not own else None
        # "No (B)": the letter with its own text before it is one mention, its text no negation
        mentions.append(Mention(s if before is None else before, e, frozenset((letter,)),
                                "letter-own" if own or before is not None else "letter"))
    if qtype == "multi" and bk.any_of(_SET_KINDS, masked, words) or (
            qtype == "multi" and patterns(bk).set_range.search(text) is not None):
        pol = Polarity(text, lowered, masked, words, bk)
        got_set = _set_expression(text, masked, words, ix, pol, bk)
        if got_set is None and len(patterns(bk).set_range.findall(text)) > 1:
            return _stop("ambiguous", "alternative.or")
        if got_set is not None:
            if not got_set[0]:
                return _stop("negated", got_set[1])
            return Reading(got_set[0], _EMPTY, got_set[0], None, rule=got_set[1])
    if not mentions and not ix.yesno:
        return NOTHING
    pol = Polarity(text, lowered, masked, words, bk)
    asserted: set[str] = set()
    negated: set[str] = set()
    lettered: set[str] = set()
    named: set[str] = set()
    alternatives = False
    how: dict[str, str] = {}
    letter_named: set[str] = set()
    for m in mentions:
        named |= m.letters
        if m.kind.startswith("letter"):
            letter_named |= m.letters
        # "B: No" on a yes/no item, "B: Right": the label's own text is no status of it
        state = pol.state(m, label=m.kind != "letter-own")
        if m.kind == "value" and m.spans and state == "asserted":
            alternatives = True  # "8-12 mm" across two options, "grade 2-3"
            continue
        if len(m.letters) != 1:
            continue  # a value several options share names none of them
        if state == "asserted":
            asserted |= m.letters
            for letter in m.letters:
                how.setdefault(letter, _READ_BY[m.kind])
            if m.kind.startswith("letter"):
                lettered |= m.letters
        elif state == "negated":
            negated |= m.letters
    used_question = False
    if ix.yesno:
        if _YN_BOTH.search(masked):
            return _stop("ambiguous", "structural.yes-no-both")
        said_after = [(m.group(1).lower() in YES_WORDS, label) for m in _LABEL_YN.finditer(text)
                      if not other_finding(label := _line_before(text, m.start()), question)]
        # where some labels name the asked finding, the others name other findings
        asked = [yes for yes, label in said_after if names_asked(label, question)]
        after_labels = set(asked) if asked else {yes for yes, _ in said_after}
        if len(after_labels) == 2:
            return _stop("ambiguous", "structural.yes-no-both")  # "Right: yes … Left: no."
        labelled = _LABELLED_YN.match(text)
        if labelled is not None and labelled.group(1) in ix.keys:
            word = labelled.group(2).lower()
            said = ix.yes if word in YES_WORDS else ix.no
            if said != labelled.group(1):
                return _stop("ambiguous", "structural.letter-text-conflict")
        yn = _YN_HEAD.match(text)
        if yn is not None:
            group = yn.lastgroup or "w"
            word = yn.group(group).lower()
            said = ix.yes if word in YES_WORDS else ix.no
            if said is not None:
                state = pol.state(Mention(yn.start(group), yn.end(group), frozenset((said,)),
                                          "yesno"), label=False)
                if state == "asserted":
                    asserted.add(said)
                    lettered.add(said)
                    how.setdefault(said, "structural.yes-no-word")
                elif state == "negated":
                    negated.add(said)
        asked_text = asked_parts(masked, question)
        found = finding_answers(masked if asked_text is None else asked_text, question, bk,
                                lenient=answered or bool(asserted))
        used_question = bool(question)
        for word in found:
            said = ix.yes if word == "yes" else ix.no
            if said is not None:
                asserted.add(said)
                how.setdefault(said, "finding.absent-lead" if word == "no" else "finding.present")
    if len(asserted) > 1 and not alternatives:
        alternatives = pol.alternatives(mentions, asserted)
    if asserted and not alternatives and patterns(bk).or_word.search(masked) is not None:
        # "AML or a small RCC": an answer joined by "or" to something the rules do not
        # read is still one of two readings kept open
        alternatives = any(pol.or_beside(m) for m in mentions if m.letters & asserted)
    if asserted and not alternatives and "/" in masked:
        # "Irregular/lobulated", "high-grade glioma / metastasis": the option's text joined
        # by a slash to another reading's word
        alternatives = any(pol.slash_beside(m) for m in mentions
                           if m.letters & asserted and m.kind == "text")
    rule = how[min(asserted)] if asserted and len({how.get(a) for a in asserted}) == 1 and \
        min(asserted) in how else ("structural.option-text" if asserted else None)
    return Reading(frozenset(asserted), frozenset(negated), frozenset(lettered), None,
                   alternatives, used_question, rule, frozenset(named),
                   frozenset(letter_named - negated))


def _line_before(text: str, at: int) -> str:
    """The text of at's line, or of its clause, before it: a label's name."""
    line = text[text.rfind("\n", 0, at) + 1:at]
    cut = max(line.rfind(". "), line.rfind("; "), line.rfind("| "))
    return line[cut + 2:] if cut >= 0 else line


# On a yes/no item, a letter label and the yes or no word after it ("A — yes", "B: No").
_LABELLED_YN: Final = re.compile(rf"^\s*([A-Z])\s*[:.)\u2014\u2013-]+\s*({_YN_WORDS})\b",
                                 re.IGNORECASE)
# A yes or no word as the value of a label ("Right: yes", "Left breast: no").
_LABEL_YN: Final = re.compile(rf":\s*({_YN_WORDS})\b(?!-)", re.IGNORECASE)
_SET_KINDS: Final = frozenset({Kind.SET_ALL, Kind.SET_NONE, Kind.SET_EXCEPT})
# A letter joined to a range ("A through C, plus E", "A–C and E").
_JOINED_LETTER: Final = re.compile(r"(?:,|\band\b|\bplus\b|&)\s*([A-Z])(?![A-Za-z])")
_READ_BY: Final = {"letter": "structural.letter-position",
                   "letter-own": "structural.letter-position", "text": "structural.option-text",
                   "value": "structural.value", "yesno": "structural.yes-no-word"}


def _hedged(text: str, masked: str, words: frozenset[str], named: list[tuple[int, int]],
            ix: OptionSet, bk: RuleBook) -> str | None:
    """The rule of a hedge that keeps the text's answer open, or None.

    A hedge phrase (``hedge.*``) anywhere; a scoped one (``Kind.HEDGE_SCOPED``: "may
    represent", "consider") only in a sentence that names an option (its texts, values, a
    letter), or anywhere on a yes/no item. Phrases of ``hedge.not-a-hedge`` are set aside
    first ("I consider this X", "I suspect X").
    """
    if not bk.any_of(_HEDGE_KINDS, masked, words):
        return None
    fine = bk.spans(Kind.NOT_HEDGE, masked, words)
    if fine:
        masked = _blank(masked, [(s, e) for s, e, _ in fine])
        words = word_tokens(masked)
    got = bk.search(Kind.HEDGE, masked, words)
    if got is not None:
        return got[0]
    for s, e, rule_id in bk.spans(Kind.HEDGE_SCOPED, masked, words):
        if ix.yesno:
            return rule_id
        begin = max(masked.rfind(c, 0, s) for c in ".!?\n") + 1
        ends = [i for i in (masked.find(c, e) for c in ".!?\n") if i >= 0]
        end = min(ends) if ends else len(masked)
        if any(begin <= a < end or begin < b <= end for a, b in named) or any(
                m.group() in ix.keys for m in _CAPITAL.finditer(text, begin, end)):
            return rule_id
    return None


_HEDGE_KINDS: Final = frozenset({Kind.HEDGE, Kind.HEDGE_SCOPED})
_CAPITAL: Final = re.compile(r"(?<![A-Za-z])[A-Z](?![A-Za-z])")


def _set_expression(text: str, masked: str, words: frozenset[str], ix: OptionSet,
                    pol: Polarity, bk: RuleBook) -> tuple[frozenset[str], str] | None:
    """The set a multiple-choice answer writes as an expression, and the rule; or None.

    "All of the above" → every option; "none of these" → no option (an empty set); "all
    except B" → every option but those named after it in its clause; "A to C" → A, B, C.
    """
    for s, e, rule_id in bk.spans(Kind.SET_EXCEPT, masked, words):
        stop = pol.clause(min(e, len(text) - 1))[1] if e < len(text) else e
        # "except B, C and E": the list's letters too (the clause may end after its comma)
        more = _EXCEPTED_LIST.match(text, stop - 1 if text[stop - 1:stop] == "," else stop)
        stop = more.end() if more is not None else stop
        left = {k for k in _named_in(text[e:stop], ix, bk)}
        if left and pol.state(Mention(s, e, frozenset(), "set")) == "asserted":
            return frozenset(ix.keys - left), rule_id
    for _, _, rule_id in bk.spans(Kind.SET_NONE, masked, words):
        return frozenset(), rule_id
    for s, e, rule_id in bk.spans(Kind.SET_ALL, masked, words):
        if pol.state(Mention(s, e, frozenset(), "set")) == "asserted":
            return frozenset(ix.keys), rule_id
    ranges = [m for m in patterns(bk).set_range.finditer(text)
              if m.group(1) in ix.keys and m.group(2) in ix.keys and m.group(1) < m.group(2)]
    if ranges:
        if any(bk.search(Kind.ALTERNATIVE, masked[a.end():b.start()],
                         word_tokens(masked[a.end():b.start()])) is not None
               for a, b in zip(ranges, ranges[1:], strict=False)):
            return None  # "A-C or A-D": two sets kept open (alternatives)
        keys = sorted(ix.keys)
        got: set[str] = set()
        for m in ranges:
            got |= {k for k in keys if m.group(1) <= k <= m.group(2)}
        others = {letter for letter, _, _ in letter_mentions(
            text, text.lower(), ix.words, bk.sources(Kind.LETTER_KEYWORD),
            free=patterns(bk).letter_free, joins=bk.sources(Kind.LIST_JOIN))}
        others |= {m.group(1) for m in _JOINED_LETTER.finditer(text)}
        return frozenset(got | (others & ix.keys)), "set.range"
    return None


# The letters listed after the first one an exception names ("except B, C and E").
_EXCEPTED_LIST: Final = re.compile(
    r"(?:[ \t]*(?:,[ \t]*(?:and[ \t]+)?|[ \t]+and[ \t]+|[ \t]*&[ \t]*)\(?[A-Z]\)?(?![A-Za-z]))+")


def _one_cycle(listed: list[str]) -> bool:
    """Whether a list of letters repeats one set in one order ("A, C, A, C", "B B B B").

    >>> _one_cycle(list("ACACA")), _one_cycle(list("ABABABEAB"))
    (True, False)
    """
    cycle = list(dict.fromkeys(listed))
    return all(c == cycle[i % len(cycle)] for i, c in enumerate(listed))


def _named_in(text: str, ix: OptionSet, bk: RuleBook) -> set[str]:
    """The options a short piece of text names (its letters and option texts)."""
    lowered = text.lower()
    found = {k for _, _, ks in ix.phrases.find(text, lowered) for k in ks}
    found |= {c for c in re.findall(r"(?<![A-Za-z])([A-Z])(?![a-z])", text) if c in ix.keys}
    return found


def conclusion_asserts(tail: str, others: frozenset[str], ix: OptionSet, qtype: str,
                       question: str, bk: RuleBook, exclude_first: str = "") -> bool:
    """Another option asserted in a clause of ``tail`` that states a conclusion.

    ``exclude_first``: the answer text before the tail; the options it asserts are not
    "other".
    """
    lowered = tail.lower()
    words = word_tokens(lowered)
    found = bk.spans(Kind.CONCLUSION, lowered, words)
    if not found:
        return False
    if exclude_first:
        first = scan(exclude_first, ix, qtype, question, hedge=False, bk=bk)
        others = others - first.asserted
    for s, _, _ in found:
        clause_end = min((i for i in (lowered.find(c, s) for c in ".;\n") if i >= 0),
                         default=len(lowered))
        r = scan(tail[s:clause_end], ix, qtype, question, hedge=False, bk=bk)
        if (r.asserted - r.negated) & others:
            return True
    return False


def restated(text: str, ix: OptionSet) -> tuple[int, int] | None:
    """The span of a restated option list (two or more lines ``X. its own text``), or None."""
    if "\n" not in text:
        return None
    lines = [m for m in matches_at(_RESTATED, text, line_starts(text))
             if m.group(1) in ix.keys and phrase_tokens(m.group(2))[0] == ix.words[m.group(1)]]
    if len(lines) < 2:
        return None
    return lines[0].start(), lines[-1].end()
