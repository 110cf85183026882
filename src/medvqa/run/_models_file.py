"""``models.yaml``: many models in one command (``medvqa run --models``, ``medvqa report``).

A short flat file, validated against a fixed schema; an unknown or malformed field is one line
naming the file, the line and the field::

    defaults:                      # optional: parameters every model starts from
      max_tokens: 64
    models:
      - name: qwen2.5-vl-7b        # display name and RUN/ sub-folder (default: from the spec)
        spec: openai:Qwen/Qwen2.5-VL-7B-Instruct@http://10.0.0.1:8000/v1
        endpoints: [http://10.0.0.2:8000/v1]   # more servers of the same model
        parameters: {temperature: 0, reasoning: false}
      - spec: hf:llava-1.5-7b      # weights beside this file, or in --weights-root DIR
        prompt: default
        parameters: {device: cuda, dtype: bfloat16, batch_size: 16}
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, field_validator

from medvqa._path_guard import UnsafePathError, form_problem, inside
from medvqa._yaml_loader import compose_yaml, load_yaml, read_yaml_text
from medvqa.errors import BadInputError
from medvqa.models import ModelConfig, missing_key_problem, parse_model_spec, placement_problem


class ModelParameters(BaseModel):
    """Generation and placement parameters of one model (every field optional)."""

    model_config = ConfigDict(extra="forbid")

    temperature: float | None = Field(default=None, description="Sampling temperature (0 greedy).")
    max_tokens: int | None = Field(default=None, ge=1, description="Most tokens generated.")
    top_p: float | None = Field(default=None, gt=0, le=1, description="Nucleus sampling mass.")
    seed: int | None = Field(default=None, description="Seed of sampling and random baselines.")
    timeout_s: float | None = Field(default=None, gt=0, description="Per-request timeout, s.")
    batch_size: int | None = Field(default=None, ge=1, description="Batch of local models.")
    reasoning: bool | None = Field(default=None, description="Strip <think>…</think> to parse.")
    device: str | None = Field(default=None, description="auto, cpu, cuda, cuda:N or mps.")
    dtype: str | None = Field(default=None, description="auto, bfloat16, float16 or float32.")
    device_map: str | None = Field(default=None, description="'auto' to spread over GPUs.")
    attn_implementation: str | None = Field(default=None, description="sdpa, eager, flash…")
    requests_per_min: float | None = Field(default=None, ge=0, description="Rate limit.")
    tokens_per_min: float | None = Field(default=None, ge=0, description="Token rate limit.")
    api_key_env: str | None = Field(default=None, description="Variable holding the API key.")
    extra: dict[str, Any] | None = Field(default=None, description="Backend-specific body.")

    @field_validator("device", "dtype", "device_map", "attn_implementation")
    @classmethod
    def _spelled_right(cls, value: str | None, info: Any) -> str | None:
        problem = placement_problem(info.field_name, value) if value is not None else None
        if problem:
            raise ValueError(problem)
        return value


class ModelEntry(BaseModel):
    """One model of the file."""

    model_config = ConfigDict(extra="forbid")

    spec: str = Field(description="Model spec, as for --model.")
    name: str | None = Field(
        default=None,
        description="Display name and RUN/ sub-folder: one safe folder name (letters, digits, "
        "'.', '_', '-', '+'; not starting with '.' or '-'; at most 100 characters).",
    )
    prompt: str | None = Field(default=None, description="Prompt template (default: bench's).")
    endpoints: list[str] = Field(default_factory=list, description="More base URLs (openai:).")
    parameters: ModelParameters = Field(default_factory=ModelParameters)
    _run_spec: str = PrivateAttr(default="")

    @field_validator("name")
    @classmethod
    def _one_safe_folder(cls, value: str | None) -> str | None:
        problem = name_problem(value) if value is not None else None
        if problem:
            raise ValueError(problem)
        return value

    @property
    def display_name(self) -> str:
        """The name shown in tables and used as the RUN/ sub-folder."""
        return self.name or folder_name(self.spec)

    @property
    def run_spec(self) -> str:
        """The spec a run loads: :attr:`spec`, its local weights at their checked real path.

        The display name and sub-folder stay those of :attr:`spec` as written.
        """
        return self._run_spec or self.spec

    def place_weights(self, spec: str) -> None:
        """Set :attr:`run_spec` (``medvqa.run._models_weights`` checked where it points)."""
        self._run_spec = spec


class ModelsFile(BaseModel):
    """The whole file."""

    model_config = ConfigDict(extra="forbid")

    version: int = Field(default=1, description="Version of this format.")
    defaults: ModelParameters = Field(default_factory=ModelParameters)
    models: list[ModelEntry] = Field(min_length=1, description="The models, in run order.")


#: What a models.yaml ``name`` may be: one folder name that cannot leave ``--out`` or carry markup.
SAFE_NAME = re.compile(r"[A-Za-z0-9_+][A-Za-z0-9._+-]{0,99}")


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a RUN/ sub-folder of ``--out``, or None when it can.

    A name is used as a folder name under ``--out`` and shown in reports, so it must be one
    path component that stays there: no slash or backslash, not ``..``, not absolute, no
    markup. The message suggests a safe spelling.

    >>> name_problem("qwen2.5-vl-7b") is None
    True
    >>> name_problem("../../x").endswith("e.g. name: x")
    True
    """
    if SAFE_NAME.fullmatch(name):
        return None
    slug = re.sub(r"[^A-Za-z0-9._+-]+", "-", name).strip("-.")[:100] or "model"
    return (f"{name!r} is not one safe folder name (letters, digits, '.', '_', '-', '+'; not "
            f"starting with '.' or '-'; at most 100 characters); e.g. name: {slug}")


