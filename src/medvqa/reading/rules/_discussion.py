"""Rules about mentions that are discussed rather than chosen, and where clauses end."""

from __future__ import annotations

from medvqa.reading.rules._build import ex, rule
from medvqa.reading.rules._types import Kind

__all__ = ["DISCUSSION"]

DISCUSSION = (
    rule("discussed.condition", Kind.CONDITION,
         ("if", "whether", "unless", "assuming", "provided that", "in case"),
         "A mention after a condition in its sentence is discussed, not chosen ('If it is seen "
         "on one view only, the answer is A').",
         template="{} a pneumothorax, a pleural line.", expected=None),
    rule("discussed.hypothetical", Kind.DISCUSSED_BEFORE,
         ("typically", "usually", "classically", "expected", "would", "vs", "versus"),
         "A mention after these in its clause is discussed (a generic statement, one side of a "
         "comparison): neither chosen nor negated.",
         template="{} a pneumothorax, a pleural line.", expected=None),
    rule("discussed.versus", Kind.DISCUSSED_AFTER,
         ("vs", "versus"),
         "A mention set against another by 'vs' is one side of a comparison (a differential): "
         "discussed, even with a word or two between ('probable UIP pattern vs fibrotic "
         "NSIP').",
         examples=(ex("Impression: probable pneumothorax appearance vs pleural effusion."),
                   ex("Pleural effusion versus pneumothorax: the pleural line is sharp, so "
                      "pneumothorax.", "PE", "B"))),
    rule("discussed.generic", Kind.DISCUSSED_AFTER,
         ("would", "typically", "usually", "classically", "(tend|tends) to",
          "(is|are) expected", "(is|are) (characterized|characterised)"),
         "A mention right before these is discussed ('X would show …', 'X typically …').",
         template="A pneumothorax {} show a pleural line."),
    rule("discussed.chosen", Kind.NOT_NEGATION,
         ("would be (the|most|best|correct|right|likely|favoured|favored|consistent)",
          "would be my (answer|choice|pick|diagnosis|first choice)",
          "would be (considered|classified as|categorized as|categorised as)"),
         "'X would be the answer': a choice, not a discussion.",
         examples=(ex("Pneumothorax would be the answer.", "PE", "B"),
                   ex("Pneumothorax would be most likely.", "PE", "B"),
                   ex("Pneumothorax would be my choice.", "PE", "B"),
                   ex("This would be considered a pneumothorax.", "PE", "B"))),
    rule("discussed.concession", Kind.CONCESSION,
         ("although", "though", "despite", "albeit"),
         "A clause opened by a concession grants its mention nothing.",
         template="{} pleural effusion is common here, the pleural line makes this a "
                  "pneumothorax.", expected="B"),
    rule("clause.conjunction", Kind.CLAUSE_END,
         ("but", "however", "whereas", "while", "so"),
         "Conjunctions that end a clause: a negation before them does not reach after them.",
         template="No pleural effusion {} a pneumothorax.", expected="B"),
)
