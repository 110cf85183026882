"""Phrase lists the ``strict`` parser reads: refusals, hedges and negations (English).

Each is one compiled, case-insensitive pattern over a lower-cased response whose option texts
have been blanked out (so an option called "Cannot be assessed" is not a refusal). The lists are
deliberately broad: a false alarm makes an answer *invalid* (counted, reported), never wrong in
the other direction — the strict parser prefers not reading an answer to misreading one.
"""

from __future__ import annotations

import re
from typing import Final

# Refusals: the model says it cannot or will not answer (or that it has no image to look at).
REFUSAL: Final = re.compile(
    r"\bi\s*(?:am|'m)\s+(?:sorry|unable|not\s+able|afraid)"
    r"|\bi\s+(?:cannot|can't|can\s+not|could\s+not|couldn't|won't|will\s+not|am\s+unable)\b"
    r"|\bunable\s+to\b|\bnot\s+able\s+to\b|\b(?:not\s+possible|impossible)\s+to\b"
    r"|\b(?:cannot|can't|can\s+not)\s+(?:be\s+)?(?:determin|assess|tell|say|see|identif|evaluat"
    r"|answer|view|read|interpret|provide|make|know|confirm|conclude|decide|comment)"
    r"|\bdo(?:\s+not|n't)\s+know\b|\bno\s+idea\b|\bno\s+way\s+to\b|\bdunno\b|\bunknown\b"
    r"|\bno\s+(?:image|picture|photo|scan|radiograph|mammogram|visual)s?\b"
    r"|\b(?:image|picture|photo|scan)s?\s+(?:is|was|were|are|has|have)?\s*(?:not|n't|never)\s+"
    r"(?:been\s+)?(?:provided|available|shown|attached|included|uploaded|given|shared)"
    r"|\bwithout\s+(?:an?|the|seeing\s+the|access\s+to\s+the)\s+(?:actual\s+)?image"
    r"|\binsufficient\s+(?:information|evidence|data|detail)|\bnot\s+enough\s+(?:information"
    r"|evidence|data|detail)|\bmore\s+information\s+(?:is\s+)?needed"
    r"|\bas\s+an\s+ai\b|\blanguage\s+model\b|\bcannot\s+be\s+determined\b|\bn/a\b",
    re.IGNORECASE,
)

# Hedges: the model does not commit (the strict parser never picks among its guesses). "X cannot
# be excluded", "cannot rule out X" and "X is not excluded" keep X open: a hedge, not a choice.
HEDGE: Final = re.compile(
    r"\b(?:maybe|perhaps|possibly|unsure|uncertain|unclear|undecided|inconclusive|indeterminate"
    r"|unconfirmed|nondiagnostic|non-diagnostic|tentative|tentatively|pending|borderline)\b"
    r"|\beither\b[^.;\n]*\bor\b|\beither\s+way\b"
    r"|\b(?:might|may|could)\s+(?:also\s+|well\s+)?(?:be|represent|reflect|indicate|suggest"
    r"|signify)\b"
    r"|\bnot\s+(?:entirely\s+|completely\s+|100%\s+)?"
    r"(?:sure|certain)\b|\b(?:hard|difficult|impossible)\s+to\s+(?:say|tell|determine|assess|know)"
    r"|\bcan(?:not|'t|\s+not)\s+be\s+(?:sure|certain)\b|\bi\s+(?:guess|doubt)\b|\bdoubtful\b"
    r"|\b(?:my|best|a|to|educated|wild)\s+guess\b|\bguessing\b"
    r"|\bnot\s+(?:yet\s+|been\s+)?confirmed\b"
    r"|\b(?:cannot|can't|can\s+not|could\s+not|couldn't)\s+(?:be\s+)?(?:(?:entirely|completely"
    r"|fully|definitely|reliably|confidently|safely)\s+)?(?:exclud\w*|rul\w*\s+out)"
    r"|\b(?:not|isn't|aren't|wasn't|weren't)\s+(?:been\s+|be\s+)?(?:(?:entirely|completely|fully"
    r"|definitely|reliably|confidently|safely)\s+)?(?:excluded|ruled\s+out)"
    r"|\bunable\s+to\s+(?:exclude|rule\s+out)\b|\bpossible\b|\bpossibility\b|\bequivocal\b"
    r"|\bdifferential\s+(?:diagnosis\s+)?(?:includes?|of|is)\b"
    r"|\b(?:worried|concerned)\s+about\b|\bconcern(?:ing)?\s+for\b"
    r"|\b(?:can|may|could)\s+(?:look|appear)\s+(?:similar|identical|alike)\b"
    r"|\bindistinguishable\b"
    # radiology's words for a finding not confirmed: "questionable X", "query X", "r/o X"
    r"|\b(?:questionable|query|queried)\b|\br/o\b"
    # pathology's and BI-RADS' non-diagnostic categories: "suspicious for X", "glaucoma suspect"
    # (not "I suspect X", a reader's soft positive, nor "suspicious calcifications", a finding)
    r"|\bsuspicious\s+(?:for|of)\b|\bsuspect\b(?<!\bi\ssuspect)(?<!\bwe\ssuspect)(?!\s+(?:that|it))"
    # a differential, not a choice: "consider X" opening a clause, "X should be considered",
    # "X is a consideration", "X is in the differential", "DDx: …"
    r"|\bconsider(?<![a-z][ \t]consider)\b|\b(?:should|must|could|might|may|to)\s+(?:also\s+)?"
    r"be\s+considered\b|\bworth\s+considering\b|\b(?:a|one|another)\s+consideration\b"
    r"|\b(?:in|on)\s+the\s+differential\b|\bddx\b"
    # the reader's own confidence, or a view it says it needs
    r"|\b(?:low|limited|little)\s+(?:confidence|certainty)\b"
    r"|\bnot\s+(?:very\s+|entirely\s+|fully\s+)?confident\b"
    r"|\b(?:i|we)\s*(?:would|will|'d|'ll)\s+need\b"
    r"|\bneed(?:s|ed)?\s+(?:more|additional|further|another|an?)\b[^.;\n]*?\bto\s+(?:decide"
    r"|tell|distinguish|differentiate|confirm|exclude|choose|be\s+sure)\b",
    re.IGNORECASE,
)
# The hedges that keep one named thing open ("X cannot be excluded"): reported as hedges even
# when a refusal cue ("I cannot …") is there too.
EXCLUSION_HEDGE: Final = re.compile(
    r"\b(?:cannot|can't|can\s+not|could\s+not|couldn't|unable\s+to)\s+(?:be\s+)?(?:\w+\s+)?"
    r"(?:exclud\w*|rul\w*\s+out)|\b(?:not|isn't|aren't|wasn't|weren't)\s+(?:been\s+|be\s+)?"
    r"(?:\w+\s+)?(?:excluded|ruled\s+out)",
    re.IGNORECASE,
)

