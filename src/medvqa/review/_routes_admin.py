"""Admin routes: progress per reviewer and per category, the adjudication queue."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from fastapi import Request

from medvqa.errors import BadInputError
from medvqa.review._criteria import REASONS
from medvqa.review._edit import view_model
from medvqa.review._limits import read_form
from medvqa.review._resolve import resolve_all
from medvqa.review._state import new_nonce
from medvqa.review._web import (
    HTTPException,
    check_csrf,
    fastapi,
    need_session,
    record_form_decision,
    redirect,
    state,
)

router = fastapi.APIRouter()


@router.get("/admin")
def admin(request: Request) -> Any:
    """Progress of every benchmark: per reviewer, per category, and the outcome counts."""
    s = need_session(request, admin=True)
    st = state(request)
    per = st.config.per_item
    blocks = []
    for i, b in enumerate(st.benches):
        reviews = st.store.latest_reviews(b.key)
        finals = resolve_all(list(b.items), reviews, st.store.adjudications(b.key), per)
        by_rev: Counter[str] = Counter(r for v in reviews.values() for r in v)
        cats: dict[str, Counter[str]] = defaultdict(Counter)
        for item_id, item in b.items.items():
            cats[item.category or "(none)"]["items"] += 1
            cats[item.category or "(none)"]["reviews"] += len(reviews.get(item_id, {}))
            cats[item.category or "(none)"][finals[item_id].status] += 1
        blocks.append({
            "index": i, "bench": b, "reviewers": sorted(by_rev.items()),
            "categories": sorted(cats.items()), "needed": per * len(b.items),
            "done": sum(min(per, len(v)) for v in reviews.values()),
            "status": Counter(f.status for f in finals.values()),
        })
    people = [(r, sorted(st.store.benches_of(r))) for r in st.store.reviewers()]
    return st.render("admin.html", s, blocks=blocks, people=people)


@router.get("/admin/{index}/queue")
def queue(request: Request, index: int) -> Any:
    """Items whose reviewers disagree, each with every decision and edited version."""
    s = need_session(request, admin=True)
    st = state(request)
    if not 0 <= index < len(st.benches):
        raise HTTPException(status_code=404, detail="no such benchmark")
    b = st.benches[index]
    reviews = st.store.latest_reviews(b.key)
    finals = resolve_all(list(b.items), reviews, st.store.adjudications(b.key),
                         st.config.per_item)
    rows = []
    for item_id, final in finals.items():
        if final.status != "disputed":
            continue
        rows.append({"v": view_model(b, item_id, st.store.versions(b.key, item_id)),
                     "decisions": sorted(reviews[item_id].values(), key=lambda d: d.id),
                     "nonce": new_nonce()})
    return st.render("queue.html", s, index=index, bench=b, rows=rows, reasons=REASONS)


@router.post("/admin/{index}/adjudicate")
async def adjudicate(request: Request, index: int) -> Any:
    """Record the admin's final decision on a disputed item (append-only)."""
    s = need_session(request, admin=True)
    form = await read_form(request)
    check_csrf(s, form)
    st = state(request)
    if not 0 <= index < len(st.benches):
        raise HTTPException(status_code=404, detail="no such benchmark")
    b = st.benches[index]
    item_id = str(form.get("item_id", ""))
    if item_id not in b.items:
        raise HTTPException(status_code=404, detail="no such item")
    verdict = str(form.get("verdict", ""))
    raw_version = str(form.get("version") or "0")
    version = int(raw_version) if raw_version.isdigit() and raw_version != "0" else None
    if version is not None and verdict == "accept":
        verdict = "edit"  # accepting an edited version keeps that edit
    try:
        await record_form_decision(st, form, bench=b.key, item_id=item_id, session=s,
                                   kind="adjudication", verdict=verdict, version=version)
    except BadInputError as exc:
        raise HTTPException(status_code=400, detail=str(exc)) from None
    return redirect(f"/admin/{index}/queue")
