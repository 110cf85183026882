"""One contract test per registry: every row of every table works end to end on a tiny benchmark.

Each test is parametrized by the table itself, and a test of the table's coverage fails when a
row is added without a way to try it here, so no name can be registered that nothing runs.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _lung_bench import make_bench
from _medvqa_cli import cli

from medvqa.conditions import CONDITIONS, expand_conditions
from medvqa.errors import BadInputError
from medvqa.interop import EXPORTERS, IMPORT_FORMATS, IMPORTERS, READERS
from medvqa.measurements import SECTIONS
from medvqa.models import BACKENDS, ModelConfig
from medvqa.reading import STYLES, make_parser
from medvqa.recipes import RECIPE_TYPES
from medvqa.run import RunConfig, run_benchmark
from medvqa.schema import Item, Prediction, read_jsonl
from medvqa.score import ScoreConfig, score_run
from medvqa.sources import SOURCE_READERS
from medvqa.testing import ChatServer, write_tiny_vlm


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``medvqa ARGS`` in-process: exit code, standard output, standard error."""
    capsys.readouterr()
    code = cli(*args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Eight real lung tiles, single choice, a train and a test split."""
    return make_bench(tmp_path_factory.mktemp("registries") / "bench", n=8)


# --- model backends -------------------------------------------------------------------------

#: How each backend is tried here: ``(scratch folder, tiny bench) -> (spec, bench)``.
def _spec_random(_: Path, bench: Path) -> tuple[str, Path]:
    return "random", bench


def _spec_frequent(_: Path, bench: Path) -> tuple[str, Path]:
    return "frequent", bench


def _spec_smollm2(_: Path, bench: Path) -> tuple[str, Path]:
    return "smollm2", bench


def _spec_hf(scratch: Path, bench: Path) -> tuple[str, Path]:
    return f"hf:{write_tiny_vlm(scratch / 'vlm')}", bench


def _spec_supervised(scratch: Path, _: Path) -> tuple[str, Path]:
    """A one-epoch CNN trained on a train/val/test copy of the tiles, run on that copy."""
    from medvqa.train import ClassifierConfig, train_classifier

    root = make_bench(scratch / "train-bench", n=12)
    items = list(read_jsonl(root / "items.jsonl", Item))
    splits = ["train", "train", "val", "test"]
    make_bench(root, items=[i.model_copy(update={"split": splits[n % 4], "category": "tissue"})
                            for n, i in enumerate(items)])
    out = scratch / "cnn"
    train_classifier(ClassifierConfig(root, out, epochs=1, image_size=32, batch_size=8,
                                      device="cpu", splits=("test",)))
    return f"supervised:{out}", root


BACKEND_TRIALS = {
    "random": _spec_random,
    "frequent": _spec_frequent,
    "smollm2": _spec_smollm2,
    "hf": _spec_hf,
    "openai": None,  # the loopback chat server
    "anthropic": None,  # the same server's Messages endpoint
    "supervised": _spec_supervised,
    "human": _spec_random,  # refused: human answers come from `medvqa review exam`
}


def test_every_backend_has_a_trial() -> None:
    assert set(BACKEND_TRIALS) == set(BACKENDS)


@pytest.mark.parametrize("prefix", BACKENDS.names())
def test_every_backend_answers_a_tiny_benchmark(prefix: str, tiny: Path, tmp_path: Path) -> None:
    """Each backend answers every item and the run scores; ``human:`` refuses with a pointer."""
    if prefix == "human":
        with pytest.raises(BadInputError, match="review exam"):
            run_benchmark(RunConfig(tiny, tmp_path / "run", ModelConfig("human:ana")))
        return
    with ChatServer() as server:
        make = BACKEND_TRIALS[prefix]
        spec, bench = make(tmp_path, tiny) if make else (f"{prefix}:m@{server.url}", tiny)
        summary = run_benchmark(RunConfig(bench, tmp_path / "run", ModelConfig(spec),
                                          concurrency=2, limit=8))
    assert summary.predictions == 8 and summary.prediction_errors == 0, summary.error_messages
    result = score_run(ScoreConfig(bench, tmp_path / "run", resamples=99))
    assert result.metrics.conditions["clean"].overall.n == 8


# --- parser styles, conditions --------------------------------------------------------------

#: A clear answer in each style's own form, and what the style reads from it.
STYLE_SAMPLES = {
    "strict": ("B", {"A": "Left", "B": "Right"}, "single", "B"),
    "mammovqa": ("B", {"A": "Left", "B": "Right"}, "single", "B"),
    "pathmmu": ("B", {"A": "Left", "B": "Right"}, "single", "B"),
    "region": ("Region ID: 3; Type: optic disc", {}, "region", ["3"]),
    "open": ("Free air", {}, "open", "free air"),
}


def test_every_parser_style_has_a_sample() -> None:
    assert set(STYLE_SAMPLES) == set(STYLES)


@pytest.mark.parametrize("style", STYLES.names())
def test_every_parser_style_scores_a_run(style: str, tiny: Path, tmp_path: Path) -> None:
    """A random run scores with every style, and each style reads a clear answer of its form."""
    run_benchmark(RunConfig(tiny, tmp_path / "run", ModelConfig("random")))
    metrics = score_run(ScoreConfig(tiny, tmp_path / "run", style=style, resamples=99)).metrics
    assert metrics.style == style and metrics.conditions["clean"].overall.n == 8
    response, options, qtype, expected = STYLE_SAMPLES[style]
    parsed = make_parser(style).parse(response, options, qtype)
    assert not parsed.invalid and parsed.choice == expected


@pytest.mark.parametrize("family", CONDITIONS.names())
def test_every_condition_runs_and_scores(family: str, tiny: Path, tmp_path: Path) -> None:
    """The family's first concrete names run with the random model and appear in metrics."""
    names = expand_conditions([family])[:2]
    run_benchmark(RunConfig(tiny, tmp_path / "run", ModelConfig("random"),
                            conditions=["clean", *names]))
    metrics = score_run(ScoreConfig(tiny, tmp_path / "run", resamples=99)).metrics
    assert set(names) <= set(metrics.conditions)


# --- recipe types, importers, exporters, prediction readers, source readers -----------------

def test_every_recipe_type_is_built_by_a_shipped_recipe_or_an_importer_test() -> None:
    """Builders' own types and the importers form one table; each importer is a recipe type."""
    assert set(IMPORTERS) <= set(RECIPE_TYPES)
    assert set(IMPORT_FORMATS) <= set(IMPORTERS)
    for name in RECIPE_TYPES:
        assert callable(RECIPE_TYPES.get(name)), name


@pytest.mark.parametrize("fmt", IMPORT_FORMATS.names())
def test_every_import_format_lists_with_a_summary(fmt: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Each format's row is listed with its summary (the importers run in tests/interop)."""
    code, out, _ = run_cli(capsys, "import", "--list")
    line = next(line for line in out.splitlines() if line.split()[0] == fmt)
    assert code == 0 and IMPORT_FORMATS.row(fmt).summary in line


@pytest.mark.parametrize("fmt", EXPORTERS.names())
def test_every_exporter_writes_a_tiny_benchmark(fmt: str, tiny: Path, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / ("x.tsv" if fmt == "vlmevalkit" else "x")
    code, stdout, err = run_cli(capsys, "export", str(tiny), "--format", fmt, "-o", str(out))
    assert code == 0, err
    assert "wrote" in stdout and any(tmp_path.iterdir())


def _vlmevalkit_file(tiny: Path, path: Path) -> Path:
    import openpyxl

    items = [json.loads(line) for line in (tiny / "items.jsonl").read_text().splitlines()]
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["index", "question", "prediction", "hit"])
    for item in items:
        sheet.append([item["id"], item["question"], item["answer"], 1])
    book.save(path)
    return path


def _lmms_eval_file(tiny: Path, path: Path) -> Path:
    items = [json.loads(line) for line in (tiny / "items.jsonl").read_text().splitlines()]
    tests = [i for i in items if i["split"] == "test"]
    path.write_text("".join(json.dumps({"doc_id": n, "doc": {"id": i["id"]},
                                        "resps": [[i["answer"]]],
                                        "filtered_resps": [i["answer"]]}) + "\n"
                            for n, i in enumerate(tests)))
    return path


def _inspect_file(tiny: Path, path: Path) -> Path:
    """A real Inspect log: medvqa's task run by inspect_ai against the loopback server."""
    from inspect_ai import eval as inspect_eval

    from medvqa.interop.inspect import medvqa_task

    with ChatServer() as server:
        logs = inspect_eval(medvqa_task(bench=str(tiny)), model="openai/test",
                            model_base_url=server.url, model_args={"responses_api": False,
                                                                   "api_key": "local"},
                            log_dir=str(path.parent / "logs"), display="none")
    return Path(logs[0].location)


READER_FILES = {"vlmevalkit": ("p.xlsx", _vlmevalkit_file),
                "lmms-eval": ("samples.jsonl", _lmms_eval_file),
                "inspect": ("log.json", _inspect_file)}


def test_every_prediction_reader_has_a_file() -> None:
    assert set(READER_FILES) == set(READERS)


@pytest.mark.parametrize("fmt", READERS.names())
def test_every_prediction_reader_imports_a_run(fmt: str, tiny: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    name, write = READER_FILES[fmt]
    source = write(tiny, tmp_path / name)
    code, _, err = run_cli(capsys, "import-predictions", fmt, str(source), "--bench", str(tiny),
                           "-o", str(tmp_path / "run"))
    assert code == 0, err
    preds = list(read_jsonl(tmp_path / "run" / "predictions.jsonl", Prediction))
    assert preds and all(p.response for p in preds)


@pytest.mark.parametrize("reader", SOURCE_READERS.names())
def test_every_source_reader_is_a_function(reader: str) -> None:
    """Source readers are exercised by the shipped recipes and tests/sources; each resolves."""
    assert callable(SOURCE_READERS.get(reader))


# --- bench sections -------------------------------------------------------------------------

@pytest.mark.parametrize("section", SECTIONS.names())
def test_every_bench_section_is_listed_and_resolves(section: str,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Running every section is the bench itself; here each row resolves and has a summary."""
    assert callable(SECTIONS.get(section)) and SECTIONS.row(section).summary
    _, out, _ = run_cli(capsys, "bench", "--help")
    assert section in out