# "I cannot say for sure, but the answer is B.": a hedge clause that goes on to commit.
HEDGE_BUT: Final = re.compile(
    r"^(?:i\s+(?:cannot|can't|can\s+not)\s+(?:say|be)\s+(?:for\s+)?(?:sure|certain|100%)"
    r"|i\s*(?:am|'m)\s+not\s+(?:entirely\s+|completely\s+|100%\s+)?(?:sure|certain))"
    r"\s*,?\s+but\s+",
    re.IGNORECASE,
)

# Before an option in the same clause: the option is negated, rejected or doubted.
NEG_BEFORE: Final = re.compile(
    r"\b(?:not|no|never|neither|nor|without|non|none|exclud\w*|rul\w*\s+out|rather\s+than"
    r"|instead\s+of|unlike|absence|absent|free\s+of|negative\s+(?:[a-z]+\s+)?for|unlikely"
    r"|other\s+than|except|mimic\w*"
    r"|against|less\s+likely|wrong|incorrect|false|isn't|aren't|wasn't|weren't|doesn't|don't"
    r"|didn't|cannot|can't|nothing|lack\w*|eliminat\w*|den(?:y|ies|ied)|doubt\w*|hardly|scarcely"
    r"|inconsistent\s+with|incompatible\s+with|fail(?:s|ed|ing)?\s+to|anything\s+but"
    r"|(?:more|most)\s+(?:likely|probable)\s+than|likelier\s+than|least\s+likely)\b"
    r"|\bnon-|n't\b",
    re.IGNORECASE,
)

# Right after an option in the same clause: "… is ruled out", "… can be excluded", "… is wrong",
# "… is highly unlikely", "… does not fit", "… can't be it". A quote may open the negation
# ("… is 'excluded'", "… has been "ruled out"").
# The verbs and the words after them that may stand between an option and its negation (any
# adverb in -ly too): one list for these patterns and for the quick reading's reach
# (``_quick._after_reaches``).
NEG_VERB_WORDS: Final[tuple[str, ...]] = (
    "is", "are", "was", "were", "seems", "appears", "can", "could", "should", "would", "has",
    "have", "had", "must", "does", "do", "did", "will", "may", "might", "need")
NEG_ADVERB_WORDS: Final[tuple[str, ...]] = (
    "be", "been", "also", "now", "very", "much", "so", "quite", "most", "considered", "and")
_NEG_VERBS = "(?:" + "|".join(NEG_VERB_WORDS) + ")"
_NEG_ADVERBS = r"(?:\s+(?:" + "|".join(NEG_ADVERB_WORDS) + r"|[a-z]+ly))*"
# "X and Y are excluded": in the masked text Y is blanked, so "and" (or "or", "nor") followed
# by white space only and a verb can open the negation of X (not "X and not Y").
_COORDINATED = r"(?:(?:and|or|nor|&)\s+)?"
# Adjectives and participles that reject the option before them ("X is inconsistent", "X was
# considered and rejected"): one list for NEG_AFTER, NEG_AFTER_VERB and the literal tests that
# gate them (``_reading._clause_cued``, ``_quick._AFTER_STEMS``).
REJECTING_WORDS: Final[tuple[str, ...]] = (
    "inconsistent", "incompatible", "excludable", "rejected", "dismissed", "discounted",
    "discarded")
