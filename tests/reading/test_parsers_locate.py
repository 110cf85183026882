"""Properties of locating the answer (reasoning set aside, final answer found) and of the new
reading rules (hypothesis); the hand-written cases are rows of ``test_parsers_strict_table.py``."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from medvqa.reading import REASONS, WANTS_READING, make_parser, set_aside_reasoning
from medvqa.reading._locate import final_segments
from medvqa.reading._variants import PhraseIndex, fold

_POOL = ["Pleural effusion", "Pneumothorax", "Pulmonary oedema", "Normal", "Adenocarcinoma",
         "Squamous cell carcinoma", "Haemangioma", "Hepatocellular carcinoma", "Glaucoma",
         "Non-glaucoma", "Fatty-glandular", "Fatty", "Melanoma", "Basal cell carcinoma",
         "Diabetic macular oedema", "Drusen", "Mass", "Calcification", "Stage 2", "Stage 3"]
_texts = st.lists(st.sampled_from(_POOL), min_size=2, max_size=5, unique=True)
# Forms that state one option clearly (letter L, text T).
_CLEAR = ["{L}", "({L})", "Answer: {L}", "The answer is {L}.", "{T}", "**{T}**", "{L}: {T}",
          "Final answer: {L}", "I would choose {L}.", "$\\boxed{{{L}}}$", '{{"answer": "{L}"}}',
          "The image shows {T}."]
# Thinking about another option (O, OT) in every tone: tentative answers, negations, hedges.
_THOUGHTS = ["The answer is {O}.", "Maybe {OT}?", "{OT} is ruled out.", "I cannot tell yet, "
             "perhaps {O}", "Final answer: {O}", "Not {OT}... or is it?", "{OT} cannot be "
             "excluded", "I don't know. {O}"]
_TAGS = [("<think>", "</think>"), ("<thinking>", "</thinking>"), ("<reasoning>", "</reasoning>"),
         ("\u25c1think\u25b7", "\u25c1/think\u25b7"), ("", "</think>")]
_HEDGES = ["Maybe.", "But I am not sure.", "Although {OT} cannot be excluded.",
           "It could also be {OT}.", "Possibly {O}.", "Either way, hard to say.",
           "{OT} is not excluded either."]


def _options(texts: list[str]) -> dict[str, str]:
    return dict(zip("ABCDE", texts, strict=False))


def _render(form: str, options: dict[str, str], pick: int, other: int) -> str:
    letters = list(options)
    lt, lo = letters[pick % len(letters)], letters[other % len(letters)]
    return form.format(L=lt, T=options[lt], O=lo, OT=options[lo])


@settings(max_examples=400, deadline=None)
@given(texts=_texts, form=st.sampled_from(_CLEAR), thought=st.sampled_from(_THOUGHTS),
       tags=st.sampled_from(_TAGS), pick=st.integers(0, 4), other=st.integers(0, 4),
       sep=st.sampled_from(["", "\n", "\n\n", " "]))
def test_a_closed_trace_never_changes_the_reading(texts, form, thought, tags, pick, other, sep):
    options = _options(texts)
    answer = _render(form, options, pick, other)
    trace = tags[0] + _render(thought, options, pick, other) + tags[1]
    parser = make_parser("strict")
    alone = parser.parse(answer, options, "single")
    assert not alone.invalid
    assert parser.parse(trace + sep + answer, options, "single") == alone


@settings(max_examples=300, deadline=None)
@given(texts=_texts, thought=st.sampled_from(_THOUGHTS), pick=st.integers(0, 4),
       other=st.integers(0, 4), tag=st.sampled_from(["<think>", "<thinking>", "\u25c1think\u25b7"]))
def test_a_trace_alone_is_never_read(texts, thought, pick, other, tag):
    options = _options(texts)
    for response in (tag + _render(thought, options, pick, other),
                     tag + _render(thought, options, pick, other) + tag.replace("<", "</")
                     .replace("\u25c1", "\u25c1/")):
        parsed = make_parser("strict").parse(response, options, "single")
        assert parsed.invalid and parsed.reason == "not_committed"


@settings(max_examples=400, deadline=None)
@given(texts=_texts, form=st.sampled_from(_CLEAR), hedge=st.sampled_from(_HEDGES),
       pick=st.integers(0, 4), other=st.integers(0, 4),
       qtype=st.sampled_from(["single", "multi"]))
def test_a_trailing_hedge_never_yields_credit(texts, form, hedge, pick, other, qtype):
    options = _options(texts)
    answer = _render(form, options, pick, other)
    response = answer + " " + _render(hedge, options, pick, other)
    assert make_parser("strict").parse(response, options, qtype).invalid


_NEGATIONS = ["{X} is excluded.", "No evidence of {X}.", "There is no {X}.", "{X} is absent.",
              "Neither {X} nor anything else.", "It is not {X}.", "{X} has been ruled out.",
              "Without {X}.", "{X}? No."]


@settings(max_examples=300, deadline=None)
@given(texts=_texts, neg=st.sampled_from(_NEGATIONS), pick=st.integers(0, 4),
       qtype=st.sampled_from(["single", "multi"]))
def test_a_negated_option_is_never_chosen(texts, neg, pick, qtype):
    options = _options(texts)
    letter = "ABCDE"[pick % len(texts)]
    parsed = make_parser("strict").parse(neg.format(X=options[letter]), options, qtype)
    chosen = parsed.choice if isinstance(parsed.choice, list) else [parsed.choice]
    assert letter not in chosen


def _plural(text: str) -> str:
    """The English plural of a text's last word, as a clinician writes it."""
    if text.endswith(("s", "x", "ch", "sh")):
        return text + "es"
    if text.endswith("y"):
        return text[:-1] + "ies"
    if text.endswith("us"):
        return text[:-2] + "i"
    return text + "s"


