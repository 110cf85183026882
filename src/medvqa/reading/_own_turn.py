r"""The model's own turn: a few-shot continuation and the user's lines of a transcript set aside.

Models prompted with examples often keep writing the next ones after their answer ("A, D⏎---⏎
Case 12⏎Findings: B, C"), and chat models sometimes write out a transcript ("User: I think it
is high probability.⏎Assistant: That is reasonable."). Neither the invented examples nor the
user's words are the model's answer:

- the response is cut where a new example opens: a line that starts with ``Question:``,
  ``Q:``, ``Example N``, ``Image:``, ``<image>`` or an instruction header, after a line of the
  response's own, or a separator line (``---``, ``===``) followed by such a line or by
  ``Case N``; a tokenizer's turn marker (``<|endofchunk|>``, ``</s>``, ``[INST]``) with text
  after it ends the turn too;
- in a transcript (lines opened by a user's or the system's and by an assistant's name), only
  the assistant's lines are read; where the response answers first and then writes the user's
  next turn, only what comes before that turn.

Where what is left names no answer, the response has not committed
(``structural.continuation``).

>>> own_turn("A, D\n\n---\nCase 12\nFindings: B, C")
'A, D'
>>> own_turn("User: I think it is C.\nAssistant: That is reasonable.")
'\nThat is reasonable.'
"""

from __future__ import annotations

import re
from typing import Final

from medvqa.reading._positions import strip_special_tokens

__all__ = ["invented_replies", "own_turn", "reasked_answers"]

_OPENER: Final = (r"(?:question|q|example\s*\d*|image|input|instruction|###\s*instruction"
                  r"|<image>)\s*(?:\d+\s*)?[:#.)]")
# a line opening a new example after a line of the response's own
_NEW_EXAMPLE: Final = re.compile(r"(?:\n[ \t]*(?:" + _OPENER + r"|<image>)|(?<=[.!?])[ \t]+"
                                 r"question[ \t]*:)", re.IGNORECASE)
_ECHOED_PROMPT: Final = re.compile(r"\A(?:\s*<image>)*\s*USER:[^\n]*?(?:\n[^\n]*?){0,6}"
                                   r"ASSISTANT:[ \t]*", re.DOTALL)
# a response that opens on a worked example, and where its own turn is announced after them
_OPENS_EXAMPLE: Final = re.compile(r"\s*(?:example|shot)\s*#?\s*1\s*[:#.)]", re.IGNORECASE)
_YOUR_TURN: Final = re.compile(r"(?:now[ \t]+)?your[ \t]+turn[ \t]*[:.!]?|(?m:^[ \t]*(?:test|target"
                               r"|query)(?:[ \t]+(?:question|case|image))?[ \t]*:)", re.IGNORECASE)
# a separator line, then an opener or "Case N"
_SEPARATED: Final = re.compile(r"\n[ \t]*(?:-{3,}|={3,}|\*{3,})[ \t]*\n\s*(?:" + _OPENER
                               + r"|case\s*#?\s*\d+)", re.IGNORECASE)
# the end of the model's turn, with a next turn after it ("D</s><s>[INST] <image> …")
_CHUNK_END: Final = re.compile(r"(?:<\|endofchunk\|>|(?:</s>\s*)?(?:<s>\s*)?\[INST\]"
                               r"|<\|im_start\|>\s*user|<\|user\|>|<start_of_turn>\s*user)(?=\s*\S)")
_PROMPT_ECHO: Final = re.compile(r"\A\s*(?:<s>\s*)?\[INST\].*?\[/INST\]", re.DOTALL)
_USER: Final = re.compile(r"(?m)^[ \t]*(?:user|human|patient|clinician|doctor|system)[ \t]*:"
                          r"[^\n]*", re.IGNORECASE)
_ASSISTANT: Final = re.compile(r"(?m)^[ \t]*(?:assistant|ai|model|gpt|bot)[ \t]*:[ \t]*",
                               re.IGNORECASE)
_CUES: Final = ("\n", ":", "<|", "[INST]", "<start_of_turn>")
_OPENING_QUESTION: Final = re.compile(r"\s*(?:question|q)[ \t]*\d*[ \t]*[:.)][ \t]*([^\n?]+)",
                                      re.IGNORECASE)
_WORD: Final = re.compile(r"\w+")


def _same_question(echoed: str, asked: str) -> bool:
    """Whether an echoed question is the one asked, shortened or not.

    Judged on its long words (six letters or more: the findings and scales it names), most of
    which must be the asked question's; one with none is taken as the same.
    """
    said = {w for w in _WORD.findall(echoed.lower()) if len(w) >= 6}
    return not said or len(said & set(_WORD.findall(asked.lower()))) >= 0.6 * len(said)


def _holds_any(parts: tuple[str, ...], text: str) -> bool:
    """Whether one of ``parts`` is in ``text`` (a loop: no generator to build and resume)."""
    for part in parts:
        if part in text:
            return True
    return False


# The cues a turn's end, a prompt's echo or a transcript needs besides a line break.
_TURN_MARKS: Final = tuple(c for c in _CUES if c not in ("\n", ":"))


def one_line_own(text: str, question: str) -> bool:
    """Whether :func:`own_turn` leaves ``text`` as it is because it is one plain line.

    An ASCII line with no turn marker holds no separator line, no turn's end, no prompt's
    echo and no transcript (a user's line and an assistant's are two); only a question
    opening it (where one was asked) or one after a sentence ("… B. Question: …") can cut it.
    """
    if "\n" in text or not text.isascii() or _holds_any(_TURN_MARKS, text):
        return False
    return "question" not in text.lower() and not (
        question and _OPENING_QUESTION.match(text) is not None)


