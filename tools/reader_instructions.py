r"""Read N responses of a bench mix with the strict reader: its cost per response.

``python tools/reader_instructions.py [distinct|realistic|modern] N``:

- ``distinct``: N distinct explaining sentences of the realistic mix (seed 0), after 1,000
  others (seed 5) have been read;
- ``realistic`` / ``modern``: the first N of the bench's 20,000-response mix, memo working,
  after the labelled set (each response made distinct) has been read and the caches cleared.

For CPU instruction counts that do not depend on the host's load, run it under callgrind with
N and with 0, the hash seed fixed, and divide the difference by N (both runs build the same
inputs and read the same warm-up, so only the N responses differ)::

    for n in 0 500; do
      PYTHONHASHSEED=0 OPENBLAS_NUM_THREADS=1 PYTHONPATH=src valgrind --tool=callgrind \
        --callgrind-out-file=/tmp/cg.$n python tools/reader_instructions.py distinct $n
    done   # then (Ir of 500 - Ir of 0) / 500, from each run's "Collected" line

Without valgrind it prints the responses' rate on this host (load-dependent).
"""

from __future__ import annotations

import sys
import time

from medvqa.measurements._extraction import _common_forms, labelled_rows, modern_mix, realistic_mix
from medvqa.measurements._scoring import _OPTIONS, realistic_responses
from medvqa.reading import clear_caches, make_parser


def _inputs(mix: str, n: int) -> list[tuple[str, dict[str, str], str, str]]:
    """The N responses of ``mix`` to read, and the warm-up read before them."""
    parser = make_parser("strict")
    if mix == "distinct":
        texts = [t for t in realistic_responses(8000, 0) if t not in _common_forms()][:n]
        for t in [t for t in realistic_responses(4000, 5) if t not in _common_forms()][:1000]:
            parser.parse(t, _OPTIONS, "single")
        return [(t, _OPTIONS, "single", "") for t in texts]
    rows = labelled_rows()
    items = realistic_mix(20_000) if mix == "realistic" else modern_mix(20_000, rows)
    for r in rows:
        parser.parse(r["response"] + " (warm)", r["options"], r["question_type"],
                     question=r.get("question") or "")
    clear_caches()
    return items[:n]


def main(mix: str, n: int) -> None:
    """Read ``n`` responses of ``mix`` after its warm-up; print their rate."""
    items = _inputs(mix, n)
    parser = make_parser("strict")
    t0 = time.perf_counter()
    for text, options, qtype, question in items:
        parser.parse(text, options, qtype, question=question)
    dt = time.perf_counter() - t0
    print(f"{mix}: {len(items)} responses, {len(items) / dt if dt else 0:,.0f}/s")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "distinct",
         int(sys.argv[2]) if len(sys.argv) > 2 else 2000)
