"""Scoring at scale: memory that grows with items (never items × classes), open-vocabulary
options, capped breakdowns, runs full of errors and bad lines — a clear line, never a crash."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scoring_cli import medvqa

from medvqa.errors import BadInputError
from medvqa.measurements._scale import write_random_run, write_scale_bench
from medvqa.schema import Benchmark, CreatedWith, Item, Prediction, write_json, write_jsonl
from medvqa.score import ScoreConfig, score_run
from medvqa.score._stream import SHOWN_PROBLEMS, scored_line


def _scored(tmp: Path, n: int, unique: bool, **config) -> dict:
    bench = write_scale_bench(tmp / "bench", n, unique)
    run = write_random_run(bench, tmp / "run", ("clean", "permute@1"))
    score_run(ScoreConfig(bench, run, **{"resamples": 199, **config}))
    return json.loads((run / "metrics.json").read_text())


def _peak_of_scoring(bench: Path, run: Path, warm: Path) -> int:
    """Peak traced bytes of scoring ``run`` (modules imported beforehand, by a small run)."""
    _scored(warm, 30, unique=False)
    tracemalloc.start()
    score_run(ScoreConfig(bench, run, resamples=199))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def test_unique_answer_texts_score_without_an_items_by_classes_matrix(tmp_path):
    bench = write_scale_bench(tmp_path / "bench", 3000, unique=True)
    run = write_random_run(bench, tmp_path / "run", ("clean", "permute@1"))
    peak = _peak_of_scoring(bench, run, tmp_path / "warm")
    metrics = json.loads((run / "metrics.json").read_text())
    # 3,000 items × 3,000 classes as the dense float64 columns of before: 5 × 72 MB.
    assert peak < 16 * 2**20
    clean = metrics["conditions"]["clean"]
    assert clean["overall"]["weighted_accuracy"]["value"] is None
    assert clean["overall"]["weighted_accuracy"]["ci"] == [None, None]
    assert clean["overall"]["macro_f1"]["value"] is None
    assert "open vocabulary" in clean["notes"]["weighted_accuracy"]
    assert clean["overall"]["accuracy"]["value"] is not None
    assert clean["by"]["category"]["category-0"]["weighted_accuracy"]["value"] is None


def test_many_classes_keep_point_estimates_without_an_interval(tmp_path):
    # 2,400 items, 400 gold answers (6 items each): a label set, too many classes to resample.
    items = [Item(id=f"i{i}", question="?", options={"A": f"t{i % 400}", "B": f"u{i}"},
                  answer="A", question_type="single", case_id=f"c{i // 2}")
             for i in range(2400)]
    bench = tmp_path / "bench"
    bench.mkdir()
    sha = write_jsonl(bench / "items.jsonl", items)
    write_json(bench / "benchmark.json", Benchmark(name="many", items_sha256=sha,
                                                   created_with=CreatedWith(tool_version="t")))
    run = write_random_run(bench, tmp_path / "run")
    peak = _peak_of_scoring(bench, run, tmp_path / "warm")
    assert peak < 40 * 2**20
    clean = json.loads((run / "metrics.json").read_text())["conditions"]["clean"]
    assert clean["overall"]["weighted_accuracy"]["value"] is not None
    assert clean["overall"]["weighted_accuracy"]["ci"] == [None, None]
    assert "no interval" in clean["notes"]["macro_f1"]


def test_shared_texts_get_class_metrics_with_intervals(tmp_path):
    metrics = _scored(tmp_path, 600, unique=False)
    clean = metrics["conditions"]["clean"]
    lo, hi = clean["overall"]["weighted_accuracy"]["ci"]
    assert lo <= clean["overall"]["weighted_accuracy"]["value"] <= hi
    assert clean["notes"] == {}
    assert metrics["clustering"] == "cases (200 cases, 600 items)"
    assert metrics["resample_groups"] is None


def test_a_breakdown_with_too_many_values_is_left_out_with_one_line(tmp_path):
    bench = write_scale_bench(tmp_path / "bench", 900, unique=False)
    run = write_random_run(bench, tmp_path / "run")
    proc = medvqa("score", str(bench), str(run), "--by", "category,meta.patient_id",
                  "--resamples", "99")
    assert proc.returncode == 0
    out = proc.stdout + proc.stderr
    assert "Traceback" not in out
    assert "--by meta.patient_id: more than 200 distinct values" in " ".join(out.split())
    metrics = json.loads((run / "metrics.json").read_text())
    assert "meta.patient_id" not in metrics["conditions"]["clean"]["by"]
    assert "category" in metrics["conditions"]["clean"]["by"]
    assert any("meta.patient_id" in n for n in metrics["notes"])


def test_a_run_of_failed_requests_only_is_refused_with_one_line(tmp_path):
    bench = write_scale_bench(tmp_path / "bench", 300, unique=False)
    run = write_random_run(bench, tmp_path / "run", error_every=1)
    proc = medvqa("score", str(bench), str(run), "--resamples", "99", check=False)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "all 300 predictions are failed requests" in " ".join(proc.stderr.split())


def test_failed_requests_are_counted_in_one_line_per_condition(tmp_path):
    bench = write_scale_bench(tmp_path / "bench", 300, unique=False)
    run = write_random_run(bench, tmp_path / "run", error_every=3)
    proc = medvqa("score", str(bench), str(run), "--resamples", "99")
    assert "clean: 100 failed request(s) not scored (first error: HTTP 500)" in \
        " ".join(proc.stderr.split())
    overall = json.loads((run / "metrics.json").read_text())["conditions"]["clean"]["overall"]
    assert (overall["n"], overall["errors"]) == (200, 100)


def test_thousands_of_bad_lines_are_counted_not_all_printed(tmp_path):
    bench = write_scale_bench(tmp_path / "bench", 300, unique=False)
    run = write_random_run(bench, tmp_path / "run")
    with (run / "predictions.jsonl").open("a") as fh:
        fh.write("{not json\n" * 5000)
    result = score_run(ScoreConfig(bench, run, resamples=99))
    assert result.metrics.skipped == 5000
    assert len(result.problems) == SHOWN_PROBLEMS + 1
    assert result.problems[-1] == f"… and {5000 - SHOWN_PROBLEMS:,} more like these (not shown)"
    assert result.metrics.conditions["clean"].overall.n == 300


def test_an_empty_run_is_still_refused(tmp_path):
    bench = write_scale_bench(tmp_path / "bench", 30, unique=False)
    run = write_random_run(bench, tmp_path / "run")
    (run / "predictions.jsonl").write_text("\n")
    with pytest.raises(BadInputError, match="the run is empty"):
        score_run(ScoreConfig(bench, run, resamples=99))


_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=20)


@settings(max_examples=150, deadline=None)
@given(item_id=_text, condition=_text, response=st.none() | _text,
       latency=st.none() | st.floats(allow_nan=False) | st.integers(-5, 5),
       error=st.none() | _text, choice=st.none() | _text | st.lists(_text, max_size=3),
       correct=st.none() | st.booleans(), sent=st.none() | st.dictionaries(_text, _text))
def test_a_scored_line_is_the_bytes_pydantic_writes(item_id, condition, response, latency, error,
                                                     choice, correct, sent):
    pred = Prediction(item_id=item_id, condition=condition, response=response,
                      latency_s=latency, error=error, sent=sent)
    assert scored_line(pred) == (pred.model_dump_json() + "\n").encode()
    done = pred.model_copy(update={"choice": choice, "correct": correct, "invalid": correct})
    assert scored_line(pred, choice, correct, correct, scored=True) == \
        (done.model_dump_json() + "\n").encode()


def test_same_inputs_same_metrics_bytes(tmp_path):
    a = _scored(tmp_path / "a", 450, unique=False)
    b = _scored(tmp_path / "b", 450, unique=False)
    a.pop("provenance"), b.pop("provenance")
    assert json.dumps(a) == json.dumps(b)
    assert np.isfinite(a["conditions"]["permute"]["consistency"])


def test_any_order_of_predictions_gives_the_same_metrics(tmp_path):
    bench = write_scale_bench(tmp_path / "bench", 450, unique=False)
    ordered = write_random_run(bench, tmp_path / "ordered", ("clean", "permute@1"))
    shuffled = tmp_path / "shuffled"
    shuffled.mkdir()
    (shuffled / "run.json").write_bytes((ordered / "run.json").read_bytes())
    lines = (ordered / "predictions.jsonl").read_text().splitlines(keepends=True)
    order = np.random.default_rng(0).permutation(len(lines))
    (shuffled / "predictions.jsonl").write_text("".join(lines[i] for i in order))
    # An id the benchmark lacks: refused, unless --allow-other-benchmark (then a named skip).
    with (shuffled / "predictions.jsonl").open("a") as fh:
        fh.write(Prediction(item_id="nowhere", response="A").model_dump_json() + "\n")
    with pytest.raises(BadInputError, match="item_id 'nowhere': not in"):
        score_run(ScoreConfig(bench, shuffled, resamples=199))
    out = []
    for run in (ordered, shuffled):
        result = score_run(ScoreConfig(bench, run, resamples=199, allow_other_benchmark=True))
        metrics = json.loads((run / "metrics.json").read_text())
        metrics.pop("provenance"), metrics.pop("skipped"), metrics.pop("coverage")
        out.append((metrics, result.problems))
    assert out[0][0] == out[1][0]
    assert out[1][1] == [f"{shuffled / 'predictions.jsonl'}: item nowhere: not in "
                         f"{bench / 'items.jsonl'}"]


def test_a_repeated_item_id_reads_the_later_line(tmp_path):
    from medvqa.score._items import read_items

    first = Item(id="x", question="?", options={"A": "a", "B": "b"}, answer="A",
                 question_type="single")
    items = [first, Item(id="y", question="?", options={"A": "a", "B": "b"}, answer="B",
                         question_type="single"), first.model_copy(update={"answer": "B"})]
    (tmp_path / "items.jsonl").write_text("".join(i.model_dump_json() + "\n" for i in items))
    table = read_items(tmp_path, ("category",), (18, 40, 60), [{}], 200)
    assert [table.find(i) for i in ("x", "y", "x", "z")] == [2, 1, 2, None]
    assert table.item(table.find("x")).answer == "B"
