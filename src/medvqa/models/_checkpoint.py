"""Pre-flight of an ``hf:`` local checkpoint: what the loader will read is there, and whole.

A checkpoint folder may be half copied, a download may have stopped in a shard, or a folder may
hold an adapter, a hub cache or a GGUF instead of what ``save_pretrained`` writes. Found when
the weights load, that is a loader's traceback (or a wrong line blaming the weights) after the
run has begun; found here, before a RUN/ folder is made, it is one line naming the file:
``hf:DIR: FILE: what is wrong; what to do`` (:class:`~medvqa.errors.BadInputError`, exit 2).

Checked, reading only configs and headers (never the tensors):

- the folder is a folder; ``config.json`` is a regular file holding a JSON object whose
  ``model_type`` transformers knows (one that names ``architectures`` only is asked of
  transformers itself, whose versions differ there);
- the weights transformers loads, in its order: ``model.safetensors``, else the shards of
  ``model.safetensors.index.json``, else ``pytorch_model.bin`` or the shards of its index; each
  shard the index names exists, and a safetensors file's header parses and covers the file
  exactly (a truncated download fails here);
- a tokenizer in one of the layouts transformers reads (``tokenizer.json``; a SentencePiece or
  tiktoken ``*.model`` / ``*.tiktoken``; ``vocab.json``, with ``merges.txt`` or alone;
  ``vocab.txt``), a chat template (medvqa asks in chat turns), and for a vision checkpoint the
  image processor's config;
- ``hf:DIR/FILE.gguf``: the file is a GGUF (its magic bytes); it carries its own config and
  tokenizer, so nothing else is asked of the folder (a ``tokenizer_config.json`` beside it may
  be all there is).

A hub id (a name that is not a local path) is not checked here: nothing is fetched before
the loader runs.
"""

from __future__ import annotations

import json
import os
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from medvqa._path_guard import open_regular, regular_problem
from medvqa.errors import BadInputError

#: The most bytes of a JSON file of a checkpoint read here (configs, indexes, tokenizer config).
MAX_CONFIG_BYTES = 64 << 20

#: The largest safetensors header read (the safetensors library's own limit).
MAX_SAFETENSORS_HEADER = 100_000_000

#: The weights transformers looks for in a folder, in its order: (file, index of its shards).
WEIGHT_LAYOUTS = (("model.safetensors", "model.safetensors.index.json"),
                  ("pytorch_model.bin", "pytorch_model.bin.index.json"))

#: What a refusal of a weights file ends with.
_REFETCH = "copy or download that file again"


class _Refusal(Exception):
    """One problem of one file: ``FILE: what; todo``."""

    def __init__(self, file: str, what: str, todo: str) -> None:
        super().__init__(f"{file}: {what}; {todo}")


@dataclass(frozen=True)
class Checkpoint:
    """A local checkpoint that passed the pre-flight.

    Attributes:
        folder: the checkpoint folder (the GGUF file's folder for a GGUF).
        gguf: the GGUF file's name in ``folder``; "" for a transformers folder.
        config: config.json's object ({} for a GGUF).
        weights: the weight files the loader reads, names in ``folder``, in order.
        headers: the header of each safetensors file of ``weights``, by name.

    """

    folder: Path
    gguf: str
    config: dict[str, Any]
    weights: tuple[str, ...]
    headers: dict[str, SafetensorsHeader] = field(default_factory=dict, compare=False)

    @property
    def vision(self) -> bool:
        """Whether the config describes a vision encoder (a VLM, loaded as one)."""
        return "vision_config" in self.config


def local_checkpoint(name: str) -> Checkpoint | None:
    """The checked checkpoint that ``hf:NAME`` names, or None when NAME is a hub id.

    NAME is local when it ends in ``.gguf``, is absolute, starts with ``.`` or ``~``, or
    exists; anything else is a hub id, left to the loader.

    Raises:
        BadInputError: ``hf:NAME: FILE: what is wrong; what to do``, the first problem found.

    """
    path = Path(name).expanduser()
    looks_local = path.is_absolute() or name.startswith((".", "~")) or os.path.lexists(path)
    if path.suffix != ".gguf" and not looks_local:
        return None
    try:
        if path.suffix == ".gguf":
            return _gguf(path)
        if not path.exists():
            raise BadInputError(
                f"hf:{name}: not a local checkpoint folder (no such folder); give the folder "
                "that holds config.json, or a hub id already in the local cache")
        if not path.is_dir():
            raise _Refusal(path.name, f"is {'a file' if path.is_file() else 'not a folder'}, "
                           "not a checkpoint folder", "give the folder that holds config.json "
                           "(or a .gguf file)")
        return _folder(path)
    except _Refusal as exc:
        raise BadInputError(f"hf:{name}: {exc}") from None


