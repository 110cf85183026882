"""Generated items that are not items: dropped before the judges, each with its reason; judges'
low scores drop (or only mark for review); ``medvqa validate`` flags such items anywhere.

The generator is scripted the way SmolLM2-135M answers (options that are their own letters, a
paragraph where the question goes, answer A every time), through a real HTTP server.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _scripted import ScriptedServer

from medvqa.benchmark import validate_benchmark
from medvqa.cli import main
from medvqa.curate.llm import CaptionsConfig, build_captions
from medvqa.models import LLMSettings
from medvqa.schema import Item, read_jsonl

ORGANS = ["liver", "spleen", "kidney", "pancreas", "gallbladder", "bladder"]
CAPTIONS = "id,caption,image\n" + "".join(
    f'c{i},"Axial CT shows a hypodense lesion in the {organ} with rim enhancement.",\n'
    for i, organ in enumerate(ORGANS))


def _smollm2_like(system: str, prompt: str) -> str:
    """The six captions' replies: degenerate, rambling, ungrounded, and four plausible ones."""
    if system.startswith("You review"):
        low = "in the spleen with" in prompt
        return json.dumps({"relevance": 2 if low else 4, "complexity": 3, "clarity": 4})
    organ = next(o for o in ORGANS if f"in the {o} with" in prompt)
    others = [o for o in ORGANS if o != organ][:3]
    options = dict(zip("ABCD", [organ, *others], strict=True))
    question = "Which organ holds the rim-enhancing lesion?"
    if organ == "liver":
        options = {"A": "A", "B": "B", "C": "C", "D": "D"}
    if organ == "kidney":
        question = ("The lesion is hypodense with rim enhancement on the axial image, which is "
                    "typical of an abscess in this organ and should be drained.")
    if organ == "bladder":
        options = dict(zip("ABCD", ["heart", "lung", "brain", "bone"], strict=True))
    return json.dumps({"question_type": "single", "question": question, "options": options,
                       "answer": "A", "explanation": "The caption names the organ."})


@pytest.fixture()
def server():  # type: ignore[no-untyped-def]
    with ScriptedServer(_smollm2_like) as srv:
        yield srv


def _config(tmp_path: Path, spec: str, **kw) -> CaptionsConfig:  # type: ignore[no-untyped-def]
    src = tmp_path / "caps.csv"
    src.write_text(CAPTIONS)
    gen = LLMSettings(model=spec, cache_path=tmp_path / "cache.sqlite", tries=1)
    return CaptionsConfig(captions=src, out=tmp_path / "bench", generator=gen,
                          types=["single"], **kw)


def _dropped(bench: Path) -> dict[str, str]:
    lines = (bench / "dropped.jsonl").read_text().splitlines()
    return {(d := json.loads(x))["key"]: d["reason"] for x in lines}


def test_structural_checks_drop_what_is_not_an_item(tmp_path: Path,
                                                    server: ScriptedServer) -> None:
    res = build_captions(_config(tmp_path, server.spec(), judges=[]))
    assert _dropped(res.out) == {"c0:single": "degenerate_options",
                                 "c2:single": "not_a_question",
                                 "c5:single": "ungrounded"}
    assert res.counts["dropped"] == {"check:degenerate_options": 1, "check:not_a_question": 1,
                                     "check:ungrounded": 1}
    kept = [i.id for i in read_jsonl(res.out / "items.jsonl", Item)]
    assert kept == ["c1-single", "c3-single", "c4-single"]  # 3 < 5: position not judged


def test_answer_always_at_one_position_drops_the_build(tmp_path: Path,
                                                       server: ScriptedServer) -> None:
    cfg = _config(tmp_path, server.spec(), judges=[])
    rows = "".join(f'd{i},"Axial CT shows a hypodense lesion in the {o} with rim enhancement.",\n'
                   for i, o in enumerate(["spleen", "pancreas", "gallbladder", "spleen",
                                          "pancreas"]))
    cfg.captions.write_text("id,caption,image\n" + rows)
    res = build_captions(cfg)
    assert res.counts["items"] == 0
    assert set(_dropped(res.out).values()) == {"constant_answer"}
    detail = json.loads((res.out / "dropped.jsonl").read_text().splitlines()[0])["detail"]
    assert detail == "answer: all 5 single-answer choice items are answered A"


