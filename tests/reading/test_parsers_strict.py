"""Properties of the ``strict`` parser (hypothesis); the hand-written cases are in
``test_parsers_strict_table.py``."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from medvqa.reading import STYLES, is_correct, make_parser

LR = {"A": "Left", "B": "Right"}
YN = {"A": "Yes", "B": "No"}
LUNG = {"A": "benign lung tissue", "B": "adenocarcinoma", "C": "squamous cell carcinoma"}
_POOL = ["Left", "Right", "Anterior", "Posterior", "Mass", "Normal", "Pleural effusion",
         "Fatty", "Fatty-glandular", "Dense-glandular", "Benign", "Malignant", "Stage 2",
         "Glaucoma", "Non-glaucoma", "Skin thickening", "Skin retraction"]
_texts = st.lists(st.sampled_from(_POOL), min_size=2, max_size=5, unique=True)
# Forms the parser accepts for one option (letter L, text T).
_ACCEPTED = ["{L}", "({L})", "{L}.", "**{L}**", "[{L}]", "Answer: {L}", "The answer is {L}.",
             "The correct answer is: {L}", "{T}", "{T}.", "**{T}**", "{L}: {T}", "{L}. {T}",
             "It is {T}.", "The image shows {T}.", "Option {L}"]
_REFUSALS = ["I cannot determine this from the image.", "I'm sorry, I can't see the image.",
             "No image was provided.", "I don't know.", "There is no image to analyze.",
             "Unable to assess from the information given.", "No idea.", "No way to tell.",
             "As an AI, I cannot interpret medical images.", "Insufficient information."]
_JOIN = [" ", "\n", " However, ", "; "]


def _options(texts: list[str]) -> dict[str, str]:
    return dict(zip("ABCDE", texts, strict=False))


@settings(max_examples=300, deadline=None)
@given(texts=_texts, form=st.sampled_from(_ACCEPTED), pick=st.integers(0, 4),
       refusal=st.sampled_from(_REFUSALS), join=st.sampled_from(_JOIN),
       qtype=st.sampled_from(["single", "multi", "grade"]))
def test_a_refusal_before_an_accepted_answer_makes_it_invalid(texts, form, pick, refusal, join,
                                                              qtype):
    options = _options(texts)
    letter = "ABCDE"[pick % len(texts)]
    answer = form.format(L=letter, T=options[letter])
    parser = make_parser("strict")
    assert not parser.parse(answer, options, qtype).invalid  # accepted on its own
    assert parser.parse(refusal + join + answer, options, qtype).invalid


@settings(max_examples=100, deadline=None)
@given(refusal=st.sampled_from(_REFUSALS), answer=st.sampled_from(
    ["Yes", "No", "Yes.", "No, there is no mass.", "Answer: No", "A", "**No**"]),
    join=st.sampled_from(_JOIN))
def test_a_refusal_before_a_yes_no_answer_makes_it_invalid(refusal, answer, join):
    parser = make_parser("strict")
    assert not parser.parse(answer, YN, "yesno").invalid
    assert parser.parse(refusal + join + answer, YN, "yesno").invalid


_NEGATIONS = ["not {X}", "Not {X}.", "It is not {X}.", "no {X}", "without {X}", "{X} is ruled out.",
              "{X} can be excluded.", "{X} is unlikely.", "{X} is incorrect.", "rather than {X}",
              "The answer is not {X}."]


@settings(max_examples=400, deadline=None)
@given(texts=_texts, form=st.sampled_from(_ACCEPTED), pick=st.integers(0, 4),
       neg=st.sampled_from(_NEGATIONS), qtype=st.sampled_from(["single", "multi"]))
def test_not_x_never_selects_x(texts, form, pick, neg, qtype):
    options = _options(texts)
    letter = "ABCDE"[pick % len(texts)]
    x = form.format(L=letter, T=options[letter])
    parsed = make_parser("strict").parse(neg.format(X=x), options, qtype)
    chosen = parsed.choice if isinstance(parsed.choice, list) else [parsed.choice]
    assert letter not in chosen


@settings(max_examples=300, deadline=None)
@given(texts=_texts, a=st.integers(0, 4), b=st.integers(0, 4),
       form=st.sampled_from(["{A} or {B}", "{B} or {A}", "{A} and {B}", "{A}, {B}", "{A}; {B}",
                             "{A}/{B}", "The answer is {A} or {B}.", "{A}. Actually {B}."]),
       by_letter=st.booleans())
def test_two_different_options_are_invalid_for_single_choice(texts, a, b, form, by_letter):
    options = _options(texts)
    la, lb = "ABCDE"[a % len(texts)], "ABCDE"[b % len(texts)]
    assume(la != lb)
    name = (lambda k: f"({k})") if by_letter else options.__getitem__
    response = form.format(A=name(la), B=name(lb))
    assert make_parser("strict").parse(response, options, "single").invalid


# Permuting the options and relabelling the response never changes correctness.
_forms = st.sampled_from([*_ACCEPTED, "{L} or {O}", "I'm not sure", "{T} and {OT}",
                          "not {T}", "{T} is ruled out, {OT} is seen."])


@settings(max_examples=300, deadline=None)
@given(texts=_texts, form=_forms, pick=st.integers(0, 9), other=st.integers(0, 9),
       gold=st.integers(0, 9), perm=st.permutations(range(5)))
def test_strict_correctness_is_invariant_to_option_order(texts, form, pick, other, gold, perm):
    k = len(texts)
    letters = "ABCDE"[:k]
    order = [i for i in perm if i < k]
    first = dict(zip(letters, texts, strict=True))
    second = dict(zip(letters, [texts[i] for i in order], strict=True))
    pick, other, gold = pick % k, other % k, gold % k

    def render(options: dict[str, str]) -> tuple[str, str]:
        letter_of = {v: key for key, v in options.items()}
        resp = form.format(L=letter_of[texts[pick]], T=texts[pick], O=letter_of[texts[other]],
                           OT=texts[other])
        return resp, letter_of[texts[gold]]

    results = []
    for options in (first, second):
        response, answer = render(options)
        parsed = make_parser("strict").parse(response, options, "single")
        results.append((is_correct(parsed.choice, answer, "single"), parsed.invalid))
    assert results[0] == results[1]


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=60), qtype=st.sampled_from(["single", "yesno", "multi"]))
def test_strict_never_returns_a_non_option(text, qtype):
    options = YN if qtype == "yesno" else LUNG
    parsed = make_parser("strict").parse(text, options, qtype)
    assert (parsed.choice is None) == parsed.invalid
    got = parsed.choice if isinstance(parsed.choice, list) else [parsed.choice]
    assert parsed.choice is None or set(got) <= set(options)


def test_strict_non_string_response_is_invalid():
    assert make_parser("strict").parse(None, LR, "single").invalid  # type: ignore[arg-type]


def test_memoised_and_fresh_results_agree():
    from medvqa.reading import clear_caches

    parser = make_parser("strict")
    first = [parser.parse(r, LUNG, "single") for r in ("B", "No adenocarcinoma.", "Answer: C")]
    again = [parser.parse(r, LUNG, "single") for r in ("B", "No adenocarcinoma.", "Answer: C")]
    clear_caches()
    fresh = [parser.parse(r, LUNG, "single") for r in ("B", "No adenocarcinoma.", "Answer: C")]
    assert first == again == fresh
    assert [p.choice for p in fresh] == ["B", None, "C"]


def test_every_style_round_trips_a_plain_letter():
    for style in STYLES.names():
        if style in {"region", "open"}:
            continue
        parser = make_parser(style)
        for qtype, options in (("single", LR), ("yesno", YN), ("multi", LUNG)):
            parsed = parser.parse("B", options, qtype)
            assert parsed.choice in ("B", ["B"]) and not parsed.invalid


def _vocabulary() -> list[str]:
    """Every word of the rule table's phrases, and a few that are in none."""
    from medvqa.reading import RULES
    from medvqa.reading._phrases import phrase_words

    words = {w for r in RULES for p in r.phrases for w in phrase_words(p)}
    return sorted(words) + ["left", "mass", "pneumothorax", "the", "is", ",", "."]


