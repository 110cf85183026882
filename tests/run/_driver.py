"""Subprocess driver: run the benchmark against a URL with the stand-in HTTP backend.

Usage: python _driver.py BENCH RUN URL CONCURRENCY
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _http import HttpBackend  # noqa: E402

from medvqa.errors import BadInputError  # noqa: E402
from medvqa.models import ModelConfig  # noqa: E402
from medvqa.run import RunConfig, run_benchmark  # noqa: E402

bench, run, url, concurrency = sys.argv[1:5]
config = RunConfig(
    bench_dir=Path(bench),
    out_dir=Path(run),
    model=ModelConfig(spec=f"openai:test@{url}"),
    concurrency=int(concurrency),
)
try:
    s = run_benchmark(config, backend=HttpBackend(url))
except BadInputError as exc:
    print(f"error: {exc}", file=sys.stderr)
    sys.exit(2)
print(f"done sent={s.sent} cached={s.cached} already={s.already_done}")
