"""How far two people agree when they read the same responses (``review stats``' ``readings``).

Over the queued responses read by at least two people (their latest readings; an admin's
adjudication is not a rating), each reading is one nominal label — an option (a set of options
for multi-answer items), no answer committed, or a refusal — and the block holds percent
agreement, Fleiss' κ and Krippendorff's α over all readers and Cohen's κ per pair of readers,
each with its 95 % bootstrap interval over responses (:mod:`medvqa.review._agreement`), and the
counts of agreed, disputed and adjudicated responses.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import numpy as np

from medvqa.review._agreement import agreement_block, pairwise_cohen
from medvqa.review._audit_store import AuditStore, resolve_reading


def reading_agreement(audit: AuditStore, bench: str, resamples: int, seed: int
                      ) -> dict[str, Any]:
    """The ``readings`` block of ``review stats`` for one benchmark."""
    rows = audit.readings(bench)
    latest = {qid: {r.reviewer: r for r in rs if r.kind == "reading"} for qid, rs in rows.items()}
    status = Counter(resolve_reading(rows.get(qid, [])).status
                     for qid in audit.questions(bench))
    shared = sorted(qid for qid, by in latest.items() if len(by) >= 2)
    raters = sorted({name for qid in shared for name in latest[qid]})
    labels: dict[str, int] = {}
    m = np.full((len(raters), len(shared)), np.nan)
    for j, qid in enumerate(shared):
        for i, name in enumerate(raters):
            r = latest[qid].get(name)
            if r is not None:
                label = f"{r.verdict}:{json.dumps(r.choice)}"
                m[i, j] = labels.setdefault(label, len(labels))
    out: dict[str, Any] = {"questions": sum(status.values()),
                           "status": dict(sorted(status.items())), "readers": raters}
    out.update(agreement_block(m, resamples, seed))
    out["cohen_kappa"] = pairwise_cohen(m, raters, resamples, seed)
    return out
