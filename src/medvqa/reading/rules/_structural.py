"""Rules of the reader's own structure: no words of their own, each an id with its examples.

Their logic is the reader's code (named in each rule's documentation); their ids are what a
reading cites, and their examples are checked like every other rule's.
"""

from __future__ import annotations

from medvqa.reading.rules._build import ex, rule
from medvqa.reading.rules._types import Kind

__all__ = ["STRUCTURAL"]

_S = Kind.STRUCTURAL

STRUCTURAL = (
    rule("structural.not-text", _S, (), "A response that is not text is invalid (`not_text`).",
         examples=()),
    rule("structural.too-long", _S, (),
         "A response longer than any answer (100,000 characters: a runaway generation) is "
         "invalid (`too_long`)."),
    rule("structural.empty", _S, (), "An empty response names nothing (`empty`).",
         examples=(ex("", "LR"), ex("   ", "MM", None, "multi"))),
    rule("structural.trace-only", _S, (),
         "Reasoning (`<think>`, `<thinking>`, `<reasoning>`, `<thought>`, `◁think▷` blocks, an "
         "unclosed block, all before a stray closing tag) is set aside; a response that is "
         "only a trace has not committed.",
         examples=(ex("<think>So the answer is B.</think>", "CXR"),
                   ex("<think>The answer is A. Let me check the apex again", "CXR"),
                   ex("<think>The answer is A.</think> B", "CXR", "B"))),
    rule("structural.letters", _S, (),
         "A response that is letters only, after an optional answer lead, names those letters "
         "('B', '(B).', 'Answer: A, C'); tokenizer markers after it ('<|endoftext|>') are no text.",
         examples=(ex("B", "LR", "B"), ex("(B)", "LR", "B"), ex("Answer: (B).", "LR", "B"),
                   ex("B<|endoftext|><|endoftext|>", "LR", "B"),
                   ex("A, C", "MM", ("A", "C"), "multi"))),
    rule("structural.final-names-none", _S, (),
         "A final answer's marker ('Answer:', 'Final answer:') followed by words or a value "
         "that name no option ('it depends on the prior study', '7 mm' where no option is 7 "
         "mm), or that only discuss options ('Impression: pneumonia versus atelectasis'), has "
         "not committed: an option named before it is not the answer. A pointer back "
         "('as above') is no such answer.",
         examples=(ex("Category 3 on a baseline scan.\nFinal answer: depends on the prior "
                      "study.", "ST"),
                   ex("Findings: a small pleural effusion.\nImpression: pneumothorax versus "
                      "normal lung.", "PE"),
                   ex("The left lung is clear; the right one is 7 mm smaller.\nAnswer: 7 mm",
                      "LR"),
                   ex("Pneumothorax, with a sharp pleural line.\nFinal answer: as above.", "PE",
                      "B"))),
    rule("structural.option-despaced", _S, (),
         "Where nothing else reads, an option written with its letters spaced out or run "
         "together (OCR or tokenizer noise: 'P n e u m o t h o r a x', 'Ans wer: Pleuraleffusion')"
         " is that option; nothing but an answer marker may be left over.",
         examples=(ex("P n e u m o t h o r a x", "PE", "B"),
                   ex("Ans wer: Pleuraleffusion", "PE", "A"),
                   ex("N o p n e u m o t h o r a x", "PE"))),
    rule("structural.bracketed-letter", _S, (),
         "In a list of letters, a letter held back beside the others leaves the set not "
         "committed: in brackets beside bare ones ('A, C, (D)'), in brackets with a condition, "
         "a doubt or a question mark ('A, B (C if the patch counts)', 'A, B (and E?)'), or "
         "after '±' ('B, C ± D').",
         examples=(ex("A, C, (D)", "MULTI", None, "multi"),
                   ex("A, B (C if the density is real)", "MULTI", None, "multi"),
                   ex("A, B, C, D (and E?)", "MULTI", None, "multi"),
                   ex("Answer: B, C \u00b1 D", "MULTI", None, "multi"),
                   ex("(A), (C)", "MULTI", ("A", "C"), "multi")),
         counter=(ex("Mass (A) and calcification (B).", "MULTI", ("A", "B"), "multi"),)),
    rule("structural.out-of-range", _S, (),
         "A letter that is not an option in an answer position (`out_of_range`).",
         examples=(ex("The answer is E", "LR"), ex("Z", "LR"))),
    rule("structural.two-options", _S, (),
         "Two different options asserted for a single-choice item are ambiguous.",
         examples=(ex("Left and right.", "LR"), ex("B. Adenocarcinoma", "LUNG"))),
    rule("structural.letter-text-conflict", _S, (),
         "A letter label and the text it labels that name different options are ambiguous: "
         "'A — yes' where A is No, '(B) Yes' where B is No, 'A (pleural effusion)' where A is "
         "another finding, in a single answer or in a set.",
         examples=(ex("A — yes, normal.", "NY", None, "yesno"),
                   ex("The correct answer is: (B) Yes", "YN", None, "yesno"),
                   ex("A (calcification), C (architectural distortion)", "MULTI", None,
                      "multi"),
                   ex("B: No", "YN", "B", "yesno"),
                   ex("B (pneumothorax)", "PE", "B"))),
    rule("conclusion.labelled", _S, (),
         "On a single-choice item, a 'label: value' line or key whose label names what is "
         "asked (a word every option shares, or a word of the question) and whose value names "
         "another option than the answer: the response states the asked thing twice, "
         "differently ('Final BI-RADS: 5' above 'Answer: C').",
         examples=(ex("**Final BI-RADS:** 5\n\n**Answer:** C", "BIRADS"),
                   ex('{"birads": "3", "answer": "C"}', "BIRADS"),
                   ex("grade_icdr: 2\nanswer: C", "GRADE")),
         counter=(ex("**BI-RADS:** 4\n\n**Answer:** C", "BIRADS", "C"),
                  ex("Composition: 2\nAnswer: C", "BIRADS", "C"))),
    rule("structural.asserted-and-negated", _S, (),
         "One option both asserted and negated is ambiguous.",
         examples=(ex("Pleural effusion, but pleural effusion is unlikely."),)),
    rule("structural.all-negated", _S, (),
         "Every option named is negated: nothing is chosen (`negated`).",
         examples=(ex("It is definitely not C.", "CXR"),)),
    rule("structural.query", _S, (),
         "A question mark opening a word ('?pneumothorax') queries a finding: a hedge.",
         examples=(ex("?Pneumothorax"),)),
    rule("structural.yes-no-both", _S, (),
         "Both a yes and a no word at once ('Yes or no', 'yes/no') are ambiguous.",
         examples=(ex("Yes or No", "YN", None, "yesno"), ex("Yes, no.", "YN", None, "yesno"))),
    rule("structural.shape", _S, (),
         "Structured output read by its shape: the answer fields' values (JSON, XML-like tags,"
         " tool calls, CSV), every one naming the same answer.",
         examples=(ex('{"answer": "B"}', "CXR", "B"),
                   ex('{"output": {"label": "C"}}', "CXR", "C"),
                   ex("<selected>B</selected>", "CXR", "B"),
                   ex("submit_answer(option='D')", "CXR", "D"),
                   ex('{"A": true, "B": false, "C": true}', "MULTI", ("A", "C"), "multi"))),
    rule("structural.index-base", _S, (),
         "A structure that gives the answer by index ('index', 'answer_idx') does not say whether"
         " it counts from 0 or from 1: 0 is the first option and the number of options the last;"
         " any other index is two readings.",
         examples=(ex('{"index": 1, "confidence": 0.7}', "CXR"),
                   ex('{"answer_idx": 0}', "CXR", "A"),
                   ex('{"answer_index": 4}', "CXR", "D"))),
    rule("structural.shape-open", _S, (),
         "A structure that keys an option, or the question's finding, with a value that says "
         "neither yes nor no (`null`, 'indeterminate', 'unclear'), or whose answer field is "
         "`null` or empty, has not committed; the text is not read past it.",
         examples=(ex('{"pneumothorax": null, "reason": "apices cropped"}', "YN", None,
                      "yesno", "Is there a pneumothorax?"),
                   ex('{"mass": true, "skin_thickening": "indeterminate"}', "MULTI", None,
                      "multi"),
                   ex('{"answer": null, "diagnosis": "Pneumothorax"}', "CXR"),
                   ex('{"mass": true, "skin_thickening": false}', "MULTI", ("A",), "multi"))),
    rule("structural.shape-second-value", _S, (),
         "A structure whose answer field names one option and another field's whole value is "
         "another option ('alternative', a grade field beside the answer) is ambiguous.",
         examples=(ex('{"answer": "Stage 2", "alternative": "Stage 3"}', "ST"),
                   ex('{"stage": "Stage 2", "answer": "D"}', "ST"),
                   ex('{"answer": "B", "finding": "Stage 2"}', "ST", "B"))),
    rule("structural.answers-disagree", _S, (),
         "Two located answers that differ, with no change of mind between them, are "
         "ambiguous (two JSON fields, two tags, an early and a final answer).",
         examples=(ex('{"selected": "D", "final": "Pleural effusion"}', "CXR"),
                   ex("<answer>A</answer>\n<choice>C</choice>", "CXR"))),
    rule("structural.dialogue", Kind.SPEAKER,
         ("resident", "attending", "fellow", "registrar", "consultant", "radiologist",
          "pathologist", "student", "intern", "dr", "reader", "clinician", "physician",
          "surgeon", "trainee", "supervisor", "reviewer", "expert"),
         "In a dialogue (lines opened by two or more speakers' roles: 'Resident:', 'Attending:'), "
         "the answers the speakers give are discussion where a final answer follows the dialogue "
         "('Final answer (consensus): D'); a speaker's own answer is one voice among others.",
         template="{0}: I'd call it a pleural effusion (A).\n{0} two: look again, the pleural "
                  "line is there.\nFinal answer: B",
         expected="B",
         counter=(ex("Resident: I'd call it a pleural effusion (A).\nAttending: I'd call it "
                     "a pneumothorax (B).", "PE"),)),
    rule("structural.tail-letter", _S, (),
         "After the located answer, another option in a letter position (a line or clause of "
         "its own) makes it ambiguous.",
         examples=(ex("Final answer: Pneumothorax\n\nA"),)),
    rule("structural.contradiction", _S, (),
         "On a yes/no item, a finding stated after the yes or no word that says the opposite "
         "makes it ambiguous.",
         examples=(ex("Answer: Yes. There is no pneumothorax.", "YN", None, "yesno",
                      "Is there a pneumothorax?"),)),
    rule("structural.scores", _S, (),
         "Where two or more options carry a probability ('A: 0.45, B: 0.05', 'Grade 1: 70 %'), "
         "the answer must be the one scored highest, alone: a tie, or an answer that is not "
         "the highest, is ambiguous. On a select-all item, every option scored and nothing "
         "else said leaves the set unsaid: which scores make it is not written.",
         examples=(ex("A: 0.45, B: 0.10, C: 0.45", "PE"),
                   ex("Pleural effusion: 0.70, Pneumothorax: 0.20, Normal: 0.10\nAnswer: B",
                      "PE"),
                   ex("A: 0.10, B: 0.80, C: 0.10\nAnswer: B", "PE", "B"))),
    rule("structural.repeated-letters", _S, (),
         "A list of letters that repeats them out of one cycle ('A B A B A B E', 'A, B, C, A, "
         "B, C, D') is a generation caught in a loop that drifted: ambiguous. One set repeated "
         "in one order ('A, C, A, C', 'B B B B') is that set.",
         examples=(ex("A B A B A B C A B", "MULTI", None, "multi"),
                   ex("A, B, C, A, B, C, D", "MULTI", None, "multi")),
         counter=(ex("A, C, A, C, A, C", "MULTI", ("A", "C"), "multi"),
                  ex("B B B B B", "MULTI", ("B",), "multi"))),
    rule("structural.quoted-answer", _S, (),
         "An answer in quotation marks ('\"The answer is B\" — that is what the textbook says', "
         "\"Quote: 'the answer is B'\") is someone else's, not the response's: it is set "
         "aside.",
         examples=(ex('"The answer is B" is what the textbook says, but I see otherwise.', "PE"),
                   ex("Quote: 'the answer is B'. End of quote.", "PE")),
         counter=(ex('He said "look again", and the answer is B.', "PE", "B"),)),
    rule("structural.scores-top", _S, (),
         "A table of scores alone, every option scored by its letter as one distribution "
         "('{\"A\": 0.81, \"B\": 0.11 …}', 'A: 0.05⏎B: 0.84 …'), answers its top where the top "
         "holds three quarters of the whole and at least twice the next score; else it is "
         "ambiguous (`structural.scores`).",
         examples=(ex('{"A": 0.8, "B": 0.15, "C": 0.05}', "PE", "A"),
                   ex("Probabilities:\nA: 0.05\nB: 0.85\nC: 0.10", "PE", "B")),
         counter=(ex("A: 0.45, B: 0.40, C: 0.15", "PE"),
                  ex('{"scores": {"A": 0.1, "B": 0.7, "C": 0.2}}', "PE"))),
    rule("structural.set-left-open", _S, (),
         "On a multiple-choice item, a set with one letter neither in nor out is not "
         "committed: a letter after a concession, a contrast, an 'or' between letters, a "
         "change of mind that adds a letter the set lacks or a second reading in its clause; a "
         "letter in a clause with a condition; a chosen letter after an exception.",
         examples=(ex("A, B, C, though C is hard to call on this film.", "MULTI", None,
                      "multi"),
                   ex("A, B, and C or D.", "MULTI", None, "multi"),
                   ex("A and C; D too if that line is real.", "MULTI", None, "multi"),
                   ex("C and D. Actually also A.", "MULTI", None, "multi"),
                   ex("B through E, except C.", "MULTI", None, "multi"),
                   ex("A and B, not C or D.", "MULTI", ("A", "B"), "multi"),
                   ex("A, B and C, though the film is portable.", "MULTI", ("A", "B", "C"),
                      "multi"))),
    rule("structural.continuation", _S, (),
         "Only the model's own turn is read: a few-shot continuation (a new 'Question:', "
         "'Example N', 'Image:' line after the answer, a '---' line before 'Case N', text after "
         "'<|endofchunk|>' or '[INST]') is cut off, a response that opens on another question "
         "than the one asked is all invented, and a transcript's user and system lines are set "
         "aside; where what is left names nothing, the response has not committed. Where the "
         "model went on to write the user's challenge of its answer ('Are you sure?') and its "
         "own reply naming another option, it answered twice: ambiguous.",
         examples=(ex("The apex is clear.\n\nExample 5:\nQuestion: Which is it?\nAnswer: B",
                      "PE"),
                   ex("Question: Is there cardiomegaly?\nAnswer: No", "YN", None, "yesno",
                      "Is there a pneumothorax?"),
                   ex("User: I think it is a pneumothorax.\nAssistant: That is reasonable.",
                      "PE"),
                   ex("A\n\n---\nCase 12\nAnswer: B", "PE", "A"),
                   ex("Pneumothorax. Question: and this one? Answer: A", "PE", "B"))),
    rule("structural.cut-off", _S, (),
         "A response that stops mid-answer (an unclosed structure, a trailing comma, dash or "
         "connective, an empty list item) has not committed, nor one that stops on a word that "
         "turns its sentence ('B, but', 'B, although'); one cut in a later sentence that "
         "names no option and holds no word that could undo an answer keeps the answer given "
         "before it. A response a note marks as stopped ('[truncated]', '[generation stopped: "
         "max_tokens]', 'finish_reason: length') keeps only an answer it located before the "
         "note (an answer marker, a structure): words it was still weighing are no answer. "
         "A walk through the options it announced ('Let's analyze each option:') that stops "
         "unclosed on an option's line, no answer located after it, had not reached its answer.",
         examples=(ex('{"present": ["mass", "calcification", ', "MULTI", None, "multi"),
                   ex("Thought: compare with the pneumothorax case.\n[truncated]", "CXR"),
                   ex("The answer is B.\n[generation stopped: max_tokens]", "CXR", "B"),
                   ex("1. Mass - present\n2. Calcification - present\n3. Asymmetry -", "MULTI",
                      None, "multi"),
                   ex("Answer: B.\nThe pleural line is sharp and runs along the", "PE", "B"),
                   ex("Answer: B.\nThe pleural line is sharp, unless this is a skin fold or", "PE"),
                   ex("Answer: B.\nIt could also be a pleural effusion with", "PE"),
                   ex("I think the answer is B, but", "PE"),
                   ex("The answer is pneumothorax, although", "PE"),
                   ex("Pneumothorax, however,", "PE")),
         counter=(ex("Pneumothorax, though.", "PE", "B"),)),
    rule("structural.conditional-answer", _S, (),
         "After the located answer, another option offered on a condition ('If erosions are "
         "extensive: B') keeps a second reading open.",
         examples=(ex("Answer: A\n\nIf the apex is involved: B.", "PE"),),
         counter=(ex("Answer: B. If this were an effusion, the angle would be blunted.", "PE",
                     "B"),)),
    rule("structural.negated-after", _S, (),
         "After the located answer, the chosen option negated (and not asserted again) makes "
         "it ambiguous.",
         examples=(ex("Answer: A, B.\nNote that there is no calcification.", "MULTI", None,
                      "multi"),)),
    rule("structural.negated-before", _S, (),
         "Before the located answer, the chosen option negated and never asserted makes it "
         "ambiguous.",
         examples=(ex("Pneumothorax is ruled out. The answer is B.", "CXR"),)),
    rule("structural.option-slip", _S, (),
         "Where nothing else reads an answer, a response of a few words that writes one "
         "option's words with a slip each ('subdurl hematoma'); never where a slip is as close "
         "to another option's word.",
         examples=(ex("Pnuemothorax", "CXR", "B"), ex("pleural efusion", "CXR", "A")),
         counter=(ex("efusion pneumothrax", "CXR"),)),
    rule("structural.attributed-answer", _S, (),
         "An answer reported from another source (an answer key, a dataset's label, a "
         "colleague, another model: 'According to the textbook answer key, the answer is D.') "
         "that the response neither adopts nor overrules is not its own.",
         examples=(ex("According to the textbook answer key, the answer is B.", "PE"),
                   ex("The previous model output for this question was 'B'.", "PE")),
         counter=(ex("The answer key says A; I disagree, my answer is B.", "PE", "B"),
                  ex("According to the textbook appearance, the answer is B.", "PE", "B"))),
    rule("structural.relabelled", _S, (),
         "Where the response numbers the options its own way (a list whose every item names one "
         "option: '1. Normal⏎2. Pleural effusion …', '(i) subdural …', '[0] …') and answers by "
         "that numbering after an answer word ('answer 3', 'Selected: (i) and (iii)'), the "
         "labels name the options of its items.",
         examples=(ex("Sorting them:\n1. Normal\n2. Pleural effusion\n3. Pneumothorax\n\nMy "
                      "choice is 3.", "PE", "B"),),
         counter=(ex("Sorting them:\n1. Normal\n2. Pleural effusion\n\nMy choice is 3.", "PE"),)),
    rule("structural.options-listed", _S, (),
         "A response that only lists every option with its own text ('Answer: A: Yes, B: No') "
         "copies the prompt's list back: it answers nothing.",
         examples=(ex("Answer: A: Yes, B: No", "YN", None, "yesno"),
                   ex("A) Left\nB) Right", "LR")),
         counter=(ex("A: Yes", "YN", "A", "yesno"),)),
    rule("structural.code", _S, (),
         "Where the prose around it answers nothing, what a fenced code block ends by printing, "
         "returning or assigning to an answer's name ('print(\"B\")', 'answer <- \"E\"', "
         "'return True'); never a block that decides by a condition.",
         examples=(ex("```python\nprint(\"B\")\n```", "LR", "B"),
                   ex("```sql\nSELECT 'A' AS answer;\n```", "LR", "A")),
         counter=(ex("```python\nanswer = 'B' if width > 5 else 'A'\n```", "LR"),)),
    rule("structural.option-position", _S, (),
         "Where nothing else reads an answer, an option named by its place ('option 2', 'the "
         "second option') or, on a yes/no or left/right item, a capital that is one option's "
         "initial ('Y', 'R').",
         examples=(ex("The correct choice is option 2.", "CXR", "B"),
                   ex("The second option is correct.", "CXR", "B"),
                   ex("R", "LR", "B"), ex("Y", "YN", "A", "yesno")),
         counter=(ex("Option 2 or option 3.", "CXR"), ex("Option 7.", "CXR"))),
)
