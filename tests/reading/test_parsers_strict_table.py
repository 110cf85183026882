"""The strict parser's decision table: hand-written responses and what it must read from each.

Every row was written by hand from the rules; ``None`` means the response must be *invalid*.
Each row names the rule of the rule table (``medvqa.reading.RULES``) it exercises: the rule the
reader cites for its decision, or a rule whose words, left out of the table, change it; where
the reader cites none (a response that names nothing), the rule the look-alike is about. Tests
below check that every rule has a row and every row's rule exists. The counts per family and
outcome are in :func:`table_counts` (``python tests/reading/test_parsers_strict_table.py``).
"""

from __future__ import annotations

from collections import Counter

import pytest

from medvqa.reading import RULES, make_parser
from medvqa.reading._book import RuleBook
from medvqa.reading._strict import StrictParser

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
NY = {"A": "No", "B": "Yes"}
DIST = {"A": "Regional distribution", "B": "Segmental distribution"}
SH = {"A": "Type I", "B": "Type II", "C": "Type III", "D": "Type IV"}
DR = {"A": "No DR", "B": "Mild NPDR", "C": "Moderate NPDR", "D": "Severe NPDR",
      "E": "Proliferative DR"}
SIZE = {"A": "< 5 mm", "B": "5-10 mm", "C": "11-20 mm", "D": "> 20 mm"}
BIR = {"A": "BI-RADS 2", "B": "BI-RADS 3", "C": "BI-RADS 4", "D": "BI-RADS 5"}
OPTIONS = {"SIZE": SIZE, "BIR": BIR, "DR": DR, "LR": LR, "YN": YN, "PE": PE, "BD": BD,
           "LUNG": LUNG, "ST": ST, "GL": GL, "CA": CA, "MM": MM, "SK": SK, "MH": MH, "CXR": CXR,
           "LIVER": LIVER,
           "ORG": ORG, "EMB": EMB,
           "ICH": ICH, "OCT": OCT, "DERM": DERM, "BRAIN": BRAIN, "ZH": ZH, "NY": NY,
           "DIST": DIST, "SH": SH}
PTX_Q = "Is there a pneumothorax?"

# (family, question type, options, response, expected, rule id[, question])
Row = tuple[str, str, str, object, "str | list[str] | None", str] | tuple[
    str, str, str, object, "str | list[str] | None", str, str]
