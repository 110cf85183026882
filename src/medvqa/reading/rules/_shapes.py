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
          "pred", "majority", "argmax", "ans", "resps"),
         "A key of structured output (a word of it: final_answer, selectedOption) whose value "
         "is the answer. Every such value must name the same option.",
         template='{{"{}": "B"}}', options="CXR", expected="B"),
    rule("shape.other-key", Kind.OTHER_KEY,
         ("reasoning", "reason", "rationale", "explanation", "thought", "thinking",
          "analysis", "justification", "evidence", "observation", "note", "comment",
          "description", "findings", "summary", "confidence",
          "certainty", "probability", "score", "step", "plan",
          "question", "differential", "ddx", "recommendation", "considered", "gt", "truth",
          "gold", "target", "reference", "ref", "expected"),
         "A key whose value is not the answer (reasoning, evidence, the reference answer an "
         "evaluation log writes beside the model's): set aside.",
         template='{{"answer": "B", "answer_{}": "Pleural effusion"}}', options="CXR",
         expected="B"),
    rule("shape.second-key", Kind.SECOND_KEY,
         ("alternative", "alternatives", "second", "backup", "runner", "uncertain",
          "equivocal", "indeterminate", "possible", "maybe"),
         "A key whose value is a second reading beside the answer: never the answer, and "
         "where it names another option (its text or its letter), the answer is ambiguous. A "
         "differential, or alternatives considered, is reasoning: the answer stands.",
         template='{{"answer": "A", "{}": "B"}}', options="CXR",
         examples=(ex('{"answer": "A", "alternatives": ["B", "C"]}', "CXR"),
                   ex("<answer>C</answer>\n<alternative>B</alternative>", "CXR"),
                   ex('{"selected": ["A", "C"], "uncertain": ["E"]}', "MULTI", None, "multi"),
                   ex('{"selected": ["A"], "equivocal": ["B"]}', "MULTI", None, "multi"),
                   ex('{"selected": ["A"], "indeterminate": ["B"]}', "MULTI", None, "multi"),
                   ex('{"selected": ["A"], "possible": ["B"]}', "MULTI", None, "multi"),
                   ex('{"selected": ["A"], "maybe": ["B"]}', "MULTI", None, "multi"),
                   ex('{"answer": "A", "backup": "B"}', "CXR"),
                   ex('{"answer": "A", "runner_up": "B"}', "CXR"),
                   ex('{"answer": "A", "second_choice": "B"}', "CXR")),
         counter=(ex('{"answer": "A", "alternative": "A"}', "CXR", "A"),
                  ex('{"answer": "A", "differential": ["B", "C"]}', "CXR", "A"),
                  ex('{"answer": "A", "alternatives_considered": ["B"]}', "CXR", "A"),
                  ex('{"differential": "B"}', "CXR"))),
    rule("shape.negative-key", Kind.NEGATIVE_KEY,
         ("excluded", "exclude", "ruled", "rejected", "unlikely", "incorrect", "wrong",
          "eliminated", "distractor", "absent", "negative"),
         "A key whose values are rejected options.",
         template='{{"answer": "B", "{}": "B"}}', options="CXR",
         examples=(ex('{"answer": "B", "excluded": ["A", "B"]}', "CXR"),),
         counter=(ex('{"answer": "B", "excluded": ["A", "C"]}', "CXR", "B"),)),
)
