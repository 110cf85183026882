"""The optional failure-mode judge end to end: a real run of real lung tiles over a loopback
chat server, judged by a second loopback server that answers judge prompts deterministically
through the ``openai:`` backend."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scoring_cli import medvqa

from medvqa.errors import BadInputError
from medvqa.models import LLMSettings, ModelConfig
from medvqa.report._render import write_report
from medvqa.run import RunConfig, run_benchmark
from medvqa.schema import Benchmark, CreatedWith, Item, write_json, write_jsonl
from medvqa.score import ScoreConfig, score_run
from medvqa.score._judge import round_robin
from medvqa.score._judge_config import JUDGE_MAX_TOKENS, JUDGE_TIMEOUT_S, JudgeConfig
from medvqa.score._judge_prompt import (
    UNCLASSIFIED,
    load_judge_prompt,
    parse_verdict,
    render_user,
)
from medvqa.store import ImageStore
from medvqa.testing import ChatServer

REPO = Path(__file__).resolve().parents[2]
LUNG = REPO / "data" / "lc25000_lung_224" / "lung_image_sets"
LABELS = {"lung_aca": "adenocarcinoma", "lung_n": "benign", "lung_scc": "squamous cell carcinoma"}
OPTIONS = {"A": "adenocarcinoma", "B": "benign", "C": "squamous cell carcinoma"}
N = 12
PROMPT = load_judge_prompt()


def build(root: Path) -> Path:
    """Twelve real tiles, round robin over the three classes."""
    store, items = ImageStore(root), []
    files = {k: sorted((LUNG / k).glob("*.jpeg")) for k in LABELS}
    for i in range(N):
        cls = list(LABELS)[i % 3]
        letter = next(k for k, v in OPTIONS.items() if v == LABELS[cls])
        items.append(Item(id=f"t{i:02d}", images=[store.add_file(files[cls][i // 3])],
                          question=f"[t{i:02d}] Which tissue does this H&E tile show?",
                          options=dict(OPTIONS), answer=letter, question_type="single",
                          category=cls, case_id=f"c{i}"))
    sha = write_jsonl(root / "items.jsonl", items)
    write_json(root / "benchmark.json", Benchmark(name="judge", items_sha256=sha,
                                                  created_with=CreatedWith(tool_version="t")))
    return root


def model_reply(prompt: str, body: dict) -> str:
    """The answering model: a refusal, an unreadable reply, an explained and a bare "A"."""
    i = int(re.search(r"\[t(\d+)\]", prompt).group(1))
    if i == 1:
        return "I'm sorry, I cannot determine this."
    if i == 4:
        return "Hmm, interesting slide."
    if i % 2:
        return "A. The glands look malignant because the nuclei are crowded."
    return "A"


def judge_reply(prompt: str, body: dict) -> str:
    """The judge: E3/hallucination for explained answers, E5/guess for bare ones, prose for
    the unreadable reply (which must be counted unclassified)."""
    replied = prompt.split("The model replied: ", 1)[1].split("\n", 1)[0]
    if "interesting" in replied:
        return "I would say E6, lack of knowledge."
    if "because" in replied:
        return '{"lmod": "E3", "mira": "hallucination"}'
    return '```json\n{"lmod": "Assertion", "mira": "guess"}\n```'


# Failures per condition: items 1..11 except the class-A (right) ones 0, 3, 6, 9 are wrong;
# item 1 refuses (decided by the rules), so 2, 4, 5, 7, 8, 10, 11 are candidates.
CANDIDATES = [2, 4, 5, 7, 8, 10, 11]
EXPLAINED = [i for i in CANDIDATES if i % 2 and i != 1]   # 5, 7, 11 -> E3
BARE = [i for i in CANDIDATES if i % 2 == 0 and i != 4]    # 2, 8, 10 -> E5


def _judge(spec: str, **kw: object) -> LLMSettings:
    """The judge's LLM settings with its defaults, as ``medvqa score --judge`` builds them."""
    kw = {"max_tokens": JUDGE_MAX_TOKENS, "timeout_s": JUDGE_TIMEOUT_S, **kw}
    return LLMSettings(spec, **kw)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> tuple[Path, Path]:
    """BENCH/ and an unscored RUN/ (clean + blind), answered over HTTP."""
    root = tmp_path_factory.mktemp("judge")
    bench = build(root / "bench")
    with ChatServer(reply=model_reply) as server:
        run_benchmark(RunConfig(bench, root / "run", ModelConfig(f"openai:vlm@{server.url}"),
                                conditions=["clean", "blind"], concurrency=4))
    return bench, root / "run"


@pytest.fixture(scope="module")
def judged(pristine, tmp_path_factory):
    """A copy of the run scored with the judge; the judge server is kept for its counts."""
    bench, run = pristine
    copy = tmp_path_factory.mktemp("judged") / "run"
    shutil.copytree(run, copy)
    with ChatServer(reply=judge_reply) as server:
        spec = f"openai:judge@{server.url}"
        score_run(ScoreConfig(bench, copy, resamples=199, judge=JudgeConfig(_judge(spec))))
        yield bench, copy, server, spec


