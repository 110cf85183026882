"""The option sets the rule table's examples refer to by name."""

from __future__ import annotations

from typing import Final

__all__ = ["OPTION_SETS"]

#: Name → options (letter → text, display order).
OPTION_SETS: Final[dict[str, dict[str, str]]] = {
    "LR": {"A": "Left", "B": "Right"},
    "SH": {"A": "Type I", "B": "Type II", "C": "Type III", "D": "Type IV"},
    "YN": {"A": "Yes", "B": "No"},
    "NY": {"A": "No", "B": "Yes"},
    "PE": {"A": "Pleural effusion", "B": "Pneumothorax", "C": "Normal"},
    "CXR": {"A": "Pleural effusion", "B": "Pneumothorax", "C": "Pulmonary oedema",
            "D": "Normal"},
    "LUNG": {"A": "adenocarcinoma", "B": "squamous cell carcinoma", "C": "benign lung tissue",
             "D": "large cell carcinoma"},
    "MM": {"A": "Mass", "B": "Calcification", "C": "Architectural distortion",
           "D": "Asymmetry", "I": "Miscellaneous"},
    "MULTI": {"A": "Mass", "B": "Calcification", "C": "Architectural distortion",
              "D": "Asymmetry", "E": "Skin thickening"},
    "ST": {"A": "Stage 1", "B": "Stage 2", "C": "Stage 3", "D": "Stage 4"},
    "GL": {"A": "Glaucoma", "B": "Non-glaucoma"},
    "CA": {"A": "Cannot be assessed", "B": "Benign", "C": "Malignant"},
    "ORG": {"A": "Klebsiella pneumoniae", "B": "Staphylococcus aureus",
            "C": "Pseudomonas aeruginosa", "D": "Candida albicans",
            "E": "Mycobacterium tuberculosis"},
    "GRADE": {"A": "Grade 1", "B": "Grade 2", "C": "Grade 3", "D": "Grade 4"},
    "BIRADS": {"A": "BI-RADS 2", "B": "BI-RADS 3", "C": "BI-RADS 4", "D": "BI-RADS 5"},
    "SIZE": {"A": "< 5 mm", "B": "5-10 mm", "C": "11-20 mm", "D": "> 20 mm"},
    "DR": {"A": "No DR", "B": "Mild NPDR", "C": "Moderate NPDR", "D": "Severe NPDR",
           "E": "Proliferative DR"},
}
