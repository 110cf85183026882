"""The strict parser's decision table: hand-written responses and what it must read from each.

Every row was written by hand from the rules in the parser's docstring (rule numbers in the
comments); ``None`` means the response must be *invalid*. The counts per family and outcome are
in :func:`table_counts` (printed by ``python tests/score/test_parsers_strict_table.py``).
"""

from __future__ import annotations

from collections import Counter

import pytest

from medvqa.score.parsers import make_parser

LR = {"A": "Left", "B": "Right"}
YN = {"A": "Yes", "B": "No"}
PE = {"A": "Pleural effusion", "B": "Pneumothorax", "C": "Normal"}
BD = {"A": "Fatty-glandular", "B": "Dense-glandular", "C": "Fatty"}
LUNG = {"A": "adenocarcinoma", "B": "squamous cell carcinoma", "C": "benign lung tissue",
        "D": "large cell carcinoma"}
MH = {"A": "1", "B": "2", "C": "3", "D": "4"}
ST = {"A": "Stage 1", "B": "Stage 2", "C": "Stage 3", "D": "Stage 4"}
GL = {"A": "Glaucoma", "B": "Non-glaucoma"}
CA = {"A": "Cannot be assessed", "B": "Benign", "C": "Malignant"}
MM = {"A": "Mass", "B": "Calcification", "C": "Architectural distortion", "D": "Asymmetry",
      "I": "Miscellaneous"}
SK = {"A": "Skin thickening", "B": "Skin retraction", "C": "Nipple retraction"}
OPTIONS = {"LR": LR, "YN": YN, "PE": PE, "BD": BD, "LUNG": LUNG, "ST": ST, "GL": GL, "CA": CA,
           "MM": MM, "SK": SK, "MH": MH}

