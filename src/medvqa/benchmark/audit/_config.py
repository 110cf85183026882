"""What one ``medvqa audit`` is asked to do, and the near-duplicate thresholds it uses.

Kept apart from the checks (numpy, Pillow) so the command line reads the defaults at start-up,
each stated once, here.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass
from pathlib import Path
from typing import NamedTuple

#: Findings of one check and severity kept in audit.json (the summary counts them all).
MAX_FINDINGS = 1000


class Thresholds(NamedTuple):
    """Largest Hamming distances at which two images are near-duplicates (all must hold).

    Attributes:
        centre: bits of 64 of the centre hash, the one the index searches (its radius).
        whole: bits of 64 of each of the two whole-image hashes (grey, equalised).
        fine: bits of 256 of the fine centre hash.
    """

    centre: int = 12
    whole: int = 14
    fine: int = 80


#: The documented thresholds. Chosen on one half of the shipped sample images: the smallest
#: that find at least 97 % of each kind of altered copy (re-encoded at JPEG quality 60,
#: halved, 5 %-cropped, brightness-shifted), then reported on the other half with the rate of
#: false matches between distinct images of one folder (``medvqa bench --only audit``). The
#: whole-image hashes move most under a crop, so they get two bits more than the centre.
NEAR_THRESHOLD = Thresholds()


@dataclass(frozen=True)
class AuditConfig:
    """One ``medvqa audit``.

    Attributes:
        bench: the BENCH/ folder audited.
        against: other BENCH/ folders or image folders to look for its images in.
        runs: scored RUN/ folders whose image-free conditions measure guessability.
        near: the near-duplicate thresholds (:data:`NEAR_THRESHOLD`).
        mirrored: also find horizontally mirrored copies.
        corners: also find copies cropped off one side or corner (each image's corner views
            against the others' hashes; ``_hashing.CORNER_CUT``).
        exact_near: search near-duplicates exactly (multi-index hashing; its time grows as
            ``n**1.7`` above 30,000 images) instead of by bit sampling (close to linear; may
            miss pairs at the limits of all thresholds at once, see ``_lsh``).
        question_method: ``tfidf`` (default), ``jaccard`` or ``embeddings``.
        question_similarity: threshold of near-duplicate questions (None: the method's).
        embedding_model: sentence-transformers model of ``embeddings``.
        alpha: significance level of the shortcut tests.
        seed: recorded; no check is random today.
        workers: threads hashing images.
        max_findings: findings kept per check and severity.
        removes: condition name → what it removes from what the model is shown (``image``,
            ``question`` …); guessability reads it (the command line passes the conditions
            registry's answer). None: only runs of text-only models count.
        irt: an irt.json (``medvqa irt fit``) of this benchmark whose flagged items the
            item-quality check reports (None: no such check).
    """

    bench: Path
    _: KW_ONLY
    against: tuple[Path, ...] = ()
    runs: tuple[Path, ...] = ()
    near: Thresholds = NEAR_THRESHOLD
    mirrored: bool = True
    corners: bool = True
    exact_near: bool = False
    question_method: str = "tfidf"
    question_similarity: float | None = None
    embedding_model: str = "sentence-transformers/all-MiniLM-L6-v2"
    alpha: float = 0.01
    seed: int = 0
    workers: int = min(4, os.cpu_count() or 1)
    max_findings: int = MAX_FINDINGS
    removes: Callable[[str], frozenset[str]] | None = None
    irt: Path | None = None
