"""A Hugging Face dataset card (README.md) for any BENCH/, with the integrity audit's summary.

``medvqa card BENCH/`` writes it (default BENCH/README.md); the Parquet export writes the same
card with its ``configs`` block. The YAML header carries what the Hub reads (licence, task,
language, size, tags, pretty name); the body: summary, sources with licences, counts by split /
question type / category, how the benchmark was built (recipe, seed, tool version,
items_sha256, published split), the audit's summary and worst findings, intended use, known
limitations (from the audit and the licences) and citations.

The audit is read from BENCH/audit.json when it is of this benchmark (same items_sha256);
otherwise it is run now (images hashed, no ``--against``, no runs).
"""

from __future__ import annotations

import json
from dataclasses import KW_ONLY, dataclass
from pathlib import Path

from medvqa._markdown import md_escape, md_paragraphs, md_url
from medvqa.benchmark.audit import AuditConfig, AuditFile, run_audit, summary_lines
from medvqa.errors import BadInputError
from medvqa.interop._citations import citation_for
from medvqa.schema import BENCHMARK_FILE, Benchmark, InputError, file_sha256, read_json
from medvqa.store import atomic_write_text

AUDIT_FILE = "audit.json"

#: Licence texts as written in recipes → the Hub's licence identifiers.
_HUB_LICENSES = {"cc0 1.0": "cc0-1.0", "cc by 4.0": "cc-by-4.0", "cc by-sa 4.0": "cc-by-sa-4.0",
                 "cc by-nd 4.0": "cc-by-nd-4.0", "cc by-nc 4.0": "cc-by-nc-4.0",
                 "cc by-nc-sa 4.0": "cc-by-nc-sa-4.0", "mit": "mit", "apache-2.0": "apache-2.0",
                 "apache 2.0": "apache-2.0"}

INTENDED_USE = (
    "Evaluating vision-language models on medical visual question answering, with medvqa "
    "(`medvqa run` / `medvqa score`) or another harness. It is a research benchmark: not "
    "for diagnosis, treatment or any clinical decision, and not evidence that a model is "
    "safe for clinical use.")


@dataclass(frozen=True)
class CardConfig:
    """One ``medvqa card``.

    Attributes:
        bench: the BENCH/ folder.
        out: the README.md to write (default BENCH/README.md).
        audit: an audit.json to use (default BENCH/audit.json when current, else a new audit).
    """

    bench: Path
    _: KW_ONLY
    out: Path | None = None
    audit: Path | None = None


def hub_license(text: str) -> str:
    """The Hub's licence identifier of a licence text, or ``other``.

    >>> hub_license("CC BY 4.0"), hub_license("CC0 1.0"), hub_license("research use only")
    ('cc-by-4.0', 'cc0-1.0', 'other')
    """
    return _HUB_LICENSES.get(text.strip().casefold(), "other")


def size_category(n: int) -> str:
    """The Hub's size category of ``n`` rows.

    >>> size_category(304), size_category(25_000)
    ('n<1K', '10K<n<100K')
    """
    for limit, name in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"),
                        (1_000_000, "100K<n<1M")):
        if n < limit:
            return name
    return "n>1M"


def load_audit(bench: Path, card: Benchmark, path: Path | None = None) -> AuditFile:
    """The audit of ``bench``: ``path`` or BENCH/audit.json when it is of these items, else new.

    Raises:
        BadInputError: ``path`` is given but is not an audit of this benchmark.

    """
    current = card.items_sha256 or file_sha256(bench / "items.jsonl")
    candidate = path or bench / AUDIT_FILE
    if candidate.is_file():
        try:
            audit = read_json(candidate, AuditFile)
        except InputError:
            if path is not None:
                raise
        else:
            if audit.benchmark.items_sha256 == current:
                return audit
            if path is not None:
                raise BadInputError(f"{path}: an audit of other items (items_sha256 "
                                    f"{audit.benchmark.items_sha256[:12]}…, not {current[:12]}…)")
    return run_audit(AuditConfig(bench))


