r"""Read N distinct explaining sentences of the realistic mix: the reader's cost per sentence.

For CPU instruction counts that do not depend on the host's load, run it under callgrind with
N and with 0 and divide the difference by N (both runs generate the same sentences and read
the same warm-up, so only the N sentences differ)::

    for n in 0 500; do
      OPENBLAS_NUM_THREADS=1 PYTHONPATH=src valgrind --tool=callgrind \
        --callgrind-out-file=/tmp/cg.$n python tools/reader_instructions.py $n
    done   # then (Ir of 500 - Ir of 0) / 500, from each run's "Collected" line

Without valgrind it prints the sentences' rate on this host (load-dependent).
"""

from __future__ import annotations

import sys
import time

from medvqa.measurements._extraction import _common_forms
from medvqa.measurements._scoring import _OPTIONS, realistic_responses
from medvqa.reading import make_parser


def main(n: int) -> None:
    """Read ``n`` distinct sentences (seed 0) after 1,000 others (seed 5); print the rate."""
    texts = [t for t in realistic_responses(8000, 0) if t not in _common_forms()][:n]
    warm = [t for t in realistic_responses(4000, 5) if t not in _common_forms()][:1000]
    parser = make_parser("strict")
    for t in warm:  # every lazily built part is built before the sentences are read
        parser.parse(t, _OPTIONS, "single")
    t0 = time.perf_counter()
    for t in texts:
        parser.parse(t, _OPTIONS, "single")
    dt = time.perf_counter() - t0
    print(f"{len(texts)} distinct sentences, {len(texts) / dt if dt else 0:,.0f}/s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
