"""Where medvqa's parser and the other tool's agree on an imported run, and where they do not.

After ``medvqa import-predictions`` (which keeps the tool's own verdicts in
``tool_scores.jsonl``) and ``medvqa score``, each response has two verdicts. The accuracies are
equal exactly when the disagreements cancel out, so the disagreements are listed one by one
(item, response, both verdicts) for a reader to judge which parser is right.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from medvqa.errors import BadInputError
from medvqa.interop._predictions import TOOL_SCORES_FILE, ToolVerdict
from medvqa.schema import PREDICTIONS_FILE, Prediction, read_jsonl


@dataclass(frozen=True)
class Disagreement:
    """One response the two parsers scored differently."""

    item_id: str
    response: str
    tool_correct: bool
    medvqa_correct: bool
    medvqa_invalid: bool


@dataclass
class Agreement:
    """Both tools' accuracy on the responses both scored, and their disagreements."""

    n: int
    tool_accuracy: float
    medvqa_accuracy: float
    agreed: int
    disagreements: list[Disagreement] = field(default_factory=list)


def agreement(run_dir: Path) -> Agreement:
    """Compare ``medvqa score``'s verdicts with the imported tool's, response by response.

    Raises:
        BadInputError: the run has no tool verdicts or has not been scored.

    """
    run_dir = Path(run_dir)
    if not (run_dir / TOOL_SCORES_FILE).is_file():
        raise BadInputError(
            f"{run_dir}: no {TOOL_SCORES_FILE}: the file imported carries no verdicts of the "
            "tool's own; import one that does (VLMEvalKit: *_exact_matching_result.xlsx, not the "
            "predictions .xlsx; lmms-eval: a samples log with accuracy; Inspect: a scored log)")
    tool = {(v.item_id, v.condition): v.tool_correct
            for v in read_jsonl(run_dir / TOOL_SCORES_FILE, ToolVerdict)}
    rows = [(p, tool[(p.item_id, p.condition)])
            for p in read_jsonl(run_dir / PREDICTIONS_FILE, Prediction)
            if (p.item_id, p.condition) in tool and p.error is None]
    if any(p.correct is None for p, _ in rows):
        raise BadInputError(f"{run_dir}: not scored yet (run `medvqa score BENCH {run_dir}`)")
    if not rows:
        raise BadInputError(f"{run_dir}: no response carries both verdicts")
    diffs = [Disagreement(p.item_id, p.response or "", t, bool(p.correct), bool(p.invalid))
             for p, t in rows if bool(p.correct) != t]
    n = len(rows)
    return Agreement(
        n=n,
        tool_accuracy=sum(t for _, t in rows) / n,
        medvqa_accuracy=sum(bool(p.correct) for p, _ in rows) / n,
        agreed=n - len(diffs),
        disagreements=diffs,
    )
