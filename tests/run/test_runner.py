from __future__ import annotations

import json
from pathlib import Path

import pytest

from medvqa.errors import BadInputError
from medvqa.models import ModelConfig, ModelRequestError
from medvqa.run import RunConfig, run_benchmark
from medvqa.schema import Prediction, RunInfo, read_json, read_jsonl


def _config(bench: Path, out: Path, **kw) -> RunConfig:
    kw.setdefault("backoff_s", 0.001)
    return RunConfig(bench_dir=bench, out_dir=out, model=ModelConfig(spec="random"), **kw)


def _preds(out: Path) -> list[Prediction]:
    return list(read_jsonl(out / "predictions.jsonl", Prediction))


def test_end_to_end_writes_predictions_and_run_json(bench: Path, tmp_path: Path, scripted) -> None:
    backend = scripted()
    seen = []
    summary = run_benchmark(_config(bench, tmp_path / "run"), seen.append, backend=backend)
    assert summary.sent == 12 and summary.errors == 0 and summary.predictions == 12
    preds = _preds(tmp_path / "run")
    assert [p.item_id for p in preds] == [f"lung-{i:03d}" for i in range(12)]
    assert all(p.response == "A" and p.condition == "clean" for p in preds)
    assert backend.images_seen == 12
    info = read_json(tmp_path / "run" / "run.json", RunInfo)
    assert info.ended_at and info.counts["predictions"] == 12
    assert info.model == "scripted" and info.model_info == {"text_only": False}
    assert seen[-1].completed == 12 and seen[-1].total == 12


def test_text_only_backend_gets_no_images(bench: Path, tmp_path: Path, scripted) -> None:
    backend = scripted(text_only=True)
    run_benchmark(_config(bench, tmp_path / "run"), backend=backend)
    assert backend.images_seen == 0
    assert read_json(tmp_path / "run" / "run.json", RunInfo).model_info["text_only"] is True


def test_rerun_sends_nothing_and_limit_then_full_resumes(
    bench: Path, tmp_path: Path, scripted
) -> None:
    out = tmp_path / "run"
    first = scripted()
    run_benchmark(_config(bench, out, limit=5), backend=first)
    assert len(first.calls) == 5 and len(_preds(out)) == 5
    second = scripted()
    s = run_benchmark(_config(bench, out), backend=second)
    assert len(second.calls) == 7 and s.already_done == 5
    third = scripted()
    s = run_benchmark(_config(bench, out), backend=third)
    assert third.calls == {} and s.already_done == 12
    keys = [(p.item_id, p.condition) for p in _preds(out)]
    assert len(keys) == len(set(keys)) == 12


def test_split_and_category_filters(bench: Path, tmp_path: Path, scripted) -> None:
    run_benchmark(_config(bench, tmp_path / "a", split="train"), backend=scripted())
    assert [p.item_id for p in _preds(tmp_path / "a")] == ["lung-000", "lung-004", "lung-008"]
    run_benchmark(_config(bench, tmp_path / "b", category="lung_n"), backend=scripted())
    assert len(_preds(tmp_path / "b")) == 4


def test_errors_stay_errors_and_retry_errors_reasks_only_them(
    bench: Path, tmp_path: Path, scripted, transient
) -> None:
    out = tmp_path / "run"
    bad = scripted(
        fail={"lung-002": [transient("HTTP 500")] * 9, "lung-007": [ModelRequestError("HTTP 400")]}
    )
    s = run_benchmark(_config(bench, out, max_retries=2), backend=bad)
    assert s.errors == 2 and s.prediction_errors == 2
    by_id = {p.item_id: p for p in _preds(out)}
    assert by_id["lung-002"].response is None and "HTTP 500" in by_id["lung-002"].error
    assert by_id["lung-007"].error == "HTTP 400"
    assert bad.calls["lung-002"] == 3
    info = read_json(out / "run.json", RunInfo)
    assert info.counts["errors"] == 2 and any("HTTP 400" in e for e in info.errors)

    plain = scripted()
    run_benchmark(_config(bench, out), backend=plain)
    assert plain.calls == {}  # errors are results too; only --retry-errors asks again
    again = scripted()
    s = run_benchmark(_config(bench, out, retry_errors=True), backend=again)
    assert again.calls == {"lung-002": 1, "lung-007": 1}
    assert s.prediction_errors == 0
    preds = _preds(out)
    assert len(preds) == 12 and all(p.error is None and p.response == "A" for p in preds)


def test_run_folder_of_another_benchmark_is_refused(
    bench: Path, tmp_path: Path, scripted, bench_factory
) -> None:
    out = tmp_path / "run"
    run_benchmark(_config(bench, out), backend=scripted())
    other = bench_factory(tmp_path / "other", n=6)
    backend = scripted()
    with pytest.raises(BadInputError, match=r"another benchmark.*--force-new"):
        run_benchmark(_config(other, out), backend=backend)
    assert backend.calls == {}
    with pytest.raises(BadInputError, match=r"prompt 'default', not 'mammovqa'"):
        run_benchmark(_config(bench, out, prompt="mammovqa"), backend=scripted())
    s = run_benchmark(_config(other, out, force_new=True), backend=scripted())
    assert s.predictions == 6 and len(_preds(out)) == 6


