"""Small request helpers shared by the route modules: state, session, CSRF, redirects."""

from __future__ import annotations

from typing import Any

from medvqa._optional import optional_import
from medvqa.review._security import same_token
from medvqa.review._state import COOKIE, AppState, new_nonce
from medvqa.review._store import Session

fastapi = optional_import("fastapi")
responses = optional_import("fastapi.responses")
concurrency = optional_import("starlette.concurrency")
HTTPException = fastapi.HTTPException


def state(request: Any) -> AppState:
    """The app's shared state."""
    return request.app.state.ctx


def session_of(request: Any) -> Session | None:
    """The request's live session, if any."""
    return state(request).store.session(request.cookies.get(COOKIE))


def need_session(request: Any, admin: bool = False) -> Session:
    """The live session, or a redirect to the login page (403 for a non-admin on admin pages)."""
    s = session_of(request)
    if s is None:
        raise HTTPException(status_code=303, headers={"Location": "/login"})
    if admin and s.reviewer.role != "admin":
        raise HTTPException(status_code=403, detail="admins only")
    return s


def check_csrf(session: Session, form: Any) -> None:
    """403 unless the form carries this session's CSRF token."""
    if not same_token(session.csrf, str(form.get("csrf") or "")):
        raise HTTPException(status_code=403, detail="missing or wrong CSRF token")


def redirect(url: str) -> Any:
    """A 303 See Other (after a post)."""
    return responses.RedirectResponse(url, status_code=303)


async def in_thread(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Run blocking database work off the event loop."""
    return await concurrency.run_in_threadpool(fn, *args, **kwargs)


#: Longest free-text note kept with a decision (characters).
NOTE_MAX = 2000


async def record_form_decision(st: AppState, form: Any, *, bench: str, item_id: str,
                               session: Session, kind: str, verdict: str,
                               version: int | None) -> None:
    """Append the decision a posted form carries: its nonce, reason and note.

    A re-posted form (same nonce) is stored once. Raises ``BadInputError`` for a decision the
    store refuses (the caller answers 400).
    """
    await in_thread(
        st.store.record_decision, nonce=str(form.get("nonce", "")) or new_nonce(),
        bench=bench, item_id=item_id, reviewer=session.reviewer, kind=kind, verdict=verdict,
        reason=str(form.get("reason") or "") or None,
        note=str(form.get("note") or "")[:NOTE_MAX] or None, version=version)
