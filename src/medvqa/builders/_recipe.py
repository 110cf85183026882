"""The recipe schema (short flat YAML, validated) and recipe lookup (file path or shipped name).

A recipe names its sources (``medvqa.sources.SourceSpec``), what it builds (``type``, a registered
recipe type), its topics (label column → questions), splits and an optional filter. Every field
is either a column name (``column``, ``*_column``) or a registered name (``type``, ``reader``),
never either.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from medvqa._resources import shipped_path, shipped_text
from medvqa._suggest import did_you_mean
from medvqa._yaml_loader import load_yaml, read_yaml_text
from medvqa.benchmark import MAX_IMAGE_PIXELS
from medvqa.errors import BadInputError, UsageError
from medvqa.sources import SourceSpec

Level = Literal["image", "finding", "exam"]


class TopicSpec(BaseModel):
    """One question topic: a label column turned into questions about an image, crop or exam."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(description="Topic name, written to items' category.")
    column: str = Field(description="Record field (label-table column) holding the label.")
    question_type: Literal["single", "yesno", "multi", "grade", "region"] = Field(
        default="single",
        description="single | yesno | multi (multi-label) | grade (ordered) | region (LMOD boxes).",
    )
    questions: list[str] = Field(
        min_length=1, description="Phrasings; one is chosen per item with the seed."
    )
    label_map: dict[str, str] = Field(
        default_factory=dict,
        description="Raw label → unified option text. When set, other raw labels are errors.",
    )
    ignore: list[str] = Field(
        default_factory=list, description="Raw labels that ask no question (e.g. NORM)."
    )
    options: list[str] = Field(
        default_factory=list,
        description="Every option text in canonical order (default: the labels seen, sorted).",
    )
    level: Level = Field(default="image", description="image | finding (box crops) | exam.")
    balance: bool = Field(
        default=False, description="Equal items per class (seeded undersampling)."
    )
    shuffle_options: bool = Field(
        default=True, description="Shuffle options with the seed (off keeps grades in order)."
    )
    max_options: int = Field(default=0, ge=0, description="Cap on options (0 = all classes).")
    normal_label: str = Field(
        default="", description="Finding level: add one same-size normal crop per finding."
    )
    normal_column: str = Field(default="", description="Column marking normal images.")
    normal_value: str = Field(default="", description="Value of normal_column for normal images.")
    prompt_key: str = Field(default="", description="meta.prompt_key (LMOD glaucoma/staging).")


class Recipe(BaseModel):
    """A build recipe (see ``medvqa build --print-config``)."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(description="Benchmark name.")
    type: str = Field(default="classify", description="Registered recipe type.")
    description: str = Field(default="", description="What the benchmark measures.")
    version: str = Field(default="1.0", description="Benchmark version.")
    license: str = Field(default="", description="Licence of the benchmark as distributed.")
    prompt_template: str = Field(default="default", description="Prompt template name.")
    sources: list[SourceSpec] = Field(min_length=1, description="Datasets read.")
    topics: list[TopicSpec] = Field(default_factory=list, description="Question topics.")
    splits: dict[Literal["train", "val", "test"], float] = Field(
        default_factory=lambda: {"train": 7.0, "val": 1.0, "test": 2.0},  # type: ignore[arg-type]  # pydantic validates the literal keys
        description="Split ratios, stratified by answer and grouped by case.",
    )
    test_tiny: int = Field(default=0, ge=0, description="Items moved from test to test_tiny.")
    crop_margin: float = Field(default=0.1, ge=0, description="Finding crop margin (box fraction).")
    exam_max_images: int = Field(default=15, ge=1, description="Images per exam item at most.")
    region_min_area: float = Field(
        default=0.10, ge=0, le=1, description="Regions: keep boxes covering this image fraction."
    )
    max_image_pixels: int = Field(
        default=MAX_IMAGE_PIXELS, ge=0,
        description="Most pixels (width × height) of one source image, read from its header "
        "(0: no cap); see oversized_images.",
    )
    oversized_images: Literal["skip", "downscale"] = Field(
        default="skip",
        description="An image above max_image_pixels: skip its items (a counted problem) or "
        "downscale it to fit (stored as PNG).",
    )
    image_type: str = Field(default="", description="meta.image_type (LMOD prompts).")
    image_description: str = Field(default="", description="meta.image_description (LMOD).")
    filter: str = Field(
        default="", description="Filter after building, e.g. guessable:random,frequent:2."
    )
    import_options: dict[str, str] = Field(
        default_factory=dict,
        description="Importer settings, e.g. lang: en (slake), split: val (vlmevalkit), "
        "question: Question (table: medvqa field → source column).",
    )


def shipped_recipes() -> dict[str, str]:
    """Name → description of the recipes shipped in ``medvqa/recipes``, sorted by name."""
    out: dict[str, str] = {}
    folder = shipped_path("recipes")
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".yaml"):
            data = load_yaml(entry.read_text(encoding="utf-8"), entry.name) or {}
            out[entry.name[: -len(".yaml")]] = str(data.get("description", "")).strip()
    return out


def resolve_recipe(name_or_path: str) -> tuple[str, Path | None]:
    """The recipe's YAML text and its folder (None for a shipped recipe).

    Raises:
        UsageError: neither a file nor a shipped name (with "did you mean").

    """
    path = Path(name_or_path)
    if path.suffix in {".yaml", ".yml"} or path.is_file():
        if not path.is_file():
            raise BadInputError(f"{path}: recipe file not found")
        return read_yaml_text(path), path.resolve().parent
    names = shipped_recipes()
    if name_or_path not in names:
        hint = did_you_mean(name_or_path, names)
        raise UsageError(
            f"unknown recipe {name_or_path!r}.{hint} Shipped: {', '.join(names)}."
        )
    text = shipped_text("recipes", f"{name_or_path}.yaml")
    return text, None


def parse_recipe(text: str, where: str = "recipe") -> Recipe:
    """Validate recipe YAML; a bad field raises :class:`BadInputError` naming it."""
    data = load_yaml(text, where)
    if not isinstance(data, dict):
        raise BadInputError(f"{where}: a recipe is a YAML mapping")
    try:
        return Recipe.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"])
        raise BadInputError(f"{where}: {loc}: {first['msg']}") from None


def load_recipe(name_or_path: str) -> tuple[Recipe, Path | None]:
    """Recipe and its folder, from a YAML path or a shipped name."""
    text, folder = resolve_recipe(name_or_path)
    return parse_recipe(text, name_or_path), folder
