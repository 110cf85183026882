"""``audit.html``: the audit as one self-contained page, with thumbnail pairs.

Every text from the benchmark (messages, item ids, paths) is escaped by Jinja2's autoescape;
images are small inline JPEG data URIs (at most :data:`THUMB_PX` pixels a side), so the page
needs nothing beside it. A benchmark image is read only from inside its folder
(``resolve_inside``); an image that cannot be read is shown as "(no thumbnail)".

:func:`write_audit_report` is what ``medvqa audit`` calls: it runs the audit (which lives
below, in :mod:`medvqa.benchmark.audit`), writes audit.json and this page.
"""

from __future__ import annotations

import base64
import io
from dataclasses import KW_ONLY, dataclass
from pathlib import Path

from medvqa._resources import shipped_text
from medvqa.benchmark import ImageLoadError, resolve_inside
from medvqa.benchmark.audit import SEVERITIES, AuditConfig, AuditFile, run_audit, write_audit
from medvqa.store import atomic_write_text

#: Largest side of a thumbnail, pixels.
THUMB_PX = 128
#: Findings with thumbnails per check (the page stays small for a large audit).
MAX_THUMB_FINDINGS = 200

EXPLAIN = {
    "split-case": "Items of one case (patient or study) in two splits.",
    "split-bytes": "One image file used by items of two splits.",
    "split-pixels": "Different files that decode to the same pixels.",
    "split-near": "Near-duplicate images (perceptual hashes) used across splits, or within one.",
    "against-bytes": "Images of this benchmark with the same bytes in another collection.",
    "against-pixels": "Images of this benchmark with the same pixels in another collection.",
    "against-near": "Images of this benchmark with a near-duplicate in another collection.",
    "question-duplicate": "The same question about the same image, with the same answer.",
    "question-near-duplicate": "A paraphrase of a question about the same image across splits.",
    "label-conflict": "The same or a near-duplicate question about the same image, answered "
                      "differently.",
    "answer-letter-balance": "Answer letters against each item's expectation (χ²).",
    "option-cue": "Whether the longest / most specific / most hedged option is the answer more "
                  "often than chance (exact one-sided test).",
    "answer-class-balance": "The most frequent answer per split and question type.",
    "guessability": "Accuracy without the image, from scored runs, against chance.",
    "item-quality": "Items the zoo's answers single out (medvqa irt fit): a key that looks "
                    "wrong, a broken item, or one every model answers alike.",
    "unreadable-image": "Images that could not be read; skipped by the image checks.",
    "skipped-line": "Lines of items.jsonl that could not be read.",
    "truncated": "Findings left out of audit.json (the summary counts them all).",
}

#: Checks whose figures (``data``) are shown.
DETAILED = frozenset({"answer-letter-balance", "option-cue", "answer-class-balance",
                      "guessability", "label-conflict"})


@dataclass(frozen=True)
class AuditReportConfig:
    """One ``medvqa audit``: what to audit and where to write it.

    Attributes:
        audit: the audit's configuration.
        out: audit.json.
        html: audit.html (None: none).
    """

    audit: AuditConfig
    out: Path
    _: KW_ONLY
    html: Path | None = None


def _thumb(path: Path) -> str | None:
    """A data URI of a small JPEG of the image at ``path``, or None when it cannot be read."""
    from PIL import Image

    try:
        with Image.open(path) as im:
            im.load()
            im.thumbnail((THUMB_PX, THUMB_PX))
            small = im if im.mode in {"L", "RGB"} else im.convert("RGB")
            buf = io.BytesIO()
            small.save(buf, "JPEG", quality=70)
    except Exception:  # noqa: BLE001 - a thumbnail is decoration; any failure shows none
        return None
    return "data:image/jpeg;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _thumbnails(audit: AuditFile) -> dict[tuple[str, str], str]:
    roots = {c.label: (Path(c.path), c.kind) for c in [audit.benchmark, *audit.against]}
    out: dict[tuple[str, str], str] = {}
    shown: dict[str, int] = {}
    for f in audit.findings:
        if not f.images:
            continue
        shown[f.check] = shown.get(f.check, 0) + 1
        if shown[f.check] > MAX_THUMB_FINDINGS:
            continue
        for ref in f.images:
            key = (ref.collection, ref.path)
            if key in out or ref.collection not in roots:
                continue
            root, _ = roots[ref.collection]
            try:
                path = resolve_inside(root, ref.path)
            except ImageLoadError:
                continue
            uri = _thumb(path)
            if uri is not None:
                out[key] = uri
    return out


def render_audit_html(audit: AuditFile) -> str:
    """The audit page (self-contained: CSS and thumbnails inline)."""
    from jinja2 import Environment, select_autoescape

    env = Environment(autoescape=select_autoescape(default_for_string=True),
                      keep_trailing_newline=True)
    template = env.from_string(shipped_text("report", "templates", "audit.html.j2"))
    groups: dict[str, list[object]] = {}
    for f in audit.findings:
        groups.setdefault(f.check, []).append(f)
    return template.render(audit=audit, severities=SEVERITIES, groups=list(groups.items()),
                           thumbs=_thumbnails(audit), explain=EXPLAIN, detailed=DETAILED)


def write_audit_report(config: AuditReportConfig) -> AuditFile:
    """Run the audit of ``config.audit``; write audit.json and (if asked) audit.html."""
    audit = run_audit(config.audit)
    write_audit(audit, config.out)
    if config.html is not None:
        atomic_write_text(config.html, render_audit_html(audit))
    return audit