def test_judged_categories_land_in_metrics_json(judged) -> None:
    _, run, _, spec = judged
    modes = json.loads((run / "metrics.json").read_text())["failure_modes"]
    for cond in ("clean", "blind"):
        j = modes[cond]["judge"]
        assert j["model"] == spec and j["candidates"] == len(CANDIDATES) == j["asked"]
        assert modes[cond]["judge_candidates"] == len(CANDIDATES)
        assert j["lmod"]["E3"] == len(EXPLAINED) and j["lmod"]["E5"] == len(BARE)
        assert j["mira"]["hallucination"] == len(EXPLAINED) and j["mira"]["guess"] == len(BARE)
        # Rule tags are untouched by the judge: the refusal is still a rule-based refusal.
        assert modes[cond]["mira"]["refusal"] == 1


def test_unparseable_judge_reply_is_unclassified(judged) -> None:
    _, run, _, _ = judged
    j = json.loads((run / "metrics.json").read_text())["failure_modes"]["clean"]["judge"]
    assert j["lmod"]["unclassified"] == 1 and j["mira"]["unclassified"] == 1
    assert j["lmod"]["E6"] == 0 and j["errors"] == 0
    verdicts = [json.loads(x) for x in (run / "failure_judge.jsonl").read_text().splitlines()]
    t04 = [v for v in verdicts if v["item_id"] == "t04"]
    assert {v["lmod"] for v in t04} == {UNCLASSIFIED} and "E6" in t04[0]["reply"]


def test_prompt_and_judge_are_recorded_in_run_json_and_metrics(judged) -> None:
    _, run, _, spec = judged
    info = json.loads((run / "run.json").read_text())["failure_judge"]
    assert info["model"] == spec and info["prompt"] == PROMPT.text
    assert info["prompt_sha256"] == PROMPT.sha256 and info["prompt_version"] == PROMPT.version
    assert json.loads((run / "metrics.json").read_text())["failure_judge"] == info


def user_text(body: dict) -> str:
    return "".join(p.get("text", "") for p in body["messages"][-1]["content"])


def test_judge_request_carries_question_options_gold_reply_and_schema(judged) -> None:
    _, _, server, _ = judged
    body = next(b for b in server.bodies if "[t05]" in user_text(b))
    assert body["messages"][0] == {"role": "system", "content": PROMPT.system}
    user = user_text(body)
    assert "C. squamous cell carcinoma" in user and "Correct answer: C. squamous" in user
    assert "nuclei are crowded" in user
    assert body["response_format"]["json_schema"]["schema"]["properties"]["lmod"]["enum"] == \
        list(PROMPT.lmod)
    blind = [user_text(b) for b in server.bodies]
    assert any("a blank image instead of the real one" in u for u in blind)


def test_rerun_sends_nothing_new_and_is_byte_identical(judged) -> None:
    bench, run, server, spec = judged
    sent = len(server.bodies)
    first = (run / "metrics.json").read_bytes()
    score_run(ScoreConfig(bench, run, resamples=199, judge=JudgeConfig(_judge(spec))))
    assert len(server.bodies) == sent == 2 * len(CANDIDATES)
    assert (run / "metrics.json").read_bytes() == first


def test_max_items_bounds_requests_round_robin_over_conditions(pristine, tmp_path) -> None:
    bench, run = pristine
    shutil.copytree(run, tmp_path / "run")
    with ChatServer(reply=judge_reply) as server:
        medvqa("score", str(bench), str(tmp_path / "run"), "--resamples", "99",
               "--judge", f"openai:judge@{server.url}", "--judge-max-items", "3")
        assert len(server.bodies) == 3
    modes = json.loads((tmp_path / "run" / "metrics.json").read_text())["failure_modes"]
    assert modes["clean"]["judge"]["asked"] == 2 and modes["blind"]["judge"]["asked"] == 1
    assert modes["blind"]["judge"]["not_asked"] == len(CANDIDATES) - 1


def test_failed_judge_requests_are_errors_not_labels(pristine, tmp_path) -> None:
    bench, run = pristine
    shutil.copytree(run, tmp_path / "run")
    with ChatServer(reply=judge_reply, fail={"interesting slide": [400, 400]}) as server:
        score_run(ScoreConfig(bench, tmp_path / "run", resamples=99,
                              judge=JudgeConfig(_judge(f"openai:judge@{server.url}"))))
    j = json.loads((tmp_path / "run" / "metrics.json").read_text())["failure_modes"]["clean"]
    assert j["judge"]["errors"] == 1 and j["judge"]["lmod"]["unclassified"] == 0
    assert sum(j["judge"]["lmod"].values()) == len(CANDIDATES) - 1


def test_images_go_to_a_judge_that_reads_them_only_when_asked(pristine, tmp_path) -> None:
    bench, run = pristine
    shutil.copytree(run, tmp_path / "run")
    with ChatServer(reply=judge_reply) as server:
        score_run(ScoreConfig(bench, tmp_path / "run", resamples=99, judge=JudgeConfig(
            _judge(f"openai:judge@{server.url}"), max_items=2, images=True)))
        assert len(server.images) == 2 and server.images[0].startswith("data:image/")
    info = json.loads((tmp_path / "run" / "run.json").read_text())["failure_judge"]
    assert info["images"] and info["max_items"] == 2


