"""The rule table's row types: a rule, its kind, its examples.

Each rule states its words once (``phrases``, in the notation of :mod:`.._phrases`), what the
reader does where they occur (``kind``), a sentence of documentation, and examples: responses
with the decision the reader must reach. The reader's patterns, the words that gate them, the
quick reading's cue words, the property tests' vocabulary and the rules section of
``docs/answer-reading.md`` are all derived from these rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

__all__ = ["Example", "Kind", "Rule"]


class Kind(str, Enum):
    """What the reader does where a rule's phrase occurs."""

    REFUSAL = "refusal"
    """The model declines or cannot see or tell: the response is invalid (``refusal``)."""
    HEDGE = "hedge"
    """The model does not commit: invalid (``hedge``), in the answer and after it."""
    HEDGE_SCOPED = "hedge-scoped"
    """A hedge about the thing it names ("it may represent X", "consider X"): it keeps the
    answer open only where its sentence names an option (on a yes/no item, always); "consider
    a stent" is advice."""
    NOT_HEDGE = "not-hedge"
    """A phrase holding a hedge word that hedges nothing ("I consider this X", "I suspect")."""
    HEDGE_LEAD = "hedge-lead"
    """A hedge that goes on to commit ("I'm not sure, but …"): the text after it is read."""
    EXCLUSION_HEDGE = "exclusion-hedge"
    """A finding kept open ("X cannot be excluded"): a hedge even beside a refusal cue."""
    NEG_BEFORE = "negation-before"
    """Negates a mention that follows it in its clause ("not X", "without X")."""
    NEG_NOUN = "negation-noun"
    """Negates a noun phrase ("no X"): its reach ends at a verb that states a conclusion."""
    NEG_STOP = "negation-stop"
    """A conclusion verb that ends a noun negation's reach ("no markings … means X")."""
    NEG_AFTER = "negation-after"
    """Negates the mention right before it ("X is ruled out", "X is unlikely")."""
    NEG_AFTER_VERB = "negation-after-verb"
    """A verb or adverb that may stand between a mention and its negation ("is", "highly")."""
    NEG_AFTER_ADVERB = "negation-after-adverb"
    """A word after such a verb before the negation ("X is very much absent")."""
    STATUS = "status"
    """A status written after a mention as a label negates it ("X: excluded", "X - neg")."""
    NOT_NEGATION = "not-negation"
    """A phrase holding a negation word that negates nothing ("no doubt", "not only")."""
    DISCUSSED_BEFORE = "discussed-before"
    """A mention after it in its clause is discussed, neither chosen nor negated ("if X")."""
    CONDITION = "condition"
    """A mention after it in its sentence is discussed ("if X", "unless X")."""
    DISCUSSED_AFTER = "discussed-after"
    """A mention right before it is discussed ("X would show …", "X typically …")."""
    CONCESSION = "concession"
    """A clause it opens grants its mention nothing ("although X is common …")."""
    CLAUSE_END = "clause-end"
    """A conjunction that ends a clause ("but", "however")."""
    REVISION = "revision"
    """A change of mind: after an answer, another option named makes it uncommitted."""
    DEFERRAL = "deferral"
    """The model puts its answer off ("let me reconsider"): not committed."""
    PLAN = "plan"
    """A mention in a plan is not an answer ("next I will answer B after checking …")."""
    ALTERNATIVE = "alternative"
    """Joins two readings as alternatives ("X or Y"): never one answer."""
    CONTRAST = "contrast"
    """Opens a clause that sets something against what came before ("contudo", "that said"):
    after an answer, where the clause names another option, the answer is left open."""
    SECOND_READING = "second-reading"
    """Offers a second reading beside the answer ("second choice", "if not, C"): ambiguous
    where its sentence names another option."""
    IMAGE_SIDE = "image-side"
    """A side named in the image's frame ("left of the image"), not the patient's: a left or
    right option read there is ambiguous."""
    CONCLUSION = "conclusion"
    """A clause that states a conclusion: an option asserted there after the answer is a
    second answer ("… these point to an endometrioma")."""
    ANSWER_MARKER = "answer-marker"
    """A word that opens the final answer ("Answer:", "the diagnosis is", "Impression:")."""
    ANSWER_PICK = "answer-pick"
    """A verb of choosing after "I" that opens the final answer ("I would choose …")."""
    ELIMINATION = "elimination"
    """Opens the one option left once the others are ruled out ("That leaves B")."""
    DISCLAIMER = "disclaimer"
    """A sentence after the answer that only says how to confirm it ("please consult …")."""
    ROLE_DISCLAIMER = "role-disclaimer"
    """A sentence before the answer that declines a doctor's role ("I can't give medical
    advice"), not the question: no refusal of the answer that follows."""
    SIGHT = "sight"
    """Words saying what the model can or cannot see or tell: a sentence holding them is no
    role disclaimer ("As an AI I can't see the image")."""
    OPTION_GENERIC = "option-generic"
    """An option's last word that names its kind ("Segmental distribution"): the option is
    also named without it."""
    LIST_JOIN = "list-join"
    """A word that joins letters into a list ("A and C", "A y C", "A und C")."""
    LETTER_CONNECTIVE = "letter-connective"
    """A word that may follow an answer letter without making it part of a name."""
    LETTER_KEYWORD = "letter-keyword"
    """After it a letter is an option letter ("option b", "therefore B")."""
    EXPLANATION = "explanation"
    """LMOD's ``FIELD; Explanation: …``: only what comes before it is the answer."""
    SET_ALL = "set-all"
    """Multiple choice: every option ("all of the above")."""
    SET_NONE = "set-none"
    """Multiple choice: no option ("none of the above")."""
    SET_RANGE = "set-range"
    """Multiple choice: the word between two letters of a range ("A to C", "C-E")."""
    SET_EXCEPT = "set-except"
    """Multiple choice: every option but those it names ("all except B")."""
    FINDING_ABSENT = "finding-absent"
    """States that a finding is absent: answers a yes/no question about it with no."""
    FINDING_PRESENT = "finding-present"
    """States that a finding is present: answers a yes/no question about it with yes."""
    FINDING_END = "finding-end"
    """A word that ends a finding's noun phrase ("effusion with blunting", "mass in the …")."""
    FINDING_ACTION = "finding-action"
    """A verb opening a clause that makes it an instruction, not a finding ("Check the …")."""
    FINDING_NONE = "finding-none"
    """A finding stated absent by a pronoun: the question's own finding ("None seen.")."""
    NATURE = "nature"
    """A word about a finding's nature that a yes/no question may ask about ("suspicious")."""
    ANSWER_KEY = "answer-key"
    """A key of structured output whose value is the answer (``"diagnosis": "…"``)."""
    OTHER_KEY = "other-key"
    """A key of structured output whose value is not the answer (reasoning, evidence)."""
    SECOND_KEY = "second-key"
    """A key of structured output whose value is a second reading (``"alternative": "C"``)."""
    NEGATIVE_KEY = "negative-key"
    """A key of structured output whose values are rejected options (``"excluded": […]``)."""
    SPEAKER = "speaker"
    """A speaker's role opening a line of a dialogue ("Resident:", "Attending:"): earlier
    speakers' answers are the discussion the final answer settles."""
    STRUCTURAL = "structural"
    """A rule of the reader's own structure (letters only, traces, markers …): no words."""
    LOW_CONFIDENCE = "low-confidence"
    """A structured answer's own confidence that makes it a hedge (``"confidence": "low"``)."""


