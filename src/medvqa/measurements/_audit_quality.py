"""Near-duplicate detection quality on a test set made from the shipped sample images.

Each image gets altered copies: re-encoded as JPEG quality 60, resized to 50 %, cropped by
5 % (2.5 % off each side: the central 95 %), brightness-shifted (+25 of 255 on every channel,
clipped), horizontally flipped, and cropped off-centre: 5 % of the width and height off one
corner (four copies) or 5 % off one side (four more). A copy *matches* when it is within
every threshold of its original (:class:`Thresholds`; flips through the mirrored hashes,
either image's corner views against the other's hashes too) and is *found* when the audit's
search
(:mod:`medvqa.benchmark.audit._near`, bit-sampling candidates then the thresholds) returns
the pair; the first is what thresholds are tuned on, the second what is reported. A *false
match* is a pair of distinct images from the same folder (the same class or dataset: fundus
photographs with fundus photographs, lung tiles of one class …) that matches (an upper bound
of what the search reports: it never returns a pair beyond the thresholds). The images are
split in two halves by a seeded permutation: thresholds are tuned on one half and reported
on the other.
"""

from __future__ import annotations

import io
import itertools
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from medvqa.benchmark.audit import (
    COLUMN_LIMIT,
    IMAGE_SUFFIXES,
    Fingerprint,
    ImageTable,
    Thresholds,
    fingerprint,
    near_duplicates,
    popcount,
    words64,
)
from medvqa.rng import rng_for

#: The off-centre 5 % crops: which sides each cuts (left, top, right, bottom: 1 cut).
OFF_CENTRE = {
    "crop5-top-left": (1, 1, 0, 0), "crop5-top-right": (0, 1, 1, 0),
    "crop5-bottom-left": (1, 0, 0, 1), "crop5-bottom-right": (0, 0, 1, 1),
    "crop5-left": (1, 0, 0, 0), "crop5-right": (0, 0, 1, 0),
    "crop5-top": (0, 1, 0, 0), "crop5-bottom": (0, 0, 0, 1),
}
VARIANTS = ("jpeg60", "half", "crop5", "bright", "flip", *OFF_CENTRE)
#: The copies the thresholds are tuned on; flips are reported on their own.
TARGETED = ("jpeg60", "half", "crop5", "bright")
#: The copies the recall target (≥ 0.95) applies to: the tuned ones and the off-centre crops
#: (found through the corner views, whose cut was chosen on the tuning half: ``CORNER_CUT``).
RECALL_TARGET = (*TARGETED, *OFF_CENTRE)


def _png(im: object) -> bytes:
    buf = io.BytesIO()
    im.save(buf, "PNG", compress_level=1)  # type: ignore[attr-defined]
    return buf.getvalue()


