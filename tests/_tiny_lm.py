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


def tiny_bpe_lm(folder: Path) -> Path:
    """A one-layer GPT-2 whose tokenizer is ``vocab.json`` + ``merges.txt`` only (no
    tokenizer.json, no tokenizer_config.json), and a chat template beside it."""
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    from transformers import GPT2Config, GPT2LMHeadModel

    folder.mkdir(parents=True, exist_ok=True)
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = trainers.BpeTrainer(vocab_size=300, special_tokens=["<|endoftext|>"],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(["the answer is A", "B C the"], trainer)
    tok.model.save(str(folder))
    config = GPT2Config(vocab_size=tok.get_vocab_size(), n_embd=8, n_layer=1, n_head=2,
                        n_positions=64, bos_token_id=0, eos_token_id=0)
    GPT2LMHeadModel(config).save_pretrained(folder)
    (folder / "chat_template.jinja").write_text(CHAT)
    return folder
