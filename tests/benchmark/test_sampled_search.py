"""The bit-sampling near-duplicate search: never beyond the thresholds, never misses a close
pair, finds real altered copies (off-centre crops through the corner views) as comparing all
pairs does, and is fixed across runs."""

from __future__ import annotations

import io

import numpy as np
from _audit_helpers import lung_files
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageOps

from medvqa.benchmark.audit import fingerprint
from medvqa.benchmark.audit._collection import ImageTable
from medvqa.benchmark.audit._hashing import Fingerprint, words64
from medvqa.benchmark.audit._index import popcount
from medvqa.benchmark.audit._lsh import GROUPS, ROUNDS, colliding_rows, masks
from medvqa.benchmark.audit._near import near_duplicates

WORD = st.integers(min_value=0, max_value=2**64 - 1)
ROW = st.tuples(WORD, WORD, WORD)


def _table(coarse: np.ndarray, mirrored: np.ndarray | None = None) -> ImageTable:
    """A table of coarse hashes whose fine hashes all agree (only the coarse ones decide)."""
    n = len(coarse)
    t = ImageTable(paths=[f"{k}.png" for k in range(n)], sha256=[""] * n, pixels=[""] * n)
    t.hashes = np.asarray(coarse, dtype=np.uint64).reshape(n, 3)
    t.mirrored = t.hashes ^ np.uint64(0xFFFF) if mirrored is None else mirrored
    t.fine = np.zeros((n, 4), dtype=np.uint64)
    t.fine_mirrored = np.zeros((n, 4), dtype=np.uint64)
    t.ok = np.ones(n, dtype=bool)
    return t


