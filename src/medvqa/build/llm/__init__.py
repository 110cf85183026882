"""LLM-driven benchmark construction: captions → QA, reports → schema → QA, judges."""
