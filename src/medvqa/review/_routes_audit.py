"""Routes of the reader audit: read a response, then see the automatic reader's reading of it.

The admins' page lists the readings that two people read differently.

A reviewer sees only benchmarks assigned to them (403 otherwise). The reading page shows the
question, the options and the response — never the automatic reader's decision, which is
revealed only once the person has read the response themselves.
"""

from __future__ import annotations

import re
from typing import Any

from fastapi import Request

from medvqa.errors import BadInputError
from medvqa.review._audit_store import AuditStore, Question, check_reading, resolve_reading
from medvqa.review._limits import read_form
from medvqa.review._state import new_nonce, secure_headers
from medvqa.review._web import (
    HTTPException,
    check_csrf,
    fastapi,
    in_thread,
    need_session,
    redirect,
    responses,
    state,
)

router = fastapi.APIRouter()

#: A reasoning block's tags (as the answer reader sets them aside: ``medvqa.reading``).
_TAG = re.compile(r"<(/?)(?:think|thinking|reasoning|thought)>|\u25c1(/?)think\u25b7",
                  re.IGNORECASE)
#: The choices that are not an option.
NO_ANSWER, REFUSAL = "__no_answer", "__refusal"


def segments(text: str) -> list[tuple[str, str]]:
    """The response cut into ``("text", …)`` and ``("reasoning", …)`` parts, in order.

    A block between an opening and a closing tag is reasoning; a closing tag with no opening
    one makes all before it reasoning; an opening tag never closed, all after it.

    >>> segments("<think>A?</think> B")
    [('reasoning', '<think>A?</think>'), ('text', ' B')]
    >>> segments("hmm</think>C")
    [('reasoning', 'hmm</think>'), ('text', 'C')]
    """
    out: list[tuple[str, str]] = []
    start, opened = 0, None
    for m in _TAG.finditer(text):
        closing = bool(m.group(1) or m.group(2))
        if not closing and opened is None:
            if m.start() > start:
                out.append(("text", text[start:m.start()]))
            opened = m.start()
        elif closing:
            begin = opened if opened is not None else start
            if opened is None and out:  # everything so far was thinking
                begin = 0
                out.clear()
            out.append(("reasoning", text[begin:m.end()]))
            start, opened = m.end(), None
    if opened is not None:
        out.append(("reasoning", text[opened:]))
    elif start < len(text):
        out.append(("text", text[start:]))
    return [(k, v) for k, v in out if v]


def _bench(request: Any, index: int, admin: bool = False) -> Any:
    s = need_session(request, admin=admin)
    b = state(request).bench_for(s.reviewer, index)
    if b is None:
        raise HTTPException(status_code=403, detail="this benchmark is not assigned to you")
    return s, b


def _audit(request: Any) -> AuditStore:
    return AuditStore(state(request).store)


def _question(audit: AuditStore, bench_key: str, qid: int) -> Question:
    q = audit.questions(bench_key).get(qid)
    if q is None:
        raise HTTPException(status_code=404, detail="no such response to read")
    return q


def _label(q: Question, verdict: str | None, choice: Any) -> str:
    if verdict == "no_answer":
        return "no answer committed"
    if verdict == "refusal":
        return "refusal"
    if choice is None:
        return "no answer (abstained)"
    letters = choice if isinstance(choice, list) else [choice]
    return ", ".join(f"{c}. {q.options.get(c, '')}" for c in letters)


@router.get("/a/{index}/next")
def next_reading(request: Request, index: int) -> Any:
    """Send the reader to the next response they should read."""
    s, b = _bench(request, index)
    st, audit = state(request), _audit(request)
    qid = audit.next_question(b.key, s.reviewer)
    if qid is None:
        todo = sum(1 for o in audit.outcomes(b.key).values() if o.status == "disputed")
        return st.render("reading_done.html", s, bench=b, index=index, disputed=todo)
    audit.claim(b.key, qid, s.reviewer)
    return redirect(f"/a/{index}/q/{qid}")


@router.get("/a/{index}/q/{qid}")
def reading_page(request: Request, index: int, qid: int) -> Any:
    """The response to read; once this person read it, their reading and the reader's."""
    s, b = _bench(request, index)
    st, audit = state(request), _audit(request)
    q = _question(audit, b.key, qid)
    rows = audit.readings(b.key).get(qid, [])
    mine = [r for r in rows if r.reviewer == s.reviewer.name and r.kind == "reading"]
    outcome = resolve_reading(rows)
    total = len(audit.questions(b.key))
    if mine:
        automatic = [{**r, "label": _label(q, None, r.get("choice"))} for r in q.readers]
        return st.render("reading_reveal.html", s, bench=b, index=index, q=q,
                         mine=_label(q, mine[-1].verdict, mine[-1].choice),
                         mine_choice=mine[-1].choice, automatic=automatic, outcome=outcome)
    return st.render("reading.html", s, bench=b, index=index, q=q, parts=segments(q.response),
                     nonce=new_nonce(), total=total, kind="reading", others=[],
                     no_answer=NO_ANSWER, refusal=REFUSAL)


@router.post("/a/{index}/read")
async def read(request: Request, index: int) -> Any:
    """Record a reading (append-only; a re-posted form counts once), then reveal the reader's."""
    form = await read_form(request)
    kind = str(form.get("kind") or "reading")
    s, b = _bench(request, index, admin=kind == "adjudication")
    check_csrf(s, form)
    audit = _audit(request)
    raw = str(form.get("question_id", ""))
    if not raw.isdigit():
        raise HTTPException(status_code=404, detail="no such response to read")
    q = await in_thread(_question, audit, b.key, int(raw))
    pick = str(form.get("pick", ""))
    verdict = {NO_ANSWER: "no_answer", REFUSAL: "refusal"}.get(pick, "answer")
    letters = [str(v) for v in form.getlist("choice")] or ([pick] if verdict == "answer"
                                                          and pick != "__set" else [])
    try:
        choice = check_reading(q, verdict, letters)
        await in_thread(audit.record_reading, nonce=str(form.get("nonce", "")) or new_nonce(),
                        question_id=q.id, reviewer=s.reviewer, kind=kind, verdict=verdict,
                        choice=choice)
    except BadInputError as exc:
        raise HTTPException(status_code=400, detail=str(exc)) from None
    if request.headers.get("accept", "").startswith("application/json"):
        return secure_headers(responses.JSONResponse({"ok": True}))
    if kind == "adjudication":
        return redirect(f"/admin/{index}/readings")
    return redirect(f"/a/{index}/q/{q.id}")


@router.get("/admin/{index}/readings")
def disputed_readings(request: Request, index: int) -> Any:
    """Responses two people read differently, each with every reading and the final form."""
    s, b = _bench(request, index, admin=True)
    st, audit = state(request), _audit(request)
    questions = audit.questions(b.key)
    rows = audit.readings(b.key)
    disputed = []
    for qid, q in questions.items():
        if resolve_reading(rows.get(qid, [])).status != "disputed":
            continue
        latest = {r.reviewer: r for r in rows[qid] if r.kind == "reading"}
        disputed.append({"q": q, "parts": segments(q.response), "nonce": new_nonce(),
                         "others": [(name, _label(q, r.verdict, r.choice))
                                    for name, r in sorted(latest.items())]})
    return st.render("readings_queue.html", s, bench=b, index=index, rows=disputed,
                     no_answer=NO_ANSWER, refusal=REFUSAL)
