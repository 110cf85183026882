"""Where and how a local transformers model runs: device, dtype, device map, attention, cache.

``--device auto`` is the first visible CUDA GPU, else Apple's MPS, else the CPU; ``--dtype
auto`` is bfloat16 on a GPU that supports it (float16 on older GPUs and MPS) and float32 on the
CPU, where half precision is slow. ``device_map="auto"`` spreads a model larger than one GPU
over every visible GPU (accelerate). ``attn_implementation`` is passed through (transformers'
default is sdpa; ``flash_attention_2`` needs the flash-attn package). Every choice is checked
before any weight is read, so a wrong flag costs one line and exit 2, not a 30 s load.

The KV cache: on a GPU a plain ``generate`` loop is launch-bound (≈ 55 ms per decode step for a
2B model on an H100, measured), and ``cache_implementation="static"`` removes most of
that (≈ 10× at batch 1). So ``cache="auto"`` is static on CUDA for models that take a
``Cache`` object, dynamic elsewhere; if a static-cache generation raises, the backend falls back
to dynamic once and records why (:func:`generate_with_fallback`).
"""

from __future__ import annotations

import importlib.util
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from medvqa._optional import require
from medvqa.errors import BadInputError

log = logging.getLogger(__name__)

DEVICES = ("auto", "cpu", "cuda", "cuda:N", "mps")
DTYPES = ("auto", "bfloat16", "float16", "float32")
DEVICE_MAPS = ("", "auto")
ATTENTION = ("", "sdpa", "eager", "flash_attention_2", "flash_attention_3")
CACHES = ("auto", "static", "dynamic")
_DEVICE_RE = re.compile(r"^(auto|cpu|mps|cuda(:\d+)?)$")


def placement_problem(flag: str, value: str) -> str | None:
    """What is wrong with a placement flag's spelling, or None (no torch, no GPU probe).

    ``flag`` is ``device``, ``dtype``, ``device_map`` or ``attn_implementation``; the CLI and
    models.yaml check every flag this way before any model runs, whatever its backend.

    >>> placement_problem("device", "cuda:1") is None
    True
    >>> placement_problem("device", "tpu")
    "unknown device 'tpu'; use one of auto, cpu, cuda, cuda:N, mps"
    """
    text = (value or "").strip().lower()
    allowed: tuple[str, ...]
    if flag == "device":
        ok, allowed = bool(_DEVICE_RE.match(text or "auto")), DEVICES
    elif flag == "dtype":
        ok, allowed = (text or "auto") in DTYPES, DTYPES
    elif flag == "device_map":
        ok, allowed = value in DEVICE_MAPS, ("auto (or leave it unset)",)
    elif flag == "attn_implementation":
        ok, allowed = value in ATTENTION, tuple(a for a in ATTENTION if a)
    else:
        raise ValueError(f"not a placement flag: {flag}")
    if ok:
        return None
    noun = {"device": "device", "dtype": "dtype"}.get(flag, "value")
    return f"unknown {noun} {value!r}; use one of {', '.join(allowed)}"


def check_placement_flags(**flags: str) -> None:
    """Refuse the first misspelt placement flag (keyword = flag name, e.g. ``device_map``).

    Raises:
        BadInputError: ``--device-map: unknown value …`` (the flag as typed, what to use).

    """
    for flag, value in flags.items():
        problem = placement_problem(flag, value)
        if problem:
            raise BadInputError(f"--{flag.replace('_', '-')}: {problem}")


@dataclass(frozen=True)
class Placement:
    """A resolved placement, recorded in run.json.

    Attributes:
        device: ``cpu``, ``cuda:N`` or ``mps`` (with ``device_map="auto"``: where inputs go).
        dtype: ``bfloat16``, ``float16`` or ``float32``.
        device_map: ``""`` or ``auto``.
        attn_implementation: ``""`` (transformers' default) or the name asked for.
        cache: ``static`` or ``dynamic`` KV cache.
    """

    device: str
    dtype: str
    device_map: str = ""
    attn_implementation: str = ""
    cache: str = "dynamic"

    def load_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``from_pretrained``."""
        import torch

        kwargs: dict[str, Any] = {"dtype": getattr(torch, self.dtype)}
        if self.device_map:
            kwargs["device_map"] = self.device_map
        if self.attn_implementation:
            kwargs["attn_implementation"] = self.attn_implementation
        return kwargs

    def record(self) -> dict[str, str]:
        """What run.json's ``model_info`` says about the placement."""
        return {"device": self.device, "dtype": self.dtype,
                "device_map": self.device_map or "none",
                "attn_implementation": self.attn_implementation or "default",
                "cache": self.cache}


