"""``audit.json``: what ``medvqa audit`` found, as a versioned pydantic model.

The same inputs give the same bytes: findings are sorted (severity, check, then their own key),
every set is written as a sorted list, and nothing in the file depends on the clock or the
machine (paths are written as they were given). docs/formats.md describes the format for
people; each field's docstring here is its definition.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

AUDIT_VERSION = 1

#: Severity levels, most severe first. ``published`` marks a leak that the dataset's own
#: published split carries (benchmark.json ``published_split``): reported, never a gate.
Severity = Literal["error", "warning", "published", "note"]
SEVERITIES: tuple[str, ...] = ("error", "warning", "published", "note")

#: Every check, in the order the report shows them.
CHECKS: tuple[str, ...] = (
    "split-case",
    "split-bytes",
    "split-pixels",
    "split-near",
    "against-bytes",
    "against-pixels",
    "against-near",
    "question-duplicate",
    "question-near-duplicate",
    "label-conflict",
    "answer-letter-balance",
    "option-cue",
    "answer-class-balance",
    "guessability",
    "item-quality",
    "unreadable-image",
    "skipped-line",
    "truncated",
)


class ImageRef(BaseModel):
    """One image a finding points at."""

    model_config = ConfigDict(use_attribute_docstrings=True, extra="forbid")

    collection: str
    """``bench`` (the audited benchmark) or the label of an ``--against`` collection."""
    path: str
    """Path relative to that collection's folder."""
    splits: list[str] = Field(default_factory=list)
    """Splits of the items that use the image (sorted; empty for an image folder)."""


class Finding(BaseModel):
    """One thing the audit found."""

    model_config = ConfigDict(use_attribute_docstrings=True, extra="forbid")

    check: str
    """Which check found it (one of ``CHECKS``)."""
    severity: Severity
    """error, warning, published (a leak of the published split) or note."""
    message: str
    """One line for people."""
    items: list[str] = Field(default_factory=list)
    """Ids of the benchmark items involved (sorted; at most 50, see ``n_items``)."""
    n_items: int = 0
    """How many items are involved in all."""
    images: list[ImageRef] = Field(default_factory=list)
    """The images involved (a pair for near-duplicates: the thumbnails of audit.html)."""
    distance: int | None = None
    """Near-duplicates: the larger Hamming distance of the two perceptual hashes (bits)."""
    splits: list[str] = Field(default_factory=list)
    """Splits involved (sorted)."""
    data: dict[str, Any] = Field(default_factory=dict)
    """Figures of the check (counts, expected counts, test statistic, p-value, CI …)."""


class CollectionInfo(BaseModel):
    """A collection the audit read: the benchmark itself or one ``--against`` folder."""

    model_config = ConfigDict(use_attribute_docstrings=True, extra="forbid")

    label: str
    """``bench``, or ``against1``, ``against2`` … in the order given."""
    kind: Literal["benchmark", "images"]
    """A BENCH/ folder (items.jsonl) or a plain folder of images."""
    path: str
    """The folder as given on the command line."""
    name: str = ""
    """benchmark.json's name (benchmarks), else the folder's name."""
    items_sha256: str = ""
    """SHA-256 of items.jsonl (benchmarks)."""
    items: int = 0
    """Items read (benchmarks)."""
    images: int = 0
    """Distinct image files read."""
    unreadable: int = 0
    """Images that could not be read or decoded (reported, then skipped)."""
    published_split: str | None = None
    """benchmark.json's ``published_split``: the split is the dataset publisher's."""


class RunInfoRef(BaseModel):
    """A RUN/ folder read for guessability (``--runs``)."""

    model_config = ConfigDict(use_attribute_docstrings=True, extra="forbid")

    path: str
    """The folder as given."""
    model: str = ""
    """Model spec (metrics.json)."""
    text_only: bool = False
    """run.json says the model reads no images (its clean condition is text-only)."""


class IrtRef(BaseModel):
    """The calibration read for item quality (``--irt``)."""

    model_config = ConfigDict(use_attribute_docstrings=True, extra="forbid")

    path: str
    """irt.json as given."""
    item_model: str
    """1pl or 2pl."""
    models: int
    """Models of the zoo."""
    suspected_label_errors: int
    """Items suspected of a wrong answer key."""
    broken: int
    """Items that look broken or ambiguous."""
    uninformative: int
    """Items every model answered alike."""