_VOCABULARY = _vocabulary()


@settings(max_examples=400, deadline=None)
@given(words=st.lists(st.sampled_from(_VOCABULARY), max_size=12))
def test_the_gated_search_finds_what_every_phrase_finds(words):
    """A phrase is searched only where its anchor word is: the gate never hides a match."""
    from medvqa.reading import Kind
    from medvqa.reading._book import book, word_tokens

    text = " ".join(words)
    tokens = word_tokens(text)
    bk = book()
    for kind in Kind:
        whole = [p for _, p in bk._by_kind[kind] if p.pattern.search(text)]
        assert (bk.search(kind, text, tokens) is not None) == bool(whole), (kind, text)


_ROLE_DISCLAIMERS = ["I can't give medical advice.", "As an AI, I can't make diagnostic decisions.",
                     "I'm not a doctor, and I can't replace one.",
                     "I can't help with interpreting patient imaging. Please consult a "
                     "qualified radiologist."]
_SIGHT_REFUSALS = ["As an AI, I cannot see the image.", "As an AI, I cannot view images.",
                   "I'm not a doctor and I can't tell from this image."]


@settings(max_examples=200, deadline=None)
@given(texts=_texts, pick=st.integers(0, 4), disclaimer=st.sampled_from(_ROLE_DISCLAIMERS),
       join=st.sampled_from([" ", "\n\n", " However, "]),
       form=st.sampled_from(["Answer: {L}", "The answer is {L}.", "Final answer: **{L}**"]))
def test_a_role_disclaimer_before_an_answer_leaves_it_read(texts, pick, disclaimer, join, form):
    options = _options(texts)
    letter = list(options)[pick % len(options)]
    answer = form.format(L=letter)
    assert make_parser("strict").parse(disclaimer + join + answer, options,
                                       "single").choice == letter


@settings(max_examples=150, deadline=None)
@given(texts=_texts, pick=st.integers(0, 4), refusal=st.sampled_from(_SIGHT_REFUSALS),
       join=st.sampled_from([" ", "\n\n", " However, "]))
def test_a_disclaimer_that_says_what_it_cannot_see_still_refuses(texts, pick, refusal, join):
    options = _options(texts)
    letter = list(options)[pick % len(options)]
    assert make_parser("strict").parse(refusal + join + f"Answer: {letter}", options,
                                       "single").invalid


@settings(max_examples=40, deadline=None)
@given(pick=st.integers(0, 3), dash=st.sampled_from(["\u2013", "-"]),
       form=st.sampled_from(["{T}", "{L} \u2013 {T}", "{L} ({T})", "My answer: {L} \u2013 {T}"]))
def test_an_option_text_holding_values_is_read_whole(pick, dash, form):
    """"L3–L4" names the level, not L3 (of "L2–L3") and L4 (of "L4–L5") as two values."""
    options = {k: f"L{n}{dash}L{n + 1}" for k, n in zip("ABCD", (2, 3, 4, 5), strict=True)}
    letter = "ABCD"[pick]
    text = form.format(L=letter, T=options[letter])
    assert make_parser("strict").parse(text, options, "single").choice == letter
