"""What to cite for the source datasets medvqa imports or ships recipes for (dataset cards).

Keyed by a dataset name as benchmark.json's ``sources`` spells it, compared case-folded with
punctuation and spaces dropped; a source not listed gets "see its URL". The references are
those the datasets' publishers ask for (data/*/LICENSE-NOTE.md for the shipped samples).
"""

from __future__ import annotations

import re

CITATIONS: dict[str, str] = {
    "vqarad": "Lau JJ, Gayen S, Ben Abacha A, Demner-Fushman D. A dataset of clinically "
              "generated visual questions and answers about radiology images. Scientific Data "
              "5, 180251 (2018). doi:10.1038/sdata.2018.251",
    "slake": "Liu B, Zhan L-M, Xu L, Ma L, Yang Y, Wu X-M. SLAKE: A Semantically-Labeled "
             "Knowledge-Enhanced Dataset for Medical Visual Question Answering. IEEE ISBI 2021.",
    "pathvqa": "He X, Zhang Y, Mou L, Xing E, Xie P. PathVQA: 30000+ Questions for Medical "
               "Visual Question Answering. arXiv:2003.10286 (2020).",
    "pmcvqa": "Zhang X, Wu C, Zhao Z, Lin W, Zhang Y, Wang Y, Xie W. PMC-VQA: Visual "
              "Instruction Tuning for Medical Visual Question Answering. arXiv:2305.10415 "
              "(2023).",
    "omnimedvqa": "Hu Y, Li T, Lu Q, Shao W, He J, Qiao Y, Luo P. OmniMedVQA: A New "
                  "Large-Scale Comprehensive Evaluation Benchmark for Medical LVLM. CVPR 2024.",
    "pathmmu": "Sun Y, Wu H, Zhu C, et al. PathMMU: A Massive Multimodal Expert-Level Benchmark "
               "for Understanding and Reasoning in Pathology. arXiv:2401.16355 (2024).",
    "lc25000": "Borkowski AA, Bui MM, Thomas LB, Wilson CP, DeLand LA, Mastorides SM. Lung and "
               "Colon Cancer Histopathological Image Dataset (LC25000). arXiv:1912.12142 (2019).",
    "idrid": "Porwal P, Pachade S, Kokare M, et al. Indian Diabetic Retinopathy Image Dataset "
             "(IDRiD). IEEE DataPort (2018). doi:10.21227/H25W98",
    "minimias": "Suckling J, et al. The Mammographic Image Analysis Society Digital Mammogram "
                "Database. Excerpta Medica International Congress Series 1069, 375-378 (1994).",
    "nctcrche100k": "Kather JN, Halama N, Marx A. 100,000 histological images of human "
                    "colorectal cancer and healthy tissue. Zenodo (2018). "
                    "doi:10.5281/zenodo.1214456",
    "kather2016": "Kather JN, Weis C-A, Bianconi F, et al. Multi-class texture analysis in "
                  "colorectal cancer histology. Scientific Reports 6, 27988 (2016). "
                  "doi:10.5281/zenodo.53169",
    "retinamnist": "Yang J, Shi R, Wei D, et al. MedMNIST v2 - A large-scale lightweight "
                   "benchmark for 2D and 3D biomedical image classification. Scientific Data "
                   "10, 41 (2023).",
}

_KEY = re.compile(r"[^0-9a-z]")


def citation_for(dataset: str) -> str | None:
    """The reference of a source dataset, or None when medvqa does not know it.

    >>> citation_for("VQA-RAD").startswith("Lau JJ")
    True
    >>> citation_for("PathMMU-SocialPath").startswith("Sun Y"), citation_for("mine")
    (True, None)
    """
    key = _KEY.sub("", dataset.casefold())
    if key in CITATIONS:
        return CITATIONS[key]
    return next((text for k, text in sorted(CITATIONS.items()) if key.startswith(k)), None)
