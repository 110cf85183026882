"""``medvqa build reports`` on the shipped FICTIONAL reports through a real scripted HTTP server."""

from __future__ import annotations

import json
import re
import socket
from pathlib import Path

import pytest
import yaml
from _scripted import ScriptedServer

from medvqa.benchmark import validate_benchmark
from medvqa.curate.llm import (
    ReportsConfig,
    build_reports,
    induce_schema,
    load_schema,
    report_quotes,
    write_schema,
)
from medvqa.curate.llm._texts import read_texts, resource_path
from medvqa.errors import BadInputError
from medvqa.models import LLMSettings
from medvqa.schema import Item, read_jsonl
from medvqa.sources import Problems

LIVER = resource_path("reports", "liver_lirads.jsonl")
SCHEMA = load_schema("lirads")


def _report(prompt: str) -> str:
    return prompt.split("Report:\n", 1)[1].rsplit("\nJSON", 1)[0].split("\nWrite one")[0]


def _sentences(text: str) -> list[str]:
    return [
        s.strip() for s in re.split(r"(?<=\.)\s+|\n|FINDINGS: |IMPRESSION: ", text) if s.strip()
    ]


def _extract(report: str) -> dict:
    """A rule-based 'model': quotes the sentence that mentions each field."""
    out = {}
    for f in SCHEMA.fields:
        needles = f.terms if f.kind == "binary" else f.values
        hit = next(
            ((s, n) for s in _sentences(report) for n in needles if n.lower() in s.lower()), None
        )
        if hit is None:
            out[f.name] = {"value": "not stated", "evidence": ""}
        elif f.kind == "binary":
            neg = re.search(r"\b(no|without)\b", hit[0].lower())
            out[f.name] = {"value": "no" if neg else "yes", "evidence": hit[0]}
        else:
            out[f.name] = {"value": hit[1], "evidence": hit[0]}
    if "liv-02" in report or "segment VI shows" in report:
        out["segment"] = {"value": "segment VIII", "evidence": "observation in segment VIII"}
    return out


def _mcq(report: str) -> dict:
    impression = report.split("IMPRESSION: ", 1)[1].rstrip(".")
    evidence = f"IMPRESSION: {impression}" if "LR-3" not in impression else "LR-5 observation"
    return {
        "question": "What does the impression conclude?",
        "options": {"A": impression, "B": "No focal lesion", "C": "Simple cyst", "D": "Hemangioma"},
        "answer": "A",
        "evidence": evidence,
    }


def _reply(system: str, prompt: str) -> str:
    if system.startswith("You extract"):
        return json.dumps(_extract(_report(prompt)))
    if system.startswith("You write multiple-choice"):
        return json.dumps(_mcq(_report(prompt)))
    if system.startswith("You design"):
        return json.dumps(
            {
                "fields": [
                    {
                        "name": "Washout",
                        "question": "Is there washout?",
                        "kind": "binary",
                        "values": ["yes", "no"],
                    },
                    {"name": "size", "question": "How big?", "kind": "multi", "values": ["small"]},
                ]
            }
        )
    return "?"


@pytest.fixture()
def server():  # type: ignore[no-untyped-def]
    with ScriptedServer(_reply) as srv:
        yield srv


def _build(tmp_path: Path, spec: str, **kw) -> tuple:  # type: ignore[no-untyped-def]
    gen = LLMSettings(model=spec, tries=1, local_only=kw.pop("local_only", False))
    res = build_reports(
        ReportsConfig(
            reports=LIVER,
            out=tmp_path / "bench",
            schema="lirads",
            generator=gen,
            seed=kw.pop("seed", 0),
            **kw,
        )
    )
    return res, list(read_jsonl(res.out / "items.jsonl", Item))


def test_fields_become_yes_no_and_multi_value_questions(
    tmp_path: Path, server: ScriptedServer
) -> None:
    res, items = _build(tmp_path, server.spec(), mcq=False)
    assert validate_benchmark(res.out).ok
    by_id = {i.id: i for i in items}
    aphe = by_id["liv-01-arterial_phase_hyperenhancement"]
    assert aphe.question_type == "yesno" and aphe.options[aphe.answer] == "Yes"
    assert by_id["liv-03-washout"].options[by_id["liv-03-washout"].answer] == "No"
    cat = by_id["liv-01-lirads_category"]
    assert cat.options[cat.answer] == "LR-5" and 3 <= len(cat.options) <= 5
    seen = {"LR-5", "LR-4", "LR-3", "LR-TIV"}  # values extracted across the four reports
    assert set(cat.options.values()) <= seen
    assert cat.meta["provenance"]["distractor_source"] == "dataset"
    assert cat.meta["provenance"]["grounding_span"] == "LR-5 observation in segment VIII."


def test_ungrounded_value_is_dropped_and_counted(tmp_path: Path, server: ScriptedServer) -> None:
    res, items = _build(tmp_path, server.spec(), mcq=False)
    assert "liv-02-segment" not in {i.id for i in items}
    assert res.counts["dropped"]["extract:quote_not_in_report"] == 1
    dropped = [json.loads(x) for x in (res.out / "dropped.jsonl").read_text().splitlines()]
    assert any(d["key"] == "liv-02-segment" and "not in the report" in d["detail"] for d in dropped)