def _cuda_count() -> int:
    import torch

    return torch.cuda.device_count() if torch.cuda.is_available() else 0


def _mps() -> bool:
    import torch

    backend = getattr(torch.backends, "mps", None)
    return bool(backend is not None and backend.is_available())


def resolve_device(device: str) -> str:
    """The concrete device for ``--device`` (see module docstring).

    Raises:
        BadInputError: an unknown name, or a GPU asked for that this machine does not have.
    """
    check_placement_flags(device=device)
    device = (device or "auto").strip().lower()
    if device == "auto":
        return "cuda:0" if _cuda_count() else "mps" if _mps() else "cpu"
    if device.startswith("cuda"):
        n = _cuda_count()
        index = int(device.partition(":")[2] or 0)
        if n == 0:
            raise BadInputError(
                f"--device {device}: no CUDA GPU is visible to torch on this machine "
                "(torch.cuda.is_available() is False); use --device cpu or --device auto"
            )
        if index >= n:
            raise BadInputError(
                f"--device {device}: only {n} CUDA GPU(s) visible (cuda:0 … cuda:{n - 1})"
            )
        return f"cuda:{index}"
    if device == "mps" and not _mps():
        raise BadInputError("--device mps: Apple's MPS backend is not available here; use cpu")
    return device


def resolve_dtype(dtype: str, device: str) -> str:
    """The concrete dtype for ``--dtype`` on ``device``.

    Raises:
        BadInputError: an unknown dtype.
    """
    check_placement_flags(dtype=dtype)
    dtype = (dtype or "auto").strip().lower()
    if dtype != "auto":
        return dtype
    if device.startswith("cuda"):
        import torch

        return "bfloat16" if torch.cuda.is_bf16_supported() else "float16"
    return "float16" if device == "mps" else "float32"


def resolve_placement(
    device: str = "auto",
    dtype: str = "auto",
    device_map: str = "",
    attn_implementation: str = "",
    cache: str = "auto",
) -> Placement:
    """Check and resolve every placement flag (no weights read).

    Raises:
        BadInputError: an unknown value, a GPU that is not there, or flash attention without
            the flash-attn package.
        MissingDependencyError: torch is not installed (the ``local`` extra).
    """
    require("torch")
    where = resolve_device(device)
    check_placement_flags(device_map=device_map, attn_implementation=attn_implementation)
    if attn_implementation.startswith("flash") and importlib.util.find_spec("flash_attn") is None:
        raise BadInputError(
            f"attn_implementation {attn_implementation}: the flash-attn package is not "
            "installed (pip install flash-attn); or leave it unset for sdpa"
        )
    if cache not in CACHES:
        raise BadInputError(f"cache {cache!r}: use one of {', '.join(CACHES)}")
    chosen = cache if cache != "auto" else ("static" if where.startswith("cuda") else "dynamic")
    return Placement(where, resolve_dtype(dtype, where), device_map, attn_implementation, chosen)


def supports_static_cache(model: Any) -> bool:
    """Whether ``model.generate`` can take ``cache_implementation="static"``."""
    check = getattr(model, "_supports_default_dynamic_cache", None)
    try:
        return bool(check()) if callable(check) else False
    except Exception:  # noqa: BLE001 - a model that cannot say is treated as not supporting it
        return False


def generate_with_fallback(
    generate: Callable[..., Any], kwargs: dict[str, Any], state: dict[str, Any]
) -> Any:
    """``generate(**kwargs)`` with a static cache if ``state["cache"]`` says so.

    If the static-cache call raises, falls back to the dynamic cache for this and every later
    call, and writes why into ``state["cache_fallback"]`` (recorded in run.json).
    """
    if state.get("cache") == "static":
        try:
            return generate(**kwargs, cache_implementation="static")
        except Exception as exc:  # noqa: BLE001 - any failure of the fast path falls back
            state["cache"] = "dynamic"
            state["cache_fallback"] = f"static cache failed: {type(exc).__name__}: {exc}"[:300]
            log.warning("%s; using the dynamic cache", state["cache_fallback"])
    return generate(**kwargs)