def folder_name(spec: str) -> str:
    """A file-system-safe folder name for a spec.

    >>> folder_name("openai:Qwen/Qwen2.5-VL-7B@http://10.0.0.1:8000/v1")
    'openai-Qwen-Qwen2.5-VL-7B'
    """
    head = spec.split("@", 1)[0]
    return re.sub(r"[^A-Za-z0-9._-]+", "-", head).strip("-.") or "model"


def _line_of(node: Any, loc: tuple[Any, ...]) -> int:
    """1-based line of the YAML node at ``loc`` (the deepest that exists)."""
    import yaml

    line = node.start_mark.line
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            match = [(k, v) for k, v in node.value if k.value == part]
            if not match:
                break
            key, node = match[0]
            line = key.start_mark.line
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(
            node.value
        ):
            node = node.value[part]
            line = node.start_mark.line
        else:
            break
    return int(line) + 1


def load_models_file(path: Path) -> ModelsFile:
    """Read and validate ``models.yaml``.

    Raises:
        BadInputError: a missing file, bad YAML, an unknown field or a bad value (one line:
            file, line, field, what to do), or two models with the same display name.
    """
    path = Path(path)
    text = read_yaml_text(path)
    node = compose_yaml(text, str(path))
    data = load_yaml(text, str(path))
    if node is None or not isinstance(data, dict):
        raise BadInputError(f"{path}:1: expected a mapping with a 'models:' list")
    try:
        parsed = ModelsFile.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = tuple(err["loc"])
        field = ".".join(str(p) if not isinstance(p, int) else f"[{p}]" for p in loc)
        field = field.replace(".[", "[")
        if err["type"] == "extra_forbidden":
            allowed = _allowed(loc[:-1])
            msg = f"unknown field; use one of {', '.join(allowed)}"
        else:
            msg = str(err["msg"]).removeprefix("Value error, ")
        raise BadInputError(f"{path}:{_line_of(node, loc)}: {field}: {msg}") from None
    seen: dict[str, int] = {}
    for i, entry in enumerate(parsed.models):
        try:
            parse_model_spec(entry.spec)
        except ValueError as exc:
            line = _line_of(node, ("models", i, "spec"))
            raise BadInputError(f"{path}:{line}: models[{i}].spec: {exc}") from None
        if entry.display_name in seen:
            raise BadInputError(
                f"{path}:{_line_of(node, ('models', i))}: models[{i}]: name "
                f"{entry.display_name!r} is also models[{seen[entry.display_name]}]'s; "
                "give each model its own name"
            )
        seen[entry.display_name] = i
        if entry.prompt is not None:
            line = _line_of(node, ("models", i, "prompt"))
            entry.prompt = _prompt_file(path, entry.prompt, f"{path}:{line}: models[{i}].prompt")
    return parsed


