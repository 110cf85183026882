"""``medvqa score --extract`` and ``--styles``: how much of a score is the reader, per condition.

A real benchmark (lung tiles), a run whose responses the test writes (clear letters, prose the
rules cannot read, hedges, refusals, a negation), a scripted extractor behind a real loopback
chat server, and the real command line in-process.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _lung_bench import make_bench
from _medvqa_cli import cli

from medvqa.models import ModelConfig
from medvqa.report import write_report
from medvqa.run import RunConfig, run_benchmark
from medvqa.schema import Prediction, read_jsonl
from medvqa.testing import ChatServer

#: Responses by kind: each names the option by its index (0–2) where it names one.
CLEAR = "The answer is {L}."
PROSE = "Looking at the tissue, it is most consistent with entry number {i} in the list."
HEDGE = "{T} cannot be excluded."
REFUSAL = "I cannot see the image, so I cannot tell."


def _letter(i: int) -> str:
    return "ABCDEFG"[i]


def _reader(prompt: str, body: dict) -> str:
    """A scripted extractor: reads 'entry number N' in the quoted response; else NONE."""
    quoted = prompt.split('"""')[1] if '"""' in prompt else prompt
    for i in range(5):
        if f"entry number {i + 1}" in quoted:
            return json.dumps({"answer": _letter(i)})
    if "strange" in quoted:
        return "Z"  # outside the constrained set: an error, never a choice
    return json.dumps({"answer": "NONE"})


@pytest.fixture
def run_with_prose(tmp_path: Path) -> tuple[Path, Path, dict[str, str]]:
    """A benchmark, a run of it, and its responses rewritten by item: kind → item id."""
    bench = make_bench(tmp_path / "bench", 12)
    run = tmp_path / "run"
    run_benchmark(RunConfig(bench_dir=bench, out_dir=run, model=ModelConfig(spec="random")))
    items = {json.loads(line)["id"]: json.loads(line)
             for line in (bench / "items.jsonl").read_text().splitlines()}
    preds = list(read_jsonl(run / "predictions.jsonl", Prediction))
    kinds: dict[str, str] = {}
    for n, pred in enumerate(preds):
        item = items[pred.item_id]
        letters = sorted(item["options"])
        gold = letters.index(item["answer"])
        kind = ("clear", "prose", "hedge", "refusal", "strange", "prose")[n % 6]
        text = {"clear": CLEAR.format(L=item["answer"]),
                "prose": PROSE.format(i=gold + 1),
                "hedge": HEDGE.format(T=item["options"][letters[(gold + 1) % len(letters)]]),
                "refusal": REFUSAL,
                "strange": "A strange reply with nothing to read."}[kind]
        pred.response = text
        kinds[pred.item_id] = kind
    (run / "predictions.jsonl").write_text(
        "".join(p.model_dump_json() + "\n" for p in preds))
    return bench, run, kinds


def test_extractor_rescues_only_prose_and_figures_sit_side_by_side(
        run_with_prose: tuple[Path, Path, dict[str, str]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    bench, run, kinds = run_with_prose
    with ChatServer(reply=_reader) as server:
        code = cli("score", str(bench), str(run), "--resamples", "99", "--extract",
                   f"openai:reader@{server.url}", "--styles", "strict,mammovqa")
        asked = [b["messages"][-1]["content"] for b in server.bodies]
    out = capsys.readouterr()
    assert code == 0, out.err
    # Only what the rules could not read was asked: never the hedge, the refusal, a letter.
    asked_text = json.dumps(asked)
    assert "cannot be excluded" not in asked_text and "cannot see" not in asked_text
    assert len(asked) == sum(k in {"prose", "strange"} for k in kinds.values())
    metrics = json.loads((run / "metrics.json").read_text())
    clean = metrics["reading"]["conditions"]["clean"]
    n_prose = sum(k == "prose" for k in kinds.values())
    n_clear = sum(k == "clear" for k in kinds.values())
    assert clean["n"] == len(kinds)
    assert clean["rules"]["accuracy"] == pytest.approx(round(n_clear / len(kinds), 6))
    assert clean["extraction"]["rescued"] == n_prose
    assert clean["extraction"]["accuracy"] == pytest.approx(
        round((n_clear + n_prose) / len(kinds), 6))
    assert clean["extraction"]["errors"] == sum(k == "strange" for k in kinds.values())
    # The run's own figures are those with extraction.
    assert metrics["conditions"]["clean"]["overall"]["accuracy"]["value"] == \
        clean["extraction"]["accuracy"]
    assert metrics["seeds"] == {"bootstrap": 0, "parser": 42, "conditions": 0}
    # Every rescued prediction says who read it; nothing else does.
    scored = list(read_jsonl(run / "predictions.jsonl", Prediction))
    marked = {p.item_id for p in scored if p.extracted_by}
    assert marked == {i for i, k in kinds.items() if k == "prose"}
    by = next(p.extracted_by for p in scored if p.extracted_by)
    assert by["model"].startswith("openai:reader@") and len(by["prompt_sha256"]) == 64
    assert all(p.invalid for p in scored if kinds[p.item_id] in {"hedge", "refusal", "strange"})
    decisions = [json.loads(x) for x in (run / "extractions.jsonl").read_text().splitlines()]
    assert {d["status"] for d in decisions} == {"rescued", "error"}
    # The published scorer beside strict: it reads the hedge's option name as a choice.
    mammo = clean["styles"]["mammovqa"]
    lines = (run / "style_disagreements.jsonl").read_text().splitlines()
    assert mammo["disagree"] == len(lines) > 0
    assert {json.loads(x)["item_id"] for x in lines} >= {
        i for i, k in kinds.items() if k == "hedge"}
    assert "how much is the reader" in out.out
    html, md = write_report([run], tmp_path / "report.html")
    page = html.read_text()
    assert "How much is the reader" in page and "style_disagreements.jsonl" in page
    assert "answer extractor" in page  # the methods sentence
    assert "mammovqa: read differently" in md.read_text()


def test_rescoring_without_the_reader_forgets_it(
        run_with_prose: tuple[Path, Path, dict[str, str]]) -> None:
    bench, run, _ = run_with_prose
    with ChatServer(reply=_reader) as server:
        assert cli("score", str(bench), str(run), "--resamples", "99", "--extract",
                   f"openai:reader@{server.url}", "--styles", "strict,pathmmu") == 0
    assert cli("score", str(bench), str(run), "--resamples", "99") == 0
    metrics = json.loads((run / "metrics.json").read_text())
    assert metrics["reading"] is None
    assert not any(p.extracted_by for p in read_jsonl(run / "predictions.jsonl", Prediction))
    assert not (run / "extractions.jsonl").exists()
    assert not (run / "style_disagreements.jsonl").exists()


def test_a_cached_extractor_is_not_asked_again(
        run_with_prose: tuple[Path, Path, dict[str, str]]) -> None:
    bench, run, _ = run_with_prose
    with ChatServer(reply=_reader) as server:
        spec = f"openai:reader@{server.url}"
        assert cli("score", str(bench), str(run), "--resamples", "99", "--extract", spec) == 0
        first = len(server.bodies)
        before = (run / "metrics.json").read_bytes()
        assert cli("score", str(bench), str(run), "--resamples", "99", "--extract", spec) == 0
        assert len(server.bodies) == first > 0
    assert (run / "metrics.json").read_bytes() == before


def test_an_unreachable_extractor_is_one_line_before_anything_is_scored(
        run_with_prose: tuple[Path, Path, dict[str, str]],
        capsys: pytest.CaptureFixture[str]) -> None:
    bench, run, _ = run_with_prose
    before = (run / "predictions.jsonl").read_bytes()
    with ChatServer() as server:
        url = server.url  # a port that was just closed: nothing listens there now
    code = cli("score", str(bench), str(run), "--resamples", "99", "--extract",
               f"openai:reader@{url}")
    err = capsys.readouterr().err
    assert code == 2, err
    assert "unreachable" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    assert (run / "predictions.jsonl").read_bytes() == before
    assert not (run / "metrics.json").exists()


def test_styles_must_name_known_and_distinct_styles(
        run_with_prose: tuple[Path, Path, dict[str, str]],
        capsys: pytest.CaptureFixture[str]) -> None:
    bench, run, _ = run_with_prose
    assert cli("score", str(bench), str(run), "--styles", "strict,strict") == 1
    assert "is the scoring style" in capsys.readouterr().err
    assert cli("score", str(bench), str(run), "--style", "pathmmu", "--styles",
               "strict,mammovqa") == 1
    assert "give one or the other" in capsys.readouterr().err


def test_replies_outside_the_set_are_errors_and_the_rules_figures_stand(
        run_with_prose: tuple[Path, Path, dict[str, str]],
        capsys: pytest.CaptureFixture[str]) -> None:
    bench, run, kinds = run_with_prose
    with ChatServer(reply=lambda prompt, body: "I would say B, probably.") as server:
        code = cli("score", str(bench), str(run), "--resamples", "99", "--extract",
                   f"openai:reader@{server.url}")
    err = capsys.readouterr().err
    assert code == 0, err
    assert "requests failed" in err and "the figures are the rules' alone" in err
    clean = json.loads((run / "metrics.json").read_text())["reading"]["conditions"]["clean"]
    assert clean["extraction"]["rescued"] == 0
    assert clean["extraction"]["errors"] == clean["extraction"]["asked"] > 0
    assert clean["extraction"]["accuracy"] == clean["rules"]["accuracy"]
    assert not any(p.extracted_by for p in read_jsonl(run / "predictions.jsonl", Prediction))