def _gguf(path: Path) -> Checkpoint:
    if not os.path.lexists(path):
        raise _Refusal(path.name, f"no such file in {path.parent}", "name a GGUF file that is "
                       "there, hf:FOLDER/FILE.gguf")
    problem = regular_problem(path)
    if problem:
        raise _Refusal(path.name, problem, "name a GGUF file")
    with open_regular(path) as fh:
        magic = fh.read(4)
    if magic != b"GGUF":
        raise _Refusal(path.name, f"not a GGUF file (it begins {magic!r}, not b'GGUF')",
                       _REFETCH)
    return Checkpoint(path.parent, path.name, {}, (path.name,))


def _folder(folder: Path) -> Checkpoint:
    try:
        names = set(os.listdir(folder))
    except OSError as exc:
        raise _Refusal(folder.name, f"cannot be read ({exc.strerror or exc})",
                       "give a folder you may read") from None
    config = _config(folder, names)
    headers: dict[str, SafetensorsHeader] = {}
    weights = _weights(folder, names, headers)
    _tokenizer(folder, names)
    _chat_template(folder, names)
    if "vision_config" in config and not names & {"preprocessor_config.json",
                                                    "processor_config.json"}:
        raise _Refusal("preprocessor_config.json", "is missing (config.json describes a vision "
                       "encoder, and neither it nor processor_config.json is there to say how "
                       "images are prepared)", "save the model's processor into the folder "
                       "(processor.save_pretrained)")
    return Checkpoint(folder, "", config, weights, headers)


def _config(folder: Path, names: set[str]) -> dict[str, Any]:
    """config.json's object, with a model type the loader can use."""
    if "config.json" not in names:
        if "adapter_config.json" in names:
            todo = ("this is a LoRA adapter: run its base model with it, hf:BASE --adapter "
                    f"{folder}")
        elif "snapshots" in names:
            todo = ("this is a hub cache folder: give one of its snapshots, "
                    f"{folder}/snapshots/REVISION")
        elif ggufs := sorted(n for n in names if n.endswith(".gguf")):
            todo = f"the folder holds {ggufs[0]}: name that file, hf:{folder}/{ggufs[0]}"
        else:
            todo = "give the folder that save_pretrained wrote (config.json beside the weights)"
        raise _Refusal("config.json", "is missing", todo)
    config = _json_object(folder, "config.json", "re-save the checkpoint (save_pretrained) or "
                          "copy config.json again")
    model_type = config.get("model_type")
    if model_type is None:
        _architectures_only(folder, config)
    elif not isinstance(model_type, str) or not model_type:
        raise _Refusal("config.json", f"model_type is {model_type!r}, not a model type's name",
                       'write the architecture\'s name there (e.g. "llama")')
    elif (known := _known_model_types()) is not None and model_type not in known:
        code = " (the checkpoint ships its own code, auto_map, which medvqa never runs)" \
            if "auto_map" in config else ""
        raise _Refusal("config.json", f"model_type {model_type!r} is not one this "
                       f"transformers knows{code}",
                       "upgrade transformers (pip install -U transformers), or correct "
                       "model_type")
    return config


def _architectures_only(folder: Path, config: dict[str, Any]) -> None:
    """Accept a config without model_type only where transformers itself can tell the model."""
    arch = config.get("architectures")
    if not (isinstance(arch, list) and arch and all(isinstance(a, str) for a in arch)):
        raise _Refusal("config.json", "names no model_type (nor architectures), so no loader "
                       "can tell which model it is", 'add "model_type" (the architecture, e.g. '
                       '"llama") or copy config.json again')
    try:
        from transformers import AutoConfig
    except ImportError:
        return  # the loader's own import error says what to install
    try:
        AutoConfig.from_pretrained(str(folder))
    except (ValueError, KeyError, OSError):
        raise _Refusal("config.json", f"names architectures {arch} but no model_type, which "
                       "this transformers needs", 'add "model_type" (e.g. "llama")') from None


def _known_model_types() -> set[str] | None:
    """The model types transformers knows (None when it is not installed)."""
    try:
        from transformers import CONFIG_MAPPING
    except ImportError:
        return None
    return set(CONFIG_MAPPING.keys())