# (family, question type, options, response, expected)
TABLE: list[tuple[str, str, str, str, str | list[str] | None]] = [
    # --- letter-only (rule 6) ---
    ("letter-only", "single", "LR", "B", "B"),
    ("letter-only", "single", "LR", "b", "B"),
    ("letter-only", "single", "LR", "(B)", "B"),
    ("letter-only", "single", "LR", "B.", "B"),
    ("letter-only", "single", "LR", "[B]", "B"),
    ("letter-only", "single", "LR", "B)", "B"),
    ("letter-only", "single", "LR", "  B  ", "B"),
    ("letter-only", "single", "LR", "Answer: B", "B"),
    ("letter-only", "single", "LR", "Answer: (B).", "B"),
    ("letter-only", "single", "LR", "The answer is B", "B"),
    ("letter-only", "single", "LR", "The correct answer is: B", "B"),
    ("letter-only", "single", "LR", "Final answer: B", "B"),
    ("letter-only", "single", "LR", "Option B", "B"),
    ("letter-only", "single", "LR", "option b.", "B"),
    ("letter-only", "single", "LR", "Choice B", "B"),
    ("letter-only", "single", "LR", "The best answer is (B).", "B"),
    ("letter-only", "single", "LR", "Z", None),
    ("letter-only", "single", "LR", "The answer is E", None),
    ("letter-only", "single", "LR", "C.", None),
    ("letter-only", "single", "LUNG", "D", "D"),
    ("letter-only", "single", "LUNG", "Answer - C", "C"),
    ("letter-only", "yesno", "YN", "A", "A"),
    ("letter-only", "yesno", "YN", "Answer: B", "B"),
    ("letter-only", "multi", "MM", "I", ["I"]),
    ("letter-only", "multi", "MM", "C", ["C"]),
    # --- markdown (rule 2) ---
    ("markdown", "single", "LR", "**B**", "B"),
    ("markdown", "single", "LR", "**Answer:** B", "B"),
    ("markdown", "single", "LR", "__B__", "B"),
    ("markdown", "single", "LR", "`B`", "B"),
    ("markdown", "single", "LR", "# Answer: B", "B"),
    ("markdown", "single", "LR", "> B", "B"),
    ("markdown", "single", "LR", "**Right**", "B"),
    ("markdown", "single", "PE", "*Pleural effusion* is present.", "A"),
    ("markdown", "yesno", "YN", "**No**", "B"),
    ("markdown", "yesno", "YN", "**Yes**, a mass is seen.", "A"),
    ("markdown", "multi", "MM", "- **A**: Mass\n- **B**: Calcification", ["A", "B"]),
    ("markdown", "multi", "MM", "**Mass**, **Asymmetry**", ["A", "D"]),
    ("markdown", "single", "LUNG", "**B. squamous cell carcinoma**", "B"),
    # --- verbose (rules 3, 6, 9) ---
    ("verbose", "single", "LR", "Right", "B"),
    ("verbose", "single", "LR", " right. ", "B"),
    ("verbose", "single", "LR", "B: Right", "B"),
    ("verbose", "single", "LR", "B. Right", "B"),
    ("verbose", "single", "LR", "B: Left", None),
    ("verbose", "single", "LR", "The lesion is on the right side.", "B"),
    ("verbose", "single", "LUNG", "This tile shows benign lung tissue without atypia.", "C"),
    ("verbose", "single", "LUNG", "The answer is B. The nuclei show marked atypia.", "B"),
    ("verbose", "single", "LUNG", "Based on the glands, this is most consistent with "
     "adenocarcinoma.", "A"),
    ("verbose", "single", "LUNG", "Keratin pearls and intercellular bridges indicate squamous "
     "cell carcinoma.", "B"),
    ("verbose", "single", "LUNG", "The image shows large cell carcinoma.", "D"),
    ("verbose", "single", "LUNG", "Field 9: necrosis in the stroma, which suggests option D.", "D"),
    ("verbose", "single", "LUNG", "I think the answer is C.", "C"),
    ("verbose", "single", "LUNG", "I cannot say for sure, but the answer is B.", "B"),
    ("verbose", "single", "LUNG", "I'm not sure, but the answer is B.", "B"),
    ("verbose", "single", "MH", "Stage: 3; Explanation: a full-thickness defect, unlike "
     "stage 2.", "C"),
    ("verbose", "single", "MH", "3", "C"),
    ("verbose", "single", "ST", "Stage 3; Explanation: the hole is larger than in stage 2.", "C"),
    ("verbose", "single", "ST", "This macular hole is stage 4.", "D"),
    ("verbose", "single", "GL", "GLAUCOMA; Explanation: the cup-to-disc ratio is large.", "A"),
    ("verbose", "single", "GL", "Non-glaucoma; Explanation: the rim is healthy.", "B"),
    ("verbose", "single", "GL", "The optic disc looks healthy: non-glaucoma.", "B"),
    ("verbose", "single", "PE", "There is a pleural effusion, not a pneumothorax.", "A"),
    ("verbose", "single", "PE", "A large pleural effusion is seen at the left base.", "A"),
    ("verbose", "single", "PE", "A mass is seen; the lungs are otherwise normal.", "C"),
    ("verbose", "single", "CA", "Cannot be assessed", "A"),
    ("verbose", "single", "CA", "The answer is C: malignant.", "C"),
    ("verbose", "multi", "MM", "The answers are A and C.", ["A", "C"]),
    ("verbose", "multi", "MM", "I see a mass and an asymmetry.", ["A", "D"]),
    ("verbose", "multi", "SK", "Skin thickening", ["A"]),
    # --- yes/no (rule 7) ---
    ("yes-no", "yesno", "YN", "Yes", "A"),
    ("yes-no", "yesno", "YN", "yes.", "A"),
    ("yes-no", "yesno", "YN", "Yes, there is evidence of cancer.", "A"),
    ("yes-no", "yesno", "YN", "True", "A"),
    ("yes-no", "yesno", "YN", "No", "B"),
    ("yes-no", "yesno", "YN", "No.", "B"),
    ("yes-no", "yesno", "YN", "No, the image is normal.", "B"),
    ("yes-no", "yesno", "YN", "false", "B"),
    ("yes-no", "yesno", "YN", "The answer is no.", "B"),
    ("yes-no", "yesno", "YN", "Answer: Yes", "A"),
    ("yes-no", "yesno", "YN", "Yes - the nodule is spiculated.", "A"),
    ("yes-no", "yesno", "YN", "No evidence of cancer.", None),
    # rule 15: a specific absent finding answers No, even without the question
    ("yes-no", "yesno", "YN", "There is no mass.", "B"),
    ("yes-no", "yesno", "YN", "There is a mass.", None),
    ("yes-no", "yesno", "YN", "Yes or No", None),
    ("yes-no", "yesno", "YN", "Yes/No", None),
    ("yes-no", "yesno", "YN", "Yes, or no.", None),
    ("yes-no", "yesno", "YN", "Yes, there is no doubt.", "A"),
    ("yes-no", "yesno", "YN", "Not yes.", None),
    ("yes-no", "yesno", "YN", "Nope", None),
    # --- refusal (rule 4), every question type ---
    ("refusal", "yesno", "YN", "No image was provided.", None),
    ("refusal", "yesno", "YN", "There is no image to analyze.", None),
    ("refusal", "yesno", "YN", "No idea.", None),
    ("refusal", "yesno", "YN", "No way to tell.", None),
    ("refusal", "yesno", "YN", "No, I'm unable to determine that from the text.", None),
    ("refusal", "yesno", "YN", "Yes or no: cannot determine", None),
    ("refusal", "yesno", "YN", "I cannot determine this.", None),
    ("refusal", "yesno", "YN", "Yes. I am sorry, I cannot see the image.", None),
    ("refusal", "yesno", "YN", "I don't know.", None),
    ("refusal", "yesno", "YN", "No, the image was not provided.", None),
    ("refusal", "single", "LR", "I'm sorry, I cannot determine that.", None),
    ("refusal", "single", "LR", "I don\u2019t know.", None),
    ("refusal", "single", "LR", "As an AI, I cannot view images. B", None),
    ("refusal", "single", "LR", "Unable to determine from the image provided.", None),
    ("refusal", "single", "LR", "Insufficient information to choose.", None),
    ("refusal", "single", "LR", "Without the image, I would guess B.", None),
    ("refusal", "single", "LUNG", "I cannot determine this from the image. The answer is B.", None),
    ("refusal", "single", "LUNG", "It is not possible to tell adenocarcinoma from this.", None),
    ("refusal", "single", "PE", "No image is attached, so I cannot say.", None),
    ("refusal", "single", "ST", "Stage: unknown; Explanation: no image.", None),
    ("refusal", "multi", "MM", "I don't know.", None),
    ("refusal", "multi", "MM", "I cannot tell", None),
    ("refusal", "multi", "MM", "No image was provided, so I cannot list findings.", None),
    ("refusal", "multi", "MM", "Mass. However, I am unable to confirm this.", None),
    ("refusal", "multi", "SK", "N/A", None),
    # --- negation (rule 8) ---
    ("negation", "single", "PE", "Pleural effusion is ruled out.", None),
    ("negation", "single", "PE", "Pleural effusion is unlikely.", None),
    ("negation", "single", "PE", "Pleural effusion can be excluded.", None),
    ("negation", "single", "PE", "no pleural effusion", None),
    ("negation", "single", "PE", "Without pleural effusion.", None),
    ("negation", "single", "PE", "Not pleural effusion.", None),
    ("negation", "single", "PE", "There is no evidence of pneumothorax.", None),
    ("negation", "single", "PE", "Pneumothorax is not present.", None),
    ("negation", "single", "PE", "It isn't a pneumothorax.", None),
    ("negation", "single", "PE", "Pleural effusion rather than pneumothorax.", "A"),
    ("negation", "single", "PE", "No pneumothorax, but a pleural effusion.", "A"),
    ("negation", "single", "PE", "Not a pneumothorax; it is a pleural effusion.", "A"),
    ("negation", "single", "PE", "Pneumothorax is excluded, pleural effusion is seen.", "A"),
    ("negation", "single", "PE", "Option B is wrong; the answer is C.", "C"),
    ("negation", "single", "PE", "Choice B is incorrect", None),
    ("negation", "single", "PE", "The answer is not B.", None),
    ("negation", "single", "PE", "The answer is not B, it is (C).", "C"),
    ("negation", "single", "PE", "The answer is not B, it is C.", None),  # C: no letter position
    ("negation", "single", "PE", "Pleural effusion, but pleural effusion is unlikely.", None),
    ("negation", "single", "LR", "Not left.", None),
    ("negation", "single", "LR", "Left is incorrect.", None),
    ("negation", "single", "LR", "Left is incorrect; right.", "B"),
    ("negation", "single", "GL", "Not glaucoma.", None),
    ("negation", "single", "ST", "It is not stage 3, it is stage 4.", "D"),
    ("negation", "single", "LUNG", "This is unlikely to be adenocarcinoma.", None),
    ("negation", "single", "LUNG", "Squamous cell carcinoma, not adenocarcinoma.", "B"),
    ("negation", "single", "LUNG", "Adenocarcinoma has been ruled out.", None),
    ("negation", "multi", "MM", "Mass, without calcification.", ["A"]),
    ("negation", "multi", "MM", "No mass; asymmetry.", ["D"]),
    ("negation", "multi", "MM", "Calcification is absent.", None),
    ("negation", "multi", "SK", "Not skin thickening.", None),
    # --- hedge (rule 5) ---
    ("hedge", "single", "PE", "The answer is (B) or (C)", None),
    ("hedge", "single", "PE", "The answer is B... or maybe C.", None),
    ("hedge", "single", "PE", "Maybe pneumothorax.", None),
    ("hedge", "single", "PE", "Perhaps B.", None),
    ("hedge", "single", "PE", "It could be a pleural effusion.", None),
    ("hedge", "single", "PE", "Possibly normal.", None),
    ("hedge", "single", "PE", "I'm not sure. Pneumothorax?", None),
    ("hedge", "single", "PE", "Hard to say, pleural effusion.", None),
    ("hedge", "single", "LR", "Either left or right.", None),
    ("hedge", "single", "LR", "It might be right.", None),
    ("hedge", "yesno", "YN", "Yes, possibly.", None),
    ("hedge", "yesno", "YN", "Maybe yes.", None),
    ("hedge", "multi", "MM", "Mass, maybe calcification.", None),
    ("hedge", "multi", "MM", "A or B", None),
    ("hedge", "multi", "MM", "Mass or calcification", None),
    # --- two options (rule 9) ---
    ("two options", "single", "LR", "Left or Right", None),
    ("two options", "single", "LR", "Left or right, hard to say", None),
    ("two options", "single", "LR", "A and B", None),
    ("two options", "single", "LR", "A, B", None),
    ("two options", "single", "LR", "Left and right.", None),
    ("two options", "single", "LUNG", "Adenocarcinoma or squamous cell carcinoma.", None),
    ("two options", "single", "LUNG", "B. Adenocarcinoma", None),
    ("two options", "single", "LUNG", "(A) adenocarcinoma (B) squamous cell carcinoma", None),
    ("two options", "single", "PE", "Pleural effusion and pneumothorax.", None),
    ("two options", "single", "PE", "C. Pneumothorax", None),
    ("two options", "single", "ST", "Stage 2 or stage 3.", None),
    ("two options", "single", "ST", "Stage 2-3", None),
    ("two options", "single", "CA", "Benign; malignant", None),
    # --- overlapping option texts (rule 6) ---
    ("overlap", "single", "BD", "Fatty-glandular or Fatty", None),
    ("overlap", "single", "BD", "Fatty or Fatty-glandular", None),
    ("overlap", "single", "BD", "Fatty-glandular", "A"),
    ("overlap", "single", "BD", "Fatty", "C"),
    ("overlap", "single", "BD", "The breast is dense-glandular.", "B"),
    ("overlap", "single", "BD", "Fatty-glandular, not fatty.", "A"),
    ("overlap", "single", "BD", "Fatty-glandular and dense-glandular", None),
    ("overlap", "single", "GL", "Non-glaucoma", "B"),
    ("overlap", "single", "GL", "Glaucoma", "A"),
    ("overlap", "single", "GL", "Glaucoma or non-glaucoma", None),
    ("overlap", "single", "LUNG", "large cell carcinoma", "D"),
    ("overlap", "multi", "SK", "Skin thickening and nipple retraction", ["A", "C"]),
    ("overlap", "multi", "SK", "Skin retraction", ["B"]),
    ("overlap", "multi", "MM", "Architectural distortion", ["C"]),
    # --- separators (rule 10) ---
    ("separators", "multi", "MM", "A, C", ["A", "C"]),
    ("separators", "multi", "MM", "A and C", ["A", "C"]),
    ("separators", "multi", "MM", "A; C", ["A", "C"]),
    ("separators", "multi", "MM", "A/C", ["A", "C"]),
    ("separators", "multi", "MM", "A & C", ["A", "C"]),
    ("separators", "multi", "MM", "(A) (C)", ["A", "C"]),
    ("separators", "multi", "MM", "A\nC", ["A", "C"]),
    ("separators", "multi", "MM", "Answer: B; I", ["B", "I"]),
    ("separators", "multi", "MM", "Mass; Miscellaneous", ["A", "I"]),
    ("separators", "multi", "MM", "Mass/Calcification", ["A", "B"]),
    ("separators", "multi", "MM", "Mass\nCalcification", ["A", "B"]),
    ("separators", "multi", "MM", "Mass, Calcification, Asymmetry", ["A", "B", "D"]),
    ("separators", "multi", "MM", "B: Calcification", ["B"]),
    ("separators", "multi", "MM", "A: Mass\nD: Asymmetry", ["A", "D"]),
    ("separators", "multi", "MM", "A, Z", None),
    ("separators", "multi", "MM", "some words", None),
    ("separators", "multi", "MM", "", None),
    ("separators", "multi", "MM", "   ", None),
    ("separators", "single", "LR", "B; Right", "B"),
    ("separators", "single", "LR", "", None),
]


