"""``python -m medvqa.reading.rules [--write DOC]``: print the rule table's Markdown section.

With ``--write``, the section between the markers of ``DOC`` is replaced (atomically).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from medvqa.reading.rules import RULES
from medvqa.reading.rules._docs import replace_section, rules_markdown


def main(argv: list[str] | None = None) -> int:
    """Print the section, or write it into a document; 2 on a document without markers."""
    parser = argparse.ArgumentParser(prog="python -m medvqa.reading.rules")
    parser.add_argument("--write", type=Path, help="the Markdown file whose section to replace")
    args = parser.parse_args(argv)
    section = rules_markdown(RULES)
    if args.write is None:
        sys.stdout.write(section)
        return 0
    try:
        updated = replace_section(args.write.read_text(encoding="utf-8"), section)
    except (OSError, ValueError) as e:
        print(f"{args.write}: {e}", file=sys.stderr)
        return 2
    tmp = args.write.with_suffix(args.write.suffix + ".tmp")
    tmp.write_text(updated, encoding="utf-8")
    tmp.replace(args.write)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
