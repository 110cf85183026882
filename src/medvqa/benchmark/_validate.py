"""Check a BENCH/ folder and report every problem at once (``medvqa validate``).

One pass over items.jsonl finds malformed lines, duplicate ids, answers that are not among the
options, prompts that cannot be rendered, and the images each item needs; each distinct image is
then read once to check that it exists, that its bytes hash to the digest in its name, and that
Pillow can decode it. Items that are not items (degenerate options, a question that asks
nothing, every answer at one position, an answer not in its source caption) are warned about
(:mod:`medvqa.benchmark._item_checks`). benchmark.json is checked for a known prompt template
and for an ``items_sha256`` that matches items.jsonl's bytes. Nothing stops at the first
problem.

The cheap checks of the integrity audit (:func:`medvqa.benchmark.audit.cheap_leaks`: one case,
one image file or the same pixels in two splits) run too, and what they find is a warning:
a leak does not make the benchmark invalid (an imported dataset may publish one), but nobody
should score on it unaware.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from medvqa.benchmark._item_checks import structural_warnings
from medvqa.benchmark._items import iter_items
from medvqa.benchmark._prompts import (
    PromptError,
    PromptTemplate,
    load_bench_template,
    render_prompt,
)
from medvqa.schema import (
    BENCHMARK_FILE,
    ITEMS_FILE,
    Benchmark,
    InputError,
    RecordError,
    file_sha256,
    read_json,
)

_HEX64 = re.compile(r"^[0-9a-f]{64}$")


@dataclass
class ValidationReport:
    """What ``validate_benchmark`` found.

    Attributes:
        bench_dir: the folder checked.
        problems: every problem, in file order (benchmark.json, items.jsonl, then images).
        warnings: things worth knowing that do not make the benchmark invalid.
        n_items: good item lines.
        n_images: distinct image paths referenced.

    """

    bench_dir: Path
    problems: list[RecordError] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    n_items: int = 0
    n_images: int = 0

    @property
    def ok(self) -> bool:
        """True when there is no problem."""
        return not self.problems


def check_image(bench_dir: Path, rel: str, max_pixels: int | None = None) -> str | None:
    """Why the image at ``rel`` is unusable, or None when it is fine.

    The same checks as the runner's loader: the real path (links followed) stays inside the
    benchmark folder, the size in the header is within ``max_pixels`` (None: the runner's
    default cap; 0: none) and the bytes decode as an image of an allowed format; then the bytes
    must hash to the digest in the file's name.
    """
    from medvqa._path_guard import MAX_IMAGE_FILE_BYTES, UnsafePathError, read_regular
    from medvqa.benchmark._images import (
        MAX_IMAGE_PIXELS,
        ImageLoadError,
        decoded_mime,
        resolve_inside,
    )
    
    try:
        path = resolve_inside(bench_dir, rel)
    except ImageLoadError as exc:
        return "path " + str(exc).partition(f"{rel!r} ")[2]
    if not os.path.lexists(path):
        return "file is missing"
    try:
        data = read_regular(path, shown="file", max_bytes=MAX_IMAGE_FILE_BYTES,
                            cap_of="one image file")
    except UnsafePathError as exc:
        return str(exc)
    stem = Path(rel).stem.lower()
    if _HEX64.match(stem):
        actual = hashlib.sha256(data).hexdigest()
        if actual != stem:
            return f"SHA-256 of the bytes is {actual[:12]}…, not the {stem[:12]}… in its name"
    try:
        decoded_mime(data, thorough=True,
                     max_pixels=MAX_IMAGE_PIXELS if max_pixels is None else max_pixels)
    except ImageLoadError as exc:
        return str(exc)
    return None


def validate_benchmark(bench_dir: str | Path, max_image_pixels: int | None = None, *,
                       leaks: bool = True) -> ValidationReport:
    """Check a benchmark folder and collect every problem.

    Args:
        bench_dir: the BENCH/ folder (benchmark.json, items.jsonl, images/).
        max_image_pixels: flag images above this many pixels (None: the runner's default cap;
            0: none).
        leaks: also run the audit's cheap leak checks (case, bytes, pixels across splits),
            reported as warnings.

    Returns:
        A report; ``report.ok`` is True when nothing is wrong.

    """
    bench = Path(bench_dir)
    report = ValidationReport(bench_dir=bench)
    problems = report.problems
    bench_file, items_file = bench / BENCHMARK_FILE, bench / ITEMS_FILE

    card: Benchmark | None = None
    template: PromptTemplate | None = None
    if not bench_file.is_file():
        problems.append(RecordError(str(bench_file), 0, "(file)", "file is missing"))
    else:
        try:
            card = read_json(bench_file, Benchmark)
        except InputError as exc:
            problems.append(exc.error)
    if card is not None:
        try:
            template = load_bench_template(bench, card.prompt_template)
        except PromptError as exc:
            said = str(exc).removeprefix(f"{bench_file}: prompt_template: ")
            problems.append(RecordError(str(bench_file), 1, "prompt_template", said))
    if not items_file.is_file():
        problems.append(RecordError(str(items_file), 0, "(file)", "file is missing"))
        return report

    if card is not None:
        actual = file_sha256(items_file)
        if not card.items_sha256:
            report.warnings.append(f"{bench_file}: items_sha256 is empty (items.jsonl is {actual})")
        elif card.items_sha256 != actual:
            problems.append(
                RecordError(
                    str(bench_file),
                    1,
                    "items_sha256",
                    f"{card.items_sha256} does not match items.jsonl ({actual})",
                )
            )

    first_line: dict[str, int] = {}
    image_users: dict[str, tuple[int, int]] = {}  # path -> (first line, image index)
    for lineno, item in iter_items(items_file, problems):
        report.n_items += 1
        if item.id in first_line:
            problems.append(
                RecordError(
                    str(items_file),
                    lineno,
                    "id",
                    f"duplicate id {item.id!r} (first on line {first_line[item.id]})",
                )
            )
        else:
            first_line[item.id] = lineno
        if template is not None:
            try:
                render_prompt(item, template)
            except PromptError as exc:
                problems.append(RecordError(str(items_file), lineno, "prompt", str(exc)))
        for i, rel in enumerate(item.images):
            image_users.setdefault(rel, (lineno, i))

    if report.n_items == 0 and not any(p.file == str(items_file) for p in problems):
        problems.append(RecordError(str(items_file), 0, "(file)", "the benchmark has no items"))
    report.n_images = len(image_users)
    for rel, (lineno, i) in image_users.items():
        why = check_image(bench, rel, max_image_pixels)
        if why is not None:
            shown = rel if rel.isprintable() else repr(rel)
            problems.append(RecordError(str(items_file), lineno, f"images.{i}",
                                        f"{shown}: {why}"))
    report.warnings.extend(structural_warnings(items_file))
    if leaks and report.n_items:
        from medvqa.benchmark.audit import cheap_leaks

        report.warnings += cheap_leaks(bench)
    return report
