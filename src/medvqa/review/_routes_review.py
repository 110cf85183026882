"""Routes: login/logout, home, the per-item review page and its decisions, images."""

from __future__ import annotations

import secrets
from typing import Any
from urllib.parse import quote

from fastapi import Request

from medvqa.errors import BadInputError
from medvqa.review._audit_store import AuditStore
from medvqa.review._criteria import REASONS
from medvqa.review._edit import edited_item, view_model
from medvqa.review._limits import read_form
from medvqa.review._security import same_token
from medvqa.review._state import COOKIE, PRE_COOKIE, new_nonce, secure_headers
from medvqa.review._web import (
    HTTPException,
    check_csrf,
    fastapi,
    in_thread,
    need_session,
    record_form_decision,
    redirect,
    responses,
    session_of,
    state,
)

router = fastapi.APIRouter()


def _reviewing(st: Any) -> None:
    """404 on review pages while the app serves an exam (they show the answers)."""
    if st.config.exam_split is not None:
        raise HTTPException(status_code=404, detail="this server runs an exam only")


@router.get("/login")
def login_page(request: Request) -> Any:
    """The login form, with a pre-session CSRF token double-submitted as a cookie."""
    token = secrets.token_urlsafe(24)
    resp = state(request).render("login.html", None, csrf=token, error="")
    resp.set_cookie(PRE_COOKIE, token, httponly=True, samesite="strict",
                    secure=state(request).config.secure_cookies)
    return resp


@router.post("/login")
async def login(request: Request) -> Any:
    """Check the token; rate-limited per client address."""
    st = state(request)
    form = await read_form(request)
    if not same_token(request.cookies.get(PRE_COOKIE), str(form.get("csrf") or "")):
        raise HTTPException(status_code=403, detail="missing or wrong CSRF token")
    client = request.client.host if request.client else "?"
    if st.limiter.blocked(client):
        return st.render("login.html", None, csrf=form.get("csrf"), status_code=429,
                         error="Too many failed logins; wait a minute.")
    reviewer = await in_thread(st.store.reviewer_by_token, str(form.get("token", "")).strip())
    if reviewer is None:
        st.limiter.failed(client)
        return st.render("login.html", None, csrf=form.get("csrf"), status_code=401,
                         error="Unknown token.")
    cookie, _ = await in_thread(st.store.open_session, reviewer, st.config.session_ttl_s)
    resp = redirect("/")
    resp.set_cookie(COOKIE, cookie, httponly=True, samesite="strict",
                    max_age=int(st.config.session_ttl_s), secure=st.config.secure_cookies)
    resp.delete_cookie(PRE_COOKIE)
    return resp


@router.post("/logout")
async def logout(request: Request) -> Any:
    """End the session."""
    s = need_session(request)
    form = await read_form(request)
    check_csrf(s, form)
    await in_thread(state(request).store.close_session, request.cookies.get(COOKIE, ""))
    resp = redirect("/login")
    resp.delete_cookie(COOKIE)
    return resp


@router.get("/")
def home(request: Request) -> Any:
    """The reviewer's benchmarks with their own progress, or the exam when serving one."""
    s = session_of(request)
    if s is None:
        return redirect("/login")
    st = state(request)
    rows = []
    for i, b in st.visible(s.reviewer):
        reviews = st.store.latest_reviews(b.key)
        mine = sum(1 for v in reviews.values() if s.reviewer.name in v)
        splits = sorted({it.split for it in b.items.values()})
        rows.append({"index": i, "bench": b, "mine": mine, "splits": splits,
                     "to_read": AuditStore(st.store).count_questions(b.key)})
    return st.render("home.html", s, rows=rows, exam_split=st.config.exam_split)


#: Decisions a "saved" confirmation may name (anything else in the address is ignored).
VERDICTS = {"accept": "accepted", "reject": "rejected", "edit": "edited and accepted"}


def _saved(saved: str | None, verdict: str | None) -> dict[str, str] | None:
    """The confirmation of the decision just recorded, from the address (None: none)."""
    if not saved or verdict not in VERDICTS:
        return None
    return {"item": saved, "verdict": VERDICTS[verdict]}


def _saved_query(saved: str | None, verdict: str | None) -> str:
    """'&saved=…&verdict=…' to carry the confirmation on to the next page ('' without one)."""
    if not _saved(saved, verdict):
        return ""
    return f"&saved={quote(saved or '', safe='')}&verdict={verdict}"


