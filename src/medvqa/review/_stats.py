"""``medvqa review stats``: how far reviewers agree, and how far each LLM judge agrees with them.

Labels compared:

- ``verdict``: accept / edit / reject (nominal);
- ``keep``: kept (accept or edit) vs rejected — the decision that changes the benchmark;
- ``criteria[REASON]``: whether a reviewer rejected the item for that reason (PathMMU/MIRA
  criteria), one binary label per criterion;
- ``by_category[CAT]``: ``keep`` agreement within one item category.

Each block holds percent agreement, Fleiss' κ and Krippendorff's α over all raters (``verdict``
and ``keep`` also Cohen's κ per pair of raters), each with a 95 % bootstrap CI over items.
``judges[NAME]`` compares each LLM judge's verdict (every criterion scored ≥
``judge_threshold``) with the final expert decision (adjudicated, or unanimous) on the items both
have: percent agreement, Cohen's κ and Krippendorff's α, so a user learns whether the judges can
be trusted on the next batch.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from medvqa.review._agreement import agreement_block, bootstrap_ci, cohen, kripp, pairwise_cohen
from medvqa.review._audit_store import AuditStore
from medvqa.review._bench import ReviewBench
from medvqa.review._config import StatsConfig
from medvqa.review._criteria import REASONS, VERDICTS, keeps
from medvqa.review._resolve import Final, resolve_all
from medvqa.review._store import Decision, ReviewStore


def _matrix(
    reviews: dict[str, dict[str, Decision]], items: list[str], raters: list[str],
    label: Any,
) -> np.ndarray:
    m = np.full((len(raters), len(items)), np.nan)
    for j, item in enumerate(items):
        for i, r in enumerate(raters):
            d = reviews.get(item, {}).get(r)
            if d is not None:
                m[i, j] = float(label(d))
    return m


def _block(m: np.ndarray, raters: list[str], cfg: StatsConfig, pairs: bool = False
           ) -> dict[str, Any]:
    out = agreement_block(m, cfg.resamples, cfg.seed)
    if pairs:
        out["cohen_kappa"] = pairwise_cohen(m, raters, cfg.resamples, cfg.seed)
    return out


def judge_agreement(
    bench: ReviewBench, finals: dict[str, Final], cfg: StatsConfig
) -> dict[str, Any]:
    """Each LLM judge against the final expert decision (kept vs rejected)."""
    names = sorted({j for i in bench.items for j in bench.judges(i)})
    out: dict[str, Any] = {}
    for name in names:
        pairs = []
        for item_id, final in finals.items():
            if final.status not in ("kept", "rejected"):
                continue
            scores = (bench.judges(item_id).get(name) or {}).get("scores")
            if not scores:
                continue
            judge_keep = all(int(v) >= cfg.judge_threshold for v in scores.values())
            pairs.append((float(judge_keep), float(final.status == "kept")))
        m = np.array(pairs, dtype=float).T if pairs else np.zeros((2, 0))
        block: dict[str, Any] = {"n": len(pairs),
                                 "judge_keeps": int(m[0].sum()) if pairs else 0,
                                 "experts_keep": int(m[1].sum()) if pairs else 0}
        agree = float((m[0] == m[1]).mean()) if pairs else None
        block["percent_agreement"] = {"value": None if agree is None else round(agree, 6),
                                      "ci": None}
        k = cohen(m[0], m[1]) if pairs else None
        block["cohen_kappa"] = {
            "value": k, "ci": bootstrap_ci(m, lambda x: cohen(x[0], x[1]), cfg.resamples,
                                           cfg.seed) if k is not None else None}
        a = kripp(m) if pairs else None
        block["krippendorff_alpha"] = {
            "value": a, "ci": bootstrap_ci(m, kripp, cfg.resamples, cfg.seed)
            if a is not None else None}
        out[name] = block
    return out


def review_stats(bench: ReviewBench, store: ReviewStore, cfg: StatsConfig) -> dict[str, Any]:
    """The full statistics block (also written into an exported benchmark.json)."""
    reviews = store.latest_reviews(bench.key)
    finals = resolve_all(list(bench.items), reviews, store.adjudications(bench.key), cfg.per_item)
    items = [i for i in bench.items if len(reviews.get(i, {})) >= 2]
    raters = sorted({r for i in items for r in reviews[i]})
    verdict_code = {v: k for k, v in enumerate(VERDICTS)}
    out: dict[str, Any] = {
        "reviewers": sorted({r for v in reviews.values() for r in v}),
        "per_item": cfg.per_item,
        "resamples": cfg.resamples,
        "seed": cfg.seed,
        "judge_threshold": cfg.judge_threshold,
        "items": len(bench.items),
        "reviewed": sum(1 for i in bench.items if reviews.get(i)),
        "decisions": len(store.decisions(bench.key, "review")),
        "status": dict(sorted(Counter(f.status for f in finals.values()).items())),
        "adjudicated": sum(1 for f in finals.values() if f.adjudicated),
    }
    out["verdict"] = _block(
        _matrix(reviews, items, raters, lambda d: verdict_code[d.verdict]), raters, cfg, True)
    out["keep"] = _block(_matrix(reviews, items, raters, lambda d: keeps(d.verdict)), raters, cfg,
                         True)
    out["criteria"] = {
        reason: _block(_matrix(reviews, items, raters,
                               lambda d, r=reason: d.verdict == "reject" and d.reason == r),
                       raters, cfg)
        for reason in REASONS
    }
    cats = sorted({bench.items[i].category for i in items})
    out["by_category"] = {
        cat: _block(_matrix(reviews, [i for i in items if bench.items[i].category == cat],
                            raters, lambda d: keeps(d.verdict)), raters, cfg)
        for cat in cats
    }
    out["judges"] = judge_agreement(bench, finals, cfg)
    from medvqa.review._audit_stats import reading_agreement

    out["readings"] = reading_agreement(AuditStore(store), bench.key, cfg.resamples, cfg.seed)
    return out
