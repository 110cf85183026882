"""JSON-schema constrained decoding for local transformers models (lm-format-enforcer).

At each generation step only tokens that keep the output a valid prefix of a JSON document
matching the schema are allowed, so a small model cannot wander into prose. lm-format-enforcer's
own transformers integration imports names that transformers 5 removed, so the small tokenizer
adapter is rebuilt here on its framework-agnostic core (``TokenEnforcer``). The tokenizer table
(one decode per vocabulary entry, a few seconds for SmolLM2's 49k tokens) is built once per
tokenizer and process. Truncation by ``max_tokens`` can still cut a document short: callers must
validate what comes back.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import threading
from collections.abc import Callable
from typing import Any

from medvqa.errors import BadInputError

_LOCK = threading.Lock()
_TABLES: dict[int, Any] = {}
MAX_WHITESPACE_RUN = 2

INSTALL_HINT = (
    "constrained decoding needs lm-format-enforcer: pip install 'lm-format-enforcer>=0.11'"
)


def constraint_available() -> bool:
    """True when lm-format-enforcer can be imported."""
    try:
        import lmformatenforcer  # noqa: F401
    except ImportError:
        return False
    return True


def _decode(tokenizer: Any, tokens: list[int]) -> str:
    # A multi-byte character split across tokens decodes to U+FFFD until it is complete.
    return str(tokenizer.decode(tokens)).rstrip("\ufffd")


def _tokenizer_table(tokenizer: Any) -> Any:
    from lmformatenforcer.tokenenforcer import TokenEnforcerTokenizerData

    with _LOCK:
        table = _TABLES.get(id(tokenizer))
        if table is None:
            special = set(tokenizer.all_special_ids)
            zero = tokenizer.encode("0")[-1]
            regular = []
            for idx in range(len(tokenizer)):
                if idx in special:
                    continue
                # Decoding after a "0" keeps the leading space of word-start tokens.
                after = tokenizer.decode([zero, idx])[1:]
                alone = tokenizer.decode([idx])
                regular.append((idx, after, len(after) > len(alone)))
            table = TokenEnforcerTokenizerData(
                regular,
                functools.partial(_decode, tokenizer),
                tokenizer.eos_token_id,
                False,
                len(tokenizer),
            )
            _TABLES[id(tokenizer)] = table
        return table


def json_prefix_fn(tokenizer: Any, schema: dict[str, Any] | str) -> Callable[[int, Any], list[int]]:
    """A ``prefix_allowed_tokens_fn`` for ``model.generate`` that enforces ``schema``.

    Works with batches and left padding: the enforcer keys its state on the token sequence
    itself, so each row of the batch is followed separately.

    Raises:
        BadInputError: lm-format-enforcer is missing (the message has the install hint).
    """
    try:
        from lmformatenforcer import JsonSchemaParser
        from lmformatenforcer.tokenenforcer import TokenEnforcer
    except ImportError:
        raise BadInputError(INSTALL_HINT) from None
    parsed = json.loads(schema) if isinstance(schema, str) else schema
    # The library allows 12 whitespace characters in a row; small models spend their token
    # budget on runs of blank lines between fields, which carry nothing.
    # Fields in the order the schema's ``required`` lists them: a generator asked for a question
    # writes it first, before an explanation that would spend its tokens on the source text.
    parser = JsonSchemaParser(parsed)
    table = _tokenizer_table(tokenizer)
    enforcer = TokenEnforcer(table, parser)
    # TokenEnforcer replaces the parser's config with one of its own (the tokenizer's alphabet,
    # every other setting the library default), so ours is set after it.
    parser.config = dataclasses.replace(parser.config,
                                        max_consecutive_whitespaces=MAX_WHITESPACE_RUN,
                                        force_json_field_order=True)

    def allowed(batch_id: int, sent: Any) -> list[int]:
        return list(enforcer.get_allowed_tokens(sent.tolist()).allowed_tokens)

    return allowed