_REJECTING = "|".join(REJECTING_WORDS)
NEG_AFTER: Final = re.compile(
    r"^[\s)\]*'\"]*(?:" + _COORDINATED + _NEG_VERBS + _NEG_ADVERBS
    + r"[\s'\"]+)?(?:not\b|n't\b|never\b"
    r"|(?:the|an?)\s+(?:wrong|incorrect)\b|(?:the\s+)?least\s+likely|(?:a|the)\s+(?:distractor"
    r"|red\s+herring|decoy)\b"
    r"|ruled\s+out|excluded|unlikely|incorrect|wrong|absent|less\s+likely|false\b|negative\b"
    r"|eliminated|out\s+of\s+the\s+question|improbable|" + _REJECTING
    + r"|no\s+longer|resolved|disappeared)"
    r"|^[\s)\]*'\"]*(?:(?:is|was|are|were|does|do|did|has|have|had|could|would|should|must"
    r"|might|need|ca|wo)n't|cannot)\b"
    # (not the hedge "X cannot be excluded", which rule 8 reads)
    r"(?!\s+(?:be\s+|been\s+)?(?:excluded|ruled\s+out|eliminated|dismissed))",
    re.IGNORECASE,
)

# After a letter and its own punctuation ("A. is ruled out"): a verb must come first.
NEG_AFTER_VERB: Final = re.compile(
    r"[\s.)\]:*'\"]+" + _NEG_VERBS + _NEG_ADVERBS + r"[\s'\"]*(?:not\b|n't\b|never\b"
    r"|ruled\s+out|excluded|unlikely|incorrect|wrong|absent|less\s+likely|false\b|eliminated|"
    + _REJECTING + ")",
    re.IGNORECASE,
)

# A status that negates the option it labels: "X: excluded", "X (ruled out)", "X — unlikely",
# "B - absent", "X -> no", "X [none seen]", "X: not present", "X ✗", and after a comma or a
# semicolon where an adjective or participle status ends the clause ("X, unlikely."; not "X,
# no", which may be a tag or "no doubt" cut short), on the label's line. Only
# statuses that take no option after them: "no" only at a clause's end, "not" only before a
# participle ("X: not Y" may open another option's negation; it reads as X). A spaced dash
# ends a clause, so this is matched from the option's end (in the unmasked text: a blanked
# option name between a label and a status is no status of the label), not within its clause.
_STRONG_STATUSES = (r"(?:ruled\s+out|excluded|unlikely|incorrect|wrong|absent|negative"
                    r"|eliminated|improbable|less\s+likely|false|rejected)\b")
_STATUSES = (r"(?:" + _STRONG_STATUSES + r"|none(?:\s+seen)?|neg\b"
             r"|not\s+(?:seen|present|identified|detected|visible|evident|demonstrated|noted"
             r"|appreciated|supported|favou?red|likely|correct|the\s+answer)"
             r"|no(?:\s+(?:evidence|signs?))?(?=[ \t]*(?:$|[.;,!?\n)\]])))\b")
_STATUS_END = r"(?=[ \t]*(?:$|[.;,!?\n)\]]|(?:given|because|since|due|as|based)\b))"
STATUS_MARKS: Final = "\u2717\u2718\u274c\u2716"
# A mark right before an option (on its line, a letter label between them allowed) that strikes
# it out or leaves its box empty: "\u274c Pneumothorax", "[ ] B.", "\u2610 C. Drusen". Matched
# on the lower-cased text, ending where the option starts.
_NEG_MARKS: Final = STATUS_MARKS + "\u2610"
MARK_BEFORE: Final = re.compile(r"(?:[" + _NEG_MARKS + r"]|\[ \])[ \t]*(?:[a-z][.):][ \t]*)?$")


def holds_neg_mark(text: str) -> bool:
    """Whether ``text`` holds a mark of :data:`MARK_BEFORE`: its gate (a substring test)."""
    return "[ ]" in text or not text.isascii() and any(m in text for m in _NEG_MARKS)


# A table's or a check-list's sign for "absent" in a cell after the label: "X: -", "X (-)", "X |
# 0 |", "X: \u2212" (after a colon, a bracket or a bar only: after a dash it may be a range).
_SIGN_STATUS = r"[:(\[|][ \t]*(?:-|\u2212|0)(?=[ \t]*(?:$|[;!?\n)\]|]|[.,](?!\d)))"
STATUS_AFTER: Final = re.compile(
    r"[ \t)\]*'\"]*(?:" + _SIGN_STATUS + r"|(?::|\(|\[|->|=>|=|\||\u2192|[ \t][\u2014\u2013-]+[ \t]"
    r"|[\u2014\u2013])[ \t'\"(*\[]*" + _STATUSES
    + r"|[,;][ \t]*(?:(?:which|that)\s+(?:is|was|are|were|has\s+been|have\s+been)\s+)?"
    + _STRONG_STATUSES + _STATUS_END
    + r"|[ \t]*[:(\[]?[ \t]*[" + STATUS_MARKS + "])",
    re.IGNORECASE,
)
# The words of STATUS_AFTER's statuses: a text without one (or a mark) is not matched against it.
STATUS_WORDS: Final = frozenset({"ruled", "excluded", "unlikely", "incorrect", "wrong", "absent",
                                 "negative", "eliminated", "improbable", "less", "false",
                                 "rejected", "none", "not", "no", "neg"})
_SIGN: Final = re.compile(_SIGN_STATUS)


