"""Reads and append-only writes of the review database (reviewers, sessions, decisions, edits).

Library code: no printing, no environment. Times are seconds since the epoch (``time.time``).
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from medvqa.errors import BadInputError
from medvqa.review._criteria import REASONS, ROLES, VERDICTS
from medvqa.review._db import Database, _sa


def hash_token(token: str) -> str:
    """SHA-256 of a token (tokens are 256-bit random, so a plain hash cannot be brute-forced)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Reviewer:
    """A person who reviews items or sits an exam."""

    id: int
    name: str
    role: str


@dataclass(frozen=True)
class Session:
    """A logged-in browser: who, its CSRF token, when it expires."""

    reviewer: Reviewer
    csrf: str
    expires_at: float


@dataclass(frozen=True)
class Decision:
    """One decision row (the latest per reviewer and item counts)."""

    id: int
    item_id: str
    reviewer: str
    kind: str
    verdict: str
    reason: str | None
    note: str | None
    version: int | None
    created_at: float


class ReviewStore:
    """All database access of the review app."""

    def __init__(self, db: str | Path | Database):
        self.db = db if isinstance(db, Database) else Database(db)
        self.t = self.db.t

    # reviewers ---------------------------------------------------------------------------------
    def add_reviewer(self, name: str, role: str, benches: list[str] = ()) -> str:  # type: ignore[assignment]
        """Create a reviewer and return their token (shown once; only its hash is stored)."""
        if role not in ROLES:
            raise BadInputError(f"role: {role!r} is not one of {', '.join(ROLES)}")
        if not name.strip():
            raise BadInputError("name: empty")
        sa = _sa()
        token = secrets.token_urlsafe(32)
        try:
            with self.db.write() as c:
                rid = c.execute(self.t["reviewers"].insert().values(
                    name=name, role=role, token_hash=hash_token(token), created_at=time.time()
                )).inserted_primary_key[0]
                for b in benches:
                    c.execute(self.t["assignments"].insert().values(reviewer_id=rid, bench=b))
        except sa.exc.IntegrityError:
            raise BadInputError(f"name: reviewer {name!r} exists already") from None
        return token

    def assign(self, name: str, bench: str) -> None:
        """Give a reviewer a benchmark (idempotent)."""
        sa = _sa()
        r = self.reviewer_by_name(name)
        if r is None:
            raise BadInputError(f"name: no reviewer {name!r}")
        try:
            with self.db.write() as c:
                c.execute(self.t["assignments"].insert().values(reviewer_id=r.id, bench=bench))
        except sa.exc.IntegrityError:
            pass

    def reviewer_by_name(self, name: str) -> Reviewer | None:
        """The reviewer called ``name``, if any."""
        t = self.t["reviewers"]
        with self.db.read() as c:
            row = c.execute(t.select().where(t.c.name == name)).first()
        return Reviewer(row.id, row.name, row.role) if row else None

    def reviewer_by_token(self, token: str) -> Reviewer | None:
        """The reviewer whose token this is, if any."""
        t = self.t["reviewers"]
        with self.db.read() as c:
            row = c.execute(t.select().where(t.c.token_hash == hash_token(token))).first()
        return Reviewer(row.id, row.name, row.role) if row else None

    def reviewers(self) -> list[Reviewer]:
        """Every reviewer, by name."""
        t = self.t["reviewers"]
        with self.db.read() as c:
            rows = c.execute(t.select().order_by(t.c.name)).all()
        return [Reviewer(r.id, r.name, r.role) for r in rows]

    def benches_of(self, reviewer: Reviewer) -> set[str]:
        """Benchmark keys assigned to a reviewer."""
        t = self.t["assignments"]
        with self.db.read() as c:
            rows = c.execute(t.select().where(t.c.reviewer_id == reviewer.id)).all()
        return {r.bench for r in rows}

    # sessions ----------------------------------------------------------------------------------
    def open_session(self, reviewer: Reviewer, ttl_s: float) -> tuple[str, Session]:
        """A new session: the cookie value (random; only its hash is stored) and the session."""
        cookie, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        expires = time.time() + ttl_s
        with self.db.write() as c:
            c.execute(self.t["sessions"].insert().values(
                token_hash=hash_token(cookie), reviewer_id=reviewer.id, csrf=csrf,
                expires_at=expires))
        return cookie, Session(reviewer, csrf, expires)

    def session(self, cookie: str | None) -> Session | None:
        """The live session behind a cookie; None when unknown or expired."""
        if not cookie:
            return None
        s, r = self.t["sessions"], self.t["reviewers"]
        with self.db.read() as c:
            row = c.execute(
                _sa().select(s.c.csrf, s.c.expires_at, r.c.id, r.c.name, r.c.role)
                .join(r, r.c.id == s.c.reviewer_id)
                .where(s.c.token_hash == hash_token(cookie))
            ).first()
        if row is None or row.expires_at < time.time():
            return None
        return Session(Reviewer(row.id, row.name, row.role), row.csrf, row.expires_at)

    def close_session(self, cookie: str) -> None:
        """Log out (the one row ever deleted, with expired sessions)."""
        s = self.t["sessions"]
        with self.db.write() as c:
            c.execute(s.delete().where(
                (s.c.token_hash == hash_token(cookie)) | (s.c.expires_at < time.time())))

    # decisions and edits ----------------------------------------------------------------------
    def record_decision(
        self, *, nonce: str, bench: str, item_id: str, reviewer: Reviewer, kind: str,
        verdict: str, reason: str | None = None, note: str | None = None,
        version: int | None = None,
    ) -> bool:
        """Append a decision; False when this nonce was recorded already (a retried post)."""
        if verdict not in VERDICTS:
            raise BadInputError(f"verdict: {verdict!r} is not one of {', '.join(VERDICTS)}")
        if verdict == "reject" and reason not in REASONS:
            raise BadInputError(f"reason: a rejection needs one of {', '.join(REASONS)}")
        if verdict == "reject" and reason == "other" and not (note or "").strip():
            raise BadInputError("note: a rejection for 'other' needs a few words of why")
        if kind not in ("review", "adjudication"):
            raise BadInputError(f"kind: {kind!r}")
        sa = _sa()
        try:
            with self.db.write() as c:
                c.execute(self.t["decisions"].insert().values(
                    nonce=nonce, bench=bench, item_id=item_id, reviewer_id=reviewer.id, kind=kind,
                    verdict=verdict, reason=reason if verdict == "reject" else None,
                    note=note or None, version=version, created_at=time.time()))
        except sa.exc.IntegrityError:
            return False
        return True

    def add_version(self, bench: str, item_id: str, item_json: str, reviewer: Reviewer) -> int:
        """Append an edited version of an item; returns its number (1, 2, …; 0 is the original)."""
        sa = _sa()
        t = self.t["versions"]
        for _ in range(50):
            try:
                with self.db.write() as c:
                    top = c.execute(sa.select(sa.func.max(t.c.version)).where(
                        (t.c.bench == bench) & (t.c.item_id == item_id))).scalar()
                    number = (top or 0) + 1
                    c.execute(t.insert().values(
                        bench=bench, item_id=item_id, version=number, item_json=item_json,
                        reviewer_id=reviewer.id, created_at=time.time()))
                return number
            except sa.exc.IntegrityError:
                time.sleep(0.01)  # a concurrent edit took the number: take the next one
        raise RuntimeError(f"{item_id}: could not number an edit after 50 tries")

    def versions(self, bench: str, item_id: str) -> list[dict[str, Any]]:
        """Edited versions of an item, oldest first: version, item_json, reviewer, created_at."""
        v, r = self.t["versions"], self.t["reviewers"]
        with self.db.read() as c:
            rows = c.execute(
                _sa().select(v.c.version, v.c.item_json, v.c.created_at, r.c.name)
                .join(r, r.c.id == v.c.reviewer_id)
                .where((v.c.bench == bench) & (v.c.item_id == item_id))
                .order_by(v.c.version)).all()
        return [{"version": x.version, "item_json": x.item_json, "reviewer": x.name,
                 "created_at": x.created_at} for x in rows]

    def all_versions(self, bench: str) -> dict[tuple[str, int], dict[str, Any]]:
        """(item id, version) → version record, for export."""
        v, r = self.t["versions"], self.t["reviewers"]
        with self.db.read() as c:
            rows = c.execute(
                _sa().select(v.c.item_id, v.c.version, v.c.item_json, v.c.created_at, r.c.name)
                .join(r, r.c.id == v.c.reviewer_id).where(v.c.bench == bench)).all()
        return {(x.item_id, x.version): {"item_json": x.item_json, "reviewer": x.name,
                                         "created_at": x.created_at} for x in rows}

    def decisions(self, bench: str, kind: str | None = None) -> list[Decision]:
        """Every decision row on a benchmark, in insertion order."""
        d, r = self.t["decisions"], self.t["reviewers"]
        q = (_sa().select(d, r.c.name.label("rname")).join(r, r.c.id == d.c.reviewer_id)
             .where(d.c.bench == bench))
        if kind is not None:
            q = q.where(d.c.kind == kind)
        with self.db.read() as c:
            rows = c.execute(q.order_by(d.c.id)).all()
        return [Decision(x.id, x.item_id, x.rname, x.kind, x.verdict, x.reason, x.note,
                         x.version, x.created_at) for x in rows]

    def latest_reviews(self, bench: str) -> dict[str, dict[str, Decision]]:
        """Item id → reviewer name → that reviewer's latest review decision."""
        out: dict[str, dict[str, Decision]] = {}
        for dec in self.decisions(bench, "review"):
            out.setdefault(dec.item_id, {})[dec.reviewer] = dec
        return out

    def adjudications(self, bench: str) -> dict[str, Decision]:
        """Item id → the latest adjudication (final)."""
        return {d.item_id: d for d in self.decisions(bench, "adjudication")}

    # assignment of the next item ---------------------------------------------------------------
    def claim(self, bench: str, item_id: str, reviewer: Reviewer, ttl_s: float = 600) -> None:
        """Hold an item for a reviewer while they look at it (so others are sent elsewhere)."""
        c_ = self.t["claims"]
        with self.db.write() as c:
            c.execute(c_.delete().where(
                ((c_.c.bench == bench) & (c_.c.item_id == item_id)
                 & (c_.c.reviewer_id == reviewer.id)) | (c_.c.expires_at < time.time())))
            c.execute(c_.insert().values(bench=bench, item_id=item_id, reviewer_id=reviewer.id,
                                         expires_at=time.time() + ttl_s))

    def next_item(self, bench: str, order: list[str], reviewer: Reviewer,
                  per_item: int) -> str | None:
        """The next item this reviewer should see, or None when nothing is left for them.

        Items the reviewer already decided are skipped; among the rest, an item whose reviews
        plus live claims by others reach ``per_item`` is full. Items closest to full come first
        (finishing items early gives usable reviews soonest), then file order.
        """
        d, c_ = self.t["decisions"], self.t["claims"]
        sa = _sa()
        with self.db.read() as c:
            rows = c.execute(sa.select(d.c.item_id, d.c.reviewer_id).distinct()
                             .where((d.c.bench == bench) & (d.c.kind == "review"))).all()
            claims = c.execute(sa.select(c_.c.item_id, c_.c.reviewer_id).where(
                (c_.c.bench == bench) & (c_.c.expires_at > time.time())
                & (c_.c.reviewer_id != reviewer.id))).all()
        seen: dict[str, set[int]] = {}
        for row in [*rows, *claims]:
            seen.setdefault(row.item_id, set()).add(row.reviewer_id)
        mine = {r.item_id for r in rows if r.reviewer_id == reviewer.id}
        best: tuple[int, int, str] | None = None
        for pos, item_id in enumerate(order):
            taken = len(seen.get(item_id, ()))
            if item_id in mine or taken >= per_item:
                continue
            key = (-taken, pos, item_id)
            if best is None or key < best:
                best = key
        return best[2] if best else None

    # exam ------------------------------------------------------------------------------------
    def record_answer(self, *, nonce: str, bench: str, split: str, item_id: str,
                      reviewer: Reviewer, answer: str, latency_s: float | None) -> bool:
        """Append an exam answer; False when the nonce was recorded already."""
        sa = _sa()
        try:
            with self.db.write() as c:
                c.execute(self.t["exam_answers"].insert().values(
                    nonce=nonce, bench=bench, split=split, item_id=item_id,
                    reviewer_id=reviewer.id, answer=answer, latency_s=latency_s,
                    created_at=time.time()))
        except sa.exc.IntegrityError:
            return False
        return True

    def answers(self, bench: str, split: str, reviewer: Reviewer) -> dict[str, dict[str, Any]]:
        """Item id → the reviewer's latest exam answer (answer, latency_s, created_at)."""
        t = self.t["exam_answers"]
        with self.db.read() as c:
            rows = c.execute(t.select().where(
                (t.c.bench == bench) & (t.c.split == split) & (t.c.reviewer_id == reviewer.id))
                .order_by(t.c.id)).all()
        return {r.item_id: {"answer": r.answer, "latency_s": r.latency_s,
                            "created_at": r.created_at} for r in rows}
