"""``medvqa score``, ``medvqa parse`` and ``medvqa compare`` on real runs and real files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from scoring_cli import medvqa

from medvqa.errors import BadInputError
from medvqa.schema import Prediction, read_jsonl
from medvqa.score import ScoreConfig, score_run


@pytest.fixture(scope="module")
def scored(lung_runs, tmp_path_factory):
    """Copies of the two runs, scored by the real CLI with 999 resamples."""
    root = tmp_path_factory.mktemp("scored")
    out = {"bench": lung_runs["bench"]}
    for model in ("random", "frequent"):
        shutil.copytree(lung_runs[model], root / model)
        medvqa("score", str(lung_runs["bench"]), str(root / model), "--resamples", "999")
        out[model] = root / model
    return out


def test_metrics_json_has_the_documented_shape(scored):
    m = json.loads((scored["random"] / "metrics.json").read_text())
    assert m["style"] == "strict" and m["resamples"] == 999 and m["seed"] == 0
    overall = m["conditions"]["clean"]["overall"]
    for key in ("accuracy", "weighted_accuracy", "macro_f1", "invalid_rate", "valid_accuracy"):
        lo, hi = overall[key]["ci"]
        assert lo <= overall[key]["value"] <= hi
    assert overall["random_baseline"] == pytest.approx(1 / 3, abs=1e-6)
    assert set(m["conditions"]["clean"]["by"]) >= {"category", "split"}


def test_accuracy_equals_the_scored_predictions(scored):
    preds = list(read_jsonl(scored["random"] / "predictions.jsonl", Prediction, errors=[]))
    assert all(p.correct is not None and p.invalid is False for p in preds)
    m = json.loads((scored["random"] / "metrics.json").read_text())
    acc = sum(p.correct for p in preds) / len(preds)
    assert m["conditions"]["clean"]["overall"]["accuracy"]["value"] == pytest.approx(acc, abs=1e-6)


def test_frequent_baseline_run_scores_its_own_class_share(scored):
    m = json.loads((scored["frequent"] / "metrics.json").read_text())
    overall = m["conditions"]["clean"]["overall"]
    # Always the same class: weighted accuracy is exactly 1/k over the k classes present.
    assert overall["weighted_accuracy"]["value"] == pytest.approx(1 / 3, abs=1e-6)


def test_scoring_is_byte_identical_when_repeated(scored, tmp_path):
    shutil.copytree(scored["random"], tmp_path / "again")
    medvqa("score", str(scored["bench"]), str(tmp_path / "again"), "--resamples", "999")
    assert (tmp_path / "again" / "metrics.json").read_bytes() == \
        (scored["random"] / "metrics.json").read_bytes()


def test_clustered_when_a_case_has_several_items(bench_factory, tmp_path):
    bench = bench_factory(tmp_path / "bench", 24)  # case-{i // 2}: two items per case
    medvqa("run", str(bench), "-m", "random", "-o", str(tmp_path / "run"), "--split", "all")
    result = score_run(ScoreConfig(bench, tmp_path / "run", resamples=499))
    assert result.metrics.clustered
    flat = score_run(ScoreConfig(bench, tmp_path / "run", resamples=499, cluster=False))
    assert not flat.metrics.clustered


def test_bad_predictions_are_named_skipped_and_counted(scored, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(scored["random"], run)
    lines = (run / "predictions.jsonl").read_text().splitlines()
    bad = json.loads(lines[0])
    bad["response"] = 7  # not a string
    lines[0] = json.dumps(bad)
    lines.append(json.dumps({**json.loads(lines[1]), "item_id": "no-such-item"}))
    (run / "predictions.jsonl").write_text("\n".join(lines) + "\n")
    # An item of another benchmark is refused (mixed-in lines?) unless asked to score the rest.
    with pytest.raises(BadInputError, match="item_id 'no-such-item': not in"):
        score_run(ScoreConfig(scored["bench"], run, resamples=199))
    result = score_run(ScoreConfig(scored["bench"], run, resamples=199,
                                   allow_other_benchmark=True))
    assert result.metrics.skipped == 2
    assert any(f"item {bad['item_id']}" in p and "response" in p for p in result.problems)
    assert any("no-such-item" in p for p in result.problems)
    assert result.metrics.conditions["clean"].overall.n == len(lines) - 2


def test_an_item_line_that_does_not_validate_is_refused_not_dropped(scored, tmp_path):
    """A bad item would leave every denominator unseen (n 149 of 150): score refuses it."""
    bench = tmp_path / "bench"
    shutil.copytree(scored["bench"], bench)
    items = (bench / "items.jsonl").read_text().splitlines()
    broken = json.loads(items[0])
    broken["answer"] = "Z"  # not among the options
    items[0] = json.dumps(broken)
    meta_nan = json.loads(items[1])
    meta_nan["meta"]["age"] = None  # valid: not a problem
    items[1] = json.dumps(meta_nan)
    (bench / "items.jsonl").write_text("\n".join(items) + "\n")
    run = tmp_path / "run"
    shutil.copytree(scored["random"], run)
    before = (run / "metrics.json").read_bytes()
    with pytest.raises(BadInputError, match=rf"items.jsonl:1: item {broken['id']}: answer: .*"
                       "denominator.*nothing was scored"):
        score_run(ScoreConfig(bench, run, resamples=199, allow_other_benchmark=True))
    assert (run / "metrics.json").read_bytes() == before
    items[0] = json.dumps({**broken, "answer": "A"})
    (bench / "items.jsonl").write_text("\n".join(items) + "\n")
    result = score_run(ScoreConfig(bench, run, resamples=199, allow_other_benchmark=True))
    assert result.metrics.conditions["clean"].overall.n == len(items)
    assert result.metrics.provenance["benchmark_mismatch_allowed"] is True


def test_empty_run_is_a_clear_error(scored, tmp_path):
    run = tmp_path / "empty"
    run.mkdir()
    (run / "predictions.jsonl").write_text("")
    proc = medvqa("score", str(scored["bench"]), str(run), check=False)
    assert proc.returncode != 0 and "empty" in (proc.stderr + proc.stdout)


def test_compare_two_runs_writes_a_paired_result(scored, tmp_path):
    out = tmp_path / "cmp.json"
    medvqa("compare", str(scored["random"]), str(scored["frequent"]), "--resamples", "999",
           "-o", str(out))
    cmp = json.loads(out.read_text())
    assert cmp["n"] == 150
    assert cmp["ci"][0] <= cmp["difference"] <= cmp["ci"][1]
    # No case repeats in lc25000_lung: McNemar's mid-p test on the discordant pairs.
    from scipy.stats import binom

    assert cmp["test"] == "McNemar mid-p" and not cmp["clustered"]
    k, n = min(cmp["a_only"], cmp["b_only"]), cmp["a_only"] + cmp["b_only"]
    assert cmp["p_value"] == pytest.approx(
        min(1.0, 2 * binom.cdf(k, n, 0.5) - binom.pmf(k, n, 0.5)))
    assert cmp["ci_method"] in {"newcombe-jeffreys", "bootstrap"}


# --- medvqa parse: the stand-alone contract ----------------------------------------------

def _write(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_parse_contract_in_input_order(tmp_path):
    opts = {"A": "Left", "B": "Right"}
    records = [
        {"id": "1", "response": "B", "options": opts, "question_type": "single", "answer": "B"},
        {"id": "2", "response": "Left or Right", "options": opts, "question_type": "single",
         "answer": "A"},
        {"id": "3", "response": "A and B", "options": {"A": "x", "B": "y", "C": "z"},
         "question_type": "multi", "answer": ["A", "B"]},
        {"id": "4", "response": "Yes.", "options": {"A": "Yes", "B": "No"},
         "question_type": "yesno", "answer": "A"},
    ]
    medvqa("parse", str(_write(tmp_path / "in.jsonl", records)), "-o", str(tmp_path / "out.jsonl"))
    out = [json.loads(x) for x in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert out == [
        {"id": "1", "choice": "B", "correct": True, "invalid": False, "reason": None},
        {"id": "2", "choice": None, "correct": False, "invalid": True, "reason": "ambiguous"},
        {"id": "3", "choice": ["A", "B"], "correct": True, "invalid": False, "reason": None},
        {"id": "4", "choice": "A", "correct": True, "invalid": False, "reason": None},
    ]


def test_parse_pathmmu_seed_reproduces(tmp_path):
    opts = {k: f"option {k}" for k in "ABCDE"}
    records = [{"id": str(i), "response": "[A]", "options": opts, "question_type": "single",
                "answer": "A"} for i in range(30)]
    src = _write(tmp_path / "in.jsonl", records)
    runs = []
    for seed, name in ((42, "a"), (42, "b"), (7, "c")):
        medvqa("parse", "--style", "pathmmu", str(src), "-o", str(tmp_path / name),
               "--seed", str(seed))
        runs.append((tmp_path / name).read_bytes())
    assert runs[0] == runs[1] and runs[0] != runs[2]


def test_parse_bad_lines_are_named_and_the_rest_parsed(tmp_path):
    opts = {"A": "Left", "B": "Right"}
    records = [
        {"id": "ok", "response": "A", "options": opts, "question_type": "single", "answer": "A"},
        {"id": "no-options", "response": "A", "question_type": "single", "answer": "A"},
        {"id": "bad-answer", "response": "A", "options": opts, "question_type": "single",
         "answer": "Q"},
        {"id": "not-text", "response": 3, "options": opts, "question_type": "single",
         "answer": "A"},
    ]
    proc = medvqa("parse", str(_write(tmp_path / "in.jsonl", records)), "-o",
                  str(tmp_path / "out.jsonl"))
    for name in ("no-options", "bad-answer", "not-text"):
        assert name in proc.stderr
    assert "skipped 3" in proc.stderr
    lines = (tmp_path / "out.jsonl").read_text().splitlines()
    assert [json.loads(x)["id"] for x in lines] == ["ok"]