def test_run_folder_of_other_model_parameters_is_refused(bench: Path, tmp_path: Path,
                                                        scripted) -> None:
    """Answers of two configurations never mix in one RUN/: the refusal names run.json."""
    out = tmp_path / "run"
    run_benchmark(_config(bench, out, limit=4), backend=scripted())
    before = (out / "predictions.jsonl").read_bytes()
    other = scripted()
    other.params = {"answer": "A", "temperature": 0.7}
    with pytest.raises(BadInputError) as refused:
        run_benchmark(_config(bench, out), backend=other)
    assert str(refused.value).startswith(
        f"{out / 'run.json'}: its model parameters were {{'answer': 'A'}}, not "
        "{'answer': 'A', 'temperature': 0.7}. ")
    assert "choose a new --out folder, or use --force-new" in str(refused.value)
    assert other.calls == {} and (out / "predictions.jsonl").read_bytes() == before


def test_unknown_template_fails_before_sending(bench: Path, tmp_path: Path, scripted) -> None:
    backend = scripted()
    with pytest.raises(BadInputError, match="Did you mean 'default'"):
        run_benchmark(_config(bench, tmp_path / "run", prompt="defualt"), backend=backend)
    assert backend.calls == {} and not (tmp_path / "run").exists()


@pytest.mark.parametrize("limit", [None, 2])
def test_an_item_line_that_does_not_validate_refuses_the_run(
    bench: Path, tmp_path: Path, scripted, limit: int | None
) -> None:
    """Skipping it would change the denominator unseen: refused, named, whatever the limit."""
    rows = (bench / "items.jsonl").read_text().splitlines()
    broken = json.loads(rows[3])
    broken["answer"] = "Z"  # not among the options
    rows[3] = json.dumps(broken)
    rows.insert(5, '{"id": "broken"')
    (bench / "items.jsonl").write_text("\n".join(rows) + "\n")
    backend = scripted()
    with pytest.raises(BadInputError, match=r"items.jsonl:4: answer: .* \(and 1 more line\(s\)\)"
                       r"; .*denominator.*nothing was run"):
        run_benchmark(_config(bench, tmp_path / "run", limit=limit), backend=backend)
    assert backend.calls == {} and not (tmp_path / "run").exists()


def test_missing_image_recorded(bench: Path, tmp_path: Path, scripted) -> None:
    rows = (bench / "items.jsonl").read_text().splitlines()
    (bench / json.loads(rows[3])["images"][0]).unlink()
    backend = scripted()
    s = run_benchmark(_config(bench, tmp_path / "run"), backend=backend)
    assert s.predictions == 12 and s.prediction_errors == 1
    (err,) = [p for p in _preds(tmp_path / "run") if p.error]
    assert err.item_id == "lung-003" and "cannot read image" in err.error
    assert "lung-003" not in backend.calls


def test_display_name_is_given_kept_on_resume_or_derived(
    bench: Path, tmp_path: Path, scripted
) -> None:
    """Issue 23.18: run.json records a short display name (``--name``, else from the spec)."""
    out = tmp_path / "run"
    run_benchmark(_config(bench, out, limit=4), backend=scripted())
    assert read_json(out / "run.json", RunInfo).display_name == "scripted"
    run_benchmark(_config(bench, out, limit=6, name="Reader A"), backend=scripted())
    assert read_json(out / "run.json", RunInfo).display_name == "Reader A"
    run_benchmark(_config(bench, out), backend=scripted())
    assert read_json(out / "run.json", RunInfo).display_name == "Reader A"
    other = tmp_path / "random"
    run_benchmark(_config(bench, other))
    assert read_json(other / "run.json", RunInfo).display_name == "random"


def test_unknown_condition_is_bad_input(bench: Path, tmp_path: Path, scripted) -> None:
    with pytest.raises(BadInputError):
        run_benchmark(_config(bench, tmp_path / "run", conditions=["clena"]), backend=scripted())


def test_conditions_each_item_once_per_condition(bench: Path, tmp_path: Path, scripted) -> None:
    pytest.importorskip("medvqa.conditions")
    backend = scripted()
    s = run_benchmark(
        _config(bench, tmp_path / "run", conditions=["clean", "text-only"]), backend=backend
    )
    assert s.predictions == 24
    preds = _preds(tmp_path / "run")
    assert [(p.item_id, p.condition) for p in preds[:4]] == [
        ("lung-000", "clean"),
        ("lung-000", "text-only"),
        ("lung-001", "clean"),
        ("lung-001", "text-only"),
    ]
    assert backend.images_seen == 12  # text-only sends none (blind sends a blank image)



def test_rerun_keeps_what_scoring_wrote_in_run_json(bench: Path, tmp_path: Path, scripted) -> None:
    from medvqa.schema import RunInfo, read_json, write_json

    run_benchmark(_config(bench, tmp_path / "r"), backend=scripted())
    info = read_json(tmp_path / "r" / "run.json", RunInfo)
    info.failure_judge = {"model": "openai:judge@http://127.0.0.1:1/v1", "prompt_sha256": "ab"}
    write_json(tmp_path / "r" / "run.json", info)
    run_benchmark(_config(bench, tmp_path / "r"), backend=scripted())
    again = read_json(tmp_path / "r" / "run.json", RunInfo)
    assert again.failure_judge == info.failure_judge
