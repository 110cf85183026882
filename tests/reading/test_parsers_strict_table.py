"""The strict parser's decision table: hand-written responses and what it must read from each.

Every row was written by hand from the rules in the parser's docstring (rule numbers in the
comments); ``None`` means the response must be *invalid*. The counts per family and outcome are
in :func:`table_counts` (printed by ``python tests/score/test_parsers_strict_table.py``).
"""

from __future__ import annotations

from collections import Counter

import pytest

from medvqa.reading import make_parser

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
CXR = {"A": "Pleural effusion", "B": "Pneumothorax", "C": "Pulmonary oedema", "D": "Normal"}
LIVER = {"A": "Hepatocellular carcinoma", "B": "Haemangioma", "C": "Focal nodular hyperplasia",
         "D": "Metastasis"}
ORG = {"A": "Klebsiella pneumoniae", "B": "Staphylococcus aureus", "C": "Pseudomonas aeruginosa",
       "D": "Candida albicans", "E": "Mycobacterium tuberculosis"}
EMB = {"A": "Pulmonary embolism", "B": "Pleural effusion", "C": "Pneumonia"}
ICH = {"A": "Subdural haematoma", "B": "Epidural haematoma", "C": "Subarachnoid haemorrhage"}
OCT = {"A": "Choroidal neovascularisation", "B": "Diabetic macular oedema", "C": "Drusen",
       "D": "Normal"}
DERM = {"A": "Melanoma", "B": "Basal cell carcinoma", "C": "Seborrhoeic keratosis",
        "D": "Atopic dermatitis"}
BRAIN = {"A": "Glioblastoma (GBM)", "B": "Meningioma", "C": "Crohn's disease"}
ZH = {"A": "是", "B": "否"}
OPTIONS = {"LR": LR, "YN": YN, "PE": PE, "BD": BD, "LUNG": LUNG, "ST": ST, "GL": GL, "CA": CA,
           "MM": MM, "SK": SK, "MH": MH, "CXR": CXR, "LIVER": LIVER, "ORG": ORG, "EMB": EMB,
           "ICH": ICH, "OCT": OCT, "DERM": DERM, "BRAIN": BRAIN, "ZH": ZH}
PTX_Q = "Is there a pneumothorax?"

# (family, question type, options, response, expected[, question])
Row = tuple[str, str, str, str, "str | list[str] | None"] | tuple[
    str, str, str, str, "str | list[str] | None", str]