# British → American and other written forms of the same option text.
_VARIANTS = [lambda t: t.lower(), lambda t: t.upper(), lambda t: t.replace("oe", "e"),
             lambda t: t.replace("ae", "e"), _plural, lambda t: t.replace(" ", "-"),
             lambda t: t.replace("-", " ")]


@settings(max_examples=300, deadline=None)
@given(texts=_texts, pick=st.integers(0, 4), variant=st.sampled_from(_VARIANTS))
def test_spelling_variants_read_as_the_option(texts, pick, variant):
    options = _options(texts)
    letter = "ABCDE"[pick % len(texts)]
    written = variant(options[letter])
    # A variant that is itself another option's text is that option, not this one.
    assume(all(fold(w) for w in written.split()))
    assume(not any(written.lower().replace("-", " ") == t.lower().replace("-", " ")
                   for k, t in options.items() if k != letter))
    # Plurals of texts that end in a number are not words ("Stage 2s").
    assume(not (written.endswith("s") and written[-2:-1].isdigit()))
    parsed = make_parser("strict").parse(f"The finding is {written}.", options, "single")
    overlapping = [k for k, t in options.items() if k != letter and (
        t.lower() in written.lower() or written.lower().split("-")[0] == t.lower())]
    assume(not overlapping)
    assert parsed.choice == letter, (written, parsed)


_WORDS = ["pleural", "effusion", "effusions", "oedema", "edema", "pulmonary", "non", "glaucoma",
          "fatty", "glandular", "HCC", "hcc", "-", " ", ".", ",", "not", "Stage", "2", "3",
          "pleural-effusion", "Non-glaucoma", "haemangioma", "hemangiomas", "melanoma's", "é"]


@settings(max_examples=500, deadline=None)
@given(words=st.lists(st.sampled_from(_WORDS), max_size=12), texts=_texts,
       sep=st.sampled_from([" ", "", "-"]))
def test_fast_phrase_search_equals_its_token_definition(words, texts, sep):
    index = PhraseIndex(tuple(_options(texts).items()))
    text = sep.join(words)
    assert index.find(text, text.lower()) == index.find_by_tokens(text, text.lower())


