"""Answer parsers (owner: parsers). Placeholder."""
