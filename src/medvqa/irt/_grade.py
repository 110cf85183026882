"""Right or wrong, as ``medvqa score`` would read it: what an adaptive run needs after each answer.

An adaptive test must know whether an answer was right before it chooses the next item, so the
response is read here with the style the calibration's runs were scored with, by the same
rules as ``medvqa score`` (``medvqa.score._rows.score_row``): a choice compared with the key
(by option text where the style compares texts), open answers by normalised exact match,
region answers right only when every region is named with its type and nothing else.
``medvqa score`` reads the run again afterwards; its reading is the one reported (a test checks
that the two agree).
"""

from __future__ import annotations

from medvqa.reading import (
    PARSER_SEED,
    AnswerParser,
    gold_regions,
    is_correct,
    locate_regions,
    make_parser,
    region_scores,
)
from medvqa.schema import Item


class Grader:
    """Reads responses with one parser style (open and region items with their own).

    Args:
        style: the parser style of choice questions (``strict``, ``mammovqa``, ``pathmmu``).
        parser_seed: seed of a seeded style's fallback.
    """

    def __init__(self, style: str = "strict", parser_seed: int = PARSER_SEED) -> None:
        self.style = style
        self.parser_seed = parser_seed
        self._parsers: dict[str, AnswerParser] = {}

    def _parser(self, item: Item) -> AnswerParser:
        style = item.question_type if item.question_type in {"open", "region"} else self.style
        if style not in self._parsers:
            self._parsers[style] = make_parser(style, seed=self.parser_seed)
        return self._parsers[style]

    def correct(self, item: Item, response: str) -> bool:
        """Whether ``response`` answers ``item`` (as shown, after its condition) right."""
        parser = self._parser(item)
        parsed = parser.parse(response, item.options, item.question_type,
                              question=item.question)
        if item.question_type == "region":
            scores = region_scores(None if parsed.invalid else locate_regions(response),
                                   gold_regions(item.answer, item.meta))
            return scores.precision == 1.0 and scores.recall == 1.0
        texts = item.options if parser.compares_text else None
        return is_correct(parsed.choice, item.answer, item.question_type, texts=texts)
