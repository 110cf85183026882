"""``medvqa bench`` section ``llm``: SmolLM2-135M on CPU for the LLM builders.

Two questions decide how the builders call a local model: does batching pay on 2 cores
(generations/s with batch 1 vs batch 8, same prompts, greedy, fixed length), and how many
question-generation replies are usable with and without JSON-schema constrained decoding
(lm-format-enforcer). Yields are measured on the shipped FICTIONAL IR captions, one attempt
each (no repair round), so they show the raw effect of the constraint.
"""

from __future__ import annotations

import asyncio
import csv
import time

from medvqa.measurements._figure import BenchFigure


def _captions(n: int) -> list[str]:
    from medvqa.curate.llm import resource_path

    with resource_path("captions", "ir_labelled_sample.csv").open(newline="") as fh:
        rows = [r["caption"] for r in csv.DictReader(fh) if r["label"] == "1"]
    return rows[:n]


def _throughput(n: int, batch_size: int, max_tokens: int) -> float:
    """Generations per second for ``n`` prompts at ``batch_size`` (weights already loaded)."""
    from medvqa.models import GenerateRequest, ModelConfig, load_model

    backend = load_model(ModelConfig(spec="smollm2", max_tokens=max_tokens, batch_size=batch_size))
    requests = [
        GenerateRequest(item_id=str(i), condition="bench", prompt=f"Summarise: {c}")
        for i, c in enumerate(_captions(n))
    ]

    async def go() -> float:
        await backend.start()
        t0 = time.perf_counter()
        for k in range(0, len(requests), batch_size):
            await backend.generate(requests[k : k + batch_size])
        return len(requests) / (time.perf_counter() - t0)

    return asyncio.run(go())


def _yield(n: int, constrain: bool) -> tuple[float, float]:
    """(fraction of replies that are JSON, fraction that validate as items) for ``n`` captions."""
    from medvqa.curate.llm import (
        TextRecord,
        extract_json,
        generate_structured,
        load_fewshot,
        parse_qa,
        qa_json_schema,
        qa_tasks,
    )
    from medvqa.models import LLMSettings

    records = [TextRecord(f"c{i}", c, "bench") for i, c in enumerate(_captions(n))]
    settings = LLMSettings(model="smollm2", max_tokens=160, tries=1, constrain=constrain)
    outcomes = []
    for qt in ("closed", "single"):
        tasks = qa_tasks(records, [qt], load_fewshot())
        outcomes += generate_structured(settings, "qa", tasks, parse_qa, qa_json_schema(qt))
    parsed = 0
    for o in outcomes:
        try:
            extract_json(o.raw or "")
            parsed += 1
        except ValueError:
            pass
    return parsed / len(outcomes), sum(o.value is not None for o in outcomes) / len(outcomes)


def bench_llm(quick: bool) -> list[BenchFigure]:
    """SmolLM2 generations/s batched vs unbatched; valid-JSON yield with and without constraint."""
    from medvqa.models import load_local_lm, smollm2_location

    folder, gguf = smollm2_location()
    loaded = load_local_lm(str(folder), gguf)  # once per process: load_s is when it happened
    figures = [BenchFigure("llm", "SmolLM2-135M load (GGUF → float32)", loaded.load_s, "s")]
    n = 8 if quick else 16
    one = _throughput(n, 1, 32)
    eight = _throughput(n, 8, 32)
    figures += [
        BenchFigure(
            "llm", f"SmolLM2 generations/s, batch 1, {n} prompts × 32 tokens", one, "gen/s"
        ),
        BenchFigure(
            "llm",
            f"SmolLM2 generations/s, batch 8, {n} prompts × 32 tokens",
            eight,
            "gen/s",
            "> batch 1",
            eight > one,
        ),
    ]
    m = 3 if quick else 8
    for constrain in (False, True):
        as_json, valid = _yield(m, constrain)
        label = "with" if constrain else "without"
        figures += [
            BenchFigure(
                "llm",
                f"QA replies that are JSON, {label} constrained decoding ({2 * m} replies)",
                as_json,
                "fraction",
            ),
            BenchFigure(
                "llm",
                f"QA replies valid as items, {label} constrained decoding ({2 * m} replies)",
                valid,
                "fraction",
            ),
        ]
    return figures