def _weights(folder: Path, names: set[str],
             headers: dict[str, SafetensorsHeader]) -> tuple[str, ...]:
    """The weight files the loader reads, each checked (safetensors headers into ``headers``)."""
    for single, index in WEIGHT_LAYOUTS:
        if single in names:
            _weight_file(folder, single, headers)
            return (single,)
        if index in names:
            shards = _shards(folder, index)
            for shard in shards:
                _weight_file(folder, shard, headers)
            return (index, *shards)
    present = sorted(n for n in names if n.endswith((".safetensors", ".bin", ".gguf", ".pt",
                                                     ".pth", ".h5", ".msgpack")))
    if any(n.endswith(".gguf") for n in present):
        gguf = next(n for n in present if n.endswith(".gguf"))
        todo = f"the folder holds {gguf}: name that file, hf:{folder}/{gguf}"
    elif any(n.endswith(".safetensors") for n in present):
        todo = (f"the folder holds {present[0]}, but transformers reads model.safetensors, or "
                "the shards model.safetensors.index.json names: copy that index too")
    else:
        todo = "copy the weights into the folder (model.safetensors, or its shards and index)"
    raise _Refusal("model.safetensors", "is missing, and no other weights transformers reads "
                   "are there", todo)


def _shards(folder: Path, index: str) -> tuple[str, ...]:
    """The shard files an index names (each a plain file name in the folder)."""
    data = _json_object(folder, index, _REFETCH)
    weight_map = data.get("weight_map")
    if not isinstance(weight_map, dict) or not weight_map:
        raise _Refusal(index, "has no weight_map object naming the shards", _REFETCH)
    shards = []
    for shard in dict.fromkeys(weight_map.values()):
        if not isinstance(shard, str) or not shard or "/" in shard or "\\" in shard \
                or shard in {".", ".."}:
            raise _Refusal(index, f"names shard {shard!r}, which is not a file name in the "
                           "folder", _REFETCH)
        if not os.path.lexists(folder / shard):
            raise _Refusal(index, f"names shard {shard}, which is missing",
                           "copy or download every shard the index names")
        shards.append(shard)
    return tuple(shards)


def _weight_file(folder: Path, name: str, headers: dict[str, SafetensorsHeader]) -> None:
    """A regular, non-empty file; a safetensors file whose header covers it exactly."""
    path = folder / name
    problem = regular_problem(path)
    if problem:
        raise _Refusal(name, problem, _REFETCH)
    if name.endswith(".safetensors"):
        headers[name] = _safetensors_header(path, name)
    elif os.path.getsize(path) == 0:
        raise _Refusal(name, "is empty", _REFETCH)


@dataclass(frozen=True)
class SafetensorsHeader:
    """A safetensors file's header: its raw bytes and each tensor's data span.

    Attributes:
        raw: the header's JSON bytes.
        spans: ``(begin, end)`` of each tensor's bytes, relative to the data (after the
            header), in file order.

    """

    raw: bytes
    spans: tuple[tuple[int, int], ...]

    @property
    def data_start(self) -> int:
        """Offset in the file where the tensors' bytes begin."""
        return 8 + len(self.raw)


def _safetensors_header(path: Path, shown: str) -> SafetensorsHeader:
    """The header of a safetensors file, checked to parse and to cover the file exactly.

    Raises:
        _Refusal: not a safetensors file, or one whose size is not what its header says
            (truncated, or with bytes after its tensors).

    """
    with open_regular(path) as fh:
        size = os.fstat(fh.fileno()).st_size
        head = fh.read(8)
        if len(head) < 8:
            raise _Refusal(shown, f"not a safetensors file ({size} bytes, shorter than its "
                           "8-byte header length)", _REFETCH)
        (length,) = struct.unpack("<Q", head)
        if length > min(MAX_SAFETENSORS_HEADER, size - 8):
            raise _Refusal(shown, f"not a safetensors file (its header length, {length:,} "
                           f"bytes, is past the end of a {size:,}-byte file)", _REFETCH)
        raw = fh.read(length)
    try:
        header = json.loads(raw)
        spans = sorted((int(v["data_offsets"][0]), int(v["data_offsets"][1]))
                       for k, v in header.items() if k != "__metadata__")
    except (ValueError, TypeError, KeyError, IndexError, AttributeError):
        raise _Refusal(shown, "not a safetensors file (its header is not the JSON of a "
                       "tensor table)", _REFETCH) from None
    expected = 8 + length + max((end for _, end in spans), default=0)
    if size != expected:
        how = "truncated" if size < expected else "longer than its tensors"
        raise _Refusal(shown, f"{how}: its header places tensors up to byte {expected:,}, the "
                       f"file holds {size:,}", _REFETCH)
    return SafetensorsHeader(raw, tuple(spans))


