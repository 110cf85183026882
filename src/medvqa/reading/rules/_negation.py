"""Rules that negate a mention: before it, after it, as a status after a label."""

from __future__ import annotations

from medvqa.reading.rules._build import ex, rule
from medvqa.reading.rules._options import OPTION_SETS
from medvqa.reading.rules._types import Kind

__all__ = ["NEGATION"]

_GENERIC = ("shape", "distribution", "morphology", "composition", "margin", "pattern",
            "appearance", "orientation", "configuration", "sign", "echogenicity", "enhancement",
            "location", "type", "features", "changes")
# An option set per generic word for its example ("Regional distribution", "Segmental …").
OPTION_SETS.update({f"generic-{w}": {"A": f"Regional {w}", "B": f"Segmental {w}"}
                    for w in _GENERIC})

NEGATION = (
    rule("negation.not", Kind.NEG_BEFORE,
         ("not", "never", "neither", "nor", "isn't", "aren't", "wasn't", "weren't", "doesn't",
          "don't", "didn't", "cannot", "can't", "n't"),
         "'Not' and its kin negate every mention after them in their clause.",
         template="{} pneumothorax."),
    rule("negation.rejected", Kind.NEG_BEFORE,
         ("exclud*", "rul* out", "rather than", "instead of", "unlike", "other than", "except",
          "better than",
          "mimic*", "against", "less likely", "wrong", "incorrect", "false", "eliminat*",
          "(deny|denies|denied)", "doubt*", "hardly", "scarcely", "inconsistent with",
          "incompatible with", "(fail|fails|failed|failing) to", "anything but",
          "(more|most) (likely|probable) than", "likelier than", "least likely", "unlikely",
          "negative [study|examination] for"),
         "Words that reject what follows them in the clause.",
         template="{} pneumothorax."),
    rule("negation.no", Kind.NEG_NOUN,
         ("no", "without", "absence", "absent", "lack*", "free of", "none", "nothing"),
         "Negations of a noun phrase: their reach ends at a verb that states a conclusion.",
         template="{} pneumothorax."),
    rule("negation.stop", Kind.NEG_STOP,
         ("(means|mean|meaning)", "(indicates|indicate|indicating)", "(suggests|suggest|"
          "suggesting)", "(confirms|confirm|confirming)", "(implies|imply|implying)",
          "(favours|favors|favour|favor|favouring|favoring)", "(points|point|pointing) to",
          "(supports|support|supporting)", "(represents|represent|representing)",
          "(shows|show|showing)", "(demonstrates|demonstrate|demonstrating)",
          "(reveals|reveal|revealing)", "(makes|making)", "(leaves|leaving)",
          "(establishes|establish|establishing)", "(proves|proving)",
          "is (diagnostic|typical|characteristic) of"),
         "A verb that states a conclusion after another word ends a noun negation's reach.",
         template="No lung markings beyond the pleural line {} pneumothorax.",
         expected="B"),
    rule("negation.after", Kind.NEG_AFTER,
         ("not", "n't", "never", "(the|a|an) (wrong|incorrect) [answer|option|choice]",
          "[the] least likely", "(a|the) (distractor|red herring|decoy)", "ruled out",
          "excluded", "unlikely", "incorrect", "wrong", "absent", "less likely", "false",
          "negative", "eliminated", "out", "improbable", "inconsistent",
          "incompatible", "excludable", "rejected", "dismissed", "discounted", "discarded",
          "no longer", "resolved", "disappeared", "refuted", "would be my last (choice|option|"
          "pick)"),
         "Right after a mention (after a verb and adverbs): it is negated.",
         template="Pneumothorax is {}."),
    rule("negation.after-cannot", Kind.NEG_AFTER,
         ("(isn't|wasn't|aren't|weren't|doesn't|don't|didn't|hasn't|haven't|hadn't|couldn't"
          "|wouldn't|shouldn't|mustn't|mightn't|needn't|can't|won't|cannot)",),
         "A negated verb right after a mention ('X does not fit', 'X can't be it'); not 'X "
         "cannot be excluded', a hedge.",
         examples=(ex("Pneumothorax can't be it."), ex("Pneumothorax doesn't fit.")),
         counter=(ex("Pneumothorax does fit.", "PE", "B"),)),
    rule("negation.verbs", Kind.NEG_AFTER_VERB,
         ("is", "are", "was", "were", "seems", "appears", "can", "could", "should", "would",
          "has", "have", "had", "must", "does", "do", "did", "will", "may", "might", "need"),
         "The verbs that may stand between a mention and its negation ('X is ruled out').",
         template="Pneumothorax {} ruled out."),
    rule("negation.adverbs", Kind.NEG_AFTER_ADVERB,
         ("be", "been", "also", "now", "very", "much", "quite", "most", "considered", "and"),
         "The words after such a verb (any adverb in -ly too) before the negation ('X is very "
         "much absent', 'X was considered and rejected').",
         template="Pneumothorax is {} ruled out."),
    rule("negation.status", Kind.STATUS,
         ("ruled out", "excluded", "unlikely", "incorrect", "wrong", "absent", "negative",
          "eliminated", "improbable", "less likely", "false", "rejected", "none [seen]", "neg",
          "not (seen|present|identified|detected|visible|evident|demonstrated|noted|appreciated"
          "|supported|favoured|favored|likely|correct|the answer)", "no [evidence|signs|sign]"),
         "A status written after a mention as its label, on its line ('X: excluded', 'X - neg',"
         " 'X | No'): the mention is negated. 'No' only where it ends the clause and 'not' only "
         "before a participle, so 'X: not Y' reads as X.",
         template="Pneumothorax: {}.",
         counter=(ex("Pneumothorax: no pleural effusion seen.", "PE", "B"),
                  ex("Pleural effusion: not pneumothorax.", "PE", "A"))),
    rule("option.generic-noun", Kind.OPTION_GENERIC, _GENERIC,
         "An option whose last word names its kind ('Segmental distribution', 'Taller-than-wide"
         " shape') is also named without it, where the rest names it alone.",
         examples=tuple(ex("In my view it is segmental.", f"generic-{w}", "B") for w in _GENERIC)),
    rule("negation.neutral", Kind.NOT_NEGATION,
         ("(no|without|beyond) [a|any] [reasonable] doubt", "not only", "no question",
          "no wonder", "(by|process of|through) [the] elimination", "(i|we) would"),
         "Phrases that hold a negation or discussion word but negate nothing.",
         examples=(ex("There is no doubt this is a pneumothorax.", "CXR", "B"),
                   ex("Not only a pneumothorax: it is large.", "CXR", "B"),
                   ex("It is pneumothorax, no question.", "PE", "B"),
                   ex("No wonder, a pneumothorax.", "PE", "B"),
                   ex("By elimination: B.", "MM", "B"),
                   ex("I would say pneumothorax.", "CXR", "B"),
                   ex("No question this is a pneumothorax.", "PE", "B"),
                   ex("No wonder this is a pneumothorax.", "PE", "B"),
                   ex("I would think pneumothorax.", "PE", "B"))),
)
