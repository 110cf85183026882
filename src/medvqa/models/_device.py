"""``--device`` for in-process torch models: ``auto`` = the first CUDA GPU, else the CPU.

Kept small on purpose: the local-model placement work (issue 14) has a fuller resolver with
dtypes and device maps; this one only names a device and refuses one that is not there.
"""

from __future__ import annotations

import re

from medvqa.errors import BadInputError

_DEVICE_RE = re.compile(r"^(auto|cpu|mps|cuda(:\d+)?)$")


def resolve_device(device: str) -> str:
    """The concrete torch device for ``device`` (auto, cpu, cuda, cuda:N, mps).

    Raises:
        BadInputError: an unknown name, or a GPU that this machine does not have.
    """
    import torch

    name = (device or "auto").strip().lower()
    if not _DEVICE_RE.match(name):
        raise BadInputError(f"--device {device!r}: use auto, cpu, cuda, cuda:N or mps")
    count = torch.cuda.device_count() if torch.cuda.is_available() else 0
    if name == "auto":
        return "cuda:0" if count else "cpu"
    if name.startswith("cuda"):
        index = int(name.partition(":")[2] or 0)
        if index >= count:
            raise BadInputError(f"--device {name}: {count} CUDA GPU(s) visible here; "
                                "use --device cpu or auto")
        return f"cuda:{index}"
    if name == "mps" and not torch.backends.mps.is_available():
        raise BadInputError("--device mps: Apple's MPS backend is not available here")
    return name
