"""Heavy optional dependencies, imported on use, with a one-line install hint when missing.

``pip install medvqa`` is the core: build, run API and server models, score, report. Everything
heavier is an extra (``pip install 'medvqa[local]'`` …); :data:`EXTRA_OF` is the one table of
which top-level module comes with which extra, so every hint names the right one.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from medvqa.errors import MissingDependencyError

#: Top-level module → the extra that installs it.
EXTRA_OF: dict[str, str] = {
    "torch": "local",
    "transformers": "local",
    "gguf": "local",
    "accelerate": "local",
    "lmformatenforcer": "local",
    "peft": "train",
    "sklearn": "train",
    "fastapi": "review",
    "uvicorn": "review",
    "sqlalchemy": "review",
    "krippendorff": "review",
    "psycopg": "review",
    "multipart": "review",
    "httpx": "review",
    "starlette": "review",
    "pydicom": "volumes",
    "nibabel": "volumes",
    "ray": "ray",
    "openpyxl": "interop",
    "inspect_ai": "interop",
    "huggingface_hub": "interop",
    "vllm": "vllm",
    "sentence_transformers": "embeddings",
}


def install_hint(module: str) -> str:
    """The pip command that installs ``module`` (its extra when it has one)."""
    top = module.split(".")[0]
    extra = EXTRA_OF.get(top)
    return f"pip install 'medvqa[{extra}]'" if extra else f"pip install {top}"


def optional_import(module: str, install: str | None = None) -> ModuleType:
    """Import ``module`` or raise :class:`MissingDependencyError` with the install command.

    Args:
        module: dotted module name.
        install: the pip argument to suggest (default: the module's extra, see :data:`EXTRA_OF`).
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        hint = f"pip install {install}" if install else install_hint(module)
        raise MissingDependencyError(f"{module} is needed for this feature: {hint}") from exc


def require(*modules: str) -> None:
    """Raise :class:`MissingDependencyError` for the first of ``modules`` that is not installed."""
    for module in modules:
        optional_import(module)