def status_may_follow(lowered: str, words: set[str]) -> bool:
    """STATUS_AFTER's gate: a status word of ``words``, a mark, or a sign after a separator.

    Without one, STATUS_AFTER cannot match anywhere in ``lowered`` (a property test checks it).
    """
    return (not STATUS_WORDS.isdisjoint(words)
            or not lowered.isascii() and any(m in lowered for m in STATUS_MARKS)
            or ("-" in lowered or "0" in lowered or "\u2212" in lowered)
            and (":" in lowered or "(" in lowered or "[" in lowered or "|" in lowered)
            and _SIGN.search(lowered) is not None)


# A negation before a list of short noun phrases reaches every item ("no mass, calcification,
# or distortion is seen"): the commas inside such a list end no clause. An item is at most 40
# characters without a verb or a clause word (else the comma may end a clause after all).
_LIST_ITEM = (r"(?:(?!\b(?:is|are|was|were|be|been|has|have|had|shows?|showing|seen|noted"
              r"|identified|likely|but|which|that|so|answer|it)\b)[a-z0-9'\- ]){1,40}")
NEG_LIST: Final = re.compile(r"\b(?:no|without|neither|nor|not|never)\b" + _LIST_ITEM
                             + r"(?:," + _LIST_ITEM + r"){1,8},?\s*\b(?:or|nor|and)\b")
# Its words: a text without one as a word holds no such list.
LIST_NEGATIONS: Final = frozenset({"no", "without", "neither", "nor", "not", "never"})

# Where a clause ends: negation and choice read within one clause. A spaced dash ends one too
# ("neither X nor Y — Z").
CLAUSE_END: Final = re.compile(r"[.;,!?\n]|\s[\u2014\u2013-]+\s|\b(?:but|however|whereas|although"
                               r"|though|while|so)\b", re.IGNORECASE)

# A verb that states a conclusion ends a negation's reach when at least one other word stands
# between them: "no markings beyond the line means pneumothorax" (but "does not show X"). Not
# an infinitive, which the negated noun phrase governs: "no evidence to suggest X".
NEG_STOP: Final = re.compile(
    r"\b(?<!\bto\s)(?:means?|meaning|indicat(?:es?|ing)|suggest(?:s|ing)?|confirm(?:s|ing)?|impl(?:ies|ying)"
    r"|favou?r(?:s|ing)?|points?\s+to(?:wards?)?|pointing\s+to|support(?:s|ing)?|represent(?:s|ing)?"
    r"|shows?|showing|demonstrat(?:es?|ing)|reveal(?:s|ing)?|mak(?:es|ing)|leav(?:es|ing)"
    r"|establish(?:es|ing)?|prov(?:es|ing)|is\s+(?:diagnostic|typical|characteristic)\s+of)\b",
    re.IGNORECASE,
)

# Phrases with a negation word that negate nothing after them: "no doubt", "not only".
NOT_NEGATIONS: Final = re.compile(
    r"\b(?:no|without(?:\s+a(?:ny)?)?|beyond(?:\s+a(?:ny)?)?)\s+(?:reasonable\s+)?doubt\b"
    r"|\bnot\s+only\b|\bno\s+question\b|\bno\s+wonder\b"
    r"|\b(?:by|process\s+of|through)\s+(?:\w+\s+)?elimination\b",
    re.IGNORECASE,
)

# A mention in a hypothetical or generic clause is *discussed*, neither chosen nor negated:
# "a pneumothorax would show a pleural line", "if this were an effusion", "X typically …".
DISCUSSED_BEFORE: Final = re.compile(
    r"\b(?:if|whether|typically|usually|classically|expected|vs|versus"
    r"|(?<!\bi\s)(?<!\bwe\s)would)\b",
    re.IGNORECASE,
)
DISCUSSED_AFTER: Final = re.compile(
    r"^[\s)\]*]*(?:vs\b|versus|would(?!\s+be\s+(?:the|my(?!\s+last)|most|best|correct|right"
    r"|likely|favou?red|"
    r"consistent))|typically|usually|classically|tends?\s+to|is\s+expected|are\s+expected"
    r"|is\s+characteri[sz]ed|are\s+characteri[sz]ed)\b",
    re.IGNORECASE,
)
# A clause opened by a concession ("although X is common here, …") grants X nothing.
CONCESSIVE: Final = re.compile(r"\b(?:although|though|despite|albeit)\s*$")
DISCUSSED_WORDS: Final = frozenset({"if", "whether", "typically", "usually", "classically",
                                    "expected", "would", "tends", "tend", "characterized",
                                    "characterised", "vs", "versus"})

# A later revision: after a final answer, these make any other option named a change of mind.
REVISION: Final = re.compile(
    r"\b(?:wait|actually|on\s+second\s+thought|on\s+reflection|correction|reconsider\w*"
    r"|re-?evaluat\w*|scratch\s+that|i\s+mean|hmm|changing\s+my\s+answer|revis\w*)\b",
    re.IGNORECASE,
)