def table_counts() -> dict[str, Counter[str]]:
    """Rows per family, split into 'read' (an option expected) and 'invalid'."""
    out: dict[str, Counter[str]] = {}
    for family, *_, expected in TABLE:
        out.setdefault(family, Counter())["invalid" if expected is None else "read"] += 1
    return out


def test_the_table_is_large_and_covers_every_family():
    counts = table_counts()
    assert sum(sum(c.values()) for c in counts.values()) >= 150
    assert set(counts) >= {"negation", "hedge", "refusal", "two options", "overlap", "markdown",
                           "separators", "letter-only", "verbose", "yes-no"}
    qtypes = Counter(q for _, q, *_ in TABLE)
    assert qtypes["single"] >= 50 and qtypes["yesno"] >= 25 and qtypes["multi"] >= 25


@pytest.mark.parametrize(("family", "qtype", "options", "response", "expected"), TABLE,
                         ids=[f"{f}:{r[:40]!r}" for f, _, _, r, _ in TABLE])
def test_decision_table(family, qtype, options, response, expected):
    parsed = make_parser("strict").parse(response, OPTIONS[options], qtype)
    assert parsed.choice == expected
    assert parsed.invalid == (expected is None)


if __name__ == "__main__":
    for fam, c in table_counts().items():
        print(f"{fam:12s} read {c['read']:3d} invalid {c['invalid']:3d}")
