"""Round trip through Inspect AI: BENCH/ → medvqa's Inspect task (loaded and run by inspect_ai
itself against the loopback chat server) → the .eval log → import-predictions → medvqa score →
the same accuracy as Inspect where the parsers agree, disagreements listed."""

from __future__ import annotations

import json
import zlib
from pathlib import Path

import pytest

pytest.importorskip("inspect_ai")

from _medvqa_cli import cli  # noqa: E402

from medvqa.interop import agreement  # noqa: E402
from medvqa.schema import Item, read_jsonl  # noqa: E402
from medvqa.testing import ChatServer  # noqa: E402


def style(item_id: str) -> int:
    """Which reply an item gets (fixed, so the expected disagreements are known)."""
    return zlib.crc32(item_id.encode()) % 4


def make_reply(items: list[Item]):  # noqa: ANN201
    by_question = {i.question: i for i in items}

    def reply(prompt: str, body: dict) -> str:
        item = next(i for q, i in by_question.items() if q in prompt)
        k = style(item.id)
        if item.options:
            gold = str(item.answer)
            wrong = next(x for x in item.options if x != gold)
            # 0: Inspect's format, right; 1: its format, wrong; 2: bare letter (Inspect's
            # choice scorer wants "ANSWER: X"); 3: no answer at all.
            return [f"ANSWER: {gold}", f"ANSWER: {wrong}", gold, "I cannot tell."][k]
        gold = str(item.answer)
        return [gold, "no idea", gold.upper(), f"{gold}."][k]

    return reply


def test_inspect_task_round_trip(bench: Path, tmp_path: Path,
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from inspect_ai import eval as inspect_eval
    from inspect_ai.log import read_eval_log

    from medvqa.interop.inspect import medvqa_task

    monkeypatch.setenv("OPENAI_API_KEY", "local-test-key")
    items = [i for i in read_jsonl(bench / "items.jsonl", Item) if i.split == "test"]
    with ChatServer(reply=make_reply(items)) as server:
        logs = inspect_eval(medvqa_task(bench=str(bench)), model="openai/test",
                            model_base_url=server.url, model_args={"responses_api": False},
                            log_dir=str(tmp_path / "logs"), display="none")
        sent = server.bodies
    log = logs[0]
    assert log.status == "success" and len(log.samples or []) == len(items)
    # Inspect rendered the choice items with its own multiple-choice solver, images first.
    first = sent[0]["messages"][-1]["content"]
    assert first[0]["type"] == "image_url" and first[0]["image_url"]["url"].startswith("data:")
    inspect_acc = log.results.scores[0].metrics["accuracy"].value

    path = Path(log.location)
    run = tmp_path / "run"
    assert cli("import-predictions", "inspect", str(path), "--bench", str(bench),
               "-o", str(run)) == 0
    info = json.loads((run / "run.json").read_text())
    assert info["model_info"]["imported_from"]["format"] == "inspect"
    assert info["counts"]["unmatched"] == 0 and info["model"] == "inspect:openai/test"
    assert cli("score", str(bench), str(run), "--resamples", "200") == 0
    metrics = json.loads((run / "metrics.json").read_text())
    assert metrics["conditions"]["clean"]["overall"]["n"] == len(items)

    res = agreement(run)
    assert res.n == len(items) and res.tool_accuracy == pytest.approx(inspect_acc)
    assert res.medvqa_accuracy == pytest.approx(
        metrics["conditions"]["clean"]["overall"]["accuracy"]["value"])
    diff = {d.item_id for d in res.disagreements}
    # Where the reply is in the form both parsers read (style 0, 1; open style 0, 1), they agree.
    assert all(style(i) in {2, 3} for i in diff), res.disagreements
    # The bare letter is right for medvqa's strict parser, not for Inspect's choice scorer.
    bare = {i.id for i in items if i.options and style(i.id) == 2}
    assert bare and bare <= diff
    assert all(d.medvqa_correct and not d.tool_correct for d in res.disagreements
               if d.item_id in bare)
    # Accuracies differ exactly by the disagreements.
    delta = sum((1 if d.medvqa_correct else -1) for d in res.disagreements) / res.n
    assert res.medvqa_accuracy - res.tool_accuracy == pytest.approx(delta)
    read = read_eval_log(str(path))
    assert {s.id for s in read.samples} == {i.id for i in items}


def test_each_question_type_gets_its_solver_and_scorer(tmp_path: Path, bench_factory,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Right answers in each type's own form score 1.0 in Inspect; wrong ones 0.0."""
    from inspect_ai import eval as inspect_eval

    from medvqa.interop.inspect import bench_dataset, medvqa_task
    from medvqa.schema import write_jsonl

    bench = bench_factory(tmp_path / "b", n=4)
    base = list(read_jsonl(bench / "items.jsonl", Item))
    img = base[0].images
    items = [
        base[0].model_copy(update={"id": "single", "split": "test"}),
        Item(id="multi", images=img, question="[multi] Which apply?",
             options={"A": "x", "B": "y", "C": "z"}, answer=["A", "C"], question_type="multi"),
        Item(id="region", images=img, question="[region] Which regions show a mass?",
             options={}, answer=["3", "7"], question_type="region"),
        Item(id="open", images=img, question="[open] Which organ?", options={},
             answer="lung", question_type="open"),
    ]
    write_jsonl(bench / "items.jsonl", items)
    samples = bench_dataset(bench)
    assert [s.choices for s in samples] == [list(items[0].options.values()), ["x", "y", "z"],
                                            None, None]
    wrong_letter = next(k for k in items[0].options if k != items[0].answer)
    replies = {
        "C": {"single": f"ANSWER: {items[0].answer}", "multi": "ANSWER: A, C",
              "region": "Regions 3, 7", "open": "Lung"},
        "I": {"single": f"ANSWER: {wrong_letter}", "multi": "ANSWER: A",
              "region": "Regions 3, 7, 9", "open": "liver"},
    }
    monkeypatch.setenv("OPENAI_API_KEY", "local-test-key")
    for verdict, said in replies.items():

        def reply(prompt: str, body: dict, said: dict = said) -> str:
            return next(v for k, v in said.items() if f"[{k}]" in prompt
                        or (k == "single" and "[lung" in prompt))

        with ChatServer(reply=reply) as server:
            log = inspect_eval(medvqa_task(bench=str(bench)), model="openai/test",
                               model_base_url=server.url, model_args={"responses_api": False},
                               log_dir=str(tmp_path / "logs"), display="none")[0]
        scores = {s.id: next(iter(s.scores.values())).value for s in log.samples}
        assert scores == dict.fromkeys(said, verdict)