class AuditSettings(BaseModel):
    """The thresholds and methods the audit used (so a reader can judge the findings)."""

    model_config = ConfigDict(use_attribute_docstrings=True, extra="forbid")

    near_threshold: int
    """Largest Hamming distance (bits of 64) of the centre perceptual hash of a near-duplicate
    (the index's search radius)."""
    whole_threshold: int
    """The same for each of the two whole-image hashes (grey, equalised)."""
    fine_threshold: int
    """The same (bits of 256) for the fine centre hash."""
    mirrored: bool
    """Whether horizontally mirrored copies are searched too."""
    hash_version: int
    """Version of the image fingerprint recipe (2: corner views; 1: files written before)."""
    corner_views: int = 0
    """Corner views per image compared with the other images' hashes (copies cropped off a
    side or corner; 4, or 0 when not searched and in files of hash version 1)."""
    corner_cut: float = 0.0
    """Share of the image's width and height each corner view cuts off two adjacent sides."""
    near_search: str = "exact"
    """How near-duplicate candidates were found: ``sampled`` (bit sampling over the three
    coarse hashes, 240 fixed key tables: every pair differing in fewer than 10 of the 192
    bits, and in practice every altered copy within the thresholds) or ``exact`` (multi-index
    hashing over the centre hash, every pair within the thresholds; also what a file written
    before this field used)."""
    question_method: str
    """How near-duplicate questions were found: tfidf, jaccard (no scikit-learn) or embeddings."""
    question_similarity: float
    """Smallest similarity (cosine for tfidf / embeddings, Jaccard otherwise) of two
    questions called near-duplicates."""
    alpha: float
    """Significance level of the shortcut tests (a warning below it)."""
    seed: int
    """Seed of every random step (none is random today; recorded for future checks)."""


class Summary(BaseModel):
    """Counts of findings."""

    model_config = ConfigDict(use_attribute_docstrings=True, extra="forbid")

    by_severity: dict[str, int] = Field(default_factory=dict)
    """Severity → findings (every severity present, zeros included)."""
    by_check: dict[str, dict[str, int]] = Field(default_factory=dict)
    """Check → severity → findings (only checks with findings)."""
    leaked_items: dict[str, int] = Field(default_factory=dict)
    """Split → items of that split sharing a case, an image or near-duplicate image with an
    item of another split (any severity, published included)."""


class AuditFile(BaseModel):
    """``audit.json``: one audit of one benchmark."""

    model_config = ConfigDict(use_attribute_docstrings=True, extra="forbid")

    schema_version: int = AUDIT_VERSION
    """Version of this format."""
    tool_version: str
    """medvqa version that wrote it."""
    benchmark: CollectionInfo
    """The audited benchmark."""
    against: list[CollectionInfo] = Field(default_factory=list)
    """The collections it was compared with (``--against``), in the order given."""
    runs: list[RunInfoRef] = Field(default_factory=list)
    """The runs read for guessability (``--runs``), in the order given."""
    irt: IrtRef | None = None
    """The calibration read for item quality (``--irt``; null: none)."""
    settings: AuditSettings
    """Thresholds and methods."""
    counts: dict[str, Any] = Field(default_factory=dict)
    """Items by split and question type, images, pairs compared."""
    summary: Summary
    """Counts of the findings."""
    findings: list[Finding] = Field(default_factory=list)
    """Everything found, most severe first."""

    def worst(self) -> str | None:
        """The most severe level present, ``published`` and ``note`` included; None if none."""
        present = {f.severity for f in self.findings}
        return next((s for s in SEVERITIES if s in present), None)

    def fails(self, level: str) -> bool:
        """Whether a finding is at ``level`` or above (``error`` or ``warning``).

        ``published`` and ``note`` never fail: a published split's leaks are the publisher's.
        """
        gate = {"error": {"error"}, "warning": {"error", "warning"}}.get(level, set())
        return any(f.severity in gate for f in self.findings)