def test_unreachable_judge_is_one_clear_error(pristine, tmp_path) -> None:
    bench, run = pristine
    shutil.copytree(run, tmp_path / "run")
    with pytest.raises(BadInputError, match="unreachable"):
        score_run(ScoreConfig(bench, tmp_path / "run", resamples=99, judge=JudgeConfig(
            _judge("openai:judge@http://127.0.0.1:9/v1", max_retries=0, timeout_s=5))))


def test_report_shows_judge_counts_apart_from_rule_tags(judged, tmp_path) -> None:
    _, run, _, spec = judged
    html, md = write_report([run], tmp_path / "report.html")
    page = html.read_text()
    assert "LLM judge" in page and "E3 (judge)" in page and PROMPT.sha256[:12] in page
    row = next(line for line in md.read_text().splitlines() if line.startswith("| ") and
               "| clean |" in line and "asked" in line)
    assert "asked 7 of 7" in row and "E3 3" in row and "unclassified 1" in row


def test_bad_prompt_file_names_file_and_key(tmp_path) -> None:
    bad = tmp_path / "judge.yaml"
    bad.write_text("version: 1\nsystem: x\nuser: '{question}'\nlmod: {}\n")
    with pytest.raises(BadInputError, match=r"judge\.yaml.*'mira'"):
        load_judge_prompt(bad)


def test_round_robin_takes_every_condition_in_turn() -> None:
    it = Item(id="x", question="q", options={}, answer="a", question_type="open")
    from medvqa.score._judge import Candidate

    by = {"clean": [Candidate(it, "clean", "c")] * 3, "blind": [Candidate(it, "blind", "b")]}
    assert [c.condition for c in round_robin(by, None)] == ["clean", "blind", "clean", "clean"]
    assert round_robin(by, 0) == []


def test_long_replies_are_cut_before_reaching_the_judge() -> None:
    it = Item(id="x", question="q?", options=dict(OPTIONS), answer="B", question_type="single")
    text = render_user(PROMPT, it, "corrupt:jpeg@3", "A " + "word " * 2000)
    assert "[… cut]" in text and len(text) < 4000 and "(corrupt:jpeg@3)" in text


@pytest.mark.parametrize(("reply", "expected"), [
    ('{"lmod": "E6", "mira": "missing visual evidence"}', ("E6", "missing visual evidence")),
    ('{"lmod": "failure to abstain", "mira": "REFUSAL"}', ("E2", "refusal")),
    ('{"lmod": "E7", "mira": "guess"}', (UNCLASSIFIED, "guess")),
    ('{"lmod": 3, "mira": ["guess"]}', (UNCLASSIFIED, UNCLASSIFIED)),
    ('Sure: {"lmod": "E1", "mira": "guess"}', (UNCLASSIFIED, UNCLASSIFIED)),
    ('["E1", "guess"]', (UNCLASSIFIED, UNCLASSIFIED)),
    ("", (UNCLASSIFIED, UNCLASSIFIED)),
])
def test_parse_verdict_is_strict(reply: str, expected: tuple[str, str]) -> None:
    assert parse_verdict(reply, PROMPT) == expected


@given(st.text(max_size=300))
def test_any_reply_parses_to_an_allowed_label(text: str) -> None:
    lmod, mira = parse_verdict(text, PROMPT)
    assert lmod in {*PROMPT.lmod, UNCLASSIFIED} and mira in {*PROMPT.mira, UNCLASSIFIED}


@given(st.sampled_from(sorted(PROMPT.lmod)), st.sampled_from(sorted(PROMPT.mira)))
def test_every_allowed_pair_round_trips(code: str, name: str) -> None:
    assert parse_verdict(json.dumps({"lmod": code, "mira": name}), PROMPT) == (code, name)


@pytest.mark.slow
def test_smollm2_judge_answers_inside_the_allowed_set(pristine, tmp_path) -> None:
    """The real SmolLM2 with JSON-schema constrained decoding: every label is an allowed one."""
    bench, run = pristine
    shutil.copytree(run, tmp_path / "run")
    score_run(ScoreConfig(bench, tmp_path / "run", resamples=99,
                          judge=JudgeConfig(_judge("smollm2", batch_size=1), max_items=1)))
    modes = json.loads((tmp_path / "run" / "metrics.json").read_text())["failure_modes"]
    asked = [modes[c]["judge"] for c in ("clean", "blind")]
    assert sum(j["asked"] for j in asked) == 1 and all(j["errors"] == 0 for j in asked)
    assert all(j["lmod"][UNCLASSIFIED] == 0 and j["mira"][UNCLASSIFIED] == 0 for j in asked)
    info = json.loads((tmp_path / "run" / "run.json").read_text())["failure_judge"]
    assert info["constrained"] and info["model"] == "smollm2" and not info["images"]
