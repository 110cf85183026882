"""What every stage reads of a benchmark: its items, its images, its prompts, its validity.

A BENCH/ folder is read the same way by the runner, the scorer, the trainers, the review app and
other tools' exporters, so these pieces live here, below all of them: :func:`iter_items` (items
through the one typed JSON-lines reader), :class:`ImageLoader` and :class:`ImageInput` (images
checked, encoded once; shared by conditions and models), prompt templates and their rendering,
and :func:`validate_benchmark`. The integrity audit of a benchmark lives here too.

Names are imported on first use (PEP 562), so ``medvqa --help`` does not pay for Pillow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from medvqa._lazy import lazy_exports

if TYPE_CHECKING:
    from medvqa.benchmark._exportable import refuse_unexportable
    from medvqa.benchmark._image_paths import image_path_problem, refuse_unsafe_images
    from medvqa.benchmark._images import (
        ALLOWED_FORMATS,
        MAX_IMAGE_PIXELS,
        ImageInput,
        ImageLoader,
        ImageLoadError,
        decoded_mime,
        image_size,
        mime_for,
        pixel_problem,
        quiet_pillow,
        read_image_file,
        resolve_inside,
    )
    from medvqa.benchmark._item_checks import (
        ItemFlaw,
        answer_position_flaw,
        grounding_flaw,
        item_flaws,
        structural_warnings,
    )
    from medvqa.benchmark._items import bad_item_lines, iter_items
    from medvqa.benchmark._prompts import (
        PromptError,
        PromptTemplate,
        format_options,
        list_templates,
        load_bench_template,
        load_template,
        render_prompt,
    )
    from medvqa.benchmark._provenance import PROVENANCE_KEYS, item_provenance
    from medvqa.benchmark._splits import ALL_SPLITS, DEFAULT_SPLIT, chosen_split, has_split
    from medvqa.benchmark._validate import ValidationReport, check_image, validate_benchmark

_WHERE: dict[str, str] = {
    "ALLOWED_FORMATS": "_images",
    "MAX_IMAGE_PIXELS": "_images",
    "image_size": "_images",
    "pixel_problem": "_images",
    "quiet_pillow": "_images",
    "ImageInput": "_images",
    "ImageLoader": "_images",
    "ImageLoadError": "_images",
    "decoded_mime": "_images",
    "mime_for": "_images",
    "read_image_file": "_images",
    "resolve_inside": "_images",
    "image_path_problem": "_image_paths",
    "refuse_unsafe_images": "_image_paths",
    "refuse_unexportable": "_exportable",
    "ItemFlaw": "_item_checks",
    "answer_position_flaw": "_item_checks",
    "grounding_flaw": "_item_checks",
    "item_flaws": "_item_checks",
    "structural_warnings": "_item_checks",
    "bad_item_lines": "_items",
    "iter_items": "_items",
    "PROVENANCE_KEYS": "_provenance",
    "item_provenance": "_provenance",
    "PromptError": "_prompts",
    "PromptTemplate": "_prompts",
    "format_options": "_prompts",
    "list_templates": "_prompts",
    "load_bench_template": "_prompts",
    "load_template": "_prompts",
    "render_prompt": "_prompts",
    "ALL_SPLITS": "_splits",
    "DEFAULT_SPLIT": "_splits",
    "chosen_split": "_splits",
    "has_split": "_splits",
    "ValidationReport": "_validate",
    "check_image": "_validate",
    "validate_benchmark": "_validate",
}

__all__ = [
    "ALLOWED_FORMATS",
    "ALL_SPLITS",
    "DEFAULT_SPLIT",
    "MAX_IMAGE_PIXELS",
    "PROVENANCE_KEYS",
    "ImageInput",
    "ImageLoadError",
    "ImageLoader",
    "ItemFlaw",
    "PromptError",
    "PromptTemplate",
    "ValidationReport",
    "answer_position_flaw",
    "bad_item_lines",
    "check_image",
    "chosen_split",
    "decoded_mime",
    "format_options",
    "grounding_flaw",
    "has_split",
    "image_size",
    "item_flaws",
    "item_provenance",
    "iter_items",
    "list_templates",
    "load_bench_template",
    "load_template",
    "mime_for",
    "pixel_problem",
    "quiet_pillow",
    "render_prompt",
    "read_image_file",
    "resolve_inside",
    "image_path_problem",
    "refuse_unsafe_images",
    "refuse_unexportable",
    "structural_warnings",
    "validate_benchmark",
]

__getattr__, __dir__ = lazy_exports(__name__, _WHERE, globals())
