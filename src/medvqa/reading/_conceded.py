"""A clause of contrast or concession after the answer that names another option.

"Meningioma, though a dural metastasis would look much the same", "Answer: C. That said, a
pleural effusion could explain this": the answer is given and, in the same breath, another
option is held up beside it. The credit is withdrawn (``alternative.conceded``). The clause
runs from its word (``alternative.conceded``'s words, or a concession such as "although") to
the end of its sentence, and holds the option open where it speaks of it with a modal
("would", "could", "might", "may", "can"): "though pleural effusion came to mind" only tells
what was considered. An option the clause names and rejects keeps nothing open.
"""

from __future__ import annotations

import re
from typing import Final

from medvqa.reading._book import RuleBook, word_tokens
from medvqa.reading._options import OptionSet
from medvqa.reading._scan import scan
from medvqa.reading.rules import Kind

__all__ = ["CONCEDED", "conceded_other"]

CONCEDED: Final = "alternative.conceded"
_CONCEDING: Final = (Kind.CONTRAST, Kind.CONCESSION)
# The clause holds the other option open only where it speaks of it as possible now.
_MODAL: Final = re.compile(r"\b(?:would|could|might|may|can)\b")


def conceded_other(tail: str, chosen: frozenset[str], ix: OptionSet, qtype: str,
                    question: str, bk: RuleBook) -> bool:
    """Another option named, and not rejected, in a clause of contrast or concession.

    "Meningioma, though a dural metastasis would look much the same", "PI-RADS 4. Contudo …
    poderiam justificar PI-RADS 5" (``alternative.conceded``): the clause runs from its word
    to the end of the sentence.
    """
    lowered = tail.lower()
    words = word_tokens(lowered)
    for kind in _CONCEDING:
        for _, e, _ in bk.spans(kind, lowered, words):
            end = min((i for i in (lowered.find(c, e) for c in ".!?\n\u3002") if i >= 0),
                      default=len(lowered))
            if _MODAL.search(lowered, e, end) is None:
                continue  # "though pleural effusion came to mind": considered, not open
            r = scan(tail[e:end], ix, qtype, question, hedge=False, bk=bk)
            if (r.named - r.negated) - chosen:
                return True
    return False