TABLE: list[Row] = [
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
    # "nope" is a no word of the table (rule 14) since 2026-11-28, as "yep" was a yes word
    ("yes-no", "yesno", "YN", "Nope", "B"),
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
    ("refusal", "single", "PE", "I/we can't tell from this image: pneumothorax?", None),
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
    # rule 9: "it is C" is now a letter position, so the answer after the negated B is read
    ("negation", "single", "PE", "The answer is not B, it is C.", "C"),
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
    # a negation beside a quote or a slash is a word as any other ("'no …'", "not/never")
    ("negation", "single", "PE", "'Not pleural effusion'.", None),
    ("negation", "single", "PE", "There is 'no pleural effusion' here; pneumothorax.", "B"),
    ("negation", "single", "PE", "Not/never a pneumothorax.", None),
    ("negation", "single", "LUNG", "Squamous cell carcinoma ('not adenocarcinoma').", "B"),
    ("negation", "single", "PE", "Pleural effusion is 'excluded'.", None),
    ("negation", "single", "PE", 'Pneumothorax has been "ruled out".', None),
    # a status after the option as a label (rule 16)
    ("negation", "single", "PE", "Pleural effusion: excluded.", None),
    ("negation", "single", "PE", "Pleural effusion (ruled out).", None),
    ("negation", "single", "PE", "Pleural effusion \u2014 unlikely.", None),
    ("negation", "single", "PE", "Differential:\n- Pleural effusion - excluded\n- Normal - excluded"
                                 "\n- Pneumothorax - confirmed", "B"),
    ("negation", "single", "PE", "A: excluded. B: ruled out. Answer: C.", "C"),
    ("negation", "single", "PE", "Pneumothorax (not pleural effusion).", "B"),
    ("negation", "single", "PE", "Pleural effusion: not pneumothorax.", "A"),
    ("negation", "single", "PE", "Pneumothorax - the lung markings are absent beyond the line.",
     "B"),
    ("negation", "single", "PE", "Pneumothorax: none seen.", None),
    ("negation", "single", "PE", "Pneumothorax - no.", None),
    ("negation", "single", "PE", "Pneumothorax: not present.", None),
    ("negation", "single", "PE", "Pneumothorax [excluded]", None),
    ("negation", "single", "PE", "Pneumothorax -> excluded", None),
    ("negation", "single", "PE", "Pneumothorax, unlikely.", None),
    ("negation", "single", "PE", "Pneumothorax \u2717", None),
    ("negation", "single", "PE", "Pneumothorax: no pleural effusion seen.", "B"),
    ("negation", "single", "PE", "Pneumothorax - no doubt.", "B"),
    ("negation", "single", "PE", "It is pneumothorax, no question.", "B"),
    # negated verbs and adverbs after the option (rule 16)
    ("negation", "single", "PE", "Pneumothorax is highly unlikely.", None),
    ("negation", "single", "PE", "Pneumothorax is very much absent.", None),
    ("negation", "single", "PE", "Pneumothorax doesn't fit.", None),
    ("negation", "single", "PE", "Pneumothorax does not fit the picture.", None),
    ("negation", "single", "PE", "Pneumothorax can't be it.", None),
    ("negation", "single", "PE", "Pneumothorax does fit.", "B"),
    ("negation", "single", "PE", "Pneumothorax is most likely.", "B"),
    ("negation", "single", "PE", "The answer is pneumothorax, no?", "B"),
    ("negation", "single", "PE", "Pneumothorax cannot be excluded. Final answer: pneumothorax.",
     "B"),
    # negations found by a second hostile probe (2026-11-28, rule 16): a verb or adjective
    # that rejects ("inconsistent with", "fails to show", "mimicking"), a status after a table
    # cell or "=", "which is absent", an infinitive after "no evidence", marks and empty boxes
    ("negation", "single", "PE", "Hardly pneumothorax.", None),
    ("negation", "single", "PE", "Pneumothorax was considered and rejected.", None),
    ("negation", "single", "PE", "Pneumothorax is excludable.", None),
    ("negation", "single", "PE", "No evidence to suggest pneumothorax.", None),
    ("negation", "single", "PE", "There is no evidence to indicate pleural effusion; "
     "pneumothorax.", "B"),
    ("negation", "single", "PE", "Pneumothorax - neg.", None),
    ("negation", "single", "PE", "The image fails to demonstrate a pneumothorax.", None),
    ("negation", "single", "PE", "Inconsistent with pneumothorax.", None),
    ("negation", "single", "PE", "Pneumothorax is inconsistent with these findings.", None),
    ("negation", "single", "PE", "Anything but pneumothorax.", None),
    ("negation", "single", "PE", "Pneumothorax: no evidence.", None),
    ("negation", "single", "PE", "Pneumothorax, which is absent.", None),
    ("negation", "single", "PE", "Pneumothorax, which is large.", "B"),
    ("negation", "single", "PE", "Negative study for pneumothorax.", None),
    ("negation", "single", "PE", "Pneumothorax | No", None),
    ("negation", "single", "PE", "| Pneumothorax | absent |", None),
    ("negation", "single", "PE", "Pneumothorax = no", None),
    ("negation", "single", "PE", "Pneumothorax is the wrong answer.", None),
    ("negation", "single", "PE", "Skin fold mimicking pneumothorax.", None),
    ("negation", "single", "PE", "\u274c Pneumothorax", None),
    ("negation", "single", "PE", "[ ] Pneumothorax", None),
    ("negation", "single", "PE", "\u274c Pleural effusion\n\u2705 Pneumothorax", "B"),
    ("negation", "single", "PE", "\u2610 Skin fold\nFinal answer: pneumothorax", "B"),
    ("negation", "single", "PE", "Pneumothorax is more likely than pleural effusion.", "B"),
    ("negation", "single", "PE", "Pneumothorax and not pleural effusion.", "B"),
    # a negation before a list reaches every item; "no longer", "resolved"; "X and Y are
    # excluded"; "vs." ends no clause (rules 16, 17; a third probe, 2026-11-28)
    ("negation", "single", "MM", "No suspicious mass, calcification, or distortion is "
     "identified.", None),
    ("negation", "single", "MM", "No mass, the finding is calcification, and it is benign.", "B"),
    ("negation", "single", "MM", "Mass has resolved.", None),
    ("negation", "single", "MM", "Calcification (B). Mass and asymmetry are excluded.", "B"),
    ("negation", "single", "MM", "Probably benign asymmetry vs. mass; recommend spot "
     "compression.", None),
    ("negation", "single", "MM", "B is the least likely.", None),
    ("negation", "single", "MM", "The least likely option is B.", None),
    ("negation", "single", "MM", "B is a distractor.", None),
    ("negation", "single", "MM", "B is a red herring.", None),
    ("negation", "single", "MM", "Calcification: 0", None),
    ("negation", "single", "MM", "Calcification (-)", None),
    ("negation", "single", "MM", "Calcification: 0.5 mm specks, clustered.", "B"),
    ("negation", "single", "MM", "Calcification (+)", "B"),
    ("negation", "single", "MM", "By elimination: B.", "B"),
    ("discussed", "single", "MM", "B would be my last choice.", None),
    ("structured", "single", "MM", '{"answer": "B", "confidence": "low"}', None),
    ("structured", "single", "MM", '{"answer": "B", "confidence": "high"}', "B"),
    ("letter positions", "single", "MM", "B, not A.", "B"),
    ("letter positions", "single", "MM", "B rather than A.", "B"),
    ("letter positions", "single", "MM", "I, not you, think B is correct.", "B"),
    ("letter positions", "single", "MM", "B. Wait, no \u2014 A.", None),
    ("letter positions", "single", "MM", "The specks are clustered and fine. B.", "B"),
    # a status after a yes/no word confirms it
    ("negation", "yesno", "YN", "No, absent.", "B", PTX_Q),
    ("negation", "yesno", "YN", "No - not present.", "B", PTX_Q),
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
    ("hedge", "single", "PE", "'Maybe' a pneumothorax.", None),
    ("hedge", "single", "PE", "It could/might be a pneumothorax.", None),
    # hedges found by the second hostile probe (rule 8): radiology's query words, a
    # differential, a guess, the reader's own low confidence or a view it says it needs
    ("hedge", "single", "PE", "r/o pneumothorax", None),
    ("hedge", "single", "PE", "?Pneumothorax", None),
    ("hedge", "single", "PE", "Query pneumothorax.", None),
    ("hedge", "single", "PE", "Questionable pneumothorax.", None),
    ("hedge", "single", "PE", "Pneumothorax should be considered.", None),
    ("hedge", "single", "PE", "Consider pneumothorax.", None),
    ("hedge", "single", "PE", "Pneumothorax is a consideration.", None),
    ("hedge", "single", "PE", "Pneumothorax is in the differential.", None),
    ("hedge", "single", "PE", "It may represent pneumothorax.", None),
    ("hedge", "single", "PE", "Pneumothorax (low confidence).", None),
    ("hedge", "single", "PE", "I would need a lateral view to decide between pneumothorax and "
     "effusion.", None),
    ("hedge", "single", "PE", "My best guess: pneumothorax.", None),
    ("hedge", "single", "PE", "If I had to guess, pneumothorax.", None),
    ("hedge", "single", "PE", "Pneumothorax is suggested but not confirmed.", None),
    ("hedge", "single", "PE", "Indeterminate for pneumothorax.", None),
    ("hedge", "single", "PE", "After careful consideration, the answer is pneumothorax.", "B"),
    ("hedge", "single", "PE", "I consider this a pneumothorax.", "B"),
    ("hedge", "single", "PE", "Considering the sharp pleural line, pneumothorax.", "B"),
    ("hedge", "single", "PE", "Pneumothorax, confirmed on the expiratory view.", "B"),
    ("hedge", "single", "PE", "The answer is pneumothorax? Yes, with high confidence.", "B"),
    ("hedge", "single", "MM", "Tentatively, A.", None),
    ("hedge", "single", "MM", "Could well be a mass.", None),
    ("hedge", "single", "LUNG", "Adenocarcinoma, pending TTF-1 staining.", None),
    ("hedge", "single", "LUNG", "Atypical cells, suspicious for adenocarcinoma.", None),
    ("hedge", "single", "GL", "Glaucoma suspect.", None),
    ("hedge", "single", "GL", "Borderline glaucoma.", None),
    ("hedge", "single", "MM", "Suspicious calcifications are present.", "B"),
    ("hedge", "single", "MM", "I suspect a mass.", "A"),
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
    # --- reasoning set aside (rule 2) ---
    ("reasoning", "single", "CXR", "<think>The answer is A.</think> B", "B"),
    ("reasoning", "single", "CXR", "<think>Effusion? No, the pleural line is there.</think>\n\n"
     "Answer: B", "B"),
    ("reasoning", "single", "CXR", "<thinking>Could be A or C</thinking>Pneumothorax.", "B"),
    ("reasoning", "single", "CXR", "<reasoning>A is excluded</reasoning>**D**", "D"),
    ("reasoning", "single", "CXR", "\u25c1think\u25b7maybe A\u25c1/think\u25b7The answer is C.",
     "C"),
    ("reasoning", "single", "CXR", "I first thought A.</think>\nFinal answer: B", "B"),
    ("reasoning", "single", "CXR", "B\n<think>Let me double-check the apex", "B"),
    ("reasoning", "single", "CXR", "<think>The answer is A. Let me check the apex again", None),
    ("reasoning", "single", "CXR", "<think>So the answer is B.</think>", None),
    ("reasoning", "yesno", "YN", "<think>yes? the line is faint</think>No.", "B"),
    ("reasoning", "multi", "MM", "<think>A and B?</think> A, D", ["A", "D"]),
    # --- final answer located (rule 3) ---
    # an answer changed after it was given is not committed to (2026-12: was B, the last one)
    ("final answer", "single", "CXR", "Final answer: A\n\nWait, the visceral pleural line is "
     "visible. Final answer: B", None),
    ("final answer", "single", "CXR", "Effusion and oedema are both possible at first glance. "
     "After comparing the apices, the answer is B.", "B"),
    ("final answer", "single", "CXR", "Pneumothorax is excluded; the answer is A.", "A"),
    ("final answer", "single", "CXR", "I would choose D.", "D"),
    ("final answer", "single", "CXR", "The answer is B because the lung edge is visible, unlike "
     "in a pulmonary oedema.", "B"),
    ("final answer", "single", "CXR", "Final answer: B. But it could also be a pleural effusion.",
     None),
    ("final answer", "single", "CXR", "Final answer: B\nActually, it is a pleural effusion.",
     None),
    ("final answer", "single", "CXR", "Final answer: B. (A) cannot be excluded.", None),
    ("final answer", "single", "CXR", "Pneumothorax is ruled out. The answer is B.", None),
    ("final answer", "single", "CXR", "I cannot see the image. The answer is B.", None),
    ("final answer", "single", "CXR", "I would not say the answer is B.", None),
    ("final answer", "single", "CXR", "The answer is not B.", None),
    ("final answer", "yesno", "YN", "Based on the image, the answer is no.", "B"),
    ("final answer", "yesno", "YN", "Looking at the apex carefully, my answer is yes.", "A"),
    ("final answer", "multi", "MM", "Findings considered: mass, asymmetry.\nFinal answer: A, B",
     ["A", "B"]),
    # --- structured outputs (rule 3) ---
    ("structured", "single", "CXR", "$\\boxed{B}$", "B"),
    ("structured", "single", "CXR", "The answer is \\boxed{\\text{Pulmonary oedema}}.", "C"),
    ("structured", "single", "CXR", "\\boxed{\\textbf{D. Normal}}", "D"),
    ("structured", "single", "CXR", '{"answer": "B"}', "B"),
    ("structured", "single", "CXR", "<think>A or B?</think><answer>B</answer>", "B"),
    ("structured", "single", "CXR", "<answer>\nPulmonary oedema\n</answer>", "C"),
    ("structured", "single", "CXR", '```json\n{"reasoning": "A is unlikely", "final_answer": '
     '"Pneumothorax"}\n```', "B"),
    ("structured", "single", "CXR", '{"answer": "B", "explanation": "the answer is A at first"}',
     "B"),
    ("structured", "single", "CXR", '{"selected_option": "E"}', None),
    ("structured", "single", "CXR", '{"option": "B", "confidence": "high"}', "B"),
    ("structured", "single", "CXR", '[{"option": "A", "present": false}, {"option": "B", '
     '"present": true}]', None),
    ("structured", "yesno", "YN", '{"answer": false}', "B"),
    ("structured", "multi", "MM", '{"answer": ["A", "D"]}', ["A", "D"]),
    # --- marked tables and check-lists (rule 4) ---
    ("marked", "single", "CXR", "| Finding | Present |\n|---|---|\n| Pleural effusion | \u2717 |"
     "\n| Pneumothorax | \u2713 |\n| Pulmonary oedema | \u2717 |", "B"),
    ("marked", "single", "CXR", "- [ ] A. Pleural effusion\n- [x] B. Pneumothorax\n"
     "- [ ] C. Pulmonary oedema\n- [ ] D. Normal", "B"),
    ("marked", "single", "CXR", "- Pleural effusion: absent\n- Pneumothorax: present\n"
     "- Pulmonary oedema: absent", "B"),
    ("marked", "single", "CXR", "\u2611 Pneumothorax\n\u2610 Pleural effusion", "B"),
    ("marked", "single", "CXR", "- [x] Pleural effusion\n- [x] Pneumothorax", None),
    ("marked", "single", "CXR", "- Pneumothorax: present\n- Pleural effusion: possible", None),
    ("marked", "single", "CXR", "| Finding | Absent |\n|---|---|\n| Pleural effusion | \u2713 |\n"
     "| Pneumothorax | \u2717 |", None),
    ("marked", "multi", "MM", "| Finding | Seen |\n|---|---|\n| Mass | Yes |\n"
     "| Calcification | No |\n| Asymmetry | Yes |", ["A", "D"]),
    # --- hedges about one finding (rule 8) ---
    ("hedge", "single", "CXR", "Pneumothorax cannot be excluded.", None),
    ("hedge", "single", "CXR", "Cannot rule out a small pneumothorax.", None),
    ("hedge", "single", "CXR", "A pneumothorax is not excluded.", None),
    ("hedge", "single", "CXR", "Pleural effusion; a pneumothorax can't be ruled out.", None),
    ("hedge", "single", "CXR", "Possible pneumothorax.", None),
    ("hedge", "yesno", "YN", "Yes, although a pneumothorax cannot be excluded.", None),
    ("hedge", "single", "CXR", "The differential includes pneumothorax.", None),
    # --- more letter positions (rule 9) ---
    ("letter positions", "single", "CXR", "B is the correct answer.", "B"),
    ("letter positions", "single", "CXR", "I think C is correct.", "C"),
    ("letter positions", "single", "CXR", "Therefore, B.", "B"),
    ("letter positions", "single", "CXR", "It's C because of the Kerley lines.", "C"),
    ("letter positions", "single", "CXR", "B - Pneumothorax", "B"),
    ("letter positions", "single", "CXR", "Verdict: D", "D"),
    ("letter positions", "single", "CXR", "I would say B.", "B"),
    ("letter positions", "single", "CXR", "A is unlikely; B is correct.", "B"),
    ("letter positions", "single", "CXR", "Options B or C seem plausible.", None),
    ("letter positions", "single", "CXR", "Density: B or C.", None),
    ("letter positions", "multi", "MM", "Both A and D.", ["A", "D"]),
    ("letter positions", "multi", "MM", "Options A and D are present.", ["A", "D"]),
    ("letter positions", "single", "CXR", "It is A mass.", None),
    ("letter positions", "single", "CXR", "Vitamin D.", None),
    # --- letters inside names (rules 9, 10) ---
    ("names", "single", "ORG", "E. coli", None),
    ("names", "single", "ORG", "The answer is E. coli.", None),
    ("names", "single", "ORG", "This is most consistent with E. coli infection.", None),
    ("names", "single", "ORG", "Hepatitis E", None),
    ("names", "single", "ORG", "Group B streptococcus.", None),
    ("names", "single", "ORG", "The answer is vitamin D deficiency.", None),
    ("names", "single", "ORG", "Answer: T cell lymphoma", None),
    # rule 11: a binomial is also named with its genus abbreviated (D is Candida albicans)
    ("names", "single", "ORG", "C. albicans", "D"),
    ("names", "single", "ORG", "C. neoformans", None),
    ("names", "single", "ORG", "E", "E"),
    ("names", "single", "ORG", "The answer is E.", "E"),
    ("names", "single", "LUNG", "The answer is B. squamous cell carcinoma", "B"),
    ("names", "single", "CXR", "T2-weighted images show a pneumothorax.", "B"),
    # --- option texts as written (rule 11) ---
    ("spelling", "single", "CXR", "Pulmonary edema.", "C"),
    ("spelling", "single", "CXR", "Bilateral pleural effusions.", "A"),
    ("spelling", "single", "CXR", "pleural-effusion", "A"),
    ("spelling", "single", "ICH", "Subdural hematoma", "A"),
    ("spelling", "single", "ICH", "Subarachnoid hemorrhages in the sulci.", "C"),
    ("spelling", "single", "OCT", "Choroidal neovascularization.", "A"),
    ("spelling", "single", "OCT", "Diabetic macular edema", "B"),
    ("spelling", "single", "DERM", "Seborrheic keratoses", "C"),
    ("spelling", "single", "BRAIN", "Glioblastoma", "A"),
    ("spelling", "single", "BRAIN", "Crohn disease", "C"),
    ("spelling", "single", "BRAIN", "M\u00e9ningiome", None),
    ("spelling", "single", "BRAIN", "M\u00e9ningioma", "B"),
    ("spelling", "single", "LIVER", "Liver metastases.", "D"),
    ("spelling", "single", "LIVER", "Hemangiomas", "B"),
    # --- abbreviations (rule 12) ---
    ("abbreviation", "single", "LIVER", "HCC", "A"),
    ("abbreviation", "single", "LIVER", "The lesion is an FNH.", "C"),
    ("abbreviation", "single", "LIVER", "hcc", None),
    ("abbreviation", "single", "BRAIN", "GBM", "A"),
    ("abbreviation", "single", "OCT", "DME with subretinal fluid.", "B"),
    ("abbreviation", "single", "OCT", "CNV", "A"),
    ("abbreviation", "single", "DERM", "BCC", "B"),
    ("abbreviation", "single", "DERM", "AD", None),
    ("abbreviation", "single", "EMB", "PE", None),
    ("abbreviation", "single", "CXR", "PTX on the right.", "B"),
    ("abbreviation", "single", "LIVER", "HCC or FNH", None),
    # --- restated option list (rule 13) ---
    ("restated", "single", "CXR", "Options:\nA. Pleural effusion\nB. Pneumothorax\n"
     "C. Pulmonary oedema\nD. Normal\n\nThe visible lung edge makes this a "
     "pneumothorax.", "B"),
    ("restated", "single", "CXR", "A. Pleural effusion\nB. Pneumothorax", None),
    ("restated", "multi", "MM", "A: Mass\nD: Asymmetry", ["A", "D"]),
    # --- yes/no words, synonyms and languages (rule 14) ---
    ("yes-no words", "yesno", "YN", "Positive.", "A"),
    ("yes-no words", "yesno", "YN", "Negative", "B"),
    ("yes-no words", "yesno", "YN", "Present.", "A"),
    ("yes-no words", "yesno", "YN", "Absent.", "B"),
    ("yes-no words", "yesno", "YN", "Affirmative.", "A"),
    ("yes-no words", "yesno", "YN", "Correct.", "A"),
    ("yes-no words", "yesno", "YN", "Not seen.", "B"),
    ("yes-no words", "yesno", "YN", "S\u00ed, hay un neumot\u00f3rax.", "A"),
    ("yes-no words", "yesno", "YN", "N\u00e3o.", "B"),
    ("yes-no words", "yesno", "YN", "Oui.", "A"),
    ("yes-no words", "yesno", "YN", "Nein, kein Pneumothorax.", "B"),
    ("yes-no words", "yesno", "YN", "\u662f\u7684\uff0c\u6709\u6c14\u80f8\u3002", "A"),
    ("yes-no words", "yesno", "YN", "\u7b54\u6848\uff1a\u5426", "B"),
    ("yes-no words", "yesno", "ZH", "\u5426", "B"),
    ("yes-no words", "yesno", "ZH", "Yes", "A"),
    ("yes-no words", "yesno", "YN", "Respuesta: s\u00ed", "A"),
    ("yes-no words", "yesno", "YN", "Yes there is a mass.", "A"),
    ("yes-no words", "yesno", "YN", "No there isn't.", "B"),
    ("yes-no words", "yesno", "YN", "I would say yes.", "A"),
    ("yes-no words", "yesno", "YN", "Positive or negative, hard to say.", None),
    ("yes-no words", "yesno", "YN", "Probablemente s\u00ed", None),
    ("yes-no words", "yesno", "YN", "Absolutely.", "A"),
    ("yes-no words", "yesno", "YN", "Certainly.", "A"),
    ("yes-no words", "yesno", "YN", "Definitely not.", "B"),
    ("yes-no words", "yesno", "YN", "Not at all.", "B"),
    ("yes-no words", "yesno", "YN", "Yes and no.", None),
    # a letter after the final answer, on a line or in a clause of its own (rule 3)
    ("final answer", "single", "PE", "Final answer: Pneumothorax\n\nA", None),
    ("final answer", "single", "PE", "I choose B.; Options: A: pleural effusion; C.", None),
    ("final answer", "single", "PE", "Answer: B\n\nI hope this helps.", "B"),
    # --- findings that answer a yes/no question (rule 15) ---
    ("findings", "yesno", "YN", "No evidence of pneumothorax.", "B", PTX_Q),
    ("findings", "yesno", "YN", "There is no pneumothorax.", "B", PTX_Q),
    ("findings", "yesno", "YN", "The pneumothorax is absent.", "B", PTX_Q),
    ("findings", "yesno", "YN", "Negative for pneumothorax.", "B", PTX_Q),
    ("findings", "yesno", "YN", "I see no pneumothorax on this radiograph.", "B", PTX_Q),
    ("findings", "yesno", "YN", "There is a pneumothorax.", "A", PTX_Q),
    ("findings", "yesno", "YN", "No doubt, there is a pneumothorax.", "A", PTX_Q),
    ("findings", "yesno", "YN", "There is no pleural effusion.", None, PTX_Q),
    ("findings", "yesno", "YN", "No large pneumothorax.", None, PTX_Q),
    ("findings", "yesno", "YN", "No evidence of malignancy.", None, "Is this lesion benign?"),
    ("findings", "yesno", "YN", "There is no abnormality.", None, "Is the radiograph normal?"),
    ("findings", "yesno", "YN", "No evidence of consolidation.", "B"),
    ("findings", "yesno", "YN", "No evidence of malignancy.", None),
    ("findings", "yesno", "YN", "There is a pneumothorax.", None),
    ("findings", "yesno", "YN", "Yes, there is no pneumothorax.", None, PTX_Q),
    ("findings", "yesno", "YN", "Calcifications are present but appear benign.", None,
     "Are there suspicious calcifications?"),
    ("findings", "yesno", "YN", "Suspicious calcifications are present.", "A",
     "Are there suspicious calcifications?"),
    ("findings", "yesno", "YN", "There is a pneumothorax.", "A",
     "Is there a pneumothorax in the right lung?"),
    ("findings", "yesno", "YN", "Yes, no abnormality.", "A", "Is the mammogram normal?"),
    ("findings", "yesno", "YN", "Yes, no.", None),
    ("findings", "yesno", "YN", "Final answer: Yes no wait.", None),
    # --- negation scope (rule 16) ---
    ("negation scope", "single", "CXR", "Not a pleural effusion but a pneumothorax.", "B"),
    ("negation scope", "single", "CXR", "Neither pleural effusion nor pneumothorax \u2014 "
     "pulmonary oedema.", "C"),
    ("negation scope", "single", "CXR", "There is no doubt this is a pneumothorax.", "B"),
    ("negation scope", "single", "CXR", "No lung markings beyond the pleural line, which means "
     "pneumothorax.", "B"),
    ("negation scope", "single", "CXR", "Absence of lung markings indicates a pneumothorax.", "B"),
    ("negation scope", "single", "CXR", "It does not show a pneumothorax.", None),
    ("negation scope", "single", "CXR", "Not pneumothorax.", None),
    # --- discussed options (rule 17) ---
    ("discussed", "single", "CXR", "A pleural effusion would blunt the costophrenic angle, which "
     "is sharp here. A pneumothorax would show a pleural line, which is absent. The lungs are "
     "normal.", "D"),
    ("discussed", "single", "CXR", "If this were oedema, Kerley lines would be seen. The visceral "
     "pleural line makes this a pneumothorax.", "B"),
    ("discussed", "single", "CXR", "I would say pneumothorax.", "B"),
    ("discussed", "single", "CXR", "A pneumothorax would show a pleural line.", None),
    ("discussed", "single", "CXR", "Pleural effusion?", None),
    ("discussed", "single", "CXR", "Pleural effusion? No. Pneumothorax? Yes.", "B"),
    ("discussed", "single", "CXR", "Pneumothorax? No doubt.", None),
    ("discussed", "single", "CXR", "Pneumothorax vs. skin fold.", None),
    ("discussed", "single", "CXR", "Pneumothorax versus skinfold artifact.", None),
    ("discussed", "single", "CXR", "Thinking about pleural effusion versus pneumothorax.", None),
    ("discussed", "single", "CXR", "Pleural effusion versus pneumothorax: the pleural line is "
     "sharp, so pneumothorax.", "B"),
    # --- reasons of abstentions that are decisions, not missing readings (rules 9, 16, 18) ---
    ("reasons", "single", "CXR", "It is definitely not C.", None),
    ("reasons", "single", "CXR", "<think>B?</think>\nLet me reconsider the options once more.",
     None),
    ("reasons", "single", "CXR", "I need a closer look at the image before answering.", None),
]


