"""Human exam routes: one item at a time, no answer, no judges; a finished exam writes a RUN/."""

from __future__ import annotations

import time
from typing import Any

from fastapi import Request

from medvqa.review._exam import answer_text, exam_items, run_slug, write_exam_run
from medvqa.review._limits import read_form
from medvqa.review._state import new_nonce
from medvqa.review._web import (
    HTTPException,
    check_csrf,
    fastapi,
    in_thread,
    need_session,
    redirect,
    state,
)

router = fastapi.APIRouter()


def _bench(request: Any, index: int) -> Any:
    s = need_session(request)
    b = state(request).bench_for(s.reviewer, index)
    if b is None:
        raise HTTPException(status_code=404, detail="no such benchmark for you")
    return s, b


@router.get("/exam/{index}/{split}")
def exam_page(request: Request, index: int, split: str) -> Any:
    """The next unanswered item of the split, or the end page (which writes the RUN/)."""
    s, b = _bench(request, index)
    st = state(request)
    items = exam_items(b, split)
    done = st.store.answers(b.key, split, s.reviewer)
    todo = [i for i in items if i.id not in done]
    if not todo:
        run_dir = None
        if st.config.runs_dir is not None:
            run_dir = write_exam_run(b, st.store, s.reviewer, split,
                                     st.config.runs_dir / run_slug(s.reviewer.name, split))
        return st.render("exam_done.html", s, bench=b, split=split, n=len(items),
                         run_dir=str(run_dir) if run_dir else "")
    return st.render("exam.html", s, index=index, bench=b, split=split, item=todo[0],
                     number=len(items) - len(todo) + 1, total=len(items), nonce=new_nonce(),
                     shown_at=f"{time.time():.3f}")


@router.post("/exam/{index}/{split}/answer")
async def answer(request: Request, index: int, split: str) -> Any:
    """Record the expert's answer (append-only; a re-posted form counts once)."""
    s, b = _bench(request, index)
    form = await read_form(request)
    check_csrf(s, form)
    item_id = str(form.get("item_id", ""))
    item = b.items.get(item_id)
    if item is None or item.split != split:
        raise HTTPException(status_code=404, detail="no such exam item")
    given = [str(v).strip() for v in form.getlist("answer") if str(v).strip()]
    if not given:
        raise HTTPException(status_code=400, detail="answer: choose or type an answer")
    if item.options and any(g not in item.options for g in given):
        raise HTTPException(status_code=400, detail="answer: not among the options")
    try:
        latency = max(0.0, time.time() - float(str(form.get("shown_at", ""))))
    except ValueError:
        latency = None
    nonce = str(form.get("nonce", "")) or new_nonce()
    await in_thread(state(request).store.record_answer, nonce=nonce,
                    bench=b.key, split=split, item_id=item_id, reviewer=s.reviewer,
                    answer=answer_text(item, given), latency_s=latency)
    return redirect(f"/exam/{index}/{split}")