def altered(data: bytes) -> dict[str, bytes]:
    """The altered copies of encoded image bytes, by :data:`VARIANTS` name."""
    from PIL import Image, ImageOps

    with Image.open(io.BytesIO(data)) as im:
        im.load()
        rgb = im.convert("RGB") if im.mode not in {"L", "RGB"} else im.copy()
    w, h = rgb.size
    jpeg = io.BytesIO()
    rgb.save(jpeg, "JPEG", quality=60)
    dx, dy = round(w * 0.025), round(h * 0.025)
    shifted = np.clip(np.asarray(rgb).astype(np.int16) + 25, 0, 255).astype(np.uint8)
    out = {
        "jpeg60": jpeg.getvalue(),
        "half": _png(rgb.resize((max(1, w // 2), max(1, h // 2)), Image.Resampling.BILINEAR)),
        "crop5": _png(rgb.crop((dx, dy, w - dx, h - dy))),
        "bright": _png(Image.fromarray(shifted)),
        "flip": _png(ImageOps.mirror(rgb)),
    }
    for name, (left, top, right, bottom) in OFF_CENTRE.items():
        box = (2 * dx * left, 2 * dy * top, w - 2 * dx * right, h - 2 * dy * bottom)
        out[name] = _png(rgb.crop(box))
    return out


@dataclass
class Sample:
    """Fingerprints of one shipped image and of its altered copies."""

    path: Path
    group: str
    original: Fingerprint
    copies: dict[str, Fingerprint] = field(default_factory=dict)


def sample_images(root: Path, every: int = 1) -> list[Path]:
    """Every ``every``-th image file under ``root`` (sorted)."""
    files = sorted(p for p in root.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES
                   and not any(part.startswith(".") for part in p.parts))
    return files[::every]


def fingerprint_samples(root: Path, files: list[Path]) -> list[Sample]:
    """Fingerprints of each file and its copies (unreadable files left out)."""
    out = []
    for path in files:
        data = path.read_bytes()
        try:
            sample = Sample(path, path.parent.relative_to(root).as_posix(), fingerprint(data))
        except OSError:
            continue
        sample.copies = {k: fingerprint(v) for k, v in altered(data).items()}
        out.append(sample)
    return out


def _limits(limits: Thresholds) -> np.ndarray:
    return np.array([getattr(limits, name) for name in COLUMN_LIMIT])


def _within(left: tuple[int, ...], fine_left: int, right: tuple[int, ...], fine_right: int,
            limits: Thresholds) -> bool:
    coarse = [bin(x ^ y).count("1") for x, y in zip(left, right, strict=True)]
    fine = bin(fine_left ^ fine_right).count("1")
    return bool((np.array(coarse) <= _limits(limits)).all()) and fine <= limits.fine


def matches(a: Fingerprint, b: Fingerprint, limits: Thresholds, mirrored: bool) -> bool:
    """The audit's rule for one pair.

    ``mirrored``: ``a``'s mirrored hashes against ``b``'s; else the plain hashes, and each
    one's corner views against the other's plain hashes.
    """
    if mirrored:
        return _within(a.mirrored, a.fine_mirrored, b.hashes, b.fine, limits)
    return (_within(a.hashes, a.fine, b.hashes, b.fine, limits)
            or any(_within(c, f, y.hashes, y.fine, limits)
                   for x, y in ((a, b), (b, a))
                   for c, f in zip(x.corners, x.fine_corners, strict=True)))


def recall(samples: list[Sample], variant: str, limits: Thresholds) -> float:
    """Share of ``variant`` copies within every threshold of their original.

    Flips through the mirrored hashes; what thresholds are tuned on.
    """
    flip = variant == "flip"
    found = [matches(s.copies[variant], s.original, limits, flip) for s in samples]
    return float(np.mean(found)) if found else float("nan")


def _table(prints: list[Fingerprint]) -> ImageTable:
    n = len(prints)
    table = ImageTable(paths=[str(k) for k in range(n)], sha256=[p.sha256 for p in prints],
                       pixels=[p.pixels for p in prints])
    table.hashes = np.array([p.hashes for p in prints], dtype=np.uint64).reshape(n, 3)
    table.mirrored = np.array([p.mirrored for p in prints], dtype=np.uint64).reshape(n, 3)
    table.fine = np.array([words64(p.fine) for p in prints], dtype=np.uint64).reshape(n, 4)
    table.fine_mirrored = np.array([words64(p.fine_mirrored) for p in prints],
                                   dtype=np.uint64).reshape(n, 4)
    table.corners = np.array([p.corners for p in prints], dtype=np.uint64).reshape(n, -1, 3)
    table.fine_corners = np.array([[words64(f) for f in p.fine_corners] for p in prints],
                                  dtype=np.uint64).reshape(n, -1, 4)
    table.ok = np.ones(n, dtype=bool)
    return table


def search_recall(samples: list[Sample], variant: str, limits: Thresholds,
                  exact: bool = False) -> float:
    """Share of ``variant`` copies the audit's search finds.

    Every copy is searched against every original (:func:`near_duplicates`: the bit-sampling
    tables unless ``exact``).
    """
    if not samples:
        return float("nan")
    originals = _table([s.original for s in samples])
    copies = _table([s.copies[variant] for s in samples])
    found = {(p.a, p.b) for p in near_duplicates(copies, originals, True, limits, exact)}
    return sum((k, k) in found for k in range(len(samples))) / len(samples)


def false_match_rate(samples: list[Sample], limits: Thresholds,
                     mirrored: bool) -> tuple[float, int]:
    """Share of distinct same-folder pairs that match, and how many pairs there were.

    Vectorised over all pairs of a folder (NumPy popcounts): plain hashes, each image's corner
    views against the other's plain hashes, and the mirrored search when ``mirrored``.
    """
    hits = pairs = 0
    by_group: dict[str, list[Sample]] = {}
    for s in samples:
        by_group.setdefault(s.group, []).append(s)
    for members in by_group.values():
        if len(members) < 2:
            continue
        coarse = np.array([s.original.hashes for s in members], dtype=np.uint64)
        fine = np.array([words64(s.original.fine) for s in members], dtype=np.uint64)
        flip = np.array([s.original.mirrored for s in members], dtype=np.uint64)
        fine_m = np.array([words64(s.original.fine_mirrored) for s in members], dtype=np.uint64)
        i, j = np.array(list(itertools.combinations(range(len(members)), 2))).T
        ok = _pair_ok(coarse[i], fine[i], coarse[j], fine[j], limits)
        corners = np.array([s.original.corners for s in members], dtype=np.uint64)
        fine_c = np.array([[words64(f) for f in s.original.fine_corners] for s in members],
                          dtype=np.uint64)
        for c in range(corners.shape[1]):
            ok |= _pair_ok(corners[i, c], fine_c[i, c], coarse[j], fine[j], limits)
            ok |= _pair_ok(corners[j, c], fine_c[j, c], coarse[i], fine[i], limits)
        if mirrored:
            ok |= _pair_ok(flip[i], fine_m[i], coarse[j], fine[j], limits)
        hits += int(ok.sum())
        pairs += len(i)
    return (hits / pairs if pairs else float("nan")), pairs


def _pair_ok(ca: np.ndarray, fa: np.ndarray, cb: np.ndarray, fb: np.ndarray,
             limits: Thresholds) -> np.ndarray:
    coarse = np.stack([popcount(ca[:, k] ^ cb[:, k]) for k in range(ca.shape[1])], axis=1)
    fine = np.sum([popcount(fa[:, k] ^ fb[:, k]) for k in range(fa.shape[1])], axis=0)
    ok: np.ndarray = (coarse <= _limits(limits)).all(axis=1) & (fine <= limits.fine)
    return ok


def halves(samples: list[Sample], seed: int = 0) -> tuple[list[Sample], list[Sample]]:
    """A seeded split of the samples into a tuning half and a held-out half."""
    order = rng_for(seed, "audit-bench-halves").permutation(len(samples))
    cut = len(samples) // 2
    return [samples[k] for k in sorted(order[:cut])], [samples[k] for k in sorted(order[cut:])]


def tune(samples: list[Sample], target: float = 0.97) -> Thresholds:
    """Thresholds chosen on ``samples``, each the smallest finding ``target`` of every kind.

    In turn: the centre hash with the others unbounded, then the whole-image hashes, then the
    fine hash (every targeted kind of copy counts, flips do not).
    """
    def worst(limits: Thresholds) -> float:
        return min(recall(samples, v, limits) for v in TARGETED)

    loose = Thresholds(64, 64, 256)
    centre = next((c for c in range(4, 25, 2) if worst(loose._replace(centre=c)) >= target), 24)
    loose = loose._replace(centre=centre)
    whole = next((w for w in range(centre, 31, 2) if worst(loose._replace(whole=w)) >= target),
                 30)
    loose = loose._replace(whole=whole)
    fine = next((f for f in range(32, 257, 8) if worst(loose._replace(fine=f)) >= target), 256)
    return loose._replace(fine=fine)