def _prompt_file(models: Path, prompt: str, where: str) -> str:
    """A ``prompt:`` of the file, checked now: a shipped name, or a YAML file beside the file.

    A models file may be handed on like a benchmark, so a template file it names is data: it
    is resolved against the models file's folder (never the working folder), links followed,
    and refused when it leaves that folder, is absolute, holds ``..`` or a NUL byte, or is not
    a regular file of at most ``MAX_YAML_BYTES`` (:mod:`medvqa._path_guard`). Every template is
    loaded here, so a bad one refuses the whole file before the first model runs.

    Returns:
        the shipped name, or the template file's real path.

    Raises:
        BadInputError: ``FILE:LINE: models[I].prompt: why; what to do``.

    """
    from medvqa.benchmark import PromptError, load_template

    name = prompt
    try:
        if prompt.endswith((".yaml", ".yml")) or form_problem(prompt):
            name = str(inside(models.parent, prompt, what="prompt template",
                              root_name="the models file's folder"))
        load_template(name)
    except (UnsafePathError, PromptError) as exc:
        raise BadInputError(f"{where}: {exc}; name a shipped template, or a template file "
                            "inside the models file's folder (relative to it)") from None
    return name


def missing_keys(path: Path, configs: list[ModelConfig],
                 environ: Mapping[str, str]) -> None:
    """Refuse the file if any of its models would run without the API key it needs.

    Checked for every model before the first one runs, so a missing variable for the tenth
    model does not surface hours into the run.

    Raises:
        BadInputError: the first such model (file, line, entry and what to set).
    """
    for i, config in enumerate(configs):
        problem = missing_key_problem(config.spec, config.api_key_env, environ)
        if problem is not None:

            node = compose_yaml(read_yaml_text(path), str(path))
            line = _line_of(node, ("models", i, "spec"))
            problem = problem.replace("--api-key-env", "parameters.api_key_env")
            raise BadInputError(f"{path}:{line}: models[{i}]: {problem}")


def _allowed(loc: tuple[Any, ...]) -> list[str]:
    """Field names allowed at the mapping ``loc`` points into."""
    last = [p for p in loc if not isinstance(p, int)]
    if last and last[-1] in {"parameters", "defaults"}:
        return list(ModelParameters.model_fields)
    if last and last[-1] == "models":
        return list(ModelEntry.model_fields)
    return list(ModelsFile.model_fields)


def model_config_for(
    entry: ModelEntry, defaults: ModelParameters, base: ModelConfig
) -> ModelConfig:
    """The ModelConfig of ``entry``: the command line's ``base``, then defaults, then its own."""
    merged: dict[str, Any] = {}
    for params in (defaults, entry.parameters):
        merged |= {k: v for k, v in params.model_dump().items() if v is not None}
    fields = {k: v for k, v in merged.items() if k != "extra"}
    extra = dict(base.extra) | dict(merged.get("extra") or {})
    endpoints = tuple(dict.fromkeys(list(base.endpoints) + entry.endpoints))
    return ModelConfig(**(vars(base) | fields | {"spec": entry.run_spec, "extra": extra,
                                                  "endpoints": endpoints}))
