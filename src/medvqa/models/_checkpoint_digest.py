"""Which weights a local checkpoint holds: a digest, so a resumed run never mixes two models.

A checkpoint retrained, merged or replaced in place keeps its path, so ``hf:DIR`` alone cannot
tell a RUN/ folder that its first answers came from other weights. The digest is part of the
backend's parameters (``model_params.checkpoint`` in run.json, and of the cache key), so a
resumed run on a changed checkpoint is refused (:func:`medvqa.run.resume_info`) and a cached
answer of the old weights is never reused.

What goes in (SHA-256, 16 hex digits kept, as for an adapter):

- every small file of the folder the loader may read (``*.json``, ``*.jinja``, ``*.txt``,
  ``*.model``, ``*.tiktoken``: config, generation config, tokenizer, chat template,
  processor, shard index), whole;
- each safetensors file's header (every tensor's name, dtype, shape and place) and, of each
  tensor, its first, middle and last 4 KiB: a checkpoint of tens of gigabytes is read in
  milliseconds, and a tensor retrained, merged with an adapter, re-quantised or replaced
  changes the digest; an edit confined to the inside of one tensor, away from those windows,
  does not;
- any other weights file (``pytorch_model.bin``, a GGUF) whole (about a second per GB).

Each file's part is kept for the process, keyed by its real path, size and modification time,
so the models of one models.yaml sharing a checkpoint read it once.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from medvqa._path_guard import open_regular, regular_problem
from medvqa.models._checkpoint import Checkpoint, SafetensorsHeader

#: Suffixes of the small files hashed whole.
SMALL_SUFFIXES = (".json", ".jinja", ".txt", ".model", ".tiktoken")

#: Bytes read at the start, middle and end of each safetensors tensor.
WINDOW = 4096

_MEMO: dict[tuple[str, int, int], bytes] = {}


def checkpoint_digest(checkpoint: Checkpoint) -> str:
    """The digest of the files the loader reads from ``checkpoint`` (16 hex digits)."""
    folder = checkpoint.folder
    names = sorted({*_small_files(folder), *checkpoint.weights})
    digest = hashlib.sha256()
    for name in names:
        part = _file_part(folder / name, checkpoint.headers.get(name))
        digest.update(f"{name}\0".encode("utf-8", "surrogateescape") + part)
    return digest.hexdigest()[:16]


def _small_files(folder: Path) -> list[str]:
    """The regular files directly in ``folder`` whose suffix is one of SMALL_SUFFIXES."""
    return [n for n in os.listdir(folder)
            if n.endswith(SMALL_SUFFIXES) and regular_problem(folder / n) is None]


def _file_part(path: Path, header: SafetensorsHeader | None) -> bytes:
    """SHA-256 of what is read of one file (memoized for the process)."""
    st = os.stat(path)
    key = (os.path.realpath(path), st.st_size, st.st_mtime_ns)
    if key not in _MEMO:
        _MEMO[key] = _windows(path, header) if header is not None else _whole(path)
    return _MEMO[key]


def _whole(path: Path) -> bytes:
    digest = hashlib.sha256()
    with open_regular(path) as fh:
        while block := fh.read(1 << 24):
            digest.update(block)
    return digest.digest()


def _windows(path: Path, header: SafetensorsHeader) -> bytes:
    """The header, then each tensor's first, middle and last WINDOW bytes."""
    digest = hashlib.sha256(header.raw)
    with open_regular(path) as fh:
        for begin, end in header.spans:
            middle = (begin + end - WINDOW) // 2
            for start in sorted({begin, max(begin, middle), max(begin, end - WINDOW)}):
                fh.seek(header.data_start + start)
                digest.update(fh.read(min(WINDOW, end - start)))
    return digest.digest()


__all__ = ["SMALL_SUFFIXES", "WINDOW", "checkpoint_digest"]
