"""One line for weights that are not what they claim, instead of a loader's traceback.

A checkpoint folder, a trained classifier or a LoRA adapter may hold a file that is not the
weights it claims to be: a corrupt safetensors header, a truncated shard, or a pickle that the
safe loader (``torch.load(weights_only=True)``) refuses because it would run code. That is bad
input, not a bug: :func:`readable_weights` turns whatever the loader raised into one
:class:`~medvqa.errors.BadInputError` naming the file (exit 2). Nothing of a refused pickle
is ever executed; the safe loader stops before it.
"""

from __future__ import annotations

import pickle
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from medvqa.errors import BadInputError, MedvqaError

#: Suffixes of the weight files a loader may read.
WEIGHT_SUFFIXES = (".safetensors", ".bin", ".pt", ".pth", ".ckpt", ".gguf")


def weight_files(path: str | Path) -> list[Path]:
    """The weight files of ``path`` (the file itself, or those directly in the folder)."""
    p = Path(path)
    if p.is_file():
        return [p]
    if not p.is_dir():
        return []
    return sorted(f for f in p.iterdir() if f.is_file() and f.suffix in WEIGHT_SUFFIXES)


def weights_reason(exc: BaseException) -> str:
    """What is wrong with the file, in a few words, from the loader's exception.

    >>> weights_reason(pickle.UnpicklingError("Weights only load failed"))
    'a pickle that the safe loader refuses (loading it could run code; only plain tensors are read)'
    """
    if isinstance(exc, pickle.UnpicklingError) or "weights only load failed" in str(exc).lower():
        return ("a pickle that the safe loader refuses (loading it could run code; only plain "
                "tensors are read)")
    first = (str(exc).strip().splitlines() or [""])[0][:200]
    if type(exc).__name__ == "SafetensorError" or "safetensors" in first.lower():
        return f"not a valid safetensors file ({first})"
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


@contextmanager
def readable_weights(what: str, path: str | Path) -> Iterator[None]:
    """Turn a loader's failure inside into one bad-input line naming the weights file.

    Args:
        what: how the user named the weights (``hf:PATH``, ``--adapter PATH``, …).
        path: the folder or file the loader read; when it holds one weight file, the line
            names that file.

    Raises:
        BadInputError: the loader failed (medvqa's own errors pass through unchanged).

    """
    try:
        with warnings.catch_warnings():
            # torch warns about the pickle protocol before refusing the file: the line says it.
            warnings.filterwarnings("ignore", module=r"torch\._weights_only_unpickler")
            # Deprecation notes about the libraries' own internals say nothing about the file.
            warnings.filterwarnings("ignore", category=FutureWarning,
                                    module=r"(transformers|peft)(\.|$)")
            yield
    except MedvqaError:
        raise
    except Exception as exc:  # noqa: BLE001 - any loader failure is a file that is not weights
        files = weight_files(path)
        shown = str(files[0]) if len(files) == 1 else str(path)
        raise BadInputError(f"{what}: {shown}: cannot load the weights: "
                            f"{weights_reason(exc)}") from None