def progress(st: Any, bench: Any, item_id: str, reviewer: Any) -> dict[str, int]:
    """Where the reviewer is on the review page.

    The item's place in the benchmark, the items they reviewed, and the items with every
    review they need (``--per-item``).
    """
    reviews = st.store.latest_reviews(bench.key)
    ids = list(bench.items)
    return {"position": ids.index(item_id) + 1, "total": len(ids),
            "mine": sum(1 for v in reviews.values() if reviewer.name in v),
            "complete": sum(1 for v in reviews.values() if len(v) >= st.config.per_item)}


@router.get("/b/{index}/next")
def next_item(request: Request, index: int, skip: str | None = None, saved: str | None = None,
              verdict: str | None = None) -> Any:
    """Send the reviewer to the item that most needs their review (``skip``: not this one).

    ``saved`` and ``verdict``: the decision just recorded, confirmed on the page sent to.
    """
    s = need_session(request)
    st = state(request)
    _reviewing(st)
    bench = st.bench_for(s.reviewer, index)
    if bench is None:
        raise HTTPException(status_code=404, detail="no such benchmark for you")
    order = bench.queue_order(skip)
    item_id = st.store.next_item(bench.key, order, s.reviewer, st.config.per_item)
    if item_id is None:
        return st.render("done.html", s, bench=bench, index=index, saved=_saved(saved, verdict))
    st.store.claim(bench.key, item_id, s.reviewer)
    return redirect(f"/b/{index}/item?id={quote(item_id, safe='')}"
                    + _saved_query(saved, verdict))


@router.get("/b/{index}/item")
def item_page(request: Request, index: int, id: str,  # noqa: A002
              saved: str | None = None, verdict: str | None = None) -> Any:
    """One item: images, question, options, answer, provenance, judges, decision forms.

    Above them: the reviewer's progress, and the confirmation of the decision just saved.
    """
    s = need_session(request)
    st = state(request)
    _reviewing(st)
    bench = st.bench_for(s.reviewer, index)
    if bench is None or id not in bench.items:
        raise HTTPException(status_code=404, detail="no such item for you")
    versions = st.store.versions(bench.key, id)
    view = view_model(bench, id, versions)
    return st.render("item.html", s, index=index, bench=bench, v=view, reasons=REASONS,
                     nonce=new_nonce(), error="", flags=bench.flags.get(id, []),
                     progress=progress(st, bench, id, s.reviewer),
                     saved=_saved(saved, verdict))


@router.post("/b/{index}/decide")
async def decide(request: Request, index: int) -> Any:
    """Record accept / edit / reject (append-only), then go to the next item."""
    s = need_session(request)
    form = await read_form(request)
    check_csrf(s, form)
    st = state(request)
    _reviewing(st)
    bench = st.bench_for(s.reviewer, index)
    item_id = str(form.get("item_id", ""))
    if bench is None or item_id not in bench.items:
        raise HTTPException(status_code=404, detail="no such item for you")
    action = str(form.get("action", ""))
    version = None
    try:
        if action == "edit":
            versions = await in_thread(st.store.versions, bench.key, item_id)
            base = view_model(bench, item_id, versions).current
            new = edited_item(base, form)
            version = await in_thread(st.store.add_version, bench.key, item_id,
                                      new.model_dump_json(), s.reviewer)
        await record_form_decision(st, form, bench=bench.key, item_id=item_id, session=s,
                                   kind="review", verdict=action, version=version)
    except BadInputError as exc:
        raise HTTPException(status_code=400, detail=str(exc)) from None
    if request.headers.get("accept", "").startswith("application/json"):
        return secure_headers(responses.JSONResponse({"ok": True, "version": version}))
    return redirect(f"/b/{index}/next?" + _saved_query(item_id, action).lstrip("&"))


@router.get("/img/{index}/{rel:path}")
def image(request: Request, index: int, rel: str) -> Any:
    """An item's image — only files the items reference, inside BENCH/, symlinks resolved."""
    s = need_session(request)
    bench = state(request).bench_for(s.reviewer, index)
    path = bench.image_file(rel) if bench is not None else None
    if path is None:
        raise HTTPException(status_code=404, detail="not found")
    resp = responses.FileResponse(path)
    resp.headers["X-Content-Type-Options"] = "nosniff"
    resp.headers["Cache-Control"] = "private, max-age=3600"
    return resp