# A response that names nothing and puts its answer off ("Let me reconsider", "I need a closer
# look"): it has not committed (not a reading the rules missed).
DEFERRAL: Final = re.compile(
    r"\b(?:let\s+me|let's|i\s+(?:need|will|'ll|must|should|would\s+need)|reconsider\w*"
    r"|re-?examin\w*|(?:take|have)\s+a\s+closer\s+look|closer\s+look|before\s+answering"
    r"|more\s+(?:information|time|views?|images?))\b",
    re.IGNORECASE,
)

# The LMOD answer form "FIELD; Explanation: …": only the field before it is read.
EXPLANATION: Final = re.compile(r"(?:^|[\s;.,])(?:explanation|reasoning|rationale|reason)\s*:",
                                re.IGNORECASE)

# "Yes"/"No" words of a yes/no item, read only at the start of the answer.
YES_WORDS: Final = frozenset({"yes", "true"})
NO_WORDS: Final = frozenset({"no", "false"})

# Words without one of which REFUSAL (resp. HEDGE) cannot match: a set intersection decides
# most responses before either pattern runs (the patterns are long alternations).
REFUSAL_TRIGGERS: Final = frozenset({
    "sorry", "unable", "able", "afraid", "cannot", "can't", "can", "could", "couldn't", "won't",
    "will", "impossible", "possible", "know", "idea", "way", "dunno", "unknown", "image",
    "images", "picture", "pictures", "photo", "photos", "scan", "scans", "mammogram",
    "mammograms", "radiograph", "radiographs", "visual", "visuals", "insufficient", "enough",
    "information", "ai", "model", "n/a", "determined",
})
HEDGE_TRIGGERS: Final = frozenset({
    "maybe", "perhaps", "possibly", "either", "unsure", "uncertain", "unclear", "undecided",
    "inconclusive", "might", "may", "could", "sure", "certain", "hard", "difficult",
    "impossible", "guess", "doubt", "doubtful", "cannot", "can't", "can", "couldn't", "not",
    "isn't", "aren't", "wasn't", "weren't", "unable", "possible", "possibility", "equivocal",
    "differential", "borderline", "worried", "concerned", "concern", "concerning",
    "indistinguishable", "indeterminate", "unconfirmed", "nondiagnostic", "diagnostic",
    "guessing", "confirmed", "represent", "reflect", "indicate", "suggest",
    "signify", "tentative", "tentatively", "pending", "suspicious", "suspect",
    "questionable", "query", "queried", "r/o", "consider", "considered", "considering",
    "consideration", "ddx", "confidence", "certainty", "confident", "need", "needs", "needed",
})
# Words (and word starts) without one of which NEG_BEFORE cannot match anywhere.
NEG_WORDS: Final = frozenset({
    "not", "no", "never", "neither", "nor", "without", "non", "none", "rather", "instead",
    "unlike", "absence", "absent", "free", "negative", "unlikely", "other", "except", "against",
    "less", "wrong", "incorrect", "false", "isn't", "aren't", "wasn't", "weren't", "doesn't",
    "don't", "didn't", "cannot", "can't", "nothing", "hardly", "scarcely", "inconsistent",
    "incompatible", "fail", "fails", "failed", "failing", "anything", "than", "least",
})
NEG_STARTS: Final[tuple[str, ...]] = ("exclud", "rul", "lack", "eliminat", "den", "doubt",
                                        "mimic")


def may_start_negation(lowered: str) -> bool:
    """False when no word of ``lowered`` can start with one of :data:`NEG_STARTS`.

    Each start is looked for as a substring (a test per start is faster than one pattern or a
    loop over the words); True only says that a word may start so.
    """
    return ("exclud" in lowered or "rul" in lowered or "lack" in lowered
            or "eliminat" in lowered or "den" in lowered or "doubt" in lowered
            or "mimic" in lowered)


WORD: Final = re.compile(r"[a-z'/]+")
# Every byte but [a-z'/] becomes a space (a non-ASCII character's UTF-8 bytes are all >= 0x80).
_NON_WORD_BYTES: Final = bytes(b if 97 <= b <= 122 or b in b"'/" else 32 for b in range(256))
_JOINS: Final = re.compile(rb"(['/])")
# The joins as byte values: ``b"'" in token`` first tries its needle as an int and raises and
# clears an error (about 1,700 CPU instructions a test); an int needle is one memchr.
_QUOTE: Final = ord("'")
_SLASH: Final = ord("/")


def _word_bytes(lowered: str) -> bytes:
    """``lowered`` UTF-8 encoded, every byte outside ``[a-z'/]`` a space: its WORD tokens split."""
    return lowered.encode("utf-8", "surrogatepass").translate(_NON_WORD_BYTES)


def word_tokens(lowered: str) -> list[bytes]:
    r"""The words of ``lowered`` a cue word may be, UTF-8 encoded, for set tests against cues.

    The :data:`WORD` tokens (every character outside ``[a-z'/]`` separates), made without a
    pattern or a str per word (a third of the cost; the cue checks of a plain response are
    mostly this), and, of a token joined by ``'`` or ``/``, its parts (:func:`_parts`): a
    cue word there is still a word to a pattern's ``\b`` ("'not pleural effusion'",
    "and/not", "i/can't"). Compare with :func:`as_bytes` sets.

    >>> word_tokens("it's e. coli, 'no' and/or café")
    [b"it's", b'e', b'coli', b"'no'", b'and/or', b'caf', b'it', b's', b'no', b'and', b'or']
    """
    tokens = _word_bytes(lowered).split()
    if "'" in lowered or "/" in lowered:
        tokens += [part for t in tokens if _QUOTE in t or _SLASH in t for part in _parts(t)]
    return tokens