def test_report_mcqs_need_a_grounded_answer(tmp_path: Path, server: ScriptedServer) -> None:
    res, items = _build(tmp_path, server.spec())
    mcqs = [i for i in items if i.category == "report-derived"]
    assert sorted(i.id for i in mcqs) == ["liv-01-mcq", "liv-02-mcq", "liv-04-mcq"]
    assert res.counts["dropped"]["question:ungrounded"] == 1  # liv-03 quoted text not in it
    assert mcqs[0].meta["provenance"]["grounding_span"].startswith("IMPRESSION:")


def test_distractors_are_seeded(tmp_path: Path, server: ScriptedServer) -> None:
    a = _build(tmp_path / "a", server.spec(), mcq=False)[1]
    b = _build(tmp_path / "b", server.spec(), mcq=False)[1]
    c = _build(tmp_path / "c", server.spec(), mcq=False, seed=7)[1]
    assert [i.options for i in a] == [i.options for i in b]
    assert [i.options for i in a] != [i.options for i in c]


def test_induced_schema_is_written_for_the_clinician(
    tmp_path: Path, server: ScriptedServer
) -> None:
    reports = read_texts(LIVER, "report", Problems())
    schema = induce_schema(LLMSettings(model=server.spec(), tries=1), reports, sample=2, seed=0)
    assert [f.name for f in schema.fields] == ["washout"]  # the 1-value multi field is dropped
    path = tmp_path / "schema.yaml"
    write_schema(schema, path)
    assert path.read_text().startswith("# Report schema proposed by an LLM. CHECKPOINT")
    assert load_schema(path).fields[0].terms == ["washout"]
    assert len(re.findall(r"Report \d+:", server.received[0].prompt)) == 2


def test_local_only_allows_a_server_on_127_0_0_1(tmp_path: Path, server: ScriptedServer) -> None:
    res, items = _build(tmp_path, server.spec(), local_only=True, mcq=False)
    assert items and server.received


def _non_loopback_ip() -> str | None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 9))  # UDP connect sends nothing; it picks an interface
            ip = s.getsockname()[0]
        except OSError:
            return None
    return None if ip.startswith("127.") or ip == "0.0.0.0" else ip


def test_local_only_refuses_a_non_loopback_endpoint_without_connecting(tmp_path: Path) -> None:
    ip = _non_loopback_ip()
    if ip is None:
        pytest.skip("this machine has no non-loopback IPv4 address")
    with socket.socket() as listener:
        listener.bind((ip, 0))
        listener.listen()
        listener.setblocking(False)
        spec = f"openai:m@http://{ip}:{listener.getsockname()[1]}/v1"
        with pytest.raises(BadInputError, match="--local-only: refusing"):
            _build(tmp_path, spec, local_only=True)
        with pytest.raises(BlockingIOError):
            listener.accept()  # no connection was ever attempted
    assert not (tmp_path / "bench").exists()


def test_presets_load() -> None:
    for name in ("lirads", "lungrads", "rano"):
        schema = load_schema(name)
        assert {f.kind for f in schema.fields} == {"binary", "multi"}
        assert yaml.safe_load(resource_path("schemas", f"{name}.yaml").read_text())["name"] == name


def test_value_with_the_wrong_polarity_is_dropped_and_counted(
    tmp_path: Path, server: ScriptedServer
) -> None:
    # The scripted 'model' calls liv-02's APHE "no" because its sentence contains "without";
    # the quote affirms APHE (only washout is negated), so the value is dropped.
    res, items = _build(tmp_path, server.spec(), mcq=False)
    ids = {i.id for i in items}
    assert "liv-02-arterial_phase_hyperenhancement" not in ids
    assert "liv-02-washout" in ids  # same sentence, negated term: grounded as "no"
    assert res.counts["dropped"]["extract:quote_polarity_mismatch"] == 1
    dropped = [json.loads(x) for x in (res.out / "dropped.jsonl").read_text().splitlines()]
    (d,) = [d for d in dropped if d["reason"] == "quote_polarity_mismatch"]
    assert d["key"] == "liv-02-arterial_phase_hyperenhancement" and "affirmed" in d["detail"]


def test_constrained_evidence_is_a_clause_of_the_batch_reports(
    tmp_path: Path, server: ScriptedServer
) -> None:
    gen = LLMSettings(model=server.spec(), tries=1, batch_size=2)
    build_reports(
        ReportsConfig(reports=LIVER, out=tmp_path / "b", schema="lirads", generator=gen, mcq=False)
    )
    texts = [r.text for r in read_texts(LIVER, "report", Problems())]
    enums = {}
    for rec in server.received:
        schema = rec.body["response_format"]["json_schema"]["schema"]
        (text,) = [t for t in texts if t in rec.prompt]
        enums[text] = schema["properties"]["washout"]["properties"]["evidence"]
    first = ["", *report_quotes(texts[0]), *report_quotes(texts[1])]
    assert enums[texts[0]]["enum"] == enums[texts[1]]["enum"] == first
    assert "No washout" in enums[texts[2]]["enum"] and "No washout" not in first