#: Tokenizer layouts transformers reads: any one of these files is a tokenizer.
_TOKENIZER_FILES = ("tokenizer.json", "vocab.json", "vocab.txt")
_TOKENIZER_SUFFIXES = (".model", ".tiktoken")


def _tokenizer(folder: Path, names: set[str]) -> None:
    """A tokenizer in one of the layouts transformers reads; tokenizer.json whole."""
    if "tokenizer.json" in names:
        _whole_json("tokenizer.json", folder)
    if "tokenizer_config.json" in names:
        _json_object(folder, "tokenizer_config.json", "re-save the tokenizer "
                     "(tokenizer.save_pretrained) or copy it again")
    if any(n in names for n in _TOKENIZER_FILES) or any(n.endswith(_TOKENIZER_SUFFIXES)
                                                        for n in names):
        return
    if "merges.txt" in names:
        raise _Refusal("vocab.json", "is missing (merges.txt is there, but a BPE tokenizer "
                       "needs its vocabulary too)", "copy vocab.json from the checkpoint")
    raise _Refusal("tokenizer.json", "is missing, and no other tokenizer file is there "
                   "(tokenizer.model, vocab.json with merges.txt, vocab.txt)",
                   "save the model's tokenizer into the folder (tokenizer.save_pretrained)")


def _chat_template(folder: Path, names: set[str]) -> None:
    """A chat template: medvqa asks every model in chat turns."""
    if names & {"chat_template.jinja", "chat_template.json", "additional_chat_templates"}:
        return
    for holder in ("tokenizer_config.json", "processor_config.json"):
        if holder in names and "chat_template" in _json_object(folder, holder, _REFETCH):
            return
    raise _Refusal("chat_template.jinja", "is missing, and tokenizer_config.json names no "
                   "chat_template (medvqa asks the model in chat turns)", "use an "
                   "instruction-tuned checkpoint, or save its chat template with the tokenizer")


def _json_object(folder: Path, name: str, todo: str) -> dict[str, Any]:
    """The JSON object of ``folder/name`` (a regular file of at most MAX_CONFIG_BYTES)."""
    path = folder / name
    problem = regular_problem(path)
    if problem:
        raise _Refusal(name, problem, todo)
    with open_regular(path) as fh:
        raw = fh.read(MAX_CONFIG_BYTES + 1)
    if len(raw) > MAX_CONFIG_BYTES:
        raise _Refusal(name, f"is above the cap of {MAX_CONFIG_BYTES:,} bytes for a "
                       "checkpoint's JSON file", todo)
    try:
        data = json.loads(raw)
    except UnicodeDecodeError:
        raise _Refusal(name, "not JSON (not UTF-8 text)", todo) from None
    except ValueError as exc:
        where = (f" (line {exc.lineno}, column {exc.colno}: {exc.msg})"
                 if isinstance(exc, json.JSONDecodeError) else "")
        raise _Refusal(name, f"not JSON{where}", todo) from None
    if not isinstance(data, dict):
        raise _Refusal(name, f"holds {_kind(data)}, not a JSON object", todo)
    return data


def _whole_json(name: str, folder: Path) -> None:
    """A large JSON file (a tokenizer) that begins and ends as an object: not cut short."""
    path = folder / name
    problem = regular_problem(path)
    if problem:
        raise _Refusal(name, problem, _REFETCH)
    with open_regular(path) as fh:
        size = os.fstat(fh.fileno()).st_size
        first = fh.read(64).lstrip()
        fh.seek(max(0, size - 64))
        last = fh.read().rstrip()
    if not first.startswith(b"{") or not last.endswith(b"}"):
        raise _Refusal(name, "not a whole JSON object (cut short, or another file)", _REFETCH)


def _kind(value: Any) -> str:
    """How a JSON value is named in a refusal.

    >>> _kind([1]), _kind("x"), _kind(3), _kind(None)
    ('a list', 'a string', 'a number', 'null')
    """
    if value is None:
        return "null"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    return "a number"


__all__ = ["MAX_CONFIG_BYTES", "WEIGHT_LAYOUTS", "Checkpoint", "SafetensorsHeader",
           "local_checkpoint"]