def _parts(token: bytes) -> list[bytes]:
    """The parts of a token joined by ``'`` or ``/`` that a cue word may be.

    Each part between joins, and each two neighbouring parts with their join (the token
    itself stands for them where it has one join): no cue word opens or closes with a join or
    holds two (a test checks the cue lists), so these are all the ways one can stand in the
    token as a whole word.

    >>> _parts(b"i/can't")
    [b'i', b'can', b't', b'i/can', b"can't"]
    """
    pieces = _JOINS.split(token)
    words = pieces[0::2]
    out = [w for w in words if w]
    if len(words) > 2:  # (with one join, the two parts and it are the token itself)
        out += [words[i] + pieces[2 * i + 1] + words[i + 1] for i in range(len(words) - 1)
                if words[i] and words[i + 1]]
    return out


def word_set(lowered: str) -> set[str]:
    """:func:`word_tokens` as a set of str.

    >>> sorted(word_set("it's e. coli, and/or café"))
    ['and', 'and/or', 'caf', 'coli', 'e', 'it', "it's", 'or', 's']
    """
    if "'" in lowered or "/" in lowered:
        return {t.decode("ascii") for t in word_tokens(lowered)}
    # (no token is joined: the tokens decoded at once, half the cost of a pattern)
    return set(_word_bytes(lowered).decode("ascii").split())


def positions_of(text: str, marks: str) -> list[int]:
    """Every position of a character of ``marks`` in ``text``, in order.

    Where a pattern that opens with one of them may match: matching it at each costs a fraction
    of a search, which tests every character of the text (``str.find`` skips in C).

    >>> positions_of("(a) [b] (c)", "([")
    [0, 4, 8]
    """
    out: list[int] = []
    for mark in marks:
        i = text.find(mark)
        while i >= 0:
            out.append(i)
            i = text.find(mark, i + 1)
    if len(marks) > 1:
        out.sort()
    return out


def line_starts(text: str) -> list[int]:
    r"""Where each line of ``text`` starts: 0 and every position after a line break.

    Where a MULTILINE pattern anchored by ``^`` may match (see :func:`positions_of`).

    >>> line_starts("a\nb\n")
    [0, 2, 4]
    """
    out = [0]
    i = text.find("\n")
    while i >= 0:
        out.append(i + 1)
        i = text.find("\n", i + 1)
    return out


class Opening:
    r"""What a pattern matched at a line start may open with.

    A test of one or two characters before the call into the pattern engine, which costs about
    1,000 instructions however soon the pattern fails.

    Attributes:
        chars: the characters it may open with (a capital aside).
        after_capital: the characters that may follow an opening capital A–Z; None when it
            cannot open with one.
        space_after_capital: white space may follow the capital too.
        space: it may open with any white space (``\s``).
        digit: it may open with a decimal digit (``\d``).
    """

    __slots__ = ("after_capital", "chars", "digit", "space", "space_after_capital")

    def __init__(self, chars: str, after_capital: str | None = None, *,
                 space_after_capital: bool = False, space: bool = False, digit: bool = False):
        self.chars = chars
        self.after_capital = after_capital
        self.space_after_capital = space_after_capital
        self.space = space
        self.digit = digit

    def allows(self, text: str, p: int) -> bool:
        """Whether the pattern may match at ``p`` (False: it cannot)."""
        if p >= len(text):
            return False
        c = text[p]
        if self.after_capital is not None and "A" <= c <= "Z":
            if p + 1 >= len(text):
                return False
            d = text[p + 1]
            return d in self.after_capital or self.space_after_capital and d.isspace()
        return c in self.chars or self.space and c.isspace() or self.digit and c.isdecimal()


def matches_at(pattern: re.Pattern[str], text: str, positions: list[int],
               opens: Opening | None = None) -> list[re.Match[str]]:
    """``pattern``'s matches at ``positions`` (where ``opens`` allows one, when given), in order.

    How the rules run a pattern that can start only at a known character (a bracket, a tag
    mark, a line start): matched there, never searched through the whole text.
    """
    return [m for p in positions
            if (opens is None or opens.allows(text, p)) and (m := pattern.match(text, p))]


def holds_dash(text: str) -> bool:
    """Whether ``text`` holds a hyphen or an en or em dash.

    Without one, no spaced dash can end a clause: the dash alternative of the clause-end
    patterns cannot match.
    """
    return "-" in text or "\u2014" in text or "\u2013" in text


def whole_word_ends(text: str, word: str) -> list[int]:
    r"""Where each whole-word occurrence of ``word`` ends in ``text``: ``\b{word}\b``'s ends.

    Found with ``str.find``: a pattern opened by ``\b`` is tried at every position of the text
    (the engine has no first character to skip to), which costs a long response more than the
    rest of reading one of its clauses. ``\b`` is the pattern's: a letter or digit of any
    script, or ``_``, is a word character. Whole-word occurrences of one word cannot overlap,
    so these are the ends of the pattern's ``finditer``.

    >>> whole_word_ends("so, also so_ so", "so")
    [2, 15]
    """
    ends: list[int] = []
    n = len(word)
    i = text.find(word)
    while i >= 0:
        j = i + n
        if (i == 0 or not _word_char(text[i - 1])) and (j == len(text)
                                                        or not _word_char(text[j])):
            ends.append(j)
        i = text.find(word, i + 1)
    return ends


