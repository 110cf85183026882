"""The integrity audit of a benchmark: leakage, near-duplicates, contamination, shortcuts.

``medvqa audit BENCH/`` runs :func:`run_audit` and writes :class:`AuditFile` (audit.json,
documented in docs/formats.md); ``medvqa validate`` runs the cheap part (:func:`cheap_leaks`:
the same case, bytes or pixels across splits). Modules, one concept each:

- ``_hashing``: an image's fingerprint (SHA-256, pixel digest, perceptual hashes);
- ``_lsh``: candidate near-duplicate pairs by bit sampling (the default search's first stage,
  close to linear in the number of images);
- ``_index``: every pair of 64-bit hashes within a Hamming radius (multi-index hashing, the
  exact search);
- ``_collection``: a BENCH/ or an image folder read into compact items and fingerprints;
- ``_near``, ``_leakage``, ``_contamination``: near-duplicate pairs, leaks across splits,
  images found in other collections;
- ``_questions``, ``_shortcuts``, ``_guess``: duplicate questions and labelling conflicts,
  answer-letter / option-cue / answer-class tests, guessability from scored runs;
- ``_model``, ``_severity``, ``_audit``, ``_cheap``: the audit.json format, severities and
  order, the orchestration, the checks ``medvqa validate`` runs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from medvqa._lazy import lazy_exports

if TYPE_CHECKING:
    from medvqa.benchmark.audit._audit import run_audit, summary_lines, write_audit
    from medvqa.benchmark.audit._cheap import cheap_leaks
    from medvqa.benchmark.audit._collection import IMAGE_SUFFIXES, ImageTable, hash_files
    from medvqa.benchmark.audit._config import MAX_FINDINGS, NEAR_THRESHOLD, AuditConfig, Thresholds
    from medvqa.benchmark.audit._hashing import (
        COLUMN_LIMIT,
        CORNER_NAMES,
        Fingerprint,
        fingerprint,
        words64,
    )
    from medvqa.benchmark.audit._index import brute_force_pairs, near_pairs, popcount
    from medvqa.benchmark.audit._model import (
        AUDIT_VERSION,
        CHECKS,
        SEVERITIES,
        AuditFile,
        Finding,
        ImageRef,
    )
    from medvqa.benchmark.audit._near import near_duplicates

_WHERE: dict[str, str] = {
    "MAX_FINDINGS": "_config",
    "AuditConfig": "_config",
    "run_audit": "_audit",
    "summary_lines": "_audit",
    "write_audit": "_audit",
    "cheap_leaks": "_cheap",
    "NEAR_THRESHOLD": "_config",
    "Fingerprint": "_hashing",
    "Thresholds": "_config",
    "fingerprint": "_hashing",
    "brute_force_pairs": "_index",
    "near_pairs": "_index",
    "AUDIT_VERSION": "_model",
    "CHECKS": "_model",
    "SEVERITIES": "_model",
    "AuditFile": "_model",
    "Finding": "_model",
    "ImageRef": "_model",
    "IMAGE_SUFFIXES": "_collection",
    "ImageTable": "_collection",
    "hash_files": "_collection",
    "COLUMN_LIMIT": "_hashing",
    "CORNER_NAMES": "_hashing",
    "words64": "_hashing",
    "popcount": "_index",
    "near_duplicates": "_near",
}

__all__ = [
    "AUDIT_VERSION",
    "CHECKS",
    "MAX_FINDINGS",
    "NEAR_THRESHOLD",
    "SEVERITIES",
    "AuditConfig",
    "AuditFile",
    "Finding",
    "Fingerprint",
    "ImageRef",
    "Thresholds",
    "brute_force_pairs",
    "cheap_leaks",
    "fingerprint",
    "near_pairs",
    "run_audit",
    "summary_lines",
    "write_audit",
    "IMAGE_SUFFIXES",
    "ImageTable",
    "hash_files",
    "COLUMN_LIMIT",
    "CORNER_NAMES",
    "words64",
    "popcount",
    "near_duplicates",
]

__getattr__, __dir__ = lazy_exports(__name__, _WHERE, globals())
