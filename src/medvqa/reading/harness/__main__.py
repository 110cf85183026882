"""``python -m medvqa.reading.harness [--regenerate]``, from the repository's root.

Without ``--regenerate``: recompute every decision and compare it with the committed table;
exit 0 where none changed, 1 where some did (the changes listed by class). With it: rewrite
the table, list the changes and put a drafted entry at the top of the decision changelog (say
why in it before committing). Exit 2 with one line where the corpus or table is unreadable.
"""

from __future__ import annotations

import argparse
import sys
from datetime import date
from pathlib import Path

from medvqa.errors import BadInputError
from medvqa.reading.harness._changes import describe
from medvqa.reading.harness._run import CHANGELOG, CORPUS, HARNESS_DIR, TABLE, recompute, regenerate


def main(argv: list[str] | None = None) -> int:
    """Run the command; returns the exit code."""
    ap = argparse.ArgumentParser(prog="python -m medvqa.reading.harness",
                                 description=__doc__.split("\n\n")[1])
    ap.add_argument("--regenerate", action="store_true",
                    help="rewrite the table and draft the changelog entry")
    ap.add_argument("--dir", type=Path, default=HARNESS_DIR,
                    help=f"the harness folder, holding {CORPUS} and {TABLE} (default: %(default)s)")
    ap.add_argument("--changelog", type=Path, default=CHANGELOG,
                    help="the decision changelog (default: %(default)s)")
    ap.add_argument("--no-changelog", action="store_true",
                    help="print the entry instead of putting it in the changelog")
    ap.add_argument("--date", type=date.fromisoformat, default=None,
                    help="the entry's date, YYYY-MM-DD (default: today)")
    args = ap.parse_args(argv)
    try:
        if args.regenerate:
            got, entry = regenerate(args.dir, None if args.no_changelog else args.changelog,
                                    args.date)
        else:
            got, entry = recompute(args.dir), None
    except BadInputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    n = len(got.inputs)
    if not got.changes and got.text == got.committed:
        print(f"{n:,} inputs: every decision is the table's")
        return 0
    print(f"{n:,} inputs: {got.changes.changed:,} decisions changed in "
          f"{len(got.changes.classes)} classes")
    if got.changes:
        print(describe(got.changes))
    if not args.regenerate:
        print("rewrite the table with: python -m medvqa.reading.harness --regenerate")
        return 1
    print(f"wrote {args.dir / TABLE}")
    if entry is not None:
        where = "entry to paste" if args.no_changelog else f"entry put in {args.changelog}"
        print(f"\n{where} (say why in it):\n\n{entry}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