def _word_char(c: str) -> bool:
    r"""Whether ``c`` is a word character of the pattern engine (``\w`` of a str pattern)."""
    return c.isalnum() or c == "_"


def as_bytes(words: frozenset[str]) -> frozenset[bytes]:
    """``words`` encoded, to test against :func:`word_tokens`."""
    return frozenset(w.encode() for w in words)


# The conjunctions that end a clause (CLAUSE_END): looked for only when one is a word of the text.
CLAUSE_WORDS: Final = frozenset({"but", "however", "whereas", "although", "though", "while", "so"})


def ascii_twin(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """``pattern`` compiled without IGNORECASE: the same matches on lower-case ASCII text.

    Why: IGNORECASE makes the engine fold every character it compares, which costs two to five
    times the search. The cue patterns' literals are lower case (a test checks it), so on text
    that is lower case and ASCII a case-sensitive search finds exactly the same matches. Outside
    ASCII the folding still matters ("ſ" matches "s" under IGNORECASE): use the original there.
    """
    return re.compile(pattern.pattern, pattern.flags & ~re.IGNORECASE)


def _alternatives(pattern: str) -> list[str]:
    """The top-level ``|`` alternatives of a regular expression's source."""
    out, start = [], 0
    for i, c, depth in _syntax(pattern):
        if c == "|" and depth == 0:
            out.append(pattern[start:i])
            start = i + 1
    out.append(pattern[start:])
    return out


def _syntax(source: str) -> list[tuple[int, str, int]]:
    """Each character of a pattern's source outside escapes and classes.

    As (position, character, group depth after it).
    """
    out, depth, i = [], 0, 0
    while i < len(source):
        c = source[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            i = source.index("]", i + 2 if source[i + 1] == "]" else i + 1) + 1
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        out.append((i, c, depth))
        i += 1
    return out


def by_trigger(pattern: re.Pattern[str], triggers: frozenset[str]) -> dict[str, re.Pattern[str]]:
    """Trigger word → the alternatives of ``pattern`` whose source contains it, compiled.

    Every alternative's match contains one of its own literal words, so when ``pattern``
    matches, some trigger word of the text selects a sub-pattern that matches too: searching
    only the sub-patterns of the triggers present gives the same answer, faster.
    """
    return {t: re.compile(source, pattern.flags)
            for t, source in _trigger_sources(pattern, triggers).items()}


def _trigger_sources(pattern: re.Pattern[str], triggers: frozenset[str]) -> dict[str, str]:
    """Trigger word → the source of the alternatives of ``pattern`` that contain it."""
    parts = _alternatives(pattern.pattern)
    out = {}
    for t in triggers:
        forms = {t, t[:-1]} if t.endswith("s") else {t}  # "images": the source has image)s?
        mine = [p for p in parts if any(f in p for f in forms)]
        if mine:
            out[t] = "|".join(mine)
    return out


REFUSAL_BY_WORD: Final = by_trigger(REFUSAL, REFUSAL_TRIGGERS)
HEDGE_BY_WORD: Final = by_trigger(HEDGE, HEDGE_TRIGGERS)


class WordStart:
    r"""A pattern whose every alternative opens with ``\b`` and a word character, searched fast.

    Why: the engine finds no first character to skip to in a pattern opened by ``\b``, so it
    tries the whole pattern at every position of the text, which costs a long response as much
    as reading a clause. Here each alternative loses its ``\b`` and an opening group is spread
    over its alternatives (``\b(?:can|may)\s+be`` → ``can\s+be|may\s+be``: the same matches,
    tried in the same order), so the engine skips in C to the literal or first letters they
    open with; a match is then kept only where ``\b`` held before it. That is where no word
    character precedes it, as the match opens with a word character. Where it did not hold, no
    alternative could match there, and the search goes on from the next position: the first
    match found is the original pattern's first match.

    >>> WordStart(r"\b(?:not|no)\s+sure\b").search("piano sure; not sure").span()
    (12, 20)
    """

    __slots__ = ("fast",)

    def __init__(self, source: str, flags: int = 0):
        self.fast = re.compile("|".join(spread_word_start(source)), flags)

    def search(self, text: str, pos: int = 0) -> re.Match[str] | None:
        """The original pattern's ``search(text, pos)``."""
        m = self.fast.search(text, pos)
        while m is not None:
            start = m.start()
            if start == 0 or not _word_char(text[start - 1]):
                return m
            m = self.fast.search(text, start + 1)
        return None


def spread_word_start(source: str) -> list[str]:
    r"""The alternatives of ``source`` without their opening ``\b``, opening groups spread.

    Raises ValueError where an alternative does not open with ``\b`` or, once spread, with a
    letter or digit: :class:`WordStart` holds only for those.

    >>> spread_word_start(r"\b(?:can|may)(?:\s+not)?\b|\bn/a\b")
    ['can(?:\\s+not)?\\b', 'may(?:\\s+not)?\\b', 'n/a\\b']
    """
    out: list[str] = []
    for alternative in _alternatives(source):
        if not alternative.startswith("\\b"):
            raise ValueError(f"not opened by \\b: {alternative!r}")
        for spread in _spread(alternative[2:]):
            if not spread[:1].isalnum() or not spread.isascii():
                raise ValueError(f"not opened by a word character: {spread!r}")
            out.append(spread)
    return out


def _spread(body: str) -> list[str]:
    """``body`` with an opening group (not repeated, not optional) spread over its alternatives."""
    if not body.startswith("(?:"):
        return [body]
    close = _group_end(body)
    rest = body[close + 1:]
    if rest[:1] in ("?", "*", "+", "{"):
        return [body]
    return [s for inner in _alternatives(body[3:close]) for s in _spread(inner + rest)]


def _group_end(source: str) -> int:
    """Where the group that opens ``source`` closes (escapes and classes skipped)."""
    for i, c, depth in _syntax(source):
        if c == ")" and depth == 0:
            return i
    raise ValueError(f"unbalanced group: {source!r}")


def word_start_by_trigger(pattern: re.Pattern[str], triggers: frozenset[str]
                          ) -> dict[str, WordStart]:
    """:func:`by_trigger` for lower-case ASCII text: its case-sensitive twins as :class:`WordStart`.

    The original alternatives are sorted to triggers as :func:`by_trigger` sorts them, and only
    then spread: each trigger's search is the same pattern as before. (Sorting the spread
    alternatives instead would drop some: "unsure" puts all of ``maybe|perhaps|…|unsure``
    under "sure", and "sure able'perhaps" is a hedge by ``perhaps`` although its words hold
    "able'perhaps", not "perhaps".)
    """
    flags = pattern.flags & ~re.IGNORECASE
    return {t: WordStart(source, flags)
            for t, source in _trigger_sources(pattern, triggers).items()}


_REFUSAL_BY_WORD_ASCII: Final = word_start_by_trigger(REFUSAL, REFUSAL_TRIGGERS)
_HEDGE_BY_WORD_ASCII: Final = word_start_by_trigger(HEDGE, HEDGE_TRIGGERS)

# Twins of the patterns searched most often, for lower-case ASCII text (see ascii_twin).
NEG_BEFORE_ASCII: Final = ascii_twin(NEG_BEFORE)
NEG_AFTER_ASCII: Final = ascii_twin(NEG_AFTER)
NEG_AFTER_VERB_ASCII: Final = ascii_twin(NEG_AFTER_VERB)
STATUS_AFTER_ASCII: Final = ascii_twin(STATUS_AFTER)
NEG_STOP_ASCII: Final = ascii_twin(NEG_STOP)
NOT_NEGATIONS_ASCII: Final = ascii_twin(NOT_NEGATIONS)
REVISION_ASCII: Final = ascii_twin(REVISION)
DEFERRAL_ASCII: Final = ascii_twin(DEFERRAL)
# The same twins searched as WordStart (lower-case ASCII text only): these two are searched
# over whole responses.
REVISION_WORDS: Final = WordStart(REVISION_ASCII.pattern, REVISION_ASCII.flags)
DEFERRAL_WORDS: Final = WordStart(DEFERRAL_ASCII.pattern, DEFERRAL_ASCII.flags)

_NEG_LIST_FAST: Final = WordStart(NEG_LIST.pattern)


def negated_lists(lowered: str) -> list[tuple[int, int]]:
    """The spans of :data:`NEG_LIST`'s matches in ``lowered`` (lower case), in order.

    Searched as a :class:`WordStart`: a pattern opened by a word boundary is tried at every
    position of the text.
    """
    spans: list[tuple[int, int]] = []
    if "or" not in lowered and "and" not in lowered:  # (its last item: "or" "nor" "and")
        return spans
    m = _NEG_LIST_FAST.search(lowered)
    while m is not None:
        spans.append(m.span())
        m = _NEG_LIST_FAST.search(lowered, m.end())
    return spans


def refuses(masked: str, words: set[str]) -> bool:
    """``REFUSAL.search(masked)``, searching only the alternatives cued by ``words``.

    ``masked`` is lower case (its ASCII twins are searched when it is ASCII).
    """
    if masked.isascii():
        fast = _REFUSAL_BY_WORD_ASCII
        return any(fast[w].search(masked) for w in words & REFUSAL_TRIGGERS if w in fast)
    table = REFUSAL_BY_WORD
    return any(table[w].search(masked) for w in words & REFUSAL_TRIGGERS if w in table)


def hedges(masked: str, words: set[str]) -> bool:
    """``HEDGE.search(masked)``, searching only the alternatives cued by ``words``.

    ``masked`` is lower case (its ASCII twins are searched when it is ASCII).
    """
    if masked.isascii():
        fast = _HEDGE_BY_WORD_ASCII
        return any(fast[w].search(masked) for w in words & HEDGE_TRIGGERS if w in fast)
    table = HEDGE_BY_WORD
    return any(table[w].search(masked) for w in words & HEDGE_TRIGGERS if w in table)
