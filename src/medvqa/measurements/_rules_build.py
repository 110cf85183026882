"""Which build of the answer-reading rules a speed figure measured (compiled or source)."""

from __future__ import annotations


def rules_build() -> str:
    """"compiled (mypyc)" or "from source: why" (see ``medvqa/reading/_native.py``)."""
    from medvqa.reading import compiled_rules

    compiled, why = compiled_rules()
    return "compiled (mypyc)" if compiled else f"from source: {why}"