@st.composite
def hash_rows(draw: st.DrawFn) -> np.ndarray:
    """Random rows, some of them copies of others with up to 44 of 192 bits flipped."""
    base = draw(st.lists(ROW, min_size=1, max_size=40))
    rows = [list(r) for r in base]
    for _ in range(draw(st.integers(0, 30))):
        src = list(rows[draw(st.integers(0, len(base) - 1))])
        for bit in draw(st.lists(st.integers(0, 191), max_size=44)):
            src[bit // 64] ^= 1 << (bit % 64)
        rows.append(src)
    return np.array(rows, dtype=np.uint64)


def _total(a: np.ndarray, b: np.ndarray) -> int:
    return int(popcount(a ^ b).sum())


@settings(max_examples=30, deadline=None)
@given(hash_rows())
def test_self_join_is_within_exact_and_finds_every_close_pair(rows: np.ndarray) -> None:
    t = _table(rows)
    sampled = near_duplicates(t, None, mirrored=False)
    exact = near_duplicates(t, None, mirrored=False, exact=True)
    assert set(sampled) <= set(exact)
    close = {p for p in exact if _total(rows[p.a], rows[p.b]) < GROUPS}
    assert close <= set(sampled)


@settings(max_examples=30, deadline=None)
@given(hash_rows(), hash_rows())
def test_cross_join_is_within_exact_and_finds_every_close_pair(a: np.ndarray,
                                                               b: np.ndarray) -> None:
    b = np.concatenate([b, a[: len(a) // 2] ^ np.uint64(0b101)])  # some near copies of a
    sampled = near_duplicates(_table(a), _table(b), mirrored=True)
    exact = near_duplicates(_table(a), _table(b), mirrored=True, exact=True)
    assert {(p.a, p.b) for p in sampled} <= {(p.a, p.b) for p in exact}
    close = {(p.a, p.b) for p in exact if not p.mirrored and _total(a[p.a], b[p.b]) < GROUPS}
    assert close <= {(p.a, p.b) for p in sampled}


def test_each_round_partitions_the_192_bits() -> None:
    m = masks()
    assert m.shape == (ROUNDS * GROUPS, 3)
    for r in range(ROUNDS):
        group = m[r * GROUPS:(r + 1) * GROUPS]
        assert all(int(np.bitwise_or.reduce(group[:, w])) == 2**64 - 1 for w in range(3))
        assert int(popcount(group.ravel()).sum()) == 192  # no bit in two groups
        assert set(popcount(group).sum(axis=1).tolist()) <= {19, 20}


def test_the_key_tables_are_fixed() -> None:
    # Golden values: the shuffles are SplitMix64, not a random generator, so they never change
    # with the machine or the NumPy version (a change here changes every audit's candidates).
    m = masks()
    assert [hex(int(x)) for x in m[0]] == ["0x3020000240408", "0x50000c0000c0010",
                                           "0x4408200400000020"]
    assert [hex(int(x)) for x in m[-1]] == ["0x100090002400020", "0x2080080010000",
                                            "0xb50000148000800"]


def test_identical_rows_pair_once_per_table() -> None:
    rows = np.zeros((4, 3), dtype=np.uint64)
    tables = list(colliding_rows(rows))
    assert len(tables) == ROUNDS * GROUPS
    every = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert all(sorted(zip(c.p.tolist(), c.q.tolist(), strict=True)) == every for c in tables)


def _copies(data: bytes) -> dict[str, bytes]:
    with Image.open(io.BytesIO(data)) as im:
        rgb = im.convert("RGB")
    w, h = rgb.size
    dx, dy = round(w * 0.025), round(h * 0.025)
    out = {}
    for name, img in (("half", rgb.resize((w // 2, h // 2))),
                      ("crop5", rgb.crop((dx, dy, w - dx, h - dy))),
                      ("bright", Image.fromarray(np.clip(np.asarray(rgb).astype(np.int16) + 25,
                                                         0, 255).astype(np.uint8))),
                      ("flip", ImageOps.mirror(rgb))):
        buf = io.BytesIO()
        img.save(buf, "PNG")
        out[name] = buf.getvalue()
    # Off-centre: 5 % off the top and left (a corner), 5 % off the right side.
    for name, box in (("crop5-top-left", (2 * dx, 2 * dy, w, h)),
                      ("crop5-right", (0, 0, w - 2 * dx, h))):
        buf = io.BytesIO()
        rgb.crop(box).save(buf, "PNG")
        out[name] = buf.getvalue()
    buf = io.BytesIO()
    rgb.save(buf, "JPEG", quality=60)
    out["jpeg60"] = buf.getvalue()
    return out


def _print_table(prints: list[Fingerprint]) -> ImageTable:
    n = len(prints)
    t = ImageTable(paths=[str(k) for k in range(n)], sha256=[""] * n, pixels=[""] * n)
    t.hashes = np.array([f.hashes for f in prints], dtype=np.uint64)
    t.mirrored = np.array([f.mirrored for f in prints], dtype=np.uint64)
    t.fine = np.array([words64(f.fine) for f in prints], dtype=np.uint64)
    t.fine_mirrored = np.array([words64(f.fine_mirrored) for f in prints], dtype=np.uint64)
    t.corners = np.array([f.corners for f in prints], dtype=np.uint64)
    t.fine_corners = np.array([[words64(c) for c in f.fine_corners] for f in prints],
                              dtype=np.uint64)
    t.ok = np.ones(n, dtype=bool)
    return t


def test_real_altered_copies_are_found_as_by_the_exact_search() -> None:
    files = lung_files(8)
    originals = [fingerprint(f.read_bytes()) for f in files]
    copies = [_copies(f.read_bytes()) for f in files]
    base = _print_table(originals)
    for kind in ("jpeg60", "half", "crop5", "bright", "flip", "crop5-top-left", "crop5-right"):
        query = _print_table([fingerprint(c[kind]) for c in copies])
        sampled = near_duplicates(query, base)
        assert sampled == near_duplicates(query, base, exact=True), kind
        found = {(p.a, p.b) for p in sampled}
        # The thresholds miss about one copy in a hundred (a 5 % crop at their margin).
        assert sum((k, k) in found for k in range(len(files))) >= len(files) - 1, kind
        # Either way round: the original's corner view or the copy's.
        swapped = {(p.b, p.a) for p in near_duplicates(base, query)}
        assert swapped == found, kind


def test_off_centre_crops_are_found_through_the_corner_views() -> None:
    files = lung_files(8)
    originals = [fingerprint(f.read_bytes()) for f in files]
    crops = [fingerprint(_copies(f.read_bytes())["crop5-top-left"]) for f in files]
    both = _print_table(originals + crops)
    pairs = {(p.a, p.b): p for p in near_duplicates(both, None)}
    n = len(files)
    assert sum((k, n + k) in pairs for k in range(n)) >= n - 1
    assert all(pairs[(k, n + k)].cropped for k in range(n) if (k, n + k) in pairs)
    plain = {(p.a, p.b) for p in near_duplicates(both, None, corners=False)}
    assert sum((k, n + k) in plain for k in range(n)) <= 2  # the plain hashes alone miss them


def test_only_pairs_with_a_leading_row_are_listed() -> None:
    rows = np.array([[7, 7, 7]] * 4, dtype=np.uint64)
    pairs = {(int(p), int(q)) for c in colliding_rows(rows, first=1)
             for p, q in zip(c.p, c.q, strict=True)}
    assert pairs == {(0, 1), (0, 2), (0, 3)}
