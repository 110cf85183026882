"""The rules' faster forms of a pattern find what the plain pattern finds (hypothesis).

A pattern opened by an alternation, a lookbehind or a MULTILINE ``^`` is tried at every
position of a text. The rules use instead a form opened by a character class (which the
engine skips to in C), the pattern matched only where it may start (each line start, each
bracket), or a byte translation. Each is compared here with the plain pattern it replaces,
written out as it was.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from medvqa.reading import _findings, _letters, _locate, _quick, _reading, _strict
from medvqa.reading._cues import (
    CLAUSE_WORDS,
    DISCUSSED_WORDS,
    HEDGE_TRIGGERS,
    NEG_WORDS,
    REFUSAL_TRIGGERS,
    WORD,
    line_starts,
    positions_of,
    whole_word_ends,
    word_set,
    word_tokens,
)
from medvqa.reading._letters import LETTER_KEYWORDS
from medvqa.reading._reading import option_set, options_of


def _joined(pieces: list[str], glue: list[str]) -> str:
    return "".join(p + g for p, g in zip(pieces, glue + [""] * len(pieces), strict=False))


def _texts(pieces: list[str], max_size: int = 16) -> st.SearchStrategy[str]:
    """Texts made of ``pieces`` glued by nothing, a space or a line break."""
    return st.builds(_joined, st.lists(st.sampled_from(pieces), max_size=max_size),
                     st.lists(st.sampled_from(["", " ", "", "\n", "  "]), max_size=max_size))


def _spans(found) -> list[tuple[int, int]]:
    return [m.span() for m in found]


@settings(max_examples=400)
@given(text=st.text(alphabet=st.sampled_from(list(".;,!?\n\u2192=->- ab")), max_size=30))
def test_clause_punctuation_found_by_find_ends_where_the_pattern_does(text: str) -> None:
    plain = re.compile(r"[.;,!?\n\u2192]|[=-]>")
    assert _reading._punct_ends(text) == [m.end() for m in plain.finditer(text)]


# Words beside letters, digits and "_" of several scripts, which \b reads as word characters.
_WORD_PIECES = ["but", "so", "also", "so_", "_so", "2so", "so2", "\u00e9so", "so\u00e9", "s\u00f8",
                "\u0661so", "though", "although", ".", "'", "-", "sososo"]


@settings(max_examples=500)
@given(text=_texts(_WORD_PIECES),
       word=st.sampled_from(["so", "but", "though", "although"]))
def test_whole_word_ends_are_the_ends_of_the_bounded_pattern(text: str, word: str) -> None:
    plain = re.compile(rf"\b{word}\b")
    assert whole_word_ends(text, word) == [m.end() for m in plain.finditer(text)]


@settings(max_examples=400)
@given(text=st.text(alphabet=st.sampled_from(list("AaBzZ (.9-\u00e9\n")), max_size=20))
def test_a_lone_capital_led_by_the_capital_is_the_same(text: str) -> None:
    plain = re.compile(r"(?<![A-Za-z])[A-Z](?![a-z])")
    assert _spans(_strict._LONE_CAPITAL.finditer(text)) == _spans(plain.finditer(text))


_CLAUSE_PIECES = ["but", "however", "whereas", "although", "though", "while", "abut", "butter",
                  "whilst", "_but", "x", "\u00e9", "2but", ".", ";", ":", ",", "!", "?", "(", ")",
                  "\u2014", "\u2013", "-", "--", "\t", "so"]


@settings(max_examples=500)
@given(text=_texts(_CLAUSE_PIECES))
def test_finding_clauses_led_by_a_class_end_where_the_plain_pattern_does(text: str) -> None:
    plain = re.compile(r"[.;:,!?\n()]|\s[\u2014\u2013-]+\s|\b(?:but|however|whereas|although"
                       r"|though|while)\b")
    assert _spans(_findings._CLAUSE.finditer(text)) == _spans(plain.finditer(text))
    # The variant chosen for the text (without the dash or the conjunctions it lacks).
    chosen = _findings._clause_pattern(text)
    assert _spans(chosen.finditer(text)) == _spans(plain.finditer(text))


# Every list of cue words a rule looks up in a text's words.
_CUE_LISTS = {"refusal": REFUSAL_TRIGGERS, "hedge": HEDGE_TRIGGERS, "negation": NEG_WORDS,
              "discussed": DISCUSSED_WORDS, "clause": CLAUSE_WORDS,
              "letter keyword": LETTER_KEYWORDS, "quick": _quick._CUE_WORDS,
              "letter key": _letters._KEY_SET}
_ALL_CUES = sorted(set().union(*_CUE_LISTS.values()))


@settings(max_examples=500)
@given(text=st.text(alphabet=st.sampled_from(list("ab'/ -.,Z\u00e9\u0130\n") + ["\ud800"]),
                    max_size=30))
def test_the_word_set_holds_the_word_tokens_and_only_their_parts(text: str) -> None:
    lowered = text.lower()
    words = word_set(lowered)
    tokens = set(WORD.findall(lowered))
    assert words == {t.decode() for t in word_tokens(lowered)}
    assert tokens <= words
    assert all(any(w in t for t in tokens) for w in words)


@settings(max_examples=800)
@given(text=_texts(["'", "/", "\"", "not", "no", "never", "can't", "n/a", "i", "tell", "it's",
                    "maybe", "though", "answer", "rule", "out", "x", "\u00e9", "2", "_", "'s"]))
def test_every_cue_word_standing_whole_in_a_text_is_one_of_its_words(text: str) -> None:
    # A join (' or /) beside a cue word hides it from no rule: "'not effusion'", "and/not",
    # "i/can't tell" hold "not", "not" and "can't" as words, as a pattern's \b reads them.
    lowered = text.lower()
    words = word_set(lowered)
    for cue in _ALL_CUES:
        if re.search(rf"\b{re.escape(cue)}\b", lowered) is not None:
            assert cue in words, cue


@pytest.mark.parametrize("name", sorted(_CUE_LISTS))
def test_no_cue_word_opens_or_closes_with_a_join_or_holds_two(name: str) -> None:
    # What word_tokens relies on to find every cue word inside a joined token.
    for cue in _CUE_LISTS[name]:
        assert cue[:1] not in "'/" and cue[-1:] not in "'/" and sum(c in "'/" for c in cue) <= 1


_LETTER_PIECES = ["the", "final", "correct", "answer", "answers", "option", "options", "choice",
                  "is", "are", "would", "be", "and", "or", "A", "b", "C", "(C)", "[d]", "E)",
                  ",", ";", "/", "&", "+", ":", "=", "-", ".", "!", "case", "3", "island",
                  "beta", "x", "\u00e9", "\u017f", "\u212a", "Answer"]


@settings(max_examples=1500)
@given(text=_texts(_LETTER_PIECES, max_size=8))
def test_the_letters_only_prefilter_never_hides_a_match(text: str) -> None:
    plain = _reading._ONLY_LETTERS.match(text) if len(text) <= 48 else None
    got = _reading._only_letters(text)
    assert (got and got.span()) == (plain and plain.span()), text


@pytest.mark.parametrize("text", ["answerB", "The answer isC", "answers areA and B",
                                  "the final answer would beD", "optionsB", "Answer: (b)"])
def test_letters_run_together_with_the_lead_are_still_read(text: str) -> None:
    plain = _reading._ONLY_LETTERS.match(text)
    assert plain is not None
    assert _reading._only_letters(text).span() == plain.span()


_LINE_PIECES = ["- ", "* ", "\u2022", "1. ", "2)", "A. ", "(B) ", "C) ", "Steatosis", "Normal",
                ": ", " \u2014 ", "present", "absent", "yes", "No", "not seen", "**", "\t",
                "x", "B. Cirrhosis"]


@settings(max_examples=500)
@given(text=_texts(_LINE_PIECES))
def test_line_patterns_matched_at_line_starts_find_what_a_search_finds(text: str) -> None:
    at_starts = [m for p in line_starts(text) if (m := _reading._RESTATED.match(text, p))]
    assert _spans(at_starts) == _spans(_reading._RESTATED.finditer(text))
    assert any(_locate._MARK_WORDS.match(text, p) for p in line_starts(text)) == (
        _locate._MARK_WORDS.search(text) is not None)


@settings(max_examples=500)
@given(text=_texts(["(B)", "[C]", "(case 3)", "[x]", "(", "[", ")", "]", "A", "b", "<think>",
                    "</think>", "<THINKING>", "<", "\u25c1think\u25b7", "\u25c1/think\u25b7",
                    "\u25c1", "think", ">", "reasoning"]))
def test_patterns_matched_where_they_may_open_find_what_a_search_finds(text: str) -> None:
    at_brackets = [m for i in positions_of(text, "([") if (m := _letters._PAREN.match(text, i))]
    assert _spans(at_brackets) == _spans(_letters._PAREN.finditer(text))
    tags = [m for i in positions_of(text, "<\u25c1") if (m := _locate._TAG.match(text, i))]
    assert _spans(tags) == _spans(_locate._TAG.finditer(text))


@settings(max_examples=300)
@given(text=st.text(alphabet=st.sampled_from(list("ab\n([<\u25c1")), max_size=20),
       marks=st.sampled_from(["\n", "([", "<\u25c1", "a"]))
def test_positions_are_every_position_of_a_mark_in_order(text: str, marks: str) -> None:
    assert positions_of(text, marks) == [i for i, c in enumerate(text) if c in marks]
    assert line_starts(text) == [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]


@settings(max_examples=400)
@given(text=st.text(alphabet=st.sampled_from(list("aZ9 ().:<>{}[]|\\\"*_`#?'-\nBI")),
                    max_size=16))
def test_the_structure_or_capital_test_is_its_pattern(text: str) -> None:
    plain = re.compile("[" + re.escape("".join(sorted(_quick._STRUCTURE))) + "A-Z]"
                       r"(?:(?<=[^A-Z])|(?<![A-Za-z0-9][A-Z])(?![A-Za-z0-9]))")
    assert _quick._structure_or_capital(text) == (plain.search(text) is not None)


def test_an_option_set_found_by_its_dict_follows_every_change_of_the_dict() -> None:
    options = {"A": "Steatosis", "B": "Cirrhosis"}
    first = options_of(options)
    assert first is option_set(tuple(options.items()))
    assert options_of(options) is first
    options["B"] = "Normal liver"  # changed in place: the new items' set
    assert options_of(options) is option_set((("A", "Steatosis"), ("B", "Normal liver")))
    options["A"] = options.pop("A")  # the same items in another order: another set
    assert options_of(options) is option_set(tuple(options.items()))
    assert options_of(options) is not first
    twin = {"A": "Steatosis", "B": "Cirrhosis"}  # another dict, the same items: the same set
    assert options_of(twin) is first


@settings(max_examples=500)
@given(text=_texts(["B.", "- C)", "A, C", "* D:", "\u2022 B", "B or C", "Band", "(case 3)", "x",
                    "A", "\t", "\n", "andrew", "b."]))
def test_a_letter_line_matched_at_line_starts_is_found_where_the_search_finds_it(text: str
                                                                                 ) -> None:
    plain = re.compile(r"(?:^|\n)[ \t]*(?:[-*\u2022][ \t]*)?[A-Z](?:[.):]|\s*(?:,|/|&|or\b"
                       r"|and\b))")
    assert any(_strict._LETTER_LINE.match(text, p) for p in line_starts(text)) == (
        plain.search(text) is not None)


_FINDING_PIECES = ["no", "not", "n't", "without", "absence of", "negative for", "free of", "there",
                   "is", "are", "were", "has been", "present", "seen", "noted", "identified",
                   "visible", "evident", "demonstrated", "shows", "reveals", "positive for",
                   "absent", "excluded", "ruled out", "does", "did", "the image", "i see", "we",
                   "effusion", "mass", "answer:", "non", "note", "shown", "freely", "nothing"]


@settings(max_examples=600)
@given(text=_texts(_FINDING_PIECES, max_size=8))
def test_a_finding_pattern_not_tried_without_its_key_words_matches_as_when_tried(text: str
                                                                                 ) -> None:
    for pattern, needs in ((_findings._ABSENT_LEAD, _findings._ABSENT_LEAD_NEEDS),
                           (_findings._ABSENT_TAIL, _findings._ABSENT_TAIL_NEEDS),
                           (_findings._PRESENT, _findings._PRESENT_NEEDS)):
        got = _findings._match_if(pattern, needs, text)
        plain = pattern.match(text)
        assert (got and got.groupdict()) == (plain and plain.groupdict()), (pattern, text)


_LINE_OPENINGS = ["", " ", "\t", "\u00a0", "\u2003", "- ", "* ", "\u2022 ", "1. ", "\u0663) ",
                  "(", "[", "x: ", "\n"]
_LINE_LETTERS = ["A", "B", "Z", "a", "", "Brain", "Bor", "Aand", "- x: present", "2) y \u2014 no"]
_LINE_PIECES = [".", ")", ":", "]", " ", "\t", "\u00a0", ",", "/", "&", "or", "and", " or B",
                " not A", ", not (C)", " rather than D", " instead of B",
                ", C", "/D", " is correct", " - x", " \u2014 x", ": present", " absent", "yes",
                " seen", "x", "- item", "1) item", "B or C"]
# A line: an opening (space, bullet, number, bracket), a letter or word, then pieces.
_LINE_TEXT = st.lists(st.builds(lambda o, c, ps: o + c + "".join(ps),
                                st.sampled_from(_LINE_OPENINGS), st.sampled_from(_LINE_LETTERS),
                                st.lists(st.sampled_from(_LINE_PIECES), max_size=4)),
                      max_size=4).map("\n".join)


@settings(max_examples=1500)
@given(text=_LINE_TEXT)
def test_a_line_pattern_is_skipped_only_where_it_cannot_match(text: str) -> None:
    """Each line pattern's one-character test passes every position where the pattern matches
    (at line starts, and after colons for the letter list)."""
    starts = line_starts(text) + [i + 1 for i in positions_of(text, ":")]
    for pattern, opens in ((_locate._MARK_WORDS, _locate._MARK_LINE_OPENS),
                           (_letters._LINE, _letters._LINE_OPENS),
                           (_letters._CONTRAST, _letters._CONTRAST_OPENS),
                           (_letters._LIST, _letters._LIST_OPENS),
                           (_reading._RESTATED, _reading._RESTATED_OPENS),
                           (_strict._LETTER_LINE, _strict._LETTER_LINE_OPENS)):
        for p in starts:
            if pattern.match(text, p) is not None:
                assert opens.allows(text, p), (pattern.pattern, text, p)



def _list_blocks_plain(text: str) -> list:
    """``_marks._list_blocks`` as it was: every line tried with each pattern."""
    from medvqa.reading import _marks

    blocks, run = [], []
    for start, end, line in [*_marks._lines(text), (len(text), len(text), "")]:
        m = None
        if "[" in line or not line.isascii():
            m = _marks._MARK_FIRST.match(line) or _marks._MARK_LAST.match(line)
        m = m or _marks._MARK_WORD.match(line)
        label = _marks._MARKUP.sub("", m.group("label")).strip(" :-") if m else ""
        if m is not None and label.lower() not in _marks._NOT_LABELS:
            run.append((start, end, label, _marks._kind_of(m.group("mark"))))
            continue
        if len(run) >= 2:
            blocks.append((run[0][0], run[-1][1], [(lab, k) for _, _, lab, k in run]))
        run = []
    return blocks


_MARK_OPENINGS = ["- ", "* ", "\u2022 ", "+ ", "1. ", "2) ", "  ", "\t", ""]
_MARK_FIRSTS = ["[x] ", "[ ] ", "[] ", "\u2713", "\u2717", "\u2611", "\u2610", "\u274c", "\u2705"]
_MARK_LABELS = ["Mass", "**Cyst**", "_x_", "Calcification", "Answer", "\u6c14\u80f8", "\u00e9"]
_MARK_SEPARATORS = [": ", " - ", " \u2014 ", " \u2013 ", " ", ""]
_MARK_MARKS = ["present", "absent", "yes", "no", "possible", "not seen", "\u2713", "\u2717",
               "\u2611", "\u2610", "\u274c", "\u2705", "\u2713 ", "\u2717\t", "."]
_MARK_PIECES = (_MARK_OPENINGS + _MARK_FIRSTS + _MARK_LABELS + _MARK_SEPARATORS + _MARK_MARKS)
# A line shaped as a check-list row (an opening, a mark or not, a label, a separator, a
# mark), or pieces.
_MARK_LINE = st.one_of(
    st.tuples(st.sampled_from(_MARK_OPENINGS), st.sampled_from(_MARK_FIRSTS + [""]),
              st.sampled_from(_MARK_LABELS), st.sampled_from(_MARK_SEPARATORS),
              st.sampled_from(_MARK_MARKS + [""])).map("".join),
    st.tuples(st.sampled_from(_MARK_OPENINGS), st.sampled_from(_MARK_LABELS),
              st.sampled_from(_MARK_SEPARATORS), st.sampled_from(_MARK_MARKS[:6])).map("".join),
    st.lists(st.sampled_from(_MARK_PIECES), max_size=6).map("".join))


@settings(max_examples=500)
@given(lines=st.lists(_MARK_LINE, max_size=6))
def test_check_list_lines_tried_only_where_a_mark_may_be_read_as_before(lines) -> None:
    from medvqa.reading import _marks

    text = "\n".join(lines)
    assert _marks._list_blocks(text) == _list_blocks_plain(text)
    # A line written twice is a block exactly where the line is read as a check-list row.
    for line in lines:
        twice = f"{line}\n{line}"
        assert _marks._list_blocks(twice) == _list_blocks_plain(twice)


def _negated_marker_plain(body: str, start: int) -> bool:
    """``_strict._negated_marker`` as it was: the clause start from one search per mark."""
    from medvqa.reading._cues import NEG_BEFORE, NOT_NEGATIONS

    begin = max(body.rfind(c, 0, start) for c in ".;,!?\n:") + 1
    if begin >= start:
        return False
    return NEG_BEFORE.search(NOT_NEGATIONS.sub(" ", body[begin:start])) is not None


@settings(max_examples=500)
@given(text=_texts(["not", "no", "I", "would", "say", "doubt", "no doubt", ".", ";", ",", "!",
                    "?", ":", "\n", "the answer is", "A", "x"]),
       cut=st.floats(0, 1))
def test_a_negated_marker_is_found_from_the_last_clause_mark_as_before(text: str,
                                                                     cut: float) -> None:
    start = int(len(text) * cut)
    assert _strict._negated_marker(text, start) == _negated_marker_plain(text, start)


_RESTATED_LAZY = re.compile(r"^[ \t]*(?:[-*\u2022][ \t]*)?[(\[]?([A-Z])[.):\]][ \t]+"
                            r"(\S[^\n]*?)[ \t]*$", re.MULTILINE)


@settings(max_examples=600)
@given(text=_texts(["A.", "B)", "(C)", "- D:", "x", "Glioblastoma", "brain metastases", " ",
                    "\t", "\r", "\v", "\u00a0", "\u2003", "-", "e.", "\n"]))
def test_a_restated_line_reads_as_with_the_lazy_pattern(text: str) -> None:
    def found(pattern: re.Pattern[str]) -> list[tuple[tuple[int, int], tuple[str | None, ...]]]:
        return [(m.span(), m.groups()) for m in (pattern.match(text, p) for p in line_starts(text))
                if m is not None]

    assert found(_reading._RESTATED) == found(_RESTATED_LAZY)


@settings(max_examples=600)
@given(text=_texts(["pneumothorax", ":", "(", "[", " - ", " \u2014 ", "->", ",", ";", "'", "no",
                    "none", "not", "present", "seen", "ruled out", "excluded", "less likely",
                    "false", "rejected", "\u2717", "\u274c", "unlikely", ".", "given", "0", "-",
                    "\u2212", "|", "5", "neg", "no evidence", "which is"]))
def test_a_status_after_a_label_is_tried_only_where_its_gate_opens(text: str) -> None:
    # _mentions matches STATUS_AFTER only where its gate opens: a status word, a mark, a sign.
    from medvqa.reading._cues import STATUS_AFTER, status_may_follow

    lowered = text.lower()
    if any(STATUS_AFTER.match(lowered, i) for i in range(len(lowered) + 1)):
        assert status_may_follow(lowered, word_set(lowered))


@settings(max_examples=500)
@given(text=_texts(["no", "not", "without", "never", "nor", "neither", " ", ",", ", ", "or", "and",
                    "mass", "calcification", "is", "seen", "x-ray", "0", "knot", "snow", ".",
                    "answer"]))
def test_negated_lists_found_by_word_start_are_the_patterns_matches(text: str) -> None:
    from medvqa.reading._cues import NEG_LIST, negated_lists

    lowered = text.lower()
    assert negated_lists(lowered) == [m.span() for m in NEG_LIST.finditer(lowered)]