ROWS: list[tuple[str, str, str, str, str | list[str] | None, str]] = [
    (*r, "") if len(r) == 5 else r for r in TABLE]  # type: ignore[misc]


def table_counts() -> dict[str, Counter[str]]:
    """Rows per family, split into 'read' (an option expected) and 'invalid'."""
    out: dict[str, Counter[str]] = {}
    for family, _, _, _, expected, _ in ROWS:
        out.setdefault(family, Counter())["invalid" if expected is None else "read"] += 1
    return out


def test_the_table_is_large_and_covers_every_family():
    counts = table_counts()
    assert sum(sum(c.values()) for c in counts.values()) >= 150
    assert set(counts) >= {"negation", "hedge", "refusal", "two options", "overlap", "markdown",
                           "separators", "letter-only", "verbose", "yes-no", "reasoning",
                           "final answer", "structured", "marked", "names", "spelling",
                           "abbreviation", "restated", "yes-no words", "findings",
                           "negation scope", "discussed", "letter positions", "reasons"}
    qtypes = Counter(q for _, q, *_ in ROWS)
    assert qtypes["single"] >= 50 and qtypes["yesno"] >= 25 and qtypes["multi"] >= 25


REASON_OF = {"It is definitely not C.": "negated",
             "<think>B?</think>\nLet me reconsider the options once more.": "not_committed",
             "I need a closer look at the image before answering.": "not_committed",
             "Pleural effusion?": "no_answer"}


@pytest.mark.parametrize(("family", "qtype", "options", "response", "expected", "question"),
                         ROWS, ids=[f"{f}:{r[:40]!r}:{q[:12]}" for f, _, _, r, _, q in ROWS])
def test_decision_table(family, qtype, options, response, expected, question):
    parsed = make_parser("strict").parse(response, OPTIONS[options], qtype, question=question)
    assert parsed.choice == expected
    assert parsed.invalid == (expected is None)
    assert (parsed.reason is None) == (expected is not None)
    if response in REASON_OF:
        assert parsed.reason == REASON_OF[response]


if __name__ == "__main__":
    for fam, c in table_counts().items():
        print(f"{fam:12s} read {c['read']:3d} invalid {c['invalid']:3d}")