TABLE: list[Row] = [
    # --- letter-only ---
    ("letter-only", "single", "LR", "B", "B", "structural.letters"),
    ("letter-only", "single", "LR", "b", "B", "structural.letters"),
    ("letter-only", "single", "LR", "(B)", "B", "structural.letters"),
    ("letter-only", "single", "LR", "B.", "B", "structural.letters"),
    ("letter-only", "single", "LR", "[B]", "B", "structural.letters"),
    ("letter-only", "single", "LR", "B)", "B", "structural.letters"),
    ("letter-only", "single", "LR", "  B  ", "B", "structural.letters"),
    ("letter-only", "single", "LR", "Answer: B", "B", "structural.letters"),
    ("letter-only", "single", "LR", "Answer: (B).", "B", "structural.letters"),
    ("letter-only", "single", "LR", "The answer is B", "B", "structural.letters"),
    ("letter-only", "single", "LR", "The correct answer is: B", "B", "structural.letters"),
    ("letter-only", "single", "LR", "Final answer: B", "B", "structural.letters"),
    ("letter-only", "single", "LR", "Option B", "B", "structural.letters"),
    ("letter-only", "single", "LR", "option b.", "B", "structural.letters"),
    ("letter-only", "single", "LR", "Choice B", "B", "structural.letters"),
    ("letter-only", "single", "LR", "The best answer is (B).", "B", "structural.letters"),
    ("letter-only", "single", "LR", "Z", None, "structural.out-of-range"),
    ("letter-only", "single", "LR", "The answer is E", None, "structural.out-of-range"),
    ("letter-only", "single", "LR", "C.", None, "structural.out-of-range"),
    ("letter-only", "single", "LUNG", "D", "D", "structural.letters"),
    ("letter-only", "single", "LUNG", "Answer - C", "C", "structural.letters"),
    ("letter-only", "yesno", "YN", "A", "A", "structural.letters"),
    ("letter-only", "yesno", "YN", "Answer: B", "B", "structural.letters"),
    ("letter-only", "multi", "MM", "I", ["I"], "structural.letters"),
    ("letter-only", "multi", "MM", "C", ["C"], "structural.letters"),
    # --- markdown ---
    ("markdown", "single", "LR", "**B**", "B", "structural.letters"),
    ("markdown", "single", "LR", "**Answer:** B", "B", "structural.letters"),
    ("markdown", "single", "LR", "__B__", "B", "structural.letters"),
    ("markdown", "single", "LR", "`B`", "B", "structural.letters"),
    ("markdown", "single", "LR", "# Answer: B", "B", "structural.letters"),
    ("markdown", "single", "LR", "> B", "B", "structural.letters"),
    ("markdown", "single", "LR", "**Right**", "B", "structural.option-text"),
    ("markdown", "single", "PE", "*Pleural effusion* is present.", "A", "structural.option-text"),
    ("markdown", "yesno", "YN", "**No**", "B", "structural.yes-no-word"),
    ("markdown", "yesno", "YN", "**Yes**, a mass is seen.", "A", "structural.yes-no-word"),
    ("markdown", "multi", "MM", "- **A**: Mass\n- **B**: Calcification", ["A", "B"],
     "structural.option-text"),
    ("markdown", "multi", "MM", "**Mass**, **Asymmetry**", ["A", "D"], "structural.option-text"),
    ("markdown", "single", "LUNG", "**B. squamous cell carcinoma**", "B", "structural.option-text"),
    # --- verbose ---
    ("verbose", "single", "LR", "Right", "B", "structural.option-text"),
    ("verbose", "single", "LR", " right. ", "B", "structural.option-text"),
    ("verbose", "single", "LR", "B: Right", "B", "structural.option-text"),
    ("verbose", "single", "LR", "B. Right", "B", "structural.option-text"),
    ("verbose", "single", "LR", "B: Left", None, "structural.two-options"),
    ("verbose", "single", "LR", "The lesion is on the right side.", "B", "structural.option-text"),
    ("verbose", "single", "LUNG", "This tile shows benign lung tissue without atypia.", "C",
     "structural.option-text"),
    ("verbose", "single", "LUNG", "The answer is B. The nuclei show marked atypia.", "B",
     "locate.marker"),
    ("verbose", "single", "LUNG", "Based on the glands, this is most consistent with "
     "adenocarcinoma.", "A", "structural.option-text"),
    ("verbose", "single", "LUNG", "Keratin pearls and intercellular bridges indicate squamous "
     "cell carcinoma.", "B", "structural.option-text"),
    ("verbose", "single", "LUNG", "The image shows large cell carcinoma.", "D",
     "structural.option-text"),
    ("verbose", "single", "LUNG", "Field 9: necrosis in the stroma, which suggests option D.", "D",
     "structural.letter-position"),
    ("verbose", "single", "LUNG", "I think the answer is C.", "C", "locate.marker"),
    ("verbose", "single", "LUNG", "I cannot say for sure, but squamous cell carcinoma.", "B",
     "hedge.lead"),
    ("verbose", "single", "LUNG", "I'm not sure, but the answer is B.", "B", "structural.letters"),
    ("verbose", "single", "MH", "Stage: 3; Explanation: a full-thickness defect, unlike "
     "stage 2.", "C", "structural.option-text"),
    ("verbose", "single", "MH", "3", "C", "structural.option-text"),
    ("verbose", "single", "ST", "Stage 3; Explanation: the hole is larger than in stage 2.", "C",
     "letter.explanation"),
    ("verbose", "single", "ST", "This macular hole is stage 4.", "D", "structural.option-text"),
    ("verbose", "single", "GL", "GLAUCOMA; Explanation: the cup-to-disc ratio is large.", "A",
     "structural.option-text"),
    ("verbose", "single", "GL", "Non-glaucoma; Explanation: the rim is healthy.", "B",
     "structural.option-text"),
    ("verbose", "single", "GL", "The optic disc looks healthy: non-glaucoma.", "B",
     "structural.option-text"),
    ("verbose", "single", "PE", "There is a pleural effusion, not a pneumothorax.", "A",
     "negation.not"),
    ("verbose", "single", "PE", "A large pleural effusion is seen at the left base.", "A",
     "structural.option-text"),
    ("verbose", "single", "PE", "A mass is seen; the lungs are otherwise normal.", "C",
     "structural.option-text"),
    ("verbose", "single", "CA", "Cannot be assessed", "A", "structural.option-text"),
    ("verbose", "single", "CA", "The answer is C: malignant.", "C", "structural.option-text"),
    ("verbose", "multi", "MM", "The answers are A and C.", ["A", "C"], "letter.list-join"),
    ("verbose", "multi", "MM", "I see a mass and an asymmetry.", ["A", "D"],
     "structural.option-text"),
    ("verbose", "multi", "SK", "Skin thickening", ["A"], "structural.option-text"),
    # --- yes/no ---
    ("yes-no", "yesno", "YN", "Yes", "A", "structural.yes-no-word"),
    ("yes-no", "yesno", "YN", "yes.", "A", "structural.yes-no-word"),
    ("yes-no", "yesno", "YN", "Yes, there is evidence of cancer.", "A", "structural.yes-no-word"),
    ("yes-no", "yesno", "YN", "True", "A", "structural.yes-no-word"),
    ("yes-no", "yesno", "YN", "No", "B", "structural.yes-no-word"),
    ("yes-no", "yesno", "YN", "No.", "B", "structural.yes-no-word"),
    ("yes-no", "yesno", "YN", "No, the image is normal.", "B", "structural.yes-no-word"),
    ("yes-no", "yesno", "YN", "false", "B", "structural.yes-no-word"),
    ("yes-no", "yesno", "YN", "The answer is no.", "B", "structural.yes-no-word"),
    ("yes-no", "yesno", "YN", "Answer: Yes", "A", "structural.yes-no-word"),
    ("yes-no", "yesno", "YN", "Yes - the nodule is spiculated.", "A", "structural.yes-no-word"),
    ("yes-no", "yesno", "YN", "No evidence of cancer.", None, "finding.absent-lead"),
    # a specific absent finding answers No, even without the question
    ("yes-no", "yesno", "YN", "There is no mass.", "B", "finding.absent-lead"),
    ("yes-no", "yesno", "YN", "There is a mass.", None, "finding.present"),
    ("yes-no", "yesno", "YN", "Yes or No", None, "structural.yes-no-both"),
    ("yes-no", "yesno", "YN", "Yes/No", None, "structural.yes-no-both"),
    ("yes-no", "yesno", "YN", "Yes, or no.", None, "structural.yes-no-both"),
    ("yes-no", "yesno", "YN", "Yes, there is no doubt.", "A", "negation.neutral"),
    ("yes-no", "yesno", "YN", "Not yes.", None, "negation.not"),
    # "nope" is a no word of the table since 2026-11-28, as "yep" was a yes word
    ("yes-no", "yesno", "YN", "Nope", "B", "structural.yes-no-word"),
    # --- refusal, every question type ---
    ("refusal", "yesno", "YN", "No image was provided.", None, "refusal.no-image"),
    ("refusal", "yesno", "YN", "There is no image to analyze.", None, "refusal.no-image"),
    ("refusal", "yesno", "YN", "No idea.", None, "refusal.do-not-know"),
    ("refusal", "yesno", "YN", "No way to tell.", None, "refusal.do-not-know"),
    ("refusal", "yesno", "YN", "No, I'm unable to determine that from the text.", None,
     "refusal.sorry"),
    ("refusal", "yesno", "YN", "Yes or no: cannot determine", None, "refusal.cannot-tell"),
    ("refusal", "yesno", "YN", "I cannot determine this.", None, "refusal.i-cannot"),
    ("refusal", "yesno", "YN", "Yes. I am sorry, I cannot see the image.", None, "refusal.sorry"),
    ("refusal", "yesno", "YN", "I don't know.", None, "refusal.do-not-know"),
    ("refusal", "yesno", "YN", "No, the image was not provided.", None, "refusal.no-image"),
    ("refusal", "single", "LR", "I'm sorry, I cannot determine that.", None, "refusal.sorry"),
    ("refusal", "single", "LR", "I don\u2019t know.", None, "refusal.do-not-know"),
    ("refusal", "single", "LR", "As an AI, I cannot view images. B", None, "refusal.ai"),
    ("refusal", "single", "PE", "I/we can't tell from this image: pneumothorax?", None,
     "refusal.cannot-tell"),
    ("refusal", "single", "LR", "Unable to determine from the image provided.", None,
     "refusal.unable"),
    ("refusal", "single", "LR", "Insufficient information to choose.", None, "refusal.not-enough"),
    ("refusal", "single", "LR", "Without the image, I would guess B.", None, "refusal.no-image"),
    ("refusal", "single", "LUNG", "I cannot determine this from the image. The answer is B.", None,
     "refusal.i-cannot"),
    ("refusal", "single", "LUNG", "It is not possible to tell adenocarcinoma from this.", None,
     "hedge.uncertain"),
    ("refusal", "single", "PE", "No image is attached, so I cannot say.", None, "refusal.no-image"),
    ("refusal", "single", "ST", "Stage: unknown; Explanation: no image.", None,
     "refusal.do-not-know"),
    ("refusal", "multi", "MM", "I don't know.", None, "refusal.do-not-know"),
    ("refusal", "multi", "MM", "I cannot tell", None, "refusal.i-cannot"),
    ("refusal", "multi", "MM", "No image was provided, so I cannot list findings.", None,
     "refusal.no-image"),
    ("refusal", "multi", "MM", "Mass. However, I am unable to confirm this.", None,
     "refusal.sorry"),
    ("refusal", "multi", "SK", "N/A", None, "refusal.ai"),
    # --- negation ---
    ("negation", "single", "PE", "Pleural effusion is ruled out.", None, "negation.after"),
    ("negation", "single", "PE", "Pleural effusion is unlikely.", None, "negation.rejected"),
    ("negation", "single", "PE", "Pleural effusion can be excluded.", None, "negation.after"),
    ("negation", "single", "PE", "no pleural effusion", None, "negation.no"),
    ("negation", "single", "PE", "Without pleural effusion.", None, "negation.no"),
    ("negation", "single", "PE", "Not pleural effusion.", None, "negation.not"),
    ("negation", "single", "PE", "There is no evidence of pneumothorax.", None, "negation.no"),
    ("negation", "single", "PE", "Pneumothorax is not present.", None, "negation.not"),
    ("negation", "single", "PE", "It isn't a pneumothorax.", None, "negation.not"),
    ("negation", "single", "PE", "Pleural effusion rather than pneumothorax.", "A",
     "negation.rejected"),
    ("negation", "single", "PE", "No pneumothorax, but a pleural effusion.", "A", "negation.no"),
    ("negation", "single", "PE", "Not a pneumothorax; it is a pleural effusion.", "A",
     "negation.not"),
    ("negation", "single", "PE", "Pneumothorax is excluded, pleural effusion is seen.", "A",
     "negation.after"),
    ("negation", "single", "PE", "Option B is wrong; the answer is C.", "C", "locate.marker"),
    ("negation", "single", "PE", "Choice B is incorrect", None, "negation.rejected"),
    ("negation", "single", "PE", "The answer is not B.", None, "negation.not"),
    ("negation", "single", "PE", "The answer is not B, it is (C).", "C", "negation.not"),
    # "it is C" is now a letter position, so the answer after the negated B is read
    ("negation", "single", "PE", "The answer is not B, it is C.", "C", "conclusion.points-to"),
    ("negation", "single", "PE", "Pleural effusion, but pleural effusion is unlikely.", None,
     "structural.asserted-and-negated"),
    ("negation", "single", "LR", "Not left.", None, "negation.not"),
    ("negation", "single", "LR", "Left is incorrect.", None, "negation.rejected"),
    ("negation", "single", "LR", "Left is incorrect; right.", "B", "negation.rejected"),
    ("negation", "single", "GL", "Not glaucoma.", None, "negation.not"),
    ("negation", "single", "ST", "It is not stage 3, it is stage 4.", "D", "negation.not"),
    ("negation", "single", "LUNG", "This is unlikely to be adenocarcinoma.", None,
     "negation.rejected"),
    ("negation", "single", "LUNG", "Squamous cell carcinoma, not adenocarcinoma.", "B",
     "negation.not"),
    ("negation", "single", "LUNG", "Adenocarcinoma has been ruled out.", None, "negation.after"),
    ("negation", "multi", "MM", "Mass, without calcification.", ["A"], "negation.no"),
    ("negation", "multi", "MM", "No mass; asymmetry.", ["D"], "negation.no"),
    ("negation", "multi", "MM", "Calcification is absent.", None, "negation.no"),
    ("negation", "multi", "SK", "Not skin thickening.", None, "negation.not"),
    # a negation beside a quote or a slash is a word as any other ("'no …'", "not/never")
    ("negation", "single", "PE", "'Not pleural effusion'.", None, "negation.not"),
    ("negation", "single", "PE", "There is 'no pleural effusion' here; pneumothorax.", "B",
     "negation.no"),
    ("negation", "single", "PE", "Not/never a pneumothorax.", None, "negation.not"),
    ("negation", "single", "LUNG", "Squamous cell carcinoma ('not adenocarcinoma').", "B",
     "negation.not"),
    ("negation", "single", "PE", "Pleural effusion is 'excluded'.", None, "negation.after"),
    ("negation", "single", "PE", 'Pneumothorax has been "ruled out".', None, "negation.after"),
    # a status after the option as a label
    ("negation", "single", "PE", "Pleural effusion: excluded.", None, "negation.after"),
    ("negation", "single", "PE", "Pleural effusion (ruled out).", None, "negation.after"),
    ("negation", "single", "PE", "Pleural effusion \u2014 unlikely.", None, "negation.rejected"),
    ("negation", "single", "PE", "Differential:\n- Pleural effusion - excluded\n- Normal - excluded"
                                 "\n- Pneumothorax - confirmed", "B", "negation.after"),
    ("negation", "single", "PE", "A: excluded. B: ruled out. Answer: C.", "C",
     "structural.letters"),
    ("negation", "single", "PE", "Pneumothorax (not pleural effusion).", "B", "negation.not"),
    ("negation", "single", "PE", "Pleural effusion: not pneumothorax.", "A", "negation.not"),
    ("negation", "single", "PE", "Pneumothorax - the lung markings are absent beyond the line.",
     "B", "structural.option-text"),
    ("negation", "single", "PE", "Pneumothorax: none seen.", None, "negation.status"),
    ("negation", "single", "PE", "Pneumothorax - no.", None, "negation.status"),
    ("negation", "single", "PE", "Pneumothorax: not present.", None, "negation.status"),
    ("negation", "single", "PE", "Pneumothorax [excluded]", None, "negation.after"),
    ("negation", "single", "PE", "Pneumothorax -> excluded", None, "negation.after"),
    ("negation", "single", "PE", "Pneumothorax, unlikely.", None, "negation.rejected"),
    ("negation", "single", "PE", "Pneumothorax \u2717", None, "structural.all-negated"),
    ("negation", "single", "PE", "Pneumothorax: no pleural effusion seen.", "B", "negation.no"),
    ("negation", "single", "PE", "Pneumothorax - no doubt.", "B", "structural.option-text"),
    ("negation", "single", "PE", "It is pneumothorax, no question.", "B", "structural.option-text"),
    # negated verbs and adverbs after the option
    ("negation", "single", "PE", "Pneumothorax is highly unlikely.", None, "negation.rejected"),
    ("negation", "single", "PE", "Pneumothorax is very much absent.", None, "negation.adverbs"),
    ("negation", "single", "PE", "Pneumothorax doesn't fit.", None, "negation.after-cannot"),
    ("negation", "single", "PE", "Pneumothorax does not fit the picture.", None, "negation.not"),
    ("negation", "single", "PE", "Pneumothorax can't be it.", None, "negation.after-cannot"),
    ("negation", "single", "PE", "Pneumothorax does fit.", "B", "structural.option-text"),
    ("negation", "single", "PE", "Pneumothorax is most likely.", "B", "structural.option-text"),
    ("negation", "single", "PE", "The answer is pneumothorax, no?", "B", "structural.option-text"),
    ("negation", "single", "PE", "Pneumothorax cannot be excluded. Final answer: pneumothorax.",
     "B", "locate.marker"),
    # negations found by a second hostile probe (2026-11-28): a verb or adjective
    # that rejects ("inconsistent with", "fails to show", "mimicking"), a status after a table
    # cell or "=", "which is absent", an infinitive after "no evidence", marks and empty boxes
    ("negation", "single", "PE", "Hardly pneumothorax.", None, "negation.rejected"),
    ("negation", "single", "PE", "Pneumothorax was considered and rejected.", None,
     "negation.after"),
    ("negation", "single", "PE", "Pneumothorax is excludable.", None, "negation.after"),
    ("negation", "single", "PE", "No evidence to suggest pneumothorax.", None, "negation.no"),
    ("negation", "single", "PE", "There is no evidence to indicate pleural effusion; "
     "pneumothorax.", "B", "negation.no"),
    ("negation", "single", "PE", "Pneumothorax - neg.", None, "negation.status"),
    ("negation", "single", "PE", "The image fails to demonstrate a pneumothorax.", None,
     "negation.rejected"),
    ("negation", "single", "PE", "Inconsistent with pneumothorax.", None, "negation.rejected"),
    ("negation", "single", "PE", "Pneumothorax is inconsistent with these findings.", None,
     "negation.verbs"),
    ("negation", "single", "PE", "Anything but pneumothorax.", None, "negation.rejected"),
    ("negation", "single", "PE", "Pneumothorax: no evidence.", None, "negation.status"),
    ("negation", "single", "PE", "Pneumothorax, which is absent.", None, "negation.no"),
    ("negation", "single", "PE", "Pneumothorax, which is large.", "B", "structural.option-text"),
    ("negation", "single", "PE", "Negative study for pneumothorax.", None, "negation.rejected"),
    ("negation", "single", "PE", "Pneumothorax | No", None, "negation.status"),
    ("negation", "single", "PE", "| Pneumothorax | absent |", None, "negation.no"),
    ("negation", "single", "PE", "Pneumothorax = no", None, "negation.status"),
    ("negation", "single", "PE", "Pneumothorax is the wrong answer.", None, "negation.after"),
    ("negation", "single", "PE", "Skin fold mimicking pneumothorax.", None, "negation.rejected"),
    ("negation", "single", "PE", "\u274c Pneumothorax", None, "structural.all-negated"),
    ("negation", "single", "PE", "[ ] Pneumothorax", None, "structural.all-negated"),
    ("negation", "single", "PE", "\u274c Pleural effusion\n\u2705 Pneumothorax", "B",
     "structural.option-text"),
    ("negation", "single", "PE", "\u2610 Skin fold\nFinal answer: pneumothorax", "B",
     "structural.option-text"),
    ("negation", "single", "PE", "Pneumothorax is more likely than pleural effusion.", "B",
     "negation.rejected"),
    ("negation", "single", "PE", "Pneumothorax and not pleural effusion.", "B", "negation.not"),
    # a negation before a list reaches every item; "no longer", "resolved"; "X and Y are
    # excluded"; "vs." ends no clause (a third probe, 2026-11-28)
    ("negation", "single", "MM", "No suspicious mass, calcification, or distortion is "
     "identified.", None, "negation.no"),
    ("negation", "single", "MM", "No mass, the finding is calcification, and it is benign.", "B",
     "negation.no"),
    ("negation", "single", "MM", "Mass has resolved.", None, "negation.after"),
    ("negation", "single", "MM", "Calcification (B). Mass and asymmetry are excluded.", "B",
     "negation.after"),
    ("negation", "single", "MM", "Probably benign asymmetry vs. mass; recommend spot "
     "compression.", None, "discussed.hypothetical"),
    ("negation", "single", "MM", "B is the least likely.", None, "negation.after"),
    ("negation", "single", "MM", "The least likely option is B.", None, "negation.rejected"),
    ("negation", "single", "MM", "B is a distractor.", None, "negation.after"),
    ("negation", "single", "MM", "B is a red herring.", None, "negation.after"),
    ("negation", "single", "MM", "Calcification: 0", None, "structural.all-negated"),
    ("negation", "single", "MM", "Calcification (-)", None, "structural.all-negated"),
    ("negation", "single", "MM", "Calcification: 0.5 mm specks, clustered.", "B",
     "structural.option-text"),
    ("negation", "single", "MM", "Calcification (+)", "B", "structural.option-text"),
    ("negation", "single", "MM", "By elimination: B.", "B", "negation.neutral"),
    ("discussed", "single", "MM", "B would be my last choice.", None, "discussed.hypothetical"),
    ("structured", "single", "MM", '{"answer": "B", "confidence": "low"}', None,
     "hedge.low-confidence-field"),
    ("structured", "single", "MM", '{"answer": "B", "confidence": "high"}', "B",
     "shape.answer-key"),
    ("letter positions", "single", "MM", "B, not A.", "B", "structural.letter-position"),
    ("letter positions", "single", "MM", "B rather than A.", "B", "structural.letter-position"),
    ("letter positions", "single", "MM", "I, not you, think B is correct.", "B",
     "structural.letter-position"),
    ("letter positions", "single", "MM", "B. Wait, no \u2014 A.", None, "structural.two-options"),
    ("letter positions", "single", "MM", "The specks are clustered and fine. B.", "B",
     "structural.letter-position"),
    # a status after a yes/no word confirms it
    ("negation", "yesno", "YN", "No, absent.", "B", "structural.yes-no-word", PTX_Q),
    ("negation", "yesno", "YN", "No - not present.", "B", "structural.yes-no-word", PTX_Q),
    # --- hedge ---
    ("hedge", "single", "PE", "The answer is (B) or (C)", None, "alternative.or"),
    ("hedge", "single", "PE", "The answer is B... or maybe C.", None, "hedge.uncertain"),
    ("hedge", "single", "PE", "Maybe pneumothorax.", None, "hedge.uncertain"),
    ("hedge", "single", "PE", "Perhaps B.", None, "hedge.uncertain"),
    ("hedge", "single", "PE", "It could be a pleural effusion.", None, "hedge.modal"),
    ("hedge", "single", "PE", "Possibly normal.", None, "hedge.uncertain"),
    ("hedge", "single", "PE", "I'm not sure. Pneumothorax?", None, "hedge.not-sure"),
    ("hedge", "single", "PE", "Hard to say, pleural effusion.", None, "hedge.not-sure"),
    ("hedge", "single", "LR", "Either left or right.", None, "hedge.either"),
    ("hedge", "single", "LR", "It might be right.", None, "hedge.modal"),
    ("hedge", "yesno", "YN", "Yes, possibly.", None, "hedge.uncertain"),
    ("hedge", "yesno", "YN", "Maybe yes.", None, "hedge.uncertain"),
    ("hedge", "multi", "MM", "Mass, maybe calcification.", None, "hedge.uncertain"),
    ("hedge", "multi", "MM", "A or B", None, "alternative.or"),
    ("hedge", "multi", "MM", "Mass or calcification", None, "alternative.or"),
    ("hedge", "single", "PE", "'Maybe' a pneumothorax.", None, "hedge.uncertain"),
    ("hedge", "single", "PE", "It could/might be a pneumothorax.", None, "hedge.modal"),
    # hedges found by the second hostile probe: radiology's query words, a
    # differential, a guess, the reader's own low confidence or a view it says it needs
    ("hedge", "single", "PE", "r/o pneumothorax", None, "hedge.radiology-query"),
    ("hedge", "single", "PE", "?Pneumothorax", None, "structural.query"),
    ("hedge", "single", "PE", "Query pneumothorax.", None, "hedge.radiology-query"),
    ("hedge", "single", "PE", "Questionable pneumothorax.", None, "hedge.radiology-query"),
    ("hedge", "single", "PE", "Pneumothorax should be considered.", None, "hedge.consider"),
    ("hedge", "single", "PE", "Consider pneumothorax.", None, "hedge.consider"),
    ("hedge", "single", "PE", "Pneumothorax is a consideration.", None, "hedge.consider"),
    ("hedge", "single", "PE", "Pneumothorax is in the differential.", None, "hedge.differential"),
    ("hedge", "single", "PE", "It may represent pneumothorax.", None, "hedge.modal"),
    ("hedge", "single", "PE", "Pneumothorax (low confidence).", None, "hedge.confidence"),
    ("hedge", "single", "PE", "I would need a lateral view to decide between pneumothorax and "
     "effusion.", None, "hedge.confidence"),
    ("hedge", "single", "PE", "My best guess: pneumothorax.", None, "hedge.not-sure"),
    ("hedge", "single", "PE", "If I had to guess, pneumothorax.", None, "hedge.not-sure"),
    ("hedge", "single", "PE", "Pneumothorax is suggested but not confirmed.", None,
     "hedge.not-confirmed"),
    ("hedge", "single", "PE", "Indeterminate for pneumothorax.", None, "hedge.uncertain"),
    ("hedge", "single", "PE", "After careful consideration, the answer is pneumothorax.", "B",
     "structural.option-text"),
    ("hedge", "single", "PE", "I consider this a pneumothorax.", "B", "hedge.not-a-hedge"),
    ("hedge", "single", "PE", "Considering the sharp pleural line, pneumothorax.", "B",
     "structural.option-text"),
    ("hedge", "single", "PE", "Pneumothorax, confirmed on the expiratory view.", "B",
     "structural.option-text"),
    ("hedge", "single", "PE", "The answer is pneumothorax? Yes, with high confidence.", "B",
     "structural.option-text"),
    ("hedge", "single", "MM", "Tentatively, A.", None, "hedge.uncertain"),
    ("hedge", "single", "MM", "Could well be a mass.", None, "hedge.modal"),
    ("hedge", "single", "LUNG", "Adenocarcinoma, pending TTF-1 staining.", None, "hedge.uncertain"),
    ("hedge", "single", "LUNG", "Atypical cells, suspicious for adenocarcinoma.", None,
     "hedge.non-diagnostic"),
    ("hedge", "single", "GL", "Glaucoma suspect.", None, "hedge.non-diagnostic"),
    ("hedge", "single", "GL", "Borderline glaucoma.", None, "hedge.uncertain"),
    ("hedge", "single", "MM", "Suspicious calcifications are present.", "B",
     "structural.option-text"),
    ("hedge", "single", "MM", "I suspect a mass.", "A", "hedge.not-a-hedge"),
    # --- two options ---
    ("two options", "single", "LR", "Left or Right", None, "alternative.or"),
    ("two options", "single", "LR", "Left or right, hard to say", None, "hedge.not-sure"),
    ("two options", "single", "LR", "A and B", None, "letter.list-join"),
    ("two options", "single", "LR", "A, B", None, "structural.two-options"),
    ("two options", "single", "LR", "Left and right.", None, "structural.two-options"),
    ("two options", "single", "LUNG", "Adenocarcinoma or squamous cell carcinoma.", None,
     "alternative.or"),
    ("two options", "single", "LUNG", "B. Adenocarcinoma", None, "structural.two-options"),
    ("two options", "single", "LUNG", "(A) adenocarcinoma (B) squamous cell carcinoma", None,
     "structural.two-options"),
    ("two options", "single", "PE", "Pleural effusion and pneumothorax.", None,
     "structural.two-options"),
    ("two options", "single", "PE", "C. Pneumothorax", None, "structural.two-options"),
    ("two options", "single", "ST", "Stage 2 or stage 3.", None, "alternative.or"),
    ("two options", "single", "ST", "Stage 2-3", None, "structural.two-options"),
    ("two options", "single", "CA", "Benign; malignant", None, "structural.two-options"),
    # --- overlapping option texts ---
    ("overlap", "single", "BD", "Fatty-glandular or Fatty", None, "alternative.or"),
    ("overlap", "single", "BD", "Fatty or Fatty-glandular", None, "alternative.or"),
    ("overlap", "single", "BD", "Fatty-glandular", "A", "structural.option-text"),
    ("overlap", "single", "BD", "Fatty", "C", "structural.option-text"),
    ("overlap", "single", "BD", "The breast is dense-glandular.", "B", "structural.option-text"),
    ("overlap", "single", "BD", "Fatty-glandular, not fatty.", "A", "negation.not"),
    ("overlap", "single", "BD", "Fatty-glandular and dense-glandular", None,
     "structural.two-options"),
    ("overlap", "single", "GL", "Non-glaucoma", "B", "structural.option-text"),
    ("overlap", "single", "GL", "Glaucoma", "A", "structural.option-text"),
    ("overlap", "single", "GL", "Glaucoma or non-glaucoma", None, "alternative.or"),
    ("overlap", "single", "LUNG", "large cell carcinoma", "D", "structural.option-text"),
    ("overlap", "multi", "SK", "Skin thickening and nipple retraction", ["A", "C"],
     "structural.option-text"),
    ("overlap", "multi", "SK", "Skin retraction", ["B"], "structural.option-text"),
    ("overlap", "multi", "MM", "Architectural distortion", ["C"], "structural.option-text"),
    # --- separators ---
    ("separators", "multi", "MM", "A, C", ["A", "C"], "structural.letters"),
    ("separators", "multi", "MM", "A and C", ["A", "C"], "letter.list-join"),
    ("separators", "multi", "MM", "A; C", ["A", "C"], "structural.letters"),
    ("separators", "multi", "MM", "A/C", None, "alternative.or"),
    ("separators", "multi", "MM", "A + C", ["A", "C"], "structural.letters"),
    ("separators", "multi", "MM", "The answer set is {A, C}.", ["A", "C"], "structural.letters"),
    ("letters", "single", "CXR", 'answer = "D"', "D", "structural.letters"),
    ("letters", "single", "CXR", "<p><b>Answer:</b> C</p>", "C", "structural.letters"),
    ("positions", "single", "CXR", "The last option.", "D", "structural.option-position"),
    ("letters", "multi", "MM", "A B A B A B C A B", None, "structural.repeated-letters"),
    ("letters", "multi", "MM", "A, C, A, C, A, C", ["A", "C"], "structural.letters"),
    ("quoted", "single", "CXR", '"The answer is B" is what the textbook says; the image shows '
     "something else.", None, "structural.quoted-answer"),
    ("labelled findings", "multi", "MM", "- Mass: present — spiculated margins.\n- Calcification: "
     "not seen.\n- Architectural distortion: present — clearly visible.\n\nAnswer: A, C",
     ["A", "C"], "structural.letters"),
    ("letters", "single", "CXR", "The answer is 'B'.", "B", "structural.letters"),
    ("scores", "single", "CXR", '{"A": 0.05, "B": 0.85, "C": 0.05, "D": 0.05}', "B",
     "structural.scores-top"),
    ("scores", "single", "CXR", "A: 0.45\nB: 0.40\nC: 0.10\nD: 0.05", None, "structural.scores"),
    ("separators", "multi", "MM", "A & C", ["A", "C"], "structural.letters"),
    ("separators", "multi", "MM", "(A) (C)", ["A", "C"], "structural.letters"),
    ("separators", "multi", "MM", "A\nC", ["A", "C"], "structural.letters"),
    ("separators", "multi", "MM", "Answer: B; I", ["B", "I"], "structural.letters"),
    ("separators", "multi", "MM", "Mass; Miscellaneous", ["A", "I"], "structural.option-text"),
    ("separators", "multi", "MM", "Mass/Calcification", ["A", "B"], "structural.option-text"),
    ("separators", "multi", "MM", "Mass\nCalcification", ["A", "B"], "structural.option-text"),
    ("separators", "multi", "MM", "Mass, Calcification, Asymmetry", ["A", "B", "D"],
     "structural.option-text"),
    ("separators", "multi", "MM", "B: Calcification", ["B"], "structural.option-text"),
    ("separators", "multi", "MM", "A: Mass\nD: Asymmetry", ["A", "D"], "structural.option-text"),
    ("separators", "multi", "MM", "A, Z", None, "structural.out-of-range"),
    ("separators", "multi", "MM", "some words", None, "structural.letters"),
    ("separators", "multi", "MM", "", None, "structural.empty"),
    ("separators", "multi", "MM", "   ", None, "structural.empty"),
    ("separators", "single", "LR", "B; Right", "B", "structural.option-text"),
    ("separators", "single", "LR", "", None, "structural.empty"),
    # --- reasoning set aside ---
    ("reasoning", "single", "CXR", "<think>The answer is A.</think> B", "B", "structural.letters"),
    ("reasoning", "single", "CXR", "<think>Effusion? No, the pleural line is there.</think>\n\n"
     "Answer: B", "B", "structural.letters"),
    ("reasoning", "single", "CXR", "<thinking>Could be A or C</thinking>Pneumothorax.", "B",
     "structural.option-text"),
    ("reasoning", "single", "CXR", "<reasoning>A is excluded</reasoning>**D**", "D",
     "structural.letters"),
    ("reasoning", "single", "CXR", "\u25c1think\u25b7maybe A\u25c1/think\u25b7The answer is C.",
     "C", "structural.letters"),
    ("reasoning", "single", "CXR", "I first thought A.</think>\nFinal answer: B", "B",
     "structural.letters"),
    ("reasoning", "single", "CXR", "B\n<think>Let me double-check the apex", "B",
     "structural.letters"),
    ("reasoning", "single", "CXR", "<think>The answer is A. Let me check the apex again", None,
     "structural.trace-only"),
    ("reasoning", "single", "CXR", "<think>So the answer is B.</think>", None,
     "structural.trace-only"),
    ("reasoning", "yesno", "YN", "<think>yes? the line is faint</think>No.", "B",
     "structural.yes-no-word"),
    ("reasoning", "multi", "MM", "<think>A and B?</think> A, D", ["A", "D"], "structural.letters"),
    # --- final answer located ---
    # an answer changed after it was given is not committed to (2026-12: was B, the last one)
    ("final answer", "single", "CXR", "Final answer: A\n\nWait, the visceral pleural line is "
     "visible. Final answer: B", None, "revision.change-of-mind"),
    ("final answer", "single", "CXR", "Effusion and oedema are both possible at first glance. "
     "After comparing the apices, the answer is B.", "B", "locate.marker"),
    ("final answer", "single", "CXR", "Pneumothorax is excluded; the answer is A.", "A",
     "locate.marker"),
    ("final answer", "single", "CXR", "I would choose D.", "D", "locate.pick"),
    ("final answer", "single", "CXR", "The answer is B because the lung edge is visible, unlike "
     "in a pulmonary oedema.", "B", "locate.marker"),
    ("final answer", "single", "CXR", "Final answer: B. But it could also be a pleural effusion.",
     None, "hedge.modal"),
    ("final answer", "single", "CXR", "Final answer: B\nActually, it is a pleural effusion.",
     None, "revision.change-of-mind"),
    ("final answer", "single", "CXR", "Final answer: B. (A) cannot be excluded.", None,
     "hedge.not-excluded"),
    ("final answer", "single", "CXR", "Pneumothorax is ruled out. The answer is B.", None,
     "structural.negated-before"),
    ("final answer", "single", "CXR", "I cannot see the image. The answer is B.", None,
     "refusal.i-cannot"),
    ("final answer", "single", "CXR", "I would not say the answer is B.", None, "hedge.uncertain"),
    ("final answer", "single", "CXR", "The answer is not B.", None, "negation.not"),
    ("final answer", "yesno", "YN", "Based on the image, the answer is no.", "B", "locate.marker"),
    ("final answer", "yesno", "YN", "Looking at the apex carefully, my answer is yes.", "A",
     "locate.marker"),
    ("final answer", "multi", "MM", "Findings considered: mass, asymmetry.\nFinal answer: A, B",
     ["A", "B"], "locate.marker"),
    # --- structured outputs ---
    ("structured", "single", "CXR", "$\\boxed{B}$", "B", "structural.letters"),
    ("structured", "single", "CXR", "The answer is \\boxed{\\text{Pulmonary oedema}}.", "C",
     "structural.option-text"),
    ("structured", "single", "CXR", "\\boxed{\\textbf{D. Normal}}", "D", "structural.option-text"),
    ("structured", "single", "CXR", '{"answer": "B"}', "B", "shape.answer-key"),
    ("structured", "single", "CXR", "<think>A or B?</think><answer>B</answer>", "B",
     "shape.answer-key"),
    ("structured", "single", "CXR", "<answer>\nPulmonary oedema\n</answer>", "C",
     "structural.shape"),
    ("structured", "single", "CXR", '```json\n{"reasoning": "A is unlikely", "final_answer": '
     '"Pneumothorax"}\n```', "B", "structural.shape"),
    ("structured", "single", "CXR", '{"answer": "B", "explanation": "the answer is A at first"}',
     "B", "shape.answer-key"),
    ("structured", "single", "CXR", '{"selected_option": "E"}', None, "shape.answer-key"),
    ("structured", "single", "CXR", '{"option": "B", "confidence": "high"}', "B",
     "shape.answer-key"),
    ("structured", "single", "CXR", '[{"option": "A", "present": false}, {"option": "B", '
     '"present": true}]', None, "structural.answers-disagree"),
    ("structured", "yesno", "YN", '{"answer": false}', "B", "shape.answer-key"),
    ("structured", "multi", "MM", '{"answer": ["A", "D"]}', ["A", "D"], "shape.answer-key"),
    # --- marked tables and check-lists ---
    ("marked", "single", "CXR", "| Finding | Present |\n|---|---|\n| Pleural effusion | \u2717 |"
     "\n| Pneumothorax | \u2713 |\n| Pulmonary oedema | \u2717 |", "B", "structural.option-text"),
    ("marked", "single", "CXR", "- [ ] A. Pleural effusion\n- [x] B. Pneumothorax\n"
     "- [ ] C. Pulmonary oedema\n- [ ] D. Normal", "B", "structural.option-text"),
    ("marked", "single", "CXR", "- Pleural effusion: absent\n- Pneumothorax: present\n"
     "- Pulmonary oedema: absent", "B", "structural.option-text"),
    ("marked", "single", "CXR", "\u2611 Pneumothorax\n\u2610 Pleural effusion", "B",
     "structural.option-text"),
    ("marked", "single", "CXR", "- [x] Pleural effusion\n- [x] Pneumothorax", None,
     "structural.two-options"),
    ("marked", "single", "CXR", "A \u2717  B \u2713  C \u2717  D \u2717", "B",
     "structural.letters"),
    ("marked", "single", "CXR", "\U0001f534 A  \U0001f7e2 B  \U0001f534 C", "B",
     "structural.letters"),
    ("marked", "single", "CXR", "- A. Pleural effusion \u2014 unlikely (sharp angles)\n"
     "- B. Pneumothorax \u2014 most likely (visible pleural line)\n- C. Pulmonary oedema "
     "\u2014 unlikely", "B", "structural.option-text"),
    ("marked", "single", "CXR", "- A. Pleural effusion \u2014 most likely\n- B. Pneumothorax "
     "\u2014 most likely", None, "structural.two-options"),
    ("marked", "single", "CXR", "- Pneumothorax: present\n- Pleural effusion: possible", None,
     "hedge.uncertain"),
    ("marked", "single", "CXR", "| Finding | Absent |\n|---|---|\n| Pleural effusion | \u2713 |\n"
     "| Pneumothorax | \u2717 |", None, "structural.two-options"),
    ("marked", "multi", "MM", "| Finding | Seen |\n|---|---|\n| Mass | Yes |\n"
     "| Calcification | No |\n| Asymmetry | Yes |", ["A", "D"], "structural.option-text"),
    # --- hedges about one finding ---
    ("hedge", "single", "CXR", "Pneumothorax cannot be excluded.", None, "hedge.not-excluded"),
    ("hedge", "single", "CXR", "Cannot rule out a small pneumothorax.", None, "hedge.not-excluded"),
    ("hedge", "single", "CXR", "A pneumothorax is not excluded.", None, "hedge.not-excluded"),
    ("hedge", "single", "CXR", "Pleural effusion; a pneumothorax can't be ruled out.", None,
     "hedge.not-excluded"),
    ("hedge", "single", "CXR", "Possible pneumothorax.", None, "hedge.uncertain"),
    ("hedge", "yesno", "YN", "Yes, although a pneumothorax cannot be excluded.", None,
     "hedge.not-excluded"),
    ("hedge", "single", "CXR", "The differential includes pneumothorax.", None,
     "hedge.differential"),
    # --- more letter positions ---
    ("letter positions", "single", "CXR", "B is the correct answer.", "B",
     "structural.letter-position"),
    ("letter positions", "single", "CXR", "I think C is correct.", "C",
     "structural.letter-position"),
    ("letter positions", "single", "CXR", "Therefore, B.", "B", "structural.letter-position"),
    ("letter positions", "single", "CXR", "It's C because of the Kerley lines.", "C",
     "letter.connective"),
    ("letter positions", "single", "CXR", "B - Pneumothorax", "B", "structural.option-text"),
    ("letter positions", "single", "CXR", "Verdict: D", "D", "structural.letters"),
    ("letter positions", "single", "CXR", "I would say B.", "B", "locate.pick"),
    ("letter positions", "single", "CXR", "A is unlikely; B is correct.", "B", "negation.rejected"),
    ("letter positions", "single", "CXR", "Options B or C seem plausible.", None, "alternative.or"),
    ("letter positions", "single", "CXR", "Density: B or C.", None, "alternative.or"),
    ("letter positions", "multi", "MM", "Both A and D.", ["A", "D"], "letter.keyword"),
    ("letter positions", "multi", "MM", "Options A and D are present.", ["A", "D"],
     "letter.list-join"),
    ("letter positions", "single", "CXR", "It is A mass.", None, "letter.connective"),
    ("letter positions", "single", "CXR", "Vitamin D.", None, "letter.connective"),
    # --- letters inside names ---
    ("names", "single", "ORG", "E. coli", None, "letter.connective"),
    ("names", "single", "ORG", "The answer is E. coli.", None, "letter.connective"),
    ("names", "single", "ORG", "This is most consistent with E. coli infection.", None,
     "letter.connective"),
    ("names", "single", "ORG", "Hepatitis E", None, "letter.connective"),
    ("names", "single", "ORG", "Group B streptococcus.", None, "letter.connective"),
    ("names", "single", "ORG", "The answer is vitamin D deficiency.", None, "letter.connective"),
    ("names", "single", "ORG", "Answer: T cell lymphoma", None, "letter.connective"),
    # a binomial is also named with its genus abbreviated (D is Candida albicans)
    ("names", "single", "ORG", "C. albicans", "D", "structural.option-text"),
    ("names", "single", "ORG", "C. neoformans", None, "letter.connective"),
    ("names", "single", "ORG", "E", "E", "structural.letters"),
    ("names", "single", "ORG", "The answer is E.", "E", "structural.letters"),
    ("names", "single", "LUNG", "The answer is B. squamous cell carcinoma", "B",
     "structural.option-text"),
    ("names", "single", "CXR", "T2-weighted images show a pneumothorax.", "B",
     "structural.option-text"),
    # --- option texts as written ---
    ("spelling", "single", "CXR", "Pulmonary edema.", "C", "structural.option-text"),
    ("spelling", "single", "CXR", "Bilateral pleural effusions.", "A", "structural.option-text"),
    ("spelling", "single", "CXR", "pleural-effusion", "A", "structural.option-text"),
    ("spelling", "single", "ICH", "Subdural hematoma", "A", "structural.option-text"),
    ("spelling", "single", "ICH", "Subarachnoid hemorrhages in the sulci.", "C",
     "structural.option-text"),
    ("spelling", "single", "OCT", "Choroidal neovascularization.", "A", "structural.option-text"),
    ("spelling", "single", "OCT", "Diabetic macular edema", "B", "structural.option-text"),
    ("spelling", "single", "DERM", "Seborrheic keratoses", "C", "structural.option-text"),
    ("spelling", "single", "BRAIN", "Glioblastoma", "A", "structural.option-text"),
    ("spelling", "single", "BRAIN", "Crohn disease", "C", "structural.option-text"),
    ("spelling", "single", "BRAIN", "M\u00e9ningiome", "B", "structural.option-slip"),
    ("spelling", "single", "BRAIN", "M\u00e9ningioma", "B", "structural.option-text"),
    ("spelling", "single", "LIVER", "Liver metastases.", "D", "structural.option-text"),
    ("spelling", "single", "LIVER", "Hemangiomas", "B", "structural.option-text"),
    # --- abbreviations ---
    ("abbreviation", "single", "LIVER", "HCC", "A", "structural.option-text"),
    ("abbreviation", "single", "LIVER", "The lesion is an FNH.", "C", "structural.option-text"),
    ("abbreviation", "single", "LIVER", "hcc", None, "structural.option-text"),
    ("abbreviation", "single", "BRAIN", "GBM", "A", "structural.option-text"),
    ("abbreviation", "single", "OCT", "DME with subretinal fluid.", "B", "structural.option-text"),
    ("abbreviation", "single", "OCT", "CNV", "A", "structural.option-text"),
    ("abbreviation", "single", "DERM", "BCC", "B", "structural.option-text"),
    ("abbreviation", "single", "DERM", "AD", None, "structural.option-text"),
    ("abbreviation", "single", "EMB", "PE", None, "structural.option-text"),
    ("abbreviation", "single", "CXR", "PTX on the right.", "B", "structural.option-text"),
    ("abbreviation", "single", "LIVER", "HCC or FNH", None, "alternative.or"),
    # --- restated option list ---
    ("restated", "single", "CXR", "Options:\nA. Pleural effusion\nB. Pneumothorax\n"
     "C. Pulmonary oedema\nD. Normal\n\nThe visible lung edge makes this a "
     "pneumothorax.", "B", "structural.option-text"),
    ("restated", "single", "CXR", "A. Pleural effusion\nB. Pneumothorax", None,
     "structural.two-options"),
    ("restated", "multi", "MM", "A: Mass\nD: Asymmetry", ["A", "D"], "structural.option-text"),
    # --- yes/no words, synonyms and languages ---
    ("yes-no words", "yesno", "YN", "Positive.", "A", "structural.yes-no-word"),
    ("yes-no words", "yesno", "YN", "Negative", "B", "structural.yes-no-word"),
    ("yes-no words", "yesno", "YN", "Present.", "A", "structural.yes-no-word"),
    ("yes-no words", "yesno", "YN", "Absent.", "B", "structural.yes-no-word"),
    ("yes-no words", "yesno", "YN", "Affirmative.", "A", "structural.yes-no-word"),
    ("yes-no words", "yesno", "YN", "Correct.", "A", "structural.yes-no-word"),
    ("yes-no words", "yesno", "YN", "Not seen.", "B", "structural.yes-no-word"),
    ("yes-no words", "yesno", "YN", "S\u00ed, hay un neumot\u00f3rax.", "A",
     "structural.yes-no-word"),
    ("yes-no words", "yesno", "YN", "N\u00e3o.", "B", "structural.yes-no-word"),
    ("yes-no words", "yesno", "YN", "Oui.", "A", "structural.yes-no-word"),
    ("yes-no words", "yesno", "YN", "Nein, kein Pneumothorax.", "B", "structural.yes-no-word"),
    ("yes-no words", "yesno", "YN", "\u662f\u7684\uff0c\u6709\u6c14\u80f8\u3002", "A",
     "structural.yes-no-word"),
    ("yes-no words", "yesno", "YN", "\u7b54\u6848\uff1a\u5426", "B", "structural.yes-no-word"),
    ("yes-no words", "yesno", "ZH", "\u5426", "B", "structural.yes-no-word"),
    ("yes-no words", "yesno", "ZH", "Yes", "A", "structural.yes-no-word"),
    ("yes-no words", "yesno", "YN", "Respuesta: s\u00ed", "A", "structural.yes-no-word"),
    ("yes-no words", "yesno", "YN", "Yes there is a mass.", "A", "structural.yes-no-word"),
    ("yes-no words", "yesno", "YN", "No there isn't.", "B", "structural.yes-no-word"),
    ("yes-no words", "yesno", "YN", "I would say yes.", "A", "locate.pick"),
    ("yes-no words", "yesno", "YN", "Positive or negative, hard to say.", None, "hedge.not-sure"),
    ("yes-no words", "yesno", "YN", "Probablemente s\u00ed", None, "hedge.es"),
    ("yes-no words", "yesno", "YN", "Absolutely.", "A", "structural.yes-no-word"),
    ("yes-no words", "yesno", "YN", "Certainly.", "A", "structural.yes-no-word"),
    ("yes-no words", "yesno", "YN", "Definitely not.", "B", "structural.yes-no-word"),
    ("yes-no words", "yesno", "YN", "Not at all.", "B", "structural.yes-no-word"),
    ("yes-no words", "yesno", "YN", "Yes and no.", None, "structural.yes-no-both"),
    # a letter after the final answer, on a line or in a clause of its own
    ("final answer", "single", "PE", "Final answer: Pneumothorax\n\nA", None,
     "structural.tail-letter"),
    ("final answer", "single", "PE", "I choose B.; Options: A: pleural effusion; C.", None,
     "structural.two-options"),
    ("final answer", "single", "PE", "Answer: B\n\nI hope this helps.", "B", "locate.marker"),
    # --- findings that answer a yes/no question ---
    ("findings", "yesno", "YN", "No evidence of pneumothorax.", "B", "finding.absent-lead", PTX_Q),
    ("findings", "yesno", "YN", "There is no pneumothorax.", "B", "finding.absent-lead", PTX_Q),
    ("findings", "yesno", "YN", "The pneumothorax is absent.", "B", "finding.absent-tail", PTX_Q),
    ("findings", "yesno", "YN", "Negative for pneumothorax.", "B", "finding.absent-lead", PTX_Q),
    ("findings", "yesno", "YN", "I see no pneumothorax on this radiograph.", "B",
     "finding.absent-lead", PTX_Q),
    ("findings", "yesno", "YN", "There is a pneumothorax.", "A", "finding.present", PTX_Q),
    ("findings", "yesno", "YN", "No doubt, there is a pneumothorax.", "A",
     "finding.present", PTX_Q),
    ("findings", "yesno", "YN", "There is no pleural effusion.", None,
     "finding.absent-lead", PTX_Q),
    ("findings", "yesno", "YN", "No large pneumothorax.", None, "finding.absent-lead", PTX_Q),
    ("findings", "yesno", "YN", "No evidence of malignancy.", None,
     "finding.absent-lead", "Is this lesion benign?"),
    ("findings", "yesno", "YN", "There is no abnormality.", None,
     "finding.absent-lead", "Is the radiograph normal?"),
    ("findings", "yesno", "YN", "No evidence of consolidation.", "B", "finding.absent-lead"),
    ("findings", "yesno", "YN", "No evidence of malignancy.", None, "finding.absent-lead"),
    ("findings", "yesno", "YN", "There is a pneumothorax.", None, "finding.present"),
    ("findings", "yesno", "YN", "Yes, there is no pneumothorax.", None, "negation.no", PTX_Q),
    ("findings", "yesno", "YN", "Calcifications are present but appear benign.", None,
     "finding.nature",
     "Are there suspicious calcifications?"),
    ("findings", "yesno", "YN", "Suspicious calcifications are present.", "A", "finding.present",
     "Are there suspicious calcifications?"),
    ("findings", "yesno", "YN", "There is a pneumothorax.", "A", "finding.present",
     "Is there a pneumothorax in the right lung?"),
    ("findings", "yesno", "YN", "Yes, no abnormality.", "A",
     "structural.yes-no-word", "Is the mammogram normal?"),
    ("findings", "yesno", "YN", "Yes, no.", None, "structural.yes-no-both"),
    ("findings", "yesno", "YN", "Final answer: Yes no wait.", None, "structural.yes-no-both"),
    # --- negation scope ---
    ("negation scope", "single", "CXR", "Not a pleural effusion but a pneumothorax.", "B",
     "clause.conjunction"),
    ("negation scope", "single", "CXR", "Neither pleural effusion nor pneumothorax \u2014 "
     "pulmonary oedema.", "C", "negation.not"),
    ("negation scope", "single", "CXR", "There is no doubt this is a pneumothorax.", "B",
     "negation.neutral"),
    ("negation scope", "single", "CXR", "No lung markings beyond the pleural line, which means "
     "pneumothorax.", "B", "structural.option-text"),
    ("negation scope", "single", "CXR", "Absence of lung markings indicates a pneumothorax.", "B",
     "negation.stop"),
    ("negation scope", "single", "CXR", "It does not show a pneumothorax.", None, "negation.not"),
    ("negation scope", "single", "CXR", "Not pneumothorax.", None, "negation.not"),
    # --- discussed options ---
    ("discussed", "single", "CXR", "A pleural effusion would blunt the costophrenic angle, which "
     "is sharp here. A pneumothorax would show a pleural line, which is absent. The lungs are "
     "normal.", "D", "discussed.hypothetical"),
    ("discussed", "single", "CXR", "If this were oedema, Kerley lines would be seen. The visceral "
     "pleural line makes this a pneumothorax.", "B", "structural.option-text"),
    ("discussed", "single", "CXR", "I would say pneumothorax.", "B", "structural.option-text"),
    ("discussed", "single", "CXR", "A pneumothorax would show a pleural line.", None,
     "discussed.hypothetical"),
    ("discussed", "single", "CXR", "Pleural effusion?", None, "structural.query"),
    ("discussed", "single", "CXR", "Pleural effusion? No. Pneumothorax? Yes.", "B",
     "structural.option-text"),
    ("discussed", "single", "CXR", "Pneumothorax? No doubt.", None, "negation.neutral"),
    ("discussed", "single", "CXR", "Pneumothorax vs. skin fold.", None, "discussed.hypothetical"),
    ("discussed", "single", "CXR", "Pneumothorax versus skinfold artifact.", None,
     "discussed.hypothetical"),
    ("discussed", "single", "CXR", "Thinking about pleural effusion versus pneumothorax.", None,
     "discussed.hypothetical"),
    ("discussed", "single", "CXR", "Pleural effusion versus pneumothorax: the pleural line is "
     "sharp, so pneumothorax.", "B", "discussed.hypothetical"),
    # --- reasons of abstentions that are decisions, not missing readings ---
    ("reasons", "single", "CXR", "It is definitely not C.", None, "conclusion.points-to"),
    ("reasons", "single", "CXR", "<think>B?</think>\nLet me reconsider the options once more.",
     None, "deferral.put-off"),
    ("reasons", "single", "CXR", "I need a closer look at the image before answering.", None,
     "deferral.put-off"),
    # --- a row for each rule the families above leave out ---
    ("not text", "single", "LR", None, None, "structural.not-text"),
    ("not text", "single", "LR", "Answer: B. " * 9_100, None, "structural.too-long"),
    ("yes-no", "yesno", "NY", "A \u2014 yes.", None, "structural.letter-text-conflict"),
    ("findings", "yesno", "YN", "Answer: Yes.\nThe lungs show no pneumothorax.", None,
     "structural.contradiction", PTX_Q),
    ("structured", "multi", "MM", '{"findings": ["mass", "asymmetry", ', None,
     "structural.cut-off"),
    ("final answer", "multi", "MM", "Answer: A, D.\nThere is no asymmetry.", None,
     "structural.negated-after"),
    ("final answer", "single", "CXR", "The answer is pneumothorax. I can't confirm it without "
     "a CT.", "B", "disclaimer.confirm"),
    ("final answer", "single", "CXR", "I can't help with interpreting patient imaging. However, "
     "as a quiz question, the answer is pneumothorax.", "B", "disclaimer.role"),
    ("final answer", "single", "CXR", "I can't help with interpreting patient imaging. Please "
     "consult a qualified radiologist.\n\nHowever, since this is a quiz question: **B**.", "B",
     "disclaimer.role"),
    ("final answer", "single", "CXR", "As an AI, I cannot see the image. The answer is "
     "pneumothorax.", None, "disclaimer.sight"),
    ("final answer", "single", "CXR", "Resident: I'd call it a pleural effusion (A).\n"
     "Attending: look again, the pleural line is there.\nResident: agreed.\n\n"
     "Final answer (consensus): B", "B", "structural.dialogue"),
    ("final answer", "single", "CXR", "Both pneumothorax (B) and normal (D) are plausible here. "
     "If forced to choose one, B.", "B", "locate.pick"),
    ("reasons", "single", "CXR", "I will answer pleural effusion after the lateral film.", None,
     "plan.will-answer"),
    ("two options", "multi", "MM", "Somewhere between mass and asymmetry.", None,
     "hedge.uncertain"),
    ("two options", "multi", "MM", "Mass oder asymmetry.", None, "alternative.other-languages"),
    ("letter positions", "single", "CXR", "Pleural effusion and oedema are excluded, which "
     "leaves pneumothorax.", "B", "elimination.left"),
    ("hedge", "single", "CXR", "Peut-\u00eatre un pneumothorax.", None, "hedge.fr"),
    ("hedge", "single", "CXR", "Vielleicht ein Pneumothorax.", None, "hedge.de"),
    ("hedge", "single", "CXR", "Risposta: B, forse.", None, "hedge.it"),
    ("hedge", "single", "CXR", "Misschien een pneumothorax.", None, "hedge.nl"),
    ("hedge", "single", "CXR", "Resposta: B, talvez.", None, "hedge.pt"),
    ("hedge", "single", "CXR", "\u041e\u0442\u0432\u0435\u0442: B, \u0432\u043e\u0437\u043c"
     "\u043e\u0436\u043d\u043e.", None, "hedge.ru"),
    ("hedge", "single", "CXR", "Cevap: B, belki.", None, "hedge.tr"),
    ("hedge", "single", "CXR", "\u7b54\u6848\uff1aB\uff0c\u53ef\u80fd\u3002", None, "hedge.zh"),
    ("hedge", "single", "CXR", "B\u304b\u3082\u3057\u308c\u306a\u3044\u3002", None, "hedge.ja"),
    ("hedge", "single", "CXR", "\uc544\ub9c8 B.", None, "hedge.ko"),
    ("hedge", "single", "CXR", "\u0936\u093e\u092f\u0926 B.", None, "hedge.hi"),
    ("hedge", "single", "CXR", "\u0631\u0628\u0645\u0627 B.", None, "hedge.ar"),
    ("hedge", "single", "CXR", "Odpowied\u017a: B, mo\u017ce.", None, "hedge.pl"),
    ("hedge", "single", "CXR", "Odpov\u011b\u010f: B, mo\u017en\u00e1.", None, "hedge.cs"),
    ("hedge", "single", "CXR", "Svar: B, kanske.", None, "hedge.sv"),
    ("hedge", "single", "CXR", "Vastaus: B, ehk\u00e4.", None, "hedge.fi"),
    ("hedge", "single", "CXR", "\u0391\u03c0\u03ac\u03bd\u03c4\u03b7\u03c3\u03b7: B, "
     "\u03af\u03c3\u03c9\u03c2.", None, "hedge.el"),
    ("hedge", "single", "CXR", "V\u00e1lasz: B, tal\u00e1n.", None, "hedge.hu"),
    ("hedge", "single", "CXR", "\u0412\u0456\u0434\u043f\u043e\u0432\u0456\u0434\u044c: B, "
     "\u043c\u043e\u0436\u043b\u0438\u0432\u043e.", None, "hedge.uk"),
    ("hedge", "single", "CXR", "\u0110\u00e1p \u00e1n: A. Tuy nhi\u00ean, c\u0169ng c\u00f3 "
     "th\u1ec3 l\u00e0 B.", None, "hedge.vi"),
    ("hedge", "single", "CXR", "Jawaban: B, mungkin.", None, "hedge.id"),
    ("hedge", "single", "CXR", "\u05d0\u05d5\u05dc\u05d9 B.", None, "hedge.he"),
    ("hedge", "single", "CXR", "\u0634\u0627\u06cc\u062f B.", None, "hedge.fa"),
    ("negation", "single", "PE", "Kein Pneumothorax.", None, "negation.other-languages"),
    ("negation", "multi", "MM", "Mass, ohne calcification.", ["A"], "negation.other-languages"),
    ("structured", "single", "CXR", '{"answer": "A", "alternative": "B"}', None,
     "shape.second-key"),
    ("structured", "multi", "MM", '{"selected": ["A", "B"], "uncertain": ["D"]}', None,
     "shape.second-key"),
    ("structured", "single", "CXR", '{"answer": "A", "differential": ["B", "C"]}', "A",
     "structural.shape"),
    ("scores", "single", "PE", "A: 0.45, B: 0.10, C: 0.45", None, "structural.scores"),
    ("scores", "single", "PE", "A: 10%, B: 80%, C: 10%\nAnswer: A", None, "structural.scores"),
    ("scores", "single", "PE", "A: 0.10, B: 0.80, C: 0.10\nAnswer: B", "B",
     "structural.letters"),
    ("elimination", "single", "PE", "A and C ruled out, so B.", "B",
     "structural.letter-position"),
    ("elimination", "single", "PE", "The lung markings are absent, so B.", "B",
     "structural.letter-position"),
    ("letter-position", "single", "PE", "B, the one with a visible pleural line.", "B",
     "structural.letter-position"),
    ("letter-position", "single", "MM", "I, for one, think it is B.", "B",
     "structural.letter-position"),
    ("multi", "multi", "MM", "- A\n- D", ["A", "D"], "structural.letters"),
    ("multi", "multi", "MM", "1) A\n2) B\n3) D", ["A", "B", "D"], "structural.letters"),
    ("multi", "multi", "MM", "A - C", ["A", "B", "C"], "set.range"),
    ("multi", "multi", "MM", "A, B, C, though C is hard to call.", None,
     "structural.set-left-open"),
    ("multi", "multi", "MM", "A, B, and C or D.", None, "alternative.or"),
    ("multi", "multi", "MM", "A and C; D too if the line is real.", None,
     "structural.set-left-open"),
    ("multi", "multi", "MM", "B through D, except C.", None, "structural.set-left-open"),
    ("multi", "multi", "MM", "A and B, not C or D.", ["A", "B"], "structural.letter-position"),
    ("continuation", "single", "PE", "The apex is clear.\n\nExample 5:\nQuestion: Which?\n"
     "Answer: B", None, "structural.continuation"),
    ("continuation", "single", "PE", "A\n\n---\nCase 12\nAnswer: B", "A", "structural.letters"),
    ("continuation", "yesno", "YN", "Question: Is there cardiomegaly?\nAnswer: No", None,
     "structural.continuation", PTX_Q),
    ("continuation", "single", "PE", "User: I think it is a pneumothorax.\nAssistant: That is "
     "reasonable.", None, "structural.continuation"),
    ("refusal", "single", "CXR", "Je ne peux pas le dire: pneumothorax.", None,
     "refusal.other-languages"),
    ("reasoning", "single", "CXR", "Respuesta: B\n\nCorrecci\u00f3n: pleural effusion.", None,
     "revision.other-languages"),
    ("verbose", "single", "DIST", "The calcifications are segmental.", "B",
     "option.generic-noun"),
    ("discussed", "single", "CXR", "If there were a pneumothorax, the lung edge would be "
     "visible.", None, "discussed.condition"),
    ("discussed", "single", "CXR", "Pulmonary oedema would be my answer.", "C",
     "discussed.chosen"),
    ("discussed", "single", "CXR", "Although pleural effusion is common after surgery, the "
     "visceral line makes this a pneumothorax.", "B", "discussed.concession"),
    ("discussed", "single", "CXR", "A pleural effusion typically blunts the angle.", None,
     "discussed.generic"),
    ("sets", "multi", "MM", "All of the above.", ["A", "B", "C", "D", "I"], "set.all"),
    ("sets", "multi", "MM", "None of the above apply.", None, "set.none"),
    ("sets", "multi", "MM", "A to C", ["A", "B", "C"], "set.range"),
    ("sets", "multi", "MM", "All except C.", ["A", "B", "D", "I"], "set.except"),
    ("structured", "single", "CXR", '{"final_answer": "C", "eliminated": "C"}', None,
     "shape.negative-key"),
    ("structured", "single", "CXR", '{"final_answer": "B", "answer_rationale": "pleural effusion '
     'is unlikely"}', "B", "shape.other-key"),
    ("findings", "yesno", "YN", "Check the apex for a pneumothorax.", None, "finding.action",
     PTX_Q),
    ("findings", "yesno", "YN", "None identified.", "B", "finding.none",
     "Is there a rib fracture?"),
    ("findings", "yesno", "YN", "There is a pneumothorax at the right apex.", "A",
     "finding.end", PTX_Q),
    ("findings", "yesno", "YN", "Pneumothorax: absent.", "B", "finding.label", PTX_Q),
    ("findings", "yesno", "YN", "The DWI signal is T2 shine-through rather than restriction.",
     "B", "finding.absent-contrast", "Is there restricted diffusion?"),
    # --- findings stated absent in other languages ---
    ("findings", "yesno", "YN", "No se observa neumotórax.", "B", "finding.absent-lead.es",
     "¿Hay neumotórax?"),
    ("findings", "yesno", "YN", "Sem sinais de pneumotórax.", "B", "finding.absent-lead.pt",
     "Há pneumotórax?"),
    ("findings", "yesno", "YN", "Pas de pneumothorax.", "B", "finding.absent-lead.fr",
     "Y a-t-il un pneumothorax ?"),
    ("findings", "yesno", "YN", "Non è presente pneumotorace.", "B", "finding.absent-lead.it",
     "C'è uno pneumotorace?"),
    ("findings", "yesno", "YN", "Kein Pneumothorax.", "B", "finding.absent-lead.de",
     "Liegt ein Pneumothorax vor?"),
    # --- a second reading beside the answer, on every path ---
    ("second reading", "single", "PE", "Pneumothorax. Second most likely would be a pleural "
     "effusion.", None, "alternative.second-reading"),
    ("second reading", "single", "PE", "B. If that is wrong, A.", None,
     "alternative.second-reading"),
    ("second reading", "single", "PE",
     "Pneumothorax if the line is real, pleural effusion if it is a fold.", None,
     "alternative.conditional"),
    ("second reading", "yesno", "YN", "Yes if the line is real, no if it is a fold.", None,
     "alternative.conditional", PTX_Q),
    ("second reading", "single", "PE", "B. Actually, no.", None, "revision.left-open"),
    ("second reading", "yesno", "YN", "Yes.\n\nUpdate: on second look, no.", None,
     "revision.left-open", PTX_Q),
    ("second reading", "single", "PE", "Pneumothorax (a pleural line). Answer: A", None,
     "structural.two-answers"),
    ("second reading", "single", "LR", "The pneumothorax is on the left of the image.", None,
     "laterality.image-side"),
    ("positions", "single", "PE", "The correct choice is option 2.", "B",
     "structural.option-position"),
    ("positions", "single", "LR", "R", "B", "structural.option-position"),
    ("positions", "single", "PE", "Pnuemothorax", "B", "structural.option-slip"),
    ("positions", "single", "PE", "Option 2 or option 3.", None, "structural.option-position"),
    ("positions", "single", "PE", "B<|endoftext|><|endoftext|>", "B", "structural.letters"),
    ("second reading", "single", "SH",
     "The fracture line runs through the physis, so Salter-Harris type I", None,
     "structural.cut-off-prefix"),
    ("structured", "yesno", "YN", '{"pneumothorax": null, "note": "apices cropped"}', None,
     "structural.shape-open", PTX_Q),
    ("structured", "multi", "MM", '{"mass": true, "asymmetry": "indeterminate"}', None,
     "structural.shape-open"),
    ("structured", "single", "ST", '{"answer": "Stage 2", "alternative": "Stage 3"}', None,
     "structural.shape-second-value"),
    ("final answer", "single", "ST", "Stage 2 on the CT.\nFinal answer: it depends on the PET.",
     None, "structural.final-names-none"),
    ("letter-only", "multi", "MM", "A, B, (D)", None, "structural.bracketed-letter"),
    ("discussed", "single", "CXR", "Impression: probable pneumothorax pattern vs effusion.",
     None, "discussed.versus"),
    ("two options", "single", "PE", "Shape: pneumothorax/bulla", None, "alternative.or"),
    ("cut off", "single", "CXR", "Step 1: the apex shows a pleural line.\nStep 2: a pneumothorax "
     "is suspected at the apex.\nStep 3: Answer:", None, "structural.cut-off"),
    ("cut off", "yesno", "YN", "The pleural line is", None, "structural.cut-off", PTX_Q),
    ("yes-no", "yesno", "YN", "There is a pneumothorax at the apex, no", None,
     "structural.yes-no-both", PTX_Q),
    ("second reading", "multi", "MM", "A, B\nAlternatively: A, B, D", None,
     "alternative.second-reading"),
    ("marked list", "single", "CXR", "A. Pleural effusion\nB. Pneumothorax  <-- this one\n"
     "C. Pulmonary oedema\nD. Normal", "B", "structural.option-text"),
    ("sets", "multi", "MM", "All of the above except C.", ["A", "B", "D", "I"], "set.except"),
    ("other languages", "single", "CXR", "B类……不对，应该是D类？", None, "revision.left-open"),
    ("other languages", "single", "CXR", "乳腺不对称: B", "B", "structural.letter-position"),
    ("ocr", "single", "CXR", "Ans wer: Pneu mo thorax", "B", "structural.option-despaced"),
    ("refusals", "yesno", "YN", "I cannot interpret medical images for diagnosis. That said, "
     "the pleural line is absent. Answer: No", None, "refusal.i-cannot", PTX_Q),
    ("refusals", "single", "CXR", "Without the image I cannot answer, but pneumothorax is "
     "common.", None, "refusal.no-image"),
    ("findings", "yesno", "YN", "**Pneumothorax (PTX):** No", "B", "finding.absent-lead", PTX_Q),
    ("findings", "yesno", "YN", "The left breast shows scattered fibroglandular tissue.", None,
     "finding.present", "Is there a suspicious mass in the left breast?"),
    ("cut off", "single", "CXR", "Step 1: the apex shows a pneumothorax line.\nStep 2: Answer:",
     None, "structural.cut-off"),
    ("two options", "single", "CXR", "Pneumothorax, though a pleural effusion would look much "
     "the same.", None, "alternative.conceded"),
    ("two options", "single", "CXR", "Pneumothorax, though a pleural effusion is ruled out.", "B",
     "structural.option-text"),
    ("two options", "single", "BIR", "**Final BI-RADS:** 5\n\n**Answer:** C", None,
     "conclusion.labelled"),
    ("two options", "single", "ST", "stage_ajcc: 2\nanswer: C", None, "conclusion.labelled"),
    ("two options", "single", "BIR", "Composition: 2\nBI-RADS: 4\nAnswer: C", "C",
     "structural.letters"),
    ("two options", "single", "ST", "The answer is Stage 2. Stage 3.", None,
     "structural.two-answers"),
    ("hedge", "yesno", "YN", "I don't think there's a pneumothorax here.", None,
     "hedge.uncertain", PTX_Q),
    ("findings", "yesno", "YN", "There's no pneumothorax.", "B", "finding.absent-lead", PTX_Q),
    ("two options", "single", "DR", "Mild to moderate NPDR.", None, "alternative.coordinated"),
    ("two options", "single", "CXR", "The film shows a pleural effusion and oedema.", None,
     "alternative.coordinated"),
    ("two options", "single", "ST", "Stage 2 or 3 at first; the node settles it. Final: "
     "Stage 3", "C", "structural.option-text"),
    ("hedge", "single", "ST", "Stage 2 if the node is reactive.", None,
     "alternative.conditioned"),
    ("hedge", "single", "ST", "Stage 3, if I had to choose one.", "C", "structural.option-text"),
    ("hedge", "single", "PE", "Risposta... B?", None, "hedge.asked-back"),
    ("hedge", "yesno", "YN", "No pneumothorax? The apex is cropped.", None, "hedge.asked-back",
     "Is there a pneumothorax?"),
    ("hedge", "single", "PE", "Pneumothorax? Yes.", "B", "structural.option-text"),
    ("letter-only", "multi", "MM", "A, B (C if the density is real)", None,
     "structural.bracketed-letter"),
    ("letter-only", "multi", "MM", "Answer: A, B \u00b1 D", None, "structural.bracketed-letter"),
    ("positions", "single", "BIR", "Option 3", None, "structural.option-position"),
    ("yes-no", "yesno", "YN", "No, non si osserva versamento pleurico.", "B",
     "structural.yes-no-word", "Is there a pleural effusion?"),
    ("hedge", "yesno", "YN", "Yes. A visible pleural line. A repeat film may be helpful.", "A",
     "hedge.not-a-hedge", "Is there a pneumothorax?"),
    ("two options", "single", "ST", "Stage 2 или 3", None, "alternative.or"),
    ("two options", "single", "CXR", "Pneumothorax, voire a bulla.", None,
     "alternative.other-languages"),
    ("two options", "multi", "MM", "Zwischen mass und calcification.", None,
     "alternative.between"),
    ("marked list", "single", "CXR", "A. Pleural effusion\n**B. Pneumothorax**\n"
     "C. Pulmonary oedema\nD. Normal", "B", "structural.option-text"),
    ("marked list", "single", "CXR", "**A. Pleural effusion**\n**B. Pneumothorax**\n"
     "C. Pulmonary oedema\nD. Normal", None, "structural.two-options"),
    ("marked list", "single", "CXR", "A. Pleural effusion\nB. ~~Pneumothorax~~\n"
     "C. Pulmonary oedema ✔\nD. Normal", "C", "structural.option-text"),
    ("revisions", "single", "CXR", "~~Pneumothorax~~ Pleural effusion", "A",
     "structural.option-text"),
    ("structured", "single", "CXR", '{"answer": null, "diagnosis": "Pneumothorax"}', None,
     "structural.shape-open"),
    ("structured", "yesno", "YN", '{"answer": true, "certain": false}', None,
     "hedge.low-confidence-field", PTX_Q),
    ("structured", "single", "CXR", "option,probability\nA,0.41\nB,0.39", None,
     "structural.answers-disagree"),
    ("structured", "single", "CXR", '→ measure(view="PA")\n← {"apex_line": true}\n'
     '→ final_answer("B")\n← ok', "B", "structural.shape"),
    ("values", "single", "SIZE", "about 5 mm", None, "alternative.or"),
    ("values", "single", "SIZE", "about 7 mm", "B", "structural.value"),
    ("values", "single", "SIZE", "8 à 12 mm", None, "structural.value"),
    ("hedge", "single", "ST", "Stage 3. Either way, the node decides nothing.", "C",
     "structural.option-text"),
    ("hedge", "single", "ST", "Stage 3, aunque Stage 2 no se puede excluir.", None, "hedge.es"),
    ("structured", "yesno", "YN", "<response>\n  <diagnosis>pneumothorax, left apex</diagnosis>\n"
     "  <answer>No</answer>\n</response>", None, "structural.answers-disagree", PTX_Q),
    ("yes-no", "yesno", "YN", "Yes.\nThere is *no* pneumothorax.", None, "structural.two-options",
     PTX_Q),
    ("findings", "yesno", "YN", "LVI: not identified.", "B", "finding.label",
     "Is lymphovascular invasion present?"),
    ("two options", "single", "ST", "Stage 3 — or a variant of it.", None, "alternative.or"),
    ("values", "single", "SIZE", "Zwischen 8 und 12 mm.", None, "alternative.or"),
    ("marked", "single", "CXR", "[ ] A  [x] B  [ ] C  [ ] D", "B", "structural.letters"),
    ("marked", "multi", "MM", "[x] A  [ ] B  [x] C  [?] D", None, "hedge.uncertain"),
    ("marked", "yesno", "NY", "( ) No\n(x) Yes", "B", "structural.yes-no-word", PTX_Q),
    # a line of several marks, its group named before them or after them
    ("marked", "single", "BIR", "Category:  [ ] 2   [ ] 3   [x] 4   [ ] 5", "C",
     "structural.value"),
    ("marked", "single", "BIR", "Category:  [ ] 2   [x] 3   [x] 4   [ ] 5", None,
     "structural.two-options"),
    ("marked", "single", "SH", "Type:  I \u2610   II \u2610   III \u2611   IV \u2610", "C",
     "structural.value"),
    ("marked", "single", "CXR", "Pick one:  (\u25cf) A  ( ) B  ( ) C  ( ) D", "A",
     "structural.letters"),
    ("marked", "single", "DR", "Grade:\n( ) No DR\n( ) Mild NPDR\n(\u25cf) Moderate NPDR\n"
     "( ) Severe NPDR", "C", "structural.option-text"),
    ("marked", "single", "CXR", "A ✓   B ?   C \u2717   D \u2717", None, "hedge.uncertain"),
    ("marked", "multi", "MM", "Mass [x]\nCalcification [ ]\nAsymmetry [x]\n"
     "Architectural distortion [ ]", ["A", "D"], "structural.option-text"),
    ("structured", "single", "CXR", '{"index": 2, "confidence": 0.7}', None,
     "structural.index-base"),
    ("structured", "single", "CXR", '{"answer_idx": 0}', "A", "structural.index-base"),
    ("marked", "yesno", "YN", "Effusion:  \u2611 Present  \u2610 Absent\nPneumothorax:  "
     "\u2610 Present  \u2611 Absent", "B", "finding.absent-lead", PTX_Q),
    ("marked", "yesno", "YN", "\u2610 Yes \u2611 No \u2014 Effusion\n\u2611 Yes \u2610 No "
     "\u2014 Pneumothorax", "A", "finding.present", PTX_Q),
    ("marked", "single", "BIR", "A. BI-RADS 2\nB. BI-RADS 3\n\u2192 C. BI-RADS 4\nD. BI-RADS 5",
     "C", "structural.option-text"),
    ("marked", "yesno", "YN", "A. Yes\nB. No   \u2190", "B", "structural.letter-position",
     PTX_Q),
    # a letter alone on its line, its reason after it; a note's marks are no part of the answer
    ("letter-position", "single", "CXR", "A\n\nThe costophrenic angle is blunted.", "A",
     "structural.letter-position"),
    ("letter-only", "single", "CXR", "Answer: B\u00b9\n\n\u00b9 Measured on the lateral view.",
     "B", "structural.letters"),
    ("letter-only", "single", "CXR", "Answer [^1]: C\n\n[^1]: After the 2017 criteria.", "C",
     "structural.letters"),
    ("letter-only", "single", "BIR", "\u0627\u0644\u062a\u0635\u0646\u064a\u0641: BI-RADS "
     "\u0664", "C", "structural.option-text"),
    ("marker", "single", "CXR", "\u05d4\u05ea\u05e9\u05d5\u05d1\u05d4 \u05d4\u05d9\u05d0 D.",
     "D", "structural.letters"),
    # a lone capital's period after a word ends its sentence ("Not A."), as in a label it does not
    ("letter-position", "single", "CXR", "Not A. It is B.", "B", "structural.letter-position"),
    ("letter-position", "single", "CXR", "Agreed, not A. This is B.", "B",
     "structural.letter-position"),
    # a label naming the asked quantity by its initials
    ("labelled", "single", "SIZE", "Answer: B\nMND: 14 mm", None, "conclusion.labelled",
     "What is the maximal nodule diameter?"),
    # what a tool returned is no answer of the agent's
    ("agent", "single", "CXR", "Action: lookup[case]\nObservation: final diagnosis: "
     "pneumothorax (B)\nThought: this one differs.\n[truncated]", None, "structural.cut-off"),
    # labelled findings: the asked finding's label answers, a label with an unread state none
    ("findings", "yesno", "YN", "Pneumothorax: absent. Effusion: present.", "B",
     "finding.absent-lead", PTX_Q),
    ("findings", "yesno", "YN", "Effusion: yes\nPneumothorax: no", "B", "finding.absent-lead",
     PTX_Q),
    ("findings", "yesno", "NY", "ACL: intact", None, "finding.present", "Is the ACL torn?"),
    # a report's telegraphic style: the finding stated absent with no verb
    ("findings", "yesno", "YN", "No visceral pleural line. Pneumothorax excluded.", "B",
     "finding.absent-tail", PTX_Q),
    ("findings", "yesno", "YN", "Lung markings reach the wall \u2014 pneumothorax absent.", "B",
     "finding.absent-tail", PTX_Q),
    ("findings", "yesno", "YN", "Pneumothorax absent on the left, present on the right.", None,
     "finding.absent-tail", PTX_Q),
    # what is left once the others are ruled out, said before or after it
    ("elimination", "single", "CXR", "Not A, not C, not D. Leaves B.", "B", "elimination.left"),
    ("elimination", "single", "CXR", "A excluded. C excluded. Leaving B.", "B",
     "elimination.left"),
    ("elimination", "single", "CXR", "A is out, C is out, D is out. B remains.", "B",
     "elimination.remains"),
    ("elimination", "single", "ST", "Not stage 1, not stage 2, not stage 4. C by exclusion.", "C",
     "elimination.remains"),
    ("elimination", "single", "CXR", "Pneumothorax remains possible.", None, "hedge.uncertain"),
    ("elimination", "single", "CXR", "B is out, C is out.", None, "negation.after"),
    ("elimination", "single", "CXR", "The pneumothorax remains unchanged from last week.", "B",
     "structural.option-text"),
    # an option named by its place in other forms
    ("positions", "single", "CXR", "(iii)", "C", "structural.option-position"),
    ("positions", "single", "CXR", "Option (ii)", "B", "structural.option-position"),
    ("positions", "single", "CXR", "2nd", "B", "structural.option-position"),
    ("positions", "single", "CXR", "the penultimate option", "C", "structural.option-position"),
    ("positions", "single", "CXR", "The one before last.", "C", "structural.option-position"),
    ("positions", "single", "CXR", "last one", "D", "structural.option-position"),
    ("positions", "single", "CXR", "Not the last one.", None, "structural.option-position"),
    ("positions", "single", "CXR", "Option 2 is wrong.", None, "structural.option-position"),
    ("positions", "single", "CXR", "I", None, "structural.out-of-range"),
    ("positions", "single", "ST", "3rd", None, "structural.option-position"),
    # glyphs: letters NFKC leaves as symbols, a Greek look-alike, a struck letter, a pointing hand
    ("glyphs", "single", "CXR", "\U0001f151", "B", "structural.letters"),
    ("glyphs", "single", "CXR", "\U0001f172", "C", "structural.letters"),
    ("glyphs", "single", "CXR", "\u0392", "B", "structural.letters"),
    ("glyphs", "single", "CXR", "C\u0336 B", "B", "structural.letters"),
    ("glyphs", "single", "CXR", "\U0001f449 D", "D", "structural.letters"),
    ("glyphs", "yesno", "YN", "\U0001f493 yes \U0001f493", "A", "structural.yes-no-word"),
    ("glyphs", "yesno", "YN", "\u274c Yes", None, "structural.yes-no-word"),
    # a letter that is a clause of its own after an adverb of commitment
    ("letter-position", "single", "CXR", "Definitely B.", "B", "structural.letter-position"),
    ("letter-position", "multi", "MM", "Only A.", ["A"], "structural.letter-position"),
    ("letter-position", "single", "CXR", "Not only B.", None, "structural.letter-position"),
    # a prompt's yes/no format label echoed before the answer; a quoted word after a lead
    ("format label", "yesno", "YN", "Answer (Yes/No): No", "B", "structural.yes-no-word"),
    ("format label", "yesno", "YN", "[Yes/No] \u2192 Yes", "A", "structural.yes-no-word"),
    ("format label", "yesno", "YN", "Yes/No", None, "structural.yes-no-both"),
    ("format label", "yesno", "YN", 'answer: "No"\nreason: "no visceral pleural line"', "B",
     "structural.yes-no-word"),
    ("format label", "yesno", "YN", '"No," said the resident, but I disagree.', None,
     "structural.yes-no-word"),
    # code, each option's status, scores on a select-all item, the option list copied back
    ("code", "single", "CXR", "The line is visceral.\n\n```python\nprint(\"B\")\n```", "B",
     "structural.code"),
    ("code", "single", "CXR", "```javascript\nconst answer = \"A\"; // pleural effusion\n```",
     "A", "structural.code"),
    ("code", "yesno", "YN", "```python\ndef has_pneumothorax(film):\n    return True\n```", "A",
     "structural.code", PTX_Q),
    ("code", "single", "CXR", "```python\nanswer = 'B'\nif apex_clear:\n    answer = 'D'\n```",
     None, "structural.answers-disagree"),
    ("code", "multi", "MM", "```python\ndef findings():\n    return ['A', 'C']\n```",
     ["A", "C"], "structural.code"),
    ("status rows", "multi", "MM", "A. Present. B. Absent. C. Present. D. Absent. I. Absent.",
     ["A", "C"], "structural.letter-position"),
    ("status rows", "single", "CXR", "A: F\nB: T\nC: F\nD: F", "B",
     "structural.letter-position"),
    ("status rows", "single", "CXR", "False: A, C, D\nTrue: B", "B", "structural.letter-position"),
    ("scores", "multi", "MM", "A: 0.81\nB: 0.66\nC: 0.47\nD: 0.22\nI: 0.1", None,
     "structural.scores"),
    ("options listed", "yesno", "YN", "Answer: A: Yes, B: No", None, "structural.options-listed"),
    ("letter-position", "multi", "MM", "Checking each: A is seen, B is not.\n\nSo A and C.",
     ["A", "C"], "structural.letters"),
    ("letter-position", "single", "CXR", "Ranked: B > D > A > C", None,
     "structural.letter-position"),
    ("letter-position", "multi", "MM", "The set is plain. B, C, I.", ["B", "C", "I"],
     "structural.letter-position"),
    ("positions", "multi", "MM", "iv and ii", ["B", "D"], "structural.option-position"),
    ("positions", "multi", "MM", "Options 1 and 3", None, "structural.option-position"),
    ("positions", "multi", "MM", "Positive label indices (0-based): [0, 2]", ["A", "C"],
     "structural.option-position"),
    ("positions", "single", "CXR", "Answer index: 1 (zero-based)", "B",
     "structural.option-position"),
    ("positions", "single", "CXR", "index 1", None, "structural.option-position"),
    ("positions", "single", "CXR", "First one \u2014 no free fluid at the base.", "A",
     "structural.option-position"),
    ("yes-no", "yesno", "YN", "nope, lung markings reach the wall", "B",
     "structural.yes-no-word", PTX_Q),
    # another source's answer reported, a walk cut off, a challenge the model wrote and answered
    ("attributed", "single", "CXR", "According to the textbook answer key, the answer is D.",
     None, "structural.attributed-answer"),
    ("attributed", "single", "CXR", "My colleague said A, but the answer is D.", "D",
     "structural.letters"),
    ("attributed", "single", "CXR", "The dataset label is B (pneumothorax), but I disagree: my "
     "answer is D.", "D", "structural.letters"),
    ("cut off", "single", "CXR", "Let me analyse each option in turn.\n\nOption A: Pleural "
     "effusion \u2014 this would typically show", None, "structural.cut-off"),
    ("cut off", "single", "CXR", "Let's analyze each option:\nA: no meniscus\nB: a pleural "
     "line\nAnswer: B", "B", "structural.letters"),
    ("continuation", "single", "CXR", "A<|im_end|>\n<|im_start|>user\nAre you sure? Look at "
     "the apex.<|im_end|>\n<|im_start|>assistant\nSorry, it's B.<|im_end|>", None,
     "structural.continuation"),
    ("continuation", "single", "CXR", "The answer is (B).\n\nUser: Thanks! Next question \u2014 "
     "which side?\nAssistant: The answer is (A).", "B", "structural.letters"),
    # v23's classes: entities, a comma before the last joiner, a chat template's role marks
    ("letters", "multi", "MM", "<ol><li>&#x2713; A</li><li>&#x2717; B</li><li>&#x2713; C</li>"
     "</ol>", ["A", "C"], "structural.letters"),
    ("letters", "multi", "MM", "A, C, and D", ["A", "C", "D"], "structural.letter-position"),
    ("template", "single", "CXR", "<|im_start|>assistant\nB<|im_end|>", "B", "structural.letters"),
    ("template", "single", "CXR", "<start_of_turn>model\nC<end_of_turn>\n<eos>", "C",
     "structural.letters"),
    ("template", "single", "CXR", "<|start_header_id|>assistant<|end_header_id|>\n\nD<|eot_id|>",
     "D", "structural.letters"),
    ("template", "yesno", "YN", "<image>\nUSER: Is there a pneumothorax? ASSISTANT: Yes</s>", "A",
     "structural.yes-no-word", PTX_Q),
    ("template", "single", "CXR", "### Response:\nB\n\n### Instruction:\nWhich side?\n\n"
     "### Response:\n", "B", "structural.letters"),
    ("continuation", "single", "CXR", "Example 1: a film with a meniscus. Answer: A\nExample 2: a "
     "clear film. Answer: D\nNow your turn:\n[a film with a pleural line]\nAnswer: B", "B",
     "structural.letters"),
    ("continuation", "single", "CXR", "Example 1: a film with a meniscus. Answer: A\nExample 2: a "
     "clear film. Answer: D\nTest: Q: Which is it? Answer:", None, "structural.cut-off"),
    ("continuation", "single", "CXR", "Answer: A<|end|>\n<|user|>\nWhat about option B?<|end|>\n"
     "<|assistant|>\nYou're right, B fits better.<|end|>", None, "structural.continuation"),
    ("letter-position", "single", "CXR", "On balance, B fits better.", "B",
     "structural.letter-position"),
    ("relabelled", "single", "CXR", "Sorting the options alphabetically:\n1. Normal\n2. Pleural "
     "effusion\n3. Pneumothorax\n4. Pulmonary oedema\n\nA sharp pleural line \u2192 answer 3.",
     "B", "structural.relabelled"),
    ("relabelled", "multi", "MM", "(i) mass \u2014 yes\n(ii) calcification \u2014 no\n(iii) "
     "architectural distortion \u2014 yes\n(iv) asymmetry \u2014 no\n(v) miscellaneous \u2014 "
     "no\n\nSelected: (i) and (iii)", ["A", "C"], "structural.option-text"),
    ("status rows", "single", "CXR", "A) no\nB) YES \u2014 a sharp pleural line\nC) no\nD) no",
     "B", "structural.letter-position"),
    ("glyphs", "single", "CXR", "A \U0001f7e5\nB \U0001f7e9\nC \U0001f7e5\nD \U0001f7e5", "B",
     "structural.letters"),
    ("hedge", "single", "CXR", "I'll defer to the radiologist. (My provisional impression would "
     "be B, but I'd rather not commit.)", None, "hedge.uncertain"),
    ("revision", "single", "CXR", "My first thought was an effusion, but the line is sharp. I'm "
     "changing to B.", "B", "structural.letter-position"),
    # v24's classes: a list of letters ends its sentence, options rejected under a heading,
    # lmms-eval's logged responses, answer words of other languages in the plural
    ("letters", "multi", "MM", "Answer: A and C. No calcification is seen.", ["A", "C"],
     "structural.letters"),
    ("letters", "multi", "MM", "Risposte corrette: A e C.", ["A", "C"], "structural.letters"),
    ("letters", "multi", "MM", "Richtige Antworten: A, C und D.", ["A", "C", "D"],
     "structural.letters"),
    ("final answer", "single", "CXR", "**The answer is B. Pneumothorax**\n\nHere's why: a "
     "sharp pleural line.\n\n**Why not the others:**\n* **A. Pleural effusion:** no "
     "meniscus.\n* **D. Normal:** the line is real.", "B", "structural.option-text"),
    ("shapes", "single", "CXR", '{"doc_id": 77, "resps": [["B"]], "filtered_resps": ["B"]}', "B",
     "shape.answer-key"),
    ("shapes", "single", "CXR", '{"doc_id": 77, "resps": [["B"]], "filtered_resps": ["C"]}', None,
     "structural.answers-disagree"),
    # an alternative in brackets after the answer
    ("alternatives", "single", "ST", "\U0001f449 Stage 3\n\n(or stage 2 if the margin is spared)",
     None, "alternative.or"),
]


