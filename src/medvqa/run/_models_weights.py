"""Local weights a models.yaml names stay inside its folder, or inside a ``--weights-root``.

A models file may be handed on like a benchmark, so the weights it names are data: an
``hf:PATH`` or ``supervised:RUN_DIR`` spec and a ``parameters.extra.adapter`` folder (of a
model or of ``defaults``) are resolved against the models file's folder (never the working
folder), links followed, and refused when they leave it, are absolute, hold ``..`` or a NUL
byte, or name something that is neither a folder nor a regular file; a link inside a weights
folder that leads out of the models file's folder is refused too
(:mod:`medvqa._path_guard`). An ``hf:`` name that is not there and has the shape of a hub id
(``gpt2``, ``org/name``) stays a hub id.

Weights kept elsewhere are named by the user, on the command line: ``medvqa run --models F
--weights-root DIR`` (as ``--data-root`` for a recipe, ``--images`` for an import) makes DIR a
root of its own, so a path of the file relative to it, or absolute inside it, is read; a
folder the user names is trusted as it is (its links, a Hugging Face cache's among them, are
followed). A ``--model`` or ``--adapter`` the user types is taken as it is.

Every check runs before the first model does, so a refusal leaves nothing behind.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from medvqa._path_guard import UnsafePathError, form_problem, inside, regular_problem, within
from medvqa._yaml_loader import compose_yaml, read_yaml_text
from medvqa.errors import BadInputError
from medvqa.run._models_file import ModelParameters, ModelsFile, _line_of

#: A Hugging Face model id: a name, or ``namespace/name`` (letters, digits, ``.``, ``_``, ``-``).
HUB_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*(/[A-Za-z0-9][A-Za-z0-9._-]*)?")

#: How a refusal ends: what to do.
HINT = ("write the path relative to the models file's folder, inside it, or name the folder "
        "that holds the weights with --weights-root DIR")

_FOLDER = "the models file's folder"


def resolve_weights(path: Path, models: ModelsFile, roots: Sequence[Path] = ()) -> None:
    """Check every local weights path the models file names; put its real path in place.

    Args:
        path: the models file (its folder is the root of the weights it names).
        models: the file, as :func:`~medvqa.run.load_models_file` read it; its specs and
            adapters are replaced by their real paths (a hub id is kept as written).
        roots: folders the user named with ``--weights-root``.

    Raises:
        BadInputError: ``FILE:LINE: FIELD: why; what to do``, for the first refused path.

    """
    from medvqa.models import backend_info, parse_model_spec

    node: Any = None

    def refuse(loc: tuple[Any, ...], field: str, exc: Exception) -> BadInputError:
        nonlocal node
        if node is None:
            node = compose_yaml(read_yaml_text(path), str(path))
        return BadInputError(f"{path}:{_line_of(node, loc)}: {field}: {exc}; {HINT}")

    folder = Path(path).parent
    for i, entry in enumerate(models.models):
        spec = parse_model_spec(entry.spec)
        kind = backend_info(spec.kind).weights
        if kind:
            try:
                name = local_weights(folder, spec.name, roots, hub=kind == "path-or-hub")
            except UnsafePathError as exc:
                raise refuse(("models", i, "spec"), f"models[{i}].spec", exc) from None
            entry.place_weights(f"{spec.kind}:{name}")
    places: list[tuple[tuple[Any, ...], str, ModelParameters]] = [
        (("defaults", "extra", "adapter"), "defaults.extra.adapter", models.defaults)]
    places += [(("models", i, "parameters", "extra", "adapter"),
                f"models[{i}].parameters.extra.adapter", e.parameters)
               for i, e in enumerate(models.models)]
    for loc, field, params in places:
        adapter = (params.extra or {}).get("adapter")
        if adapter is None:
            continue
        try:
            if not isinstance(adapter, str):
                raise UnsafePathError("an adapter is a folder's path (text)")
            params.extra = {**(params.extra or {}),
                            "adapter": local_weights(folder, adapter, roots, hub=False)}
        except UnsafePathError as exc:
            raise refuse(loc, field, exc) from None


def local_weights(folder: Path, name: str, roots: Sequence[Path] = (), *, hub: bool) -> str:
    """The real path of the weights ``name`` a models file in ``folder`` names, or a hub id.

    ``name`` is looked for in ``folder``, then in each of ``roots``; an absolute ``name`` is
    read only inside one of ``roots``. Not found anywhere, a ``name`` shaped like a hub id is
    returned as it is when ``hub`` (unless the working folder holds a folder of that name,
    which the loader would take instead).

    Raises:
        UnsafePathError: outside every root, a link out of ``folder``, not a folder or a
            regular file, missing, or a hub id shadowed by a local folder.

    """
    what = "local weights"
    problem = form_problem(name)
    if problem is not None:
        given = os.path.expanduser(name) if problem == "is an absolute path" else ""
        for root in roots:
            if given and within(root, given):
                return _checked(Path(os.path.realpath(given)), name, None)
        inside(folder, name, what=what, root_name=_FOLDER)  # raises: the form's refusal
        raise AssertionError("unreachable: form_problem and inside disagree")
    for root, root_name in [(folder, _FOLDER), *((r, f"--weights-root {r}") for r in roots)]:
        if os.path.lexists(os.path.join(root, name)):
            real = inside(root, name, what=what, root_name=root_name)
            return _checked(real, name, folder if root is folder else None)
    if hub and HUB_ID.fullmatch(name) and not name.endswith(".gguf"):
        if os.path.lexists(name):
            raise UnsafePathError(
                f"{name!r} is read as a hub id, but the working folder holds {name!r}, which "
                "would be loaded instead (it is outside the models file's folder)")
        return name
    looked = ", ".join([_FOLDER, *(f"--weights-root {r}" for r in roots)])
    tail = " and is not a hub id" if hub else ""
    raise UnsafePathError(f"{what} {name!r} is not in {looked}{tail}")


def _checked(real: Path, name: str, root: Path | None) -> str:
    """``real`` as text when it is a folder or a regular file; inside ``root`` all through.

    With ``root`` (the models file's folder), every link in a weights folder must stay inside
    it too; a folder the user named (``root`` None) is taken as it is.

    Raises:
        UnsafePathError: a FIFO, a device …, or a link in the folder that leads out of ``root``.

    """
    if not real.is_dir():
        problem = regular_problem(real)
        if problem:
            raise UnsafePathError(f"local weights {name!r} {problem}; name a folder or a file")
        return str(real)
    if root is not None:
        for here, dirs, files in os.walk(real):
            for entry in [*dirs, *files]:
                full = os.path.join(here, entry)
                if os.path.islink(full) and not within(root, full):
                    raise UnsafePathError(
                        f"local weights {name!r} hold {os.path.relpath(full, real)!r}, a link to "
                        f"{os.path.realpath(full)}, outside {_FOLDER}")
                if not os.path.isdir(full) and (problem := regular_problem(full)):
                    raise UnsafePathError(f"local weights {name!r} hold "
                                          f"{os.path.relpath(full, real)!r}, which {problem}")
    return str(real)


__all__ = ["HINT", "HUB_ID", "local_weights", "resolve_weights"]