@dataclass(frozen=True)
class Example:
    """A response and the decision the reader must reach on it.

    Attributes:
        response: the raw response.
        options: the name of an option set of :data:`~.OPTION_SETS`.
        expected: the letter read, the sorted letters (multiple choice), or None when the
            response must be invalid.
        qtype: the item's question type.
        question: the item's question, where the decision depends on it.
    """

    response: str
    options: str
    expected: str | tuple[str, ...] | None
    qtype: str = "single"
    question: str = ""


@dataclass(frozen=True)
class Rule:
    """One rule of the strict reader.

    Attributes:
        id: stable identifier (``kind.name``); decision-table rows and readings cite it.
        kind: what the reader does where a phrase occurs.
        phrases: the rule's words, each in the phrase notation; every phrase has an example
            whose decision it alone changes (a test removes each in turn).
        doc: one or two sentences for the documentation.
        examples: responses the rule decides, each with its decision.
        counter: look-alikes the rule must not decide (the decision without the rule).
        lang: the language of the phrases (``en``, ``es``, …; ``*`` for marks).
    """

    id: str
    kind: Kind
    phrases: tuple[str, ...]
    doc: str
    examples: tuple[Example, ...] = ()
    counter: tuple[Example, ...] = field(default=())
    lang: str = "en"
