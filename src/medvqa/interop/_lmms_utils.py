"""lmms-eval hooks for a benchmark exported by ``medvqa export --format lmms-eval``.

Standalone (no medvqa import): lmms-eval loads this file beside the task YAML. Documents are rows
of the Parquet export (``id``, ``images``, ``question``, ``options``, ``answer``,
``question_type`` …); prompts are medvqa's, rendered at export time into ``prompts.json``, so a
model sees the same text under lmms-eval as under ``medvqa run``.

``process_results`` scores with a simple documented rule (lmms-eval's side of the comparison):
choice items take the first option letter standing alone in the reply (``B``, ``(B)``, ``B.``),
else the option whose text the reply equals; open items compare case- and space-normalised
text; region items compare the set of integers named. For medvqa's parsers, confidence
intervals and controls, import the samples log: ``medvqa import-predictions lmms-eval
samples_TASK.jsonl --bench BENCH/ -o RUN/``.
"""

import json
import re
from functools import lru_cache
from pathlib import Path

CHOICE_TYPES = {"single", "multi", "yesno", "grade"}


@lru_cache(maxsize=1)
def _prompts():
    return json.loads((Path(__file__).parent / "prompts.json").read_text(encoding="utf-8"))


def doc_to_visual(doc):
    """The item's images as RGB PIL images (datasets decodes them)."""
    return [image.convert("RGB") for image in doc["images"]]


def doc_to_text(doc, lmms_eval_specific_kwargs=None):
    """The prompt medvqa renders, with lmms-eval's optional pre/post prompt around it."""
    kwargs = lmms_eval_specific_kwargs or {}
    return f"{kwargs.get('pre_prompt', '')}{_prompts()[doc['id']]}{kwargs.get('post_prompt', '')}"


def doc_to_target(doc):
    """The gold answer: a letter, letters or region IDs joined by commas, or the open text."""
    return ",".join(doc["answer"])


def _norm(text):
    return " ".join(str(text).lower().split()).strip(" .")


def _letters(reply, letters):
    found = re.findall(r"(?<![A-Za-z])([A-Z])(?![A-Za-z])", reply)
    return [x for x in found if x in letters]


def score(doc, reply):
    """1.0 when the reply is right by the rule in the module docstring, else 0.0."""
    qtype = doc["question_type"]
    gold = list(doc["answer"])
    if qtype in CHOICE_TYPES:
        options = {o["letter"]: o["text"] for o in doc["options"]}
        said = _letters(reply, set(options))
        if not said:
            said = [k for k, v in options.items() if _norm(v) == _norm(reply)]
        if qtype == "multi":
            return float(sorted(set(said)) == sorted(gold))
        return float(bool(said) and said[0] == gold[0])
    if qtype == "region":
        return float(set(re.findall(r"\d+", reply)) == set(gold))
    return float(_norm(reply) == _norm(gold[0]))


def process_results(doc, results):
    """lmms-eval's per-document metrics (``accuracy``), from the model's first reply."""
    reply = results[0] if results else ""
    return {"accuracy": score(doc, reply if isinstance(reply, str) else str(reply))}