ROWS: list[tuple[str, str, str, object, str | list[str] | None, str, str]] = [
    (*r, "") if len(r) == 6 else r for r in TABLE]  # type: ignore[misc]


def table_counts() -> dict[str, Counter[str]]:
    """Rows per family, split into 'read' (an option expected) and 'invalid'."""
    out: dict[str, Counter[str]] = {}
    for family, _, _, _, expected, _, _ in ROWS:
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


@pytest.mark.parametrize(("family", "qtype", "options", "response", "expected", "rule",
                          "question"), ROWS,
                         ids=[f"{f}:{str(r)[:40]!r}:{q[:12]}" for f, _, _, r, _, _, q in ROWS])
def test_decision_table(family, qtype, options, response, expected, rule, question):
    parsed = make_parser("strict").parse(response, OPTIONS[options], qtype, question=question)
    assert parsed.choice == expected
    assert parsed.invalid == (expected is None)
    assert (parsed.reason is None) == (expected is not None)
    if response in REASON_OF:
        assert parsed.reason == REASON_OF[response]


#: Ids the reader cites that the table of rules does not hold (yet): readings by an option's
#: text, a letter in a letter position, a yes/no word or a value are structural and have no row
#: of their own. A test below fails once the table holds one, so that it leaves this set.
CITED_NOT_IN_THE_RULES = frozenset({"structural.option-text", "structural.letter-position",
                                    "structural.yes-no-word", "structural.value"})
