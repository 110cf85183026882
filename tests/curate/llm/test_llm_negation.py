"""Negation-aware report grounding: golden report sentences and properties of the rule set."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from medvqa.curate.llm import (
    NegationScope,
    answer_supported,
    ground_value,
    load_schema,
    mention_polarities,
    quote_pools,
    report_quotes,
)
from medvqa.curate.llm._extract import check_value
from medvqa.curate.llm._negation import PRE_NEGATION

LIRADS = {f.name: f for f in load_schema("lirads").fields}
LUNGRADS = {f.name: f for f in load_schema("lungrads").fields}
RANO = {f.name: f for f in load_schema("rano").fields}


def _polarity(text: str, phrase: str) -> list[str]:
    return list(mention_polarities(NegationScope(text), [phrase]))


@pytest.mark.parametrize(
    ("sentence", "phrase", "expected"),
    [
        ("No washout.", "washout", ["negated"]),
        ("Arterial phase hyperenhancement without washout.", "washout", ["negated"]),
        (
            "Arterial phase hyperenhancement without washout.",
            "arterial phase hyperenhancement",
            ["affirmed"],
        ),
        ("Washout on the portal venous phase.", "washout", ["affirmed"]),
        ("No evidence of tumor in vein.", "tumor in vein", ["negated"]),
        ("Negative for pleural effusion.", "pleural effusion", ["negated"]),
        ("Smooth margins, not spiculated.", "spiculated", ["negated"]),
        ("No lymphadenopathy, pleural effusion or consolidation.", "consolidation", ["negated"]),
        ("Mild mass effect, no midline shift.", "mass effect", ["affirmed"]),
        ("Mild mass effect, no midline shift.", "midline shift", ["negated"]),
        ("The previously seen pleural effusion has resolved.", "pleural effusion", ["negated"]),
        ("Washout is not seen on delayed images.", "washout", ["negated"]),
        ("Washout cannot be excluded.", "washout", ["uncertain"]),
        ("Possible enhancing capsule.", "capsule", ["uncertain"]),
        ("No change in the enhancing lesion.", "enhancing", ["affirmed"]),
        ("Non-enhancing resection cavity.", "enhancing", ["negated"]),
        ("No hemorrhage. Necrosis is present.", "necrosis", ["affirmed"]),
        ("No capsule but washout is present.", "washout", ["affirmed"]),
        ("No capsule\nWashout on the portal venous phase", "washout", ["affirmed"]),
        ("Washout absent, capsule present.", "capsule", ["affirmed"]),
    ],
)
def test_polarity_of_report_sentences(sentence: str, phrase: str, expected: list[str]) -> None:
    assert _polarity(sentence, phrase) == expected


def test_no_washout_never_grounds_washout_yes() -> None:
    report = "FINDINGS: Cirrhotic liver. No washout. IMPRESSION: LR-3."
    entry = {"value": "yes", "evidence": "No washout"}
    status, value, detail = check_value(LIRADS["washout"], entry, report)
    assert (status, value) == ("quote_polarity_mismatch", "yes")
    assert "negated" in detail


def test_no_washout_grounds_washout_no() -> None:
    report = "FINDINGS: Cirrhotic liver. No washout. IMPRESSION: LR-3."
    entry = {"value": "no", "evidence": "No washout"}
    assert check_value(LIRADS["washout"], entry, report) == ("ok", "no", "No washout")


def test_quote_cut_after_the_cue_is_read_in_the_report() -> None:
    report = "A 14 mm observation shows arterial phase hyperenhancement without washout."
    assert ground_value("washout", report, ["washout"], positive=True)[0] == (
        "quote_polarity_mismatch"
    )


def test_affirmed_term_does_not_ground_no() -> None:
    report = "A 41 mm mass with arterial phase hyperenhancement and washout."
    verdict, pols = ground_value("hyperenhancement and washout", report, ["washout"], False)
    assert (verdict, pols) == ("quote_polarity_mismatch", ["affirmed"])


def test_hedged_mention_grounds_neither_value() -> None:
    report = "Subtle washout cannot be excluded."
    assert ground_value(report, report, ["washout"], True)[0] == "quote_polarity_mismatch"
    assert ground_value(report, report, ["washout"], False)[0] == "quote_polarity_mismatch"


def test_patent_portal_vein_is_not_tumor_in_vein() -> None:
    report = "The portal vein is patent with no tumor in vein."
    entry = {"value": "no", "evidence": report}
    assert check_value(LIRADS["tumor_in_vein"], entry, report)[0] == "ok"
    entry_yes = {"value": "yes", "evidence": report}
    assert check_value(LIRADS["tumor_in_vein"], entry_yes, report)[0] != "ok"


def test_negated_location_does_not_ground_a_multi_value() -> None:
    report = "No nodule in the right upper lobe. A 6 mm solid nodule in the left lower lobe."
    bad = {"value": "right upper lobe", "evidence": "No nodule in the right upper lobe"}
    good = {"value": "left lower lobe", "evidence": "solid nodule in the left lower lobe"}
    assert check_value(LUNGRADS["lobe"], bad, report)[0] == "quote_polarity_mismatch"
    assert check_value(LUNGRADS["lobe"], good, report)[0] == "ok"


def test_rano_no_enhancing_lesion_grounds_no() -> None:
    report = "FINDINGS: Left occipital lobe operative bed. No enhancing lesion. No necrosis."
    entry = {"value": "no", "evidence": "No enhancing lesion"}
    assert check_value(RANO["enhancing_lesion"], entry, report)[0] == "ok"


def test_mcq_answer_must_keep_its_polarity() -> None:
    report = "A 9 mm observation in segment III. No washout. No capsule."
    assert not answer_supported("Washout", "No washout", context=report)
    assert answer_supported("No washout", "No washout", context=report)
    assert not answer_supported("Washout", "washout", context=report)  # cut after the cue


def test_report_quotes_are_clauses_of_the_report() -> None:
    text = "FINDINGS: Cirrhotic liver. A 9 mm observation, no washout.\nIMPRESSION: LR-3."
    assert report_quotes(text) == [
        "Cirrhotic liver",
        "A 9 mm observation",
        "no washout",
        "LR-3",
    ]


_FILLER = st.lists(
    st.sampled_from(["subtle", "mild", "small", "definite", "focal", "nodular", "new"]),
    max_size=3,
)
_TAIL = st.lists(
    st.sampled_from(["on", "the", "portal", "venous", "phase", "in", "segment", "viii"]),
    max_size=5,
)
_TERMS = st.sampled_from(
    ["washout", "enhancing capsule", "arterial phase hyperenhancement", "tumor in vein"]
)
_CUES = st.sampled_from(
    [c for c in PRE_NEGATION if c not in {"neither", "nor", "rather than", "resolution of"}]
    + ["No", "WITHOUT", "Negative for"]
)


@given(filler=_FILLER, term=_TERMS, tail=_TAIL, cue=_CUES)
def test_a_negation_cue_before_a_supporting_span_stops_it_grounding_yes(
    filler: list[str], term: str, tail: list[str], cue: str
) -> None:
    span = " ".join([*filler, term, *tail])
    assert ground_value(span, span + ".", [term], positive=True)[0] == "ok"
    negated = f"{cue} {span}"
    report = f"FINDINGS: Cirrhotic liver. {negated}. IMPRESSION: LR-4."
    assert ground_value(negated, report, [term], positive=True)[0] != "ok"
    assert ground_value(negated, report, [term], positive=False)[0] == "ok"
    # Quoting only the part after the cue does not escape it either.
    assert ground_value(span, report, [term], positive=True)[0] != "ok"


@given(
    words=st.lists(
        st.sampled_from(
            ["no", "washout", "capsule", "without", "not", "seen", ",", ".", "mild", "and"]
        ),
        max_size=12,
    )
)
def test_a_mention_is_never_both_grounding_yes_and_no(words: list[str]) -> None:
    report = " ".join(words)
    yes = ground_value(report, report, ["washout"], positive=True)[0]
    no = ground_value(report, report, ["washout"], positive=False)[0]
    assert not (yes == "ok" and no == "ok")


def test_quote_pools_share_one_pool_per_chunk() -> None:
    texts = ["No washout. LR-3.", "Washout. LR-5.", "No capsule."]
    pools = quote_pools(texts, 2)
    assert pools[0] == pools[1] == ["No washout", "LR-3", "Washout", "LR-5"]
    assert pools[2] == ["No capsule"]


def test_answer_without_content_words_is_never_supported() -> None:
    report = "A 14 mm observation in segment VI shows arterial phase hyperenhancement."
    assert not answer_supported("A", report, context=report)


def test_two_word_answer_needs_both_words() -> None:
    report = "The liver has a nodular contour consistent with cirrhosis."
    assert not answer_supported("Liver failure", report, context=report)
    assert answer_supported("Nodular contour", report, context=report)


def test_hyphenated_compounds_are_one_word() -> None:
    from medvqa.curate.llm._grounding import ground_value

    report = "A 9 mm part-solid nodule in the right upper lobe. A 4 mm solid nodule in the left."
    assert ground_value("A 9 mm part-solid nodule in the right upper lobe", report, ["solid"],
                        positive=True)[0] == "quote_does_not_support"
    assert ground_value("A 4 mm solid nodule in the left", report, ["solid"],
                        positive=True)[0] == "ok"
    assert ground_value("A 9 mm part-solid nodule in the right upper lobe", report,
                        ["part-solid"], positive=True)[0] == "ok"
