"""Rules of structured output (JSON, YAML, XML tags, tool calls): which keys hold the answer."""

from __future__ import annotations

from medvqa.reading.rules._build import ex, rule
from medvqa.reading.rules._types import Kind

__all__ = ["SHAPES"]

SHAPES = (
    rule("shape.answer-key", Kind.ANSWER_KEY,
         ("answer", "final", "choice", "selected", "selection", "select", "option",
          "prediction", "predicted", "label", "result", "output", "diagnosis", "impression",
          "conclusion", "classification", "category", "verdict", "decision", "response",
          "letter", "pick", "present", "positive", "found", "seen", "detected", "identified",
          "pred"),
         "A key of structured output (a word of it: final_answer, selectedOption) whose value "
         "is the answer. Every such value must name the same option.",
         template='{{"{}": "B"}}', options="CXR", expected="B"),
    rule("shape.other-key", Kind.OTHER_KEY,
         ("reasoning", "reason", "rationale", "explanation", "thought", "thinking",
          "analysis", "justification", "evidence", "observation", "note", "comment",
          "description", "findings", "summary", "confidence",
          "certainty", "probability", "score", "step", "plan",
          "question", "differential", "recommendation"),
         "A key whose value is not the answer (reasoning, evidence): set aside.",
         template='{{"answer": "B", "answer_{}": "Pleural effusion"}}', options="CXR",
         expected="B"),
    rule("shape.negative-key", Kind.NEGATIVE_KEY,
         ("excluded", "exclude", "ruled", "rejected", "unlikely", "incorrect", "wrong",
          "eliminated", "distractor", "absent", "negative"),
         "A key whose values are rejected options.",
         template='{{"answer": "B", "{}": "B"}}', options="CXR",
         examples=(ex('{"answer": "B", "excluded": ["A", "B"]}', "CXR"),),
         counter=(ex('{"answer": "B", "excluded": ["A", "C"]}', "CXR", "B"),)),
)