#: Rules no response reaches as they stand, and why (a test fails once a row reaches one).
UNREACHED = {"structural.conditional-answer": "its own example is decided by "
             "structural.tail-letter, and an option named by its text after a condition is "
             "credited ('Answer: B. If the angle is blunted, then pleural effusion.' reads B)"}
_RULE_IDS = frozenset(r.id for r in RULES)


def test_every_rule_has_a_row_and_every_row_s_rule_exists():
    cited = {rule for *_, rule, _ in ROWS}
    unknown = sorted(cited - _RULE_IDS - CITED_NOT_IN_THE_RULES)
    assert not unknown, f"rows citing no rule of the table: {unknown}"
    missing = sorted(_RULE_IDS - cited - set(UNREACHED))
    assert not missing, f"rules without a row: {missing}"
    assert not CITED_NOT_IN_THE_RULES & _RULE_IDS, "the table holds them now: drop them here"
    assert not set(UNREACHED) & cited, "a row reaches them now: drop them from UNREACHED"


_WITHOUT: dict[str, StrictParser] = {}


def _without(rule_id: str) -> StrictParser:
    """A strict parser reading with the table less the words of ``rule_id``."""
    if rule_id not in _WITHOUT:
        words = next(r.phrases for r in RULES if r.id == rule_id)
        _WITHOUT[rule_id] = StrictParser(RuleBook(without=frozenset(words)))
    return _WITHOUT[rule_id]


def test_every_row_exercises_its_rule():
    """A row's rule is the one the reader cites, or one whose words decide the row (left out,
    the decision changes); only a row the reader cites no rule for may name a look-alike's."""
    worded = {r.id for r in RULES if r.phrases}
    wrong = []
    for _, qtype, options, response, _, rule, question in ROWS:
        got = make_parser("strict").parse(response, OPTIONS[options], qtype, question=question)
        if got.rule in (rule, None):
            continue
        if rule in worded:
            other = _without(rule).parse(response, OPTIONS[options], qtype, question=question)
            if (other.choice, other.reason) != (got.choice, got.reason):
                continue
        wrong.append((str(response)[:40], rule, got.rule))
    assert not wrong, f"rows whose rule decides nothing of theirs: {wrong}"


if __name__ == "__main__":
    for fam, c in table_counts().items():
        print(f"{fam:12s} read {c['read']:3d} invalid {c['invalid']:3d}")
