import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from medvqa.schema import (
    Benchmark,
    CreatedWith,
    InputError,
    Item,
    Prediction,
    RecordError,
    read_json,
    read_jsonl,
    write_json,
    write_jsonl,
)


def _item(**kw):
    base = dict(id="a", question="Which side?", options={"A": "Left", "B": "Right"}, answer="B",
                question_type="single")
    base.update(kw)
    return Item(**base)


def test_item_round_trips_through_jsonl(tmp_path):
    items = [_item(id=str(i), meta={"age": 50 + i}) for i in range(3)]
    digest = write_jsonl(tmp_path / "items.jsonl", items)
    assert list(read_jsonl(tmp_path / "items.jsonl", Item)) == items
    assert len(digest) == 64


def test_answer_not_among_options_names_the_field():
    with pytest.raises(ValueError, match="not among the options"):
        _item(answer="C")


def test_multi_answer_must_be_letters_in_options():
    assert _item(question_type="multi", answer=["A", "B"]).answer_letters == ["A", "B"]
    with pytest.raises(ValueError):
        _item(question_type="multi", answer=["A", "Z"])


def test_open_and_region_answers():
    assert _item(question_type="open", options={}, answer="pneumothorax").answer == "pneumothorax"
    assert _item(question_type="region", options={}, answer=["1", "3"]).answer == ["1", "3"]


def test_bad_lines_are_reported_with_file_line_field_and_the_rest_goes_on(tmp_path):
    good = _item().model_dump_json()
    bad_answer = json.dumps({**json.loads(good), "id": "x", "answer": "Q"})
    path = tmp_path / "items.jsonl"
    path.write_text(
        "\n".join([good, "{not json", bad_answer, good.replace('"a"', '"b"', 1)]) + "\n"
    )
    errors: list[RecordError] = []
    ids = [i.id for i in read_jsonl(path, Item, errors)]
    assert ids == ["a", "b"]
    assert [e.line for e in errors] == [2, 3]
    assert errors[1].field == "answer" or "answer" in errors[1].message
    assert str(errors[0]).startswith(f"{path}:2:")


def test_strict_reading_raises_on_first_bad_line(tmp_path):
    path = tmp_path / "items.jsonl"
    path.write_text('{"id": ""}\n')
    with pytest.raises(InputError) as exc:
        list(read_jsonl(path, Item))
    assert exc.value.error.line == 1


def test_benchmark_json_round_trip(tmp_path):
    bench = Benchmark(name="demo", created_with=CreatedWith(tool_version="0.1.0", seed=3))
    write_json(tmp_path / "benchmark.json", bench)
    assert read_json(tmp_path / "benchmark.json", Benchmark) == bench


@given(st.text(min_size=0, max_size=50), st.floats(min_value=0, max_value=100))
def test_prediction_serialisation_is_deterministic(text, latency):
    p = Prediction(item_id="i", response=text, latency_s=latency)
    assert Prediction.model_validate_json(p.model_dump_json()) == p
    assert (
        p.model_dump_json()
        == Prediction.model_validate_json(p.model_dump_json()).model_dump_json()
    )
