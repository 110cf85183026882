"""A one-layer Llama with a word-level tokenizer: real local weights, written in a second.

Importable from every test folder (pytest puts this folder, the root conftest's, on the path).
"""

from __future__ import annotations

from pathlib import Path

#: The plainest chat template: each message's text, in turn.
CHAT = "{% for m in messages %}{{ m['content'] }} {% endfor %}"


def tiny_text_lm(folder: Path) -> Path:
    """Write the model and its tokenizer into ``folder`` (created); returns ``folder``."""
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    vocab = {w: i for i, w in enumerate(["<unk>", "<s>", "</s>", "A", "B", "C", "the"])}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>", bos_token="<s>",
                            eos_token="</s>", chat_template=CHAT).save_pretrained(folder)
    config = LlamaConfig(vocab_size=len(vocab), hidden_size=8, intermediate_size=16,
                         num_hidden_layers=1, num_attention_heads=2, num_key_value_heads=2)
    LlamaForCausalLM(config).save_pretrained(folder)
    return folder