# One-letter first words (a genus written short, a letter-named option) are passed over where
# their letter stands inside a longer word; the search must still equal its definition.
_SHORT_OPTIONS = (("A", "S. aureus"), ("B", "E. coli"), ("C", "P"), ("D", "2"), ("E", "x"))
_SHORT_WORDS = ["s", "S", "s's", "s'", "ss", "as", "sa", "e", "ae", "oe", "E.", "aes", "coli",
                "aureus", "p", "P's", "2", "12", "x2", "'s", "x", "xs", "the", "case", ".", " ",
                "-", "'", "café", "é"]


@settings(max_examples=500, deadline=None)
@given(words=st.lists(st.sampled_from(_SHORT_WORDS), max_size=14),
       sep=st.sampled_from([" ", "", ". ", "-", "'"]))
def test_one_letter_words_are_found_as_their_token_definition(words, sep):
    index = PhraseIndex(_SHORT_OPTIONS)
    text = sep.join(words)
    assert index.find(text, text.lower()) == index.find_by_tokens(text, text.lower())


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=80), qtype=st.sampled_from(["single", "yesno", "multi"]))
def test_every_abstention_says_why(text, qtype):
    options = {"A": "Yes", "B": "No"} if qtype == "yesno" else _options(_POOL[:4])
    parsed = make_parser("strict").parse(text, options, qtype)
    assert parsed.invalid == (parsed.reason is not None)
    assert parsed.reason is None or parsed.reason in REASONS
    assert WANTS_READING <= set(REASONS)


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("<>/thinkgrsoa \u25c1\u25b7AB\n")),
                    max_size=60))
def test_setting_reasoning_aside_only_removes_text(text):
    reasoned = set_aside_reasoning(text)
    assert len(reasoned.text) <= len(text)
    if not reasoned.trace:
        assert reasoned.text == text


def test_an_answer_changed_after_it_was_given_is_not_committed():
    # Both answers are located; which one the model stands by is a guess, so the strict reader
    # abstains rather than credit either (a false credit costs more than a miss).
    segments = final_segments("Final answer: A.\nOn reflection, final answer: C.")
    assert [s.text for s in segments] == ["Answer: A.", "Answer: C."]
    options = _options(_POOL[:4])
    parsed = make_parser("strict").parse("Final answer: A.\nOn reflection, final answer: C.",
                                         options, "single")
    assert (parsed.choice, parsed.reason) == (None, "not_committed")


def test_mammovqa_and_pathmmu_set_only_the_trace_aside():
    options = {"A": "Left", "B": "Right"}
    for style in ("mammovqa", "pathmmu"):
        plain = make_parser(style).parse("B", options, "single")
        traced = make_parser(style).parse("<think>A, surely A</think>B", options, "single")
        assert plain == traced
    # No answer marker is located for them: their golden decisions stay as published.
    assert make_parser("mammovqa").parse("Answer: B", options, "single").choice == "A"


def test_open_answers_lose_their_prefix_and_trace():
    parser = make_parser("open")
    assert parser.parse("The answer is Free air.", {}, "open").choice == "free air"
    assert parser.parse("<think>air?</think>Final answer: free air", {}, "open").choice == \
        "free air"
    assert parser.parse("<think>maybe free air", {}, "open").reason == "not_committed"


_PLAIN = ["the", "image", "shows", "a", "with", "in", "field", "12", "and", "is", "most",
          "consistent", "likely", "evidence", "of", "dense", "pleural effusion", "pneumothorax",
          "pulmonary edema", "pleural-effusion", "HCC", "hcc", "haemangioma", ",", ".", ";",
          "squamous cell carcinoma", "adenocarcinoma", "benign", "be", "correct", "so",
          "effusions", "normal", "non-normal", "oedema's"]
_CUES = ["not", "no", "would", "if", "maybe", "B", "A", "I", "answer", "option", "it", "-",
         "although", "doubt", "say", "therefore", "excluded", "ruled", "out", "cannot", "both",
         "it's", "(C)", "D:", "?", "\n", "\u00e9", "possible"]
# Mostly plain words, so that the fast path is taken often; a cue word now and then.
_SENTENCE_WORDS = _PLAIN * 6 + _CUES
