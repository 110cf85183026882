"""Where the shipped recipes find the shipped sample data, wherever medvqa runs from.

The sample data (the repository's ``data/``, ~18 MB of real images under their own licences) is
not package data: it would make every wheel 40 times larger for users who bring their own
data, and two of its licences (mini-MIAS, PathMMU) ask that it be kept to research use and
unmodified. Instead a shipped recipe looks, in order, in:

1. ``--data-root`` when given;
2. ``./data`` when it holds the recipe's sources (working in a checkout);
3. the user data folder (``platformdirs.user_data_path("medvqa") / "data"``, e.g.
   ``~/.local/share/medvqa/data``), filled once by ``medvqa data install``;
4. the ``data/`` of the source checkout medvqa is imported from (an editable install, which is
   what ``make install`` does), so ``medvqa build NAME`` works from any folder there.

``medvqa data install [--from DIR]`` copies a data folder (by default the checkout's) into the
user data folder, so a regular (non-editable) install works from anywhere afterwards.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path

#: A file every sample-data folder has (the table of what was kept and why).
MARKER = "README.md"


def user_data_dir() -> Path:
    """The per-user sample data folder (whether or not it exists yet)."""
    import platformdirs

    return Path(platformdirs.user_data_path("medvqa")) / "data"


def checkout_data_dir() -> Path | None:
    """``data/`` of the source checkout this medvqa is imported from, or None (a wheel)."""
    here = Path(__file__).resolve()
    for parent in here.parents:
        if (parent / "pyproject.toml").is_file() and (parent / "data" / MARKER).is_file():
            return parent / "data"
        if parent.name == "site-packages":
            break
    return None


def sample_data_roots() -> list[Path]:
    """Folders that hold the sample data, in the order they are searched (existing only)."""
    out = []
    for cand in (user_data_dir(), checkout_data_dir()):
        if cand is not None and (cand / MARKER).is_file() and cand not in out:
            out.append(cand)
    return out


def find_data_root(paths: Iterable[str]) -> Path | None:
    """The first sample-data folder that holds every one of ``paths``, or None."""
    wanted = list(paths)
    for root in sample_data_roots():
        if all((root / p).exists() for p in wanted):
            return root
    return None


def install_sample_data(source: Path | None = None, dest: Path | None = None) -> Path:
    """Copy a sample-data folder into ``dest`` (default: the user data folder); return ``dest``.

    The copy is made beside ``dest`` and renamed into place, so an interrupted copy never
    leaves a half-filled folder that recipes would find.

    Args:
        source: the folder to copy (default: the checkout's ``data/``).
        dest: where to put it (default: :func:`user_data_dir`).

    Raises:
        FileNotFoundError: no source given and no checkout to copy from, or ``source`` is not a
            sample-data folder (no README.md).

    """
    src = source if source is not None else checkout_data_dir()
    if src is None or not (Path(src) / MARKER).is_file():
        where = src if src is not None else "(no source checkout found)"
        raise FileNotFoundError(
            f"{where}: not a medvqa sample-data folder (no {MARKER}); pass --from DATA_DIR, "
            "the data/ folder of a medvqa checkout"
        )
    target = Path(dest) if dest is not None else user_data_dir()
    if target.exists() and Path(src).resolve() == target.resolve():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.copy-"))
    try:
        shutil.copytree(src, tmp / "data")
        if target.exists():
            shutil.rmtree(target)
        (tmp / "data").rename(target)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return target
