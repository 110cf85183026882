"""Lines that the bytes fast path of the scoring pass cannot take are read as before.

``score_lines`` and ``read_items`` validate each line's bytes as they are; a line that fails
is decoded and validated again as text, so what the user reads about it (or the refusal of a
file that is not UTF-8) is word for word what the text path said.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from pydantic import ValidationError

from medvqa.errors import BadInputError
from medvqa.measurements._scale import write_random_run, write_scale_bench
from medvqa.schema import InputError, Prediction
from medvqa.score import ScoreConfig, score_run
from medvqa.score._per_condition import case_index as _case_index
from medvqa.score._stream import problem_line
from medvqa.stats import dense_labels, repeats


def _run(tmp_path: Path, edit: dict[int, bytes]) -> tuple[Path, Path]:
    bench = write_scale_bench(tmp_path / "bench", 6, unique=True)
    run = write_random_run(bench, tmp_path / "run", ("clean", "permute@1"))
    pred = run / "predictions.jsonl"
    lines = pred.read_bytes().splitlines(keepends=True)
    for at, raw in edit.items():
        lines[at] = raw
    pred.write_bytes(b"".join(lines))
    return bench, run


def _text_message(path: Path, lineno: int, raw: bytes) -> str:
    """The problem line of the text path (decode, then validate)."""
    with pytest.raises(ValidationError) as caught:
        Prediction.model_validate_json(raw.decode("utf-8"))
    return problem_line(path, lineno, raw, caught.value, "item_id")


@pytest.mark.parametrize("raw", [
    b'{"item_id": "item-0000001", "condition": "clean", "response": 5}\n',
    b'{"item_id": "item-0000001", "condition": "clean", "respo\n',
    '\ufeff{"item_id": "item-0000001", "condition": "clean"}\n'.encode(),
    b'{"item_id": "item-0000001", "condition": ["clean"], "response": "\\u00e9"}\n',
])
def test_a_bad_line_is_reported_as_the_text_path_reports_it(tmp_path: Path, raw: bytes) -> None:
    bench, run = _run(tmp_path, {2: raw})
    result = score_run(ScoreConfig(bench, run, resamples=9))
    pred = run / "predictions.jsonl"
    assert result.problems == [_text_message(pred, 3, raw)]
    assert result.metrics.skipped == 1


def test_a_line_that_is_not_utf8_still_refuses_the_file(tmp_path: Path) -> None:
    raw = b'{"item_id": "item-0000001", "condition": "clean", "response": "\xff"}\n'
    bench, run = _run(tmp_path, {2: raw})
    before = (run / "predictions.jsonl").read_bytes()
    with pytest.raises(InputError, match=r"predictions.jsonl:3: \(encoding\): not UTF-8"):
        score_run(ScoreConfig(bench, run, resamples=9))
    assert (run / "predictions.jsonl").read_bytes() == before  # nothing written


@pytest.mark.parametrize(("old", "new", "error", "message"), [
    (b"finding", b"find\xffing", InputError, r"items.jsonl:2: \(encoding\): not UTF-8"),
    (b'"answer":"', b'"answer":"Z', BadInputError, r"items.jsonl:2: item item-0000001: answer"),
], ids=["not-utf8-refuses", "bad-item-named-as-before"])
def test_a_bad_item_line_is_reported_as_before(tmp_path: Path, old: bytes, new: bytes,
                                               error: type[Exception], message: str) -> None:
    bench, run = _run(tmp_path, {})
    items = bench / "items.jsonl"
    lines = items.read_bytes().splitlines(keepends=True)
    lines[1] = lines[1].replace(old, new, 1)
    items.write_bytes(b"".join(lines))
    with pytest.raises(error, match=message):
        score_run(ScoreConfig(bench, run, resamples=9, allow_other_benchmark=True))


@pytest.mark.parametrize("labels", [
    np.array([5, 2, 5, 9, 0]), np.array([3]), np.array([-4, 7, -4]),
    np.array([10**12, 3, 10**12]), np.zeros(0, dtype=np.int64),
])
def test_dense_labels_and_repeats_are_numpys_unique(labels: np.ndarray) -> None:
    if len(labels):
        assert dense_labels(labels).tolist() == np.unique(labels, return_inverse=True)[1].tolist()
    assert repeats(labels) == (len(np.unique(labels)) < len(labels))


def test_case_index_numbers_units_as_a_unique_over_pairs() -> None:
    rng = np.random.default_rng(3)
    has_case = rng.random(200) < 0.7
    case = np.where(has_case, rng.integers(-50, 50, 200), 0)
    idx = np.arange(200)
    keys = np.column_stack([~has_case, np.where(has_case, case, idx)])
    expected = np.unique(keys, axis=0, return_inverse=True)[1].reshape(-1)
    assert _case_index(has_case, case).tolist() == expected.tolist()


def test_a_reader_failure_is_an_error_of_its_line_and_the_rest_is_scored(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from medvqa.reading import _strict

    bench, run = _run(tmp_path, {})
    pred = run / "predictions.jsonl"
    lines = pred.read_bytes().splitlines(keepends=True)
    import json

    record = json.loads(lines[2])
    record["response"] = "READER-FAILS-HERE"
    lines[2] = json.dumps(record).encode() + b"\n"
    pred.write_bytes(b"".join(lines))
    real = _strict.StrictParser.parse

    def failing(self, response, *args, **kwargs):  # a reader bug on one response
        if response == "READER-FAILS-HERE":
            raise AttributeError("'NoneType' object has no attribute 'strip'")
        return real(self, response, *args, **kwargs)

    monkeypatch.setattr(_strict.StrictParser, "parse", failing)
    result = score_run(ScoreConfig(bench, run, resamples=9))
    assert [p for p in result.problems if "answer reader failed" in p] == [
        f"{pred}:3: response: the answer reader failed (AttributeError: 'NoneType' object has no "
        "attribute 'strip'); counted as an error, not an answer — please report it with this "
        "line"]
    block = result.metrics.conditions[record["condition"]].overall
    assert block.errors == 1  # counted as an error, never as a wrong answer