@pytest.mark.parametrize("action", ["drop", "review"])
def test_judge_scores_below_the_threshold_drop_or_mark(tmp_path: Path, server: ScriptedServer,
                                                       action: str) -> None:
    judge = LLMSettings(model=server.spec("judge"), tries=1)
    res = build_captions(_config(tmp_path, server.spec(), judges=[judge], judge_action=action))
    items = {i.id: i for i in read_jsonl(res.out / "items.jsonl", Item)}
    if action == "drop":
        assert "c1-single" not in items and _dropped(res.out)["c1:single"] == "low_score"
        assert "flagged_by_judges" not in res.counts
    else:
        flag = items["c1-single"].meta["provenance"]["judge_flag"]
        assert flag == "judge1 relevance 2 < 3" and res.counts["flagged_by_judges"] == 1
        assert "judge_flag" not in items["c3-single"].meta["provenance"]


def test_cli_says_what_was_kept_and_why_the_rest_was_not(tmp_path: Path, server: ScriptedServer,
                                                         capsys) -> None:
    (tmp_path / "caps.csv").write_text(CAPTIONS)
    with pytest.raises(SystemExit) as exit_info:
        main(["build", "captions", str(tmp_path / "caps.csv"), "-o", str(tmp_path / "b"),
              "--model", server.spec(), "--judges", "", "--types", "single", "--tries", "1"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "kept 3 of 6 generated: answer not in the source 1, degenerate options 1, not a " \
           "question 1;" in " ".join(out.split())


def test_validate_flags_such_items_in_any_benchmark(tmp_path: Path, bench_factory) -> None:
    opts = {"A": "A", "B": "B", "C": "C"}
    items = [Item(id=f"q{i}", question="Which tissue is this?" if i else "A tissue slide.",
                  options=opts if i == 1 else {"A": "tumour", "B": "stroma", "C": "fat"},
                  answer="A", question_type="single") for i in range(6)]
    bench = bench_factory(tmp_path / "b", items=items)
    report = validate_benchmark(bench)
    assert report.ok  # warnings, not errors: a published benchmark may phrase items oddly
    text = "\n".join(report.warnings)
    assert "items.jsonl:1: question: asks nothing" in text
    assert "items.jsonl:2: options: option texts are option letters ('A', 'B', 'C')" in text
    assert "all 6 single-answer choice items are answered A" in text


def test_demo_says_honestly_that_nothing_was_kept(tmp_path: Path, data_dir: Path,
                                                  capsys) -> None:
    """The demo's caption step, its generator replying as SmolLM2-135M did (prose once, and
    options that are their own letters): no garbage shown, and one line that says why."""
    from rich.console import Console

    from medvqa.cli._demo import _captions_step

    mapping = json.loads((data_dir / "pathmmu_socialpath" / "socialpath_mapping.json")
                         .read_text("utf-8"))
    first = next(r for r in mapping["test_tiny"] if r.get("explanation"))["explanation"]

    def smollm2(system: str, prompt: str) -> str:
        if first in prompt:  # prose, twice: no JSON
            return "The image shows a tissue section stained with H&E, and the answer is"
        return json.dumps({"question_type": "single", "question": "What is it?",
                           "options": {"A": "A", "B": "B", "C": "C", "D": "D"},
                           "answer": "A", "explanation": "Because it is A."})

    with ScriptedServer(smollm2) as srv:
        def step(title: str, args: list[str]) -> None:
            args = [srv.spec() if a == "smollm2" else a for a in args]
            with pytest.raises(SystemExit) as done:
                main(args)
            assert done.value.code == 0

        console = Console(width=300, force_terminal=False)
        bench = _captions_step(step, tmp_path, data_dir, 0, console)
    assert bench is None
    out = " ".join(capsys.readouterr().out.split())
    assert "captions: kept 0 of 6: degenerate options 5, no JSON 1 — SmolLM2-135M" in out