def _yaml_text(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def _header(card: Benchmark, n: int, configs: dict[str, int] | None) -> list[str]:
    licences = {hub_license(s.license) for s in card.sources if s.license}
    overall = hub_license(card.license) if card.license else None
    licence = overall if overall and overall != "other" else (
        licences.pop() if len(licences) == 1 else "other")
    lines = ["---", f"license: {licence}", f"pretty_name: {_yaml_text(card.name)}",
             "task_categories:", "- visual-question-answering", "language:", "- en", "tags:",
             "- medical", "- medvqa", "size_categories:", f"- {size_category(n)}"]
    if configs is not None:
        lines += ["configs:", "- config_name: default", "  data_files:"]
        for split in configs:
            lines += [f"  - split: {split}", f"    path: data/{split}-*"]
    return lines + ["---", ""]


def _table(header: list[str], rows: list[list[object]], urls: int | None = None) -> list[str]:
    """A Markdown table of untrusted cells (escaped; column ``urls`` as :func:`md_url`)."""
    def cell(i: int, v: object) -> str:
        return (md_url(v) if v else "") if i == urls else md_escape(v)

    return (["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
            + ["| " + " | ".join(cell(i, v) for i, v in enumerate(row)) + " |" for row in rows]
            + [""])


def _counts(card: Benchmark) -> list[str]:
    out = ["## Counts", "", f"{card.counts.get('items', 0)} items, "
           f"{card.counts.get('images', 0)} images.", ""]
    for key, title in (("by_split", "Split"), ("by_question_type", "Question type"),
                       ("by_category", "Category"), ("by_source", "Source")):
        block = card.counts.get(key) or {}
        if block:
            rows = sorted(block.items(), key=lambda kv: (-int(kv[1]), str(kv[0])))
            shown = [[k or "(none)", v] for k, v in rows[:30]]
            if len(rows) > 30:
                shown.append([f"… {len(rows) - 30} more", sum(int(v) for _, v in rows[30:])])
            out += _table([title, "items"], shown)
    return out


def _audit(audit: AuditFile) -> list[str]:
    st = audit.settings
    out = ["## Integrity audit", "",
           f"`medvqa audit` (medvqa {audit.tool_version}; near-duplicate images: the centre "
           f"perceptual hash within {st.near_threshold} bits of 64, the whole-image ones within "
           f"{st.whole_threshold}, the fine one within {st.fine_threshold} of 256). Findings: "
           + summary_lines(audit)[0] + ".", ""]
    out += [f"- {line}" for line in summary_lines(audit)[1:]] + [""]
    worst = [f for f in audit.findings if f.severity in {"error", "warning", "published"}]
    if worst:
        out += ["First findings (all of them: `medvqa audit BENCH/`):", ""]
        out += [f"- **{f.severity}** ({f.check}): {md_escape(f.message)}"
                for f in worst[:10]] + [""]
    return out


def _limitations(card: Benchmark, audit: AuditFile) -> list[str]:
    out = ["## Known limitations", ""]
    if card.published_split:
        out.append(f"- The splits are the dataset's published ones ({card.published_split}); "
                   "the audit reports their leaks as \"published\".")
    leaked = audit.summary.leaked_items
    if leaked:
        out.append("- Items that share a case or an image (exact or near-duplicate) with "
                   "another split: " + ", ".join(f"{s} {n}" for s, n in leaked.items()) + ".")
    for f in audit.findings:
        if f.check in {"option-cue", "answer-letter-balance", "guessability"} and (
                f.severity == "warning"):
            out.append(f"- Shortcut: {md_escape(f.message)}.")
    for s in card.sources:
        if hub_license(s.license) == "other" and s.license:
            out.append(f"- {md_escape(s.dataset)} is licensed \"{md_escape(s.license)}\": check "
                       "it before any use "
                       "beyond research.")
    if card.counts.get("items", 0) < 1000:
        out.append("- Small: confidence intervals are wide; report them (`medvqa score`).")
    return out + ["- Models may have seen the source datasets during training; "
                  "`medvqa audit --against` checks known training images.", ""]


def _code(text: str) -> str:
    """``text`` as a code span that it cannot close (its backticks become quotes)."""
    return "`" + " ".join(text.replace("`", "'").split()) + "`"


def card_text(bench: Path, audit: AuditFile, configs: dict[str, int] | None = None) -> str:
    """The README.md of ``bench`` (``configs``: split → rows of a Parquet export)."""
    card = read_json(bench / BENCHMARK_FILE, Benchmark)
    lines = _header(card, int(card.counts.get("items", 0)), configs)
    # Every text below comes from a benchmark.json that may have been downloaded: escaped, so
    # no renderer runs its HTML or follows a javascript: link (as report.md does).
    lines += [f"# {md_escape(card.name)} {md_escape(card.version)}", "",
              md_paragraphs(card.description) if card.description else "(no description)", "",
              "## Sources", ""]
    lines += _table(["dataset", "licence", "URL"],
                    [[s.dataset, s.license or "(not stated)", s.url or ""] for s in card.sources],
                    urls=2)
    lines += _counts(card)
    made = card.created_with
    splits = md_escape(card.published_split or "assigned by medvqa (grouped by case)")
    rebuild = f"medvqa build {made.recipe or 'RECIPE'} -o BENCH/ --seed {made.seed}"
    lines += ["## How it was built", "",
              f"- medvqa {md_escape(made.tool_version)}, recipe {_code(made.recipe or '(none)')}, "
              f"seed {made.seed}; prompt template {_code(card.prompt_template)}.",
              f"- items.jsonl SHA-256: `{card.items_sha256}`.",
              f"- Splits: {splits}.",
              f"- Rebuild: {_code(rebuild)}.",
              ""]
    lines += _audit(audit)
    lines += ["## Intended use", "", INTENDED_USE, ""]
    lines += _limitations(card, audit)
    lines += ["## Citations", ""]
    for s in card.sources:
        ref = citation_for(s.dataset)
        where = md_url(s.url) if s.url else "its publisher"
        lines.append(f"- {md_escape(s.dataset)}: {ref or 'see ' + where}")
    lines += ["- This card and the benchmark files were made with medvqa.", ""]
    return "\n".join(lines)


def write_card(config: CardConfig) -> Path:
    """Write the dataset card of ``config.bench``; return its path.

    Raises:
        BadInputError: no benchmark.json (or a bad one), or a given audit of other items.

    """
    bench = Path(config.bench)
    if not (bench / BENCHMARK_FILE).is_file():
        raise BadInputError(f"{bench}: no {BENCHMARK_FILE} (not a benchmark folder)")
    card = read_json(bench / BENCHMARK_FILE, Benchmark)
    audit = load_audit(bench, card, config.audit)
    out = config.out or bench / "README.md"
    atomic_write_text(out, card_text(bench, audit))
    return out