def own_turn(text: str, question: str = "") -> str:
    """``text`` up to where a continuation opens, with a transcript's user lines removed.

    A response that opens with another question than the one asked ("Question: Is there a
    pneumothorax?⏎Answer: No" to "Is there cardiomegaly?") is an invented example: nothing
    of it is the model's answer.
    """
    if not _holds_any(_CUES, text) or one_line_own(text, question):
        return text
    opening = _OPENING_QUESTION.match(text)
    if opening is not None and question and not _same_question(opening.group(1), question):
        return ""
    echoed = _ECHOED_PROMPT.search(text) if text.count("ASSISTANT:") == 1 else None
    if echoed is not None:
        # the prompt echoed in the model's own template ("USER: <question> ASSISTANT: Yes"):
        # its answer is what follows the last assistant's mark
        text = text[echoed.end():]
    if _OPENS_EXAMPLE.match(text) is not None:
        # worked examples copied or invented first ("Example 1: … Answer: B⏎Example 2: …"):
        # the model's own answer comes after its turn is announced, or it gave none
        turns = list(_YOUR_TURN.finditer(text))
        if not turns:
            return ""
        text = text[turns[-1].end():]
    text = _PROMPT_ECHO.sub("", text, count=1)  # "<s>[INST] Look at the image. [/INST] D"
    chunk = _CHUNK_END.search(text)
    if chunk is not None and not strip_special_tokens(text[:chunk.start()]).strip():
        chunk = None  # the marker opens the response: nothing of the model's before it
    ends = [m.start() for m in (chunk, _SEPARATED.search(text)) if m]
    first = _NEW_EXAMPLE.search(text)
    if first is not None and text[:first.start()].strip():
        ends.append(first.start())
    if ends:
        text = text[:min(ends)].rstrip()
    user = _USER.search(text)
    if user is not None and _ASSISTANT.search(text) is not None:
        head = text[:user.start()].strip()
        if head and _ASSISTANT.match(head) is None:
            # the model answered, then wrote the user's next turn and its own reply to it
            return head
        text = _ASSISTANT.sub("", _USER.sub("", text))
    return text


# A question line of an invented example and what follows it up to the next question line.
_ASKED_LINE: Final = re.compile(r"\n[ \t]*(?:question|q)[ \t]*\d*[ \t]*[:.)][ \t]*([^\n]+)"
                                r"((?:\n(?![ \t]*(?:question|q)[ \t]*\d*[ \t]*[:.)])[^\n]*)*)",
                                re.IGNORECASE)


def reasked_answers(text: str, question: str) -> list[str]:
    """What an invented continuation answers where it asks the item's own question again.

    "Answer: Yes⏎Question: Is there a pleural effusion?⏎Answer: No⏎Question: Is there a
    pneumothorax?⏎Answer: No" to "Is there a pneumothorax?": the model answered the asked
    question twice; each later answer is returned to be read beside the first.
    """
    if not question or "\n" not in text:
        return []
    return [m.group(2).strip() for m in _ASKED_LINE.finditer(text)
            if m.group(2).strip() and any(len(w) >= 6 for w in _WORD.findall(m.group(1)))
            and _NEW_CASE.search(text[max(0, m.start() - _CASE_REACH):m.start()]) is None
            and _same_question(m.group(1), question)]


def invented_replies(text: str) -> list[str]:
    """The model's own replies in the turns it went on to invent after its answer.

    "A<|im_end|>⏎<|im_start|>user⏎Are you sure?<|im_end|>⏎<|im_start|>assistant⏎Sorry, it's
    B.": the model wrote the user's challenge and its own second answer; each such reply is
    returned to be read beside the first answer.
    """
    user = _INVENTED_USER.search(text)
    if user is None or not text[:user.start()].strip():
        return []
    out, asked_from = [], user.end()
    for m in _REPLY.finditer(text, user.end()):
        # only a reply to a challenge of the answer ("Are you sure?"), not to a new question
        if _CHALLENGE.search(text, asked_from, m.start()) is not None and m.group(1).strip():
            out.append(m.group(1).strip())
        asked_from = m.end()
    return out


_CHALLENGE: Final = re.compile(r"\b(?:are you (?:sure|certain)|you sure|really\?|look again|check "
                               r"again|double[ -]check|reconsider|think again|try again|sure about|"
                               r"wrong|what about|how about|is that (?:right|correct))\b",
                               re.IGNORECASE)
# A user's turn the model wrote, and the model's reply that follows one, up to its turn's end.
_INVENTED_USER: Final = re.compile(r"<\|im_start\|>\s*user|<\|user\|>|<start_of_turn>\s*user"
                                   r"|\[INST\]|(?m:^[ \t]*(?:user|human)[ \t]*:)", re.IGNORECASE)
_REPLY: Final = re.compile(
    r"(?:<\|im_start\|>\s*assistant|<\|assistant\|>|<start_of_turn>\s*model|\[/INST\]"
    r"|(?m:^[ \t]*(?:assistant|ai|model)[ \t]*:))(.*?)(?=<\|im_end\|>|<\|end\|>|<end_of_turn>"
    r"|</s>|<\|im_start\|>|\[INST\]|(?m:^[ \t]*(?:user|human)[ \t]*:)|\Z)",
    re.IGNORECASE | re.DOTALL)


# A line that opens an example on another image or case: its question is that case's.
_NEW_CASE: Final = re.compile(r"(?:example|image|case|patient)\s*#?\s*\d*\s*[:#.)]|<image>",
                              re.IGNORECASE)
_CASE_REACH: Final = 60
