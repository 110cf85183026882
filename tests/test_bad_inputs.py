"""Bad inputs, one row each: the command line, the exit code, and a fragment of the one message.

Every command must answer a bad input with one clear line and the documented exit code (1: a
usage error, 2: bad input) — never a traceback, never exit 0. To add a case, append a
:class:`Case` to :data:`CASES`: ``setup`` makes the inputs in a fresh folder and returns the
arguments after ``medvqa``; the test runs the real command-line entry point in-process (fast)
and checks the exit code, that ``message`` is in the output, that nothing in ``forbid`` is,
and that no path in ``absent`` was created.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from _tiny_lm import tiny_text_lm

from medvqa.cli import main
from medvqa.models import ModelConfig
from medvqa.run import RunConfig, run_benchmark
from medvqa.schema import file_sha256
from medvqa.score import ScoreConfig, score_run
from medvqa.sources import MAX_IMAGE_FILE_BYTES, MAX_LABEL_TABLE_BYTES


@dataclass
class Workspace:
    """A fresh folder and the ways to fill it (benchmarks, runs, scored runs)."""

    root: Path
    make_bench: Callable[..., Path]
    mounts: list[Path] = field(default_factory=list)
    locked: list[Path] = field(default_factory=list)

    def bench(self, name: str = "bench", n: int = 6) -> Path:
        """A valid benchmark of ``n`` real lung tiles."""
        return self.make_bench(self.root / name, n)

    def edit_items(self, bench: Path, edit: Callable[[list[bytes]], list[bytes]]) -> Path:
        """Rewrite items.jsonl's lines with ``edit`` (items_sha256 kept in step)."""
        path = bench / "items.jsonl"
        lines = edit(path.read_bytes().splitlines(keepends=True))
        path.write_bytes(b"".join(lines))
        card = json.loads((bench / "benchmark.json").read_text())
        card["items_sha256"] = file_sha256(path)
        (bench / "benchmark.json").write_text(json.dumps(card))
        return bench

    def small_disk(self, name: str = "disk", size: str = "3m") -> Path:
        """A real tmpfs of ``size`` at ``root/name`` (root only; skipped where mount fails)."""
        path = self.root / name
        path.mkdir()
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs",
                               str(path)], capture_output=True, text=True, check=False)
        if done.returncode:
            pytest.skip(f"cannot mount a small tmpfs here ({done.stderr.strip() or 'not root'})")
        self.mounts.append(path)
        return path

    def read_only(self, name: str, *copies: Path) -> Path:
        """A folder at ``root/name`` holding copies of ``copies`` that nobody may write.

        As root (who may write any folder whatever its mode) a real tmpfs remounted read-only;
        otherwise a folder of mode 0500.
        """
        if os.geteuid() == 0:
            path = self.small_disk(name, "20m")
        else:
            path = self.root / name
            path.mkdir()
        for src in copies:
            shutil.copytree(src, path / src.name)
        if os.geteuid() == 0:
            subprocess.run(["mount", "-o", "remount,ro", str(path)], check=True)
        else:
            for folder in [path, *(p for p in path.rglob("*") if p.is_dir())]:
                folder.chmod(0o500)
            self.locked.append(path)
        return path

    def fill(self, disk: Path, leave: int) -> None:
        """Fill ``disk`` up to ``leave`` free bytes."""
        free = shutil.disk_usage(disk).free
        with (disk / "filler").open("ab") as fh:
            fh.write(b"\0" * max(0, free - leave))

    def run(self, bench: Path, name: str = "run", model: str = "random") -> Path:
        """A finished run of ``model`` on ``bench``."""
        out = self.root / name
        run_benchmark(RunConfig(bench_dir=bench, out_dir=out, model=ModelConfig(spec=model)))
        return out

    def scored(self, bench: Path, name: str = "run", model: str = "random") -> Path:
        """A run, scored."""
        out = self.run(bench, name, model)
        score_run(ScoreConfig(bench, out, resamples=99))
        return out


Setup = Callable[[Workspace], list[str]]


@dataclass(frozen=True)
class Case:
    """One bad input.

    Attributes:
        id: short name shown by pytest.
        setup: makes the inputs; returns the arguments after ``medvqa``.
        code: expected exit code.
        message: a fragment the output must hold.
        forbid: fragments the output must not hold (a traceback, a secret).
        absent: paths or glob patterns (relative to the workspace) that must match nothing
            afterwards.
        env: environment variables set (value) or removed (None) for the command.

    """

    id: str
    setup: Setup
    code: int
    message: str
    forbid: tuple[str, ...] = ("Traceback",)
    absent: tuple[str, ...] = ()
    env: dict[str, str | None] = field(default_factory=dict)


def _not_utf8(lines: list[bytes]) -> list[bytes]:
    lines[2] = lines[2].replace(b"H&E", b"H\xff\xfeE")
    return lines


def _duplicate(lines: list[bytes]) -> list[bytes]:
    return lines + [lines[1]]


def _malformed(lines: list[bytes]) -> list[bytes]:
    lines[2] = b'{"id": "broken", "question": ""}\n'
    return lines


def _answer_not_an_option(lines: list[bytes]) -> list[bytes]:
    item = json.loads(lines[2])
    item["answer"] = "Z"
    lines[2] = (json.dumps(item) + "\n").encode()
    return lines


def _empty(lines: list[bytes]) -> list[bytes]:
    return []


def _outside_link(w: Workspace) -> list[str]:
    bench = w.bench()
    outside = w.root / "private.png"
    rel = json.loads((bench / "items.jsonl").read_text().splitlines()[0])["images"][0]
    shutil.copy(bench / rel, outside)
    (bench / rel).unlink()
    (bench / rel).symlink_to(outside)
    return ["validate", str(bench)]


def _card_missing_fields(w: Workspace) -> list[str]:
    bench = w.bench()
    (bench / "benchmark.json").write_text(json.dumps({"version": "1.0"}))
    return ["validate", str(bench)]


def _other_benchmark(w: Workspace) -> list[str]:
    run = w.run(w.bench("a"))
    other = w.bench("b", n=4)
    return ["score", str(other), str(run)]


def _stale_after_force_new(w: Workspace) -> list[str]:
    bench = w.bench()
    run = w.scored(bench)
    run_benchmark(RunConfig(bench_dir=bench, out_dir=run, model=ModelConfig(spec="frequent"),
                            force_new=True))
    return ["report", str(run), "-o", str(w.root / "r.html")]


def _stale_compare(w: Workspace) -> list[str]:
    bench = w.bench()
    run = w.scored(bench)
    lines = (run / "predictions.jsonl").read_text().splitlines(keepends=True)
    (run / "predictions.jsonl").write_text("".join(lines[:-1]))
    return ["compare", str(run), str(w.scored(bench, "other"))]


def _corrupt_metrics(w: Workspace) -> list[str]:
    run = w.scored(w.bench())
    (run / "metrics.json").write_bytes(b'{"style": "strict", "n": \xff')
    return ["report", str(run), "-o", str(w.root / "r.html")]


def _build_on_full_disk(w: Workspace) -> list[str]:
    disk = w.small_disk()
    w.fill(disk, 200_000)  # the LC25000 benchmark needs about 1.8 MB
    return ["build", "lc25000_lung", "-o", str(disk / "b")]


def _run_on_full_disk(w: Workspace) -> list[str]:
    bench = w.bench()
    disk = w.small_disk()
    w.fill(disk, 8_000)
    return ["run", str(bench), "-m", "random", "--conditions", "clean,blind", "-o",
            str(disk / "run")]


def _score_on_full_disk(w: Workspace) -> list[str]:
    bench = w.bench(n=24)
    disk = w.small_disk()
    run = w.run(bench, name="disk/run")
    w.fill(disk, 0)
    return ["score", str(bench), str(run)]


def _empty_recipe_data(w: Workspace) -> list[str]:
    (w.root / "nothing").mkdir()
    return ["build", "idrid_dr_grade", "-o", str(w.root / "b"), "--data-root",
            str(w.root / "nothing")]


def _audit(*extra: str, edit: Callable[[list[bytes]], list[bytes]] | None = None) -> Setup:
    def setup(w: Workspace) -> list[str]:
        bench = w.bench()
        if edit is not None:
            w.edit_items(bench, edit)
        return ["audit", str(bench), "--no-html", *(a.replace("ROOT", str(w.root))
                                                     for a in extra)]
    return setup


def _audit_unscored_run(w: Workspace) -> list[str]:
    bench = w.bench()
    return ["audit", str(bench), "--runs", str(w.run(bench)), "--no-html"]


def _not_a_bench(command: str) -> Setup:
    def setup(w: Workspace) -> list[str]:
        (w.root / "folder").mkdir()
        return [command, str(w.root / "folder")]
    return setup


def _empty_dir(w: Workspace) -> list[str]:
    (w.root / "nothing").mkdir()
    return ["audit", str(w.bench()), "--against", str(w.root / "nothing"), "--no-html"]


def _bench_run(*extra: str, model: str = "random") -> Setup:
    return lambda w: ["run", str(w.bench()), "-m", model, "-o", str(w.root / "run"), *extra]


def _edited_run(edit: Callable[[list[bytes]], list[bytes]]) -> Setup:
    return lambda w: ["run", str(w.edit_items(w.bench(), edit)), "-m", "random", "-o",
                      str(w.root / "run")]


def _edited_validate(edit: Callable[[list[bytes]], list[bytes]]) -> Setup:
    return lambda w: ["validate", str(w.edit_items(w.bench(), edit))]


def _scored_then(*args: str) -> Setup:
    def setup(w: Workspace) -> list[str]:
        bench = w.bench()
        run = w.scored(bench)
        return [args[0], str(bench), str(run), *args[1:]] if args[0] == "score" else \
            [args[0], str(run), *args[1:]]
    return setup


def _extract_prompt_without_user(w: Workspace) -> list[str]:
    bench = w.bench()
    run = w.scored(bench)
    prompt = w.root / "extract.yaml"
    prompt.write_text("version: 1\nsystem: Read the answer.\n")
    return ["score", str(bench), str(run), "--extract", "smollm2", "--extract-prompt",
            str(prompt)]


def _edited_score(edit: Callable[[list[bytes]], list[bytes]]) -> Setup:
    def setup(w: Workspace) -> list[str]:
        bench = w.bench()
        run = w.run(bench)
        w.edit_items(bench, edit)
        return ["score", str(bench), str(run), "--allow-other-benchmark"]
    return setup


class _Pwn:
    """A pickle that would write ``marker`` when loaded unsafely (the safe loader refuses it)."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):  # noqa: ANN204 - pickle protocol
        return (os.system, (f"touch {self.marker}",))


def _unsafe_pickle(path: Path, marker: Path) -> None:
    import pickle

    path.write_bytes(pickle.dumps({"model.embed_tokens.weight": _Pwn(marker)}))


def _hf_pickle(w: Workspace) -> list[str]:
    lm = tiny_text_lm(w.root / "lm")
    (lm / "model.safetensors").unlink()
    _unsafe_pickle(lm / "pytorch_model.bin", w.root / "pwned")
    return ["run", str(w.bench()), "-m", f"hf:{lm}", "-o", str(w.root / "run")]


def _adapter_pickle(w: Workspace) -> list[str]:
    lm = tiny_text_lm(w.root / "lm")
    adapter = w.root / "adapter"
    adapter.mkdir()
    (adapter / "adapter_config.json").write_text(json.dumps({
        "peft_type": "LORA", "task_type": "CAUSAL_LM", "r": 2, "lora_alpha": 4,
        "target_modules": ["q_proj"], "base_model_name_or_path": str(lm)}))
    _unsafe_pickle(adapter / "adapter_model.bin", w.root / "pwned")
    return ["run", str(w.bench()), "-m", f"hf:{lm}", "--adapter", str(adapter), "-o",
            str(w.root / "run")]


def _hf_broken(edit: Callable[[Path], object], *extra: str) -> Setup:
    """``run`` of a tiny real checkpoint in ROOT/lm after ``edit`` spoilt one of its files."""
    def setup(w: Workspace) -> list[str]:
        lm = tiny_text_lm(w.root / "lm")
        edit(lm)
        return ["run", str(w.bench()), "-m", f"hf:{lm}", "-o", str(w.root / "run"), *extra]
    return setup


def _hf_index_without_a_shard(lm: Path) -> None:
    (lm / "model.safetensors").rename(lm / "model-00001-of-00002.safetensors")
    (lm / "model.safetensors.index.json").write_text(json.dumps({"weight_map": {
        "a": "model-00001-of-00002.safetensors", "b": "model-00002-of-00002.safetensors"}}))


def _hf_resumed(change: Callable[[Path], object], *extra: str) -> Setup:
    """A run of a tiny checkpoint, then ``change`` (its weights), then the same run again."""
    def setup(w: Workspace) -> list[str]:
        lm = tiny_text_lm(w.root / "lm")
        argv = ["run", str(w.bench()), "-m", f"hf:{lm}", "-o", str(w.root / "run"), "--limit",
                "2"]
        main_ok(argv)
        change(lm)
        return [*argv, *extra]
    return setup


def _not_a_gguf(w: Workspace) -> list[str]:
    (w.root / "m.gguf").write_text("<html>")
    return ["run", str(w.bench()), "-m", f"hf:{w.root / 'm.gguf'}", "-o", str(w.root / "run")]


def _retrain(lm: Path) -> None:
    from safetensors.torch import load_file, save_file

    tensors = load_file(lm / "model.safetensors")
    save_file({k: v * 2 for k, v in tensors.items()}, lm / "model.safetensors",
              metadata={"format": "pt"})


def _huge_image(w: Workspace) -> list[str]:
    """``build`` of an image folder whose one image is a (sparse) file one byte above the cap."""
    argv = _recipe_with()(w)
    image = w.root / "rec" / "imgs" / "lung_n" / "a.jpeg"
    with image.open("r+b") as fh:
        fh.truncate(MAX_IMAGE_FILE_BYTES + 1)
    return argv


def _huge_bench_image(w: Workspace) -> list[str]:
    """``validate`` of a benchmark whose first image is a (sparse) file above the cap."""
    bench = w.bench()
    rel = json.loads((bench / "items.jsonl").read_text().splitlines()[0])["images"][0]
    with (bench / rel).open("r+b") as fh:
        fh.truncate(MAX_IMAGE_FILE_BYTES + 1)
    return ["validate", str(bench)]


def _supervised_corrupt(w: Workspace) -> list[str]:
    import hashlib

    folder = w.root / "clf"
    folder.mkdir()
    data = b"\xff\xff\xff\xff\xff\xff\xff\x7f{not a safetensors header"
    (folder / "weights.safetensors").write_bytes(data)
    (folder / "classifier.json").write_text(json.dumps({
        "method": "finetune", "arch": "small-cnn", "mode": "multi", "image_size": 32,
        "categories": {"lung_aca": ["adenocarcinoma", "benign"]},
        "weights_sha256": hashlib.sha256(data).hexdigest()}))
    return ["run", str(w.bench()), "-m", f"supervised:{folder}", "-o", str(w.root / "run")]


def _open_questions_without_images(w: Workspace) -> list[str]:
    from medvqa.schema import Item

    items = [Item(id=f"q{i}", images=[], question=f"What is {i} + {i}?", options={},
                  answer=str(2 * i), question_type="open", split="test") for i in range(3)]
    bench = w.make_bench(w.root / "bench", items=items)
    return ["export", str(bench), "--format", "vlmevalkit", "-o", str(w.root / "out.tsv")]


def _lmms_log_of_train_as_test(w: Workspace) -> list[str]:
    """An lmms-eval samples log of the train split (positions, targets), imported as test."""
    bench = w.bench()
    train = [json.loads(line) for line in (bench / "items.jsonl").read_text().splitlines()
             if json.loads(line)["split"] == "train"]
    log = w.root / "samples_medvqa_lung.jsonl"
    log.write_text("".join(json.dumps({"doc_id": n, "target": item["answer"],
                                       "filtered_resps": [item["answer"]]}) + "\n"
                           for n, item in enumerate(train)))
    return ["import-predictions", "lmms-eval", str(log), "--bench", str(bench), "--split",
            "test", "-o", str(w.root / "run")]


def _audited(w: Workspace, sample: str = "4") -> tuple[Path, Path, Path]:
    """A benchmark, a scored run and a review database with the run queued."""
    bench = w.bench(n=12)
    run = w.scored(bench)
    db = w.root / "review.sqlite"
    main_ok(["review", "adjudicate", str(bench), str(run), "--db", str(db), "--sample", sample])
    return bench, run, db


def main_ok(argv: list[str]) -> None:
    """Run a setup command that must succeed."""
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 0


def _adjudication_of_other_benchmark(w: Workspace) -> list[str]:
    _, _, db = _audited(w)
    other = w.bench("other", n=8)
    return ["score", str(other), str(w.scored(other, "run2")), "--adjudication", str(db)]


def _adjudication_file_of_other_benchmark(w: Workspace) -> list[str]:
    bench, _, db = _audited(w)
    main_ok(["review", "export-adjudication", str(bench), "--db", str(db), "-o",
             str(w.root / "adj.json")])
    other = w.bench("other", n=8)
    return ["score", str(other), str(w.scored(other, "run2")), "--adjudication",
            str(w.root / "adj.json")]


def _adjudication_of_other_run(w: Workspace) -> list[str]:
    bench, _, db = _audited(w)
    return ["score", str(bench), str(w.scored(bench, "run2", model="frequent")),
            "--adjudication", str(db)]


def _sample_larger_than_run(w: Workspace) -> list[str]:
    bench = w.bench(n=12)
    run = w.scored(bench)
    return ["review", "adjudicate", str(bench), str(run), "--db", str(w.root / "r.sqlite"),
            "--sample", "500"]


def _adjudicate_unscored(w: Workspace) -> list[str]:
    bench = w.bench()
    return ["review", "adjudicate", str(bench), str(w.run(bench)), "--db",
            str(w.root / "r.sqlite")]


def _irt_runs(w: Workspace, bench: Path, n: int, scored: bool = True) -> list[str]:
    """``--runs`` arguments of ``n`` runs of the random model on ``bench``."""
    args = []
    for i in range(n):
        out = w.scored(bench, f"run{i}") if scored else w.run(bench, f"run{i}")
        args += ["--runs", str(out)]
    return args


def _irt_too_few(w: Workspace) -> list[str]:
    bench = w.bench()
    return ["irt", "fit", str(bench), *_irt_runs(w, bench, 3), "-o", str(w.root / "irt.json")]


def _irt_other_bench(w: Workspace) -> list[str]:
    bench, other = w.bench(), w.bench("other", n=5)
    runs = _irt_runs(w, bench, 4) + ["--runs", str(w.scored(other, "elsewhere"))]
    return ["irt", "fit", str(bench), *runs, "-o", str(w.root / "irt.json")]


def _irt_not_scored(w: Workspace) -> list[str]:
    bench = w.bench()
    return ["irt", "fit", str(bench), *_irt_runs(w, bench, 5, scored=False), "-o",
            str(w.root / "irt.json")]


def _adaptive_exposure_unknown(w: Workspace) -> list[str]:
    """A real calibration of the benchmark, and an exposure control that does not exist."""
    from medvqa.irt import IrtFitConfig, fit_irt

    bench = w.bench()
    runs = tuple(w.scored(bench, f"run{i}") for i in range(5))
    fit_irt(IrtFitConfig(bench, runs, w.root / "irt.json", folds=0, exposure_rate=0.0))
    return ["run", str(bench), "--model", "random", "-o", str(w.root / "run"), "--adaptive",
            str(w.root / "irt.json"), "--exposure", "bogus"]


def _adaptive_option_alone(option: str, value: str) -> Callable[[Workspace], list[str]]:
    def setup(w: Workspace) -> list[str]:
        """An option of adaptive runs, without --adaptive: it would be ignored."""
        return ["run", str(w.bench()), "--model", "random", "-o", str(w.root / "run"),
                option, value]
    return setup


def _adaptive_other_items(w: Workspace) -> list[str]:
    from medvqa.schema import IrtCalibration, IrtPriors, write_json

    bench = w.bench()
    write_json(w.root / "irt.json", IrtCalibration(
        tool_version="test", benchmark="elsewhere", items_sha256="0" * 64, item_model="2pl",
        conditions=["clean"], priors=IrtPriors(slope_mean=1, slope_sd=0.5, intercept_sd=2.5,
                                               empirical=True),
        loglik=0.0, aic=0.0, bic=0.0, iterations=1, converged=True, models=[], items=[]))
    return ["run", str(bench), "--model", "random", "-o", str(w.root / "run"), "--adaptive",
            str(w.root / "irt.json")]
def _power_other_benchmark(w: Workspace) -> list[str]:
    run = w.scored(w.bench("a"))
    return ["power", str(w.bench("b", n=4)), "--runs", str(run)]


def _power_items(n: int) -> Setup:
    def setup(w: Workspace) -> list[str]:
        bench = w.bench(n=max(n, 1))
        if not n:
            w.edit_items(bench, _empty)
        return ["power", str(bench)]
    return setup


URL = "http://127.0.0.1:9/v1"


def _models_run(text: str) -> Setup:
    """``run --models`` with a models.yaml of ``text`` (the first model would run fine)."""
    def setup(w: Workspace) -> list[str]:
        (w.root / "models.yaml").write_text("models:\n  - name: first\n    spec: random\n"
                                            + text)
        return ["run", str(w.bench()), "--models", str(w.root / "models.yaml"), "-o",
                str(w.root / "run")]
    return setup


BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"


def _image_outside(w: Workspace) -> list[str]:
    bench = w.bench()
    shutil.copy(next((bench / "images").rglob("*.jpeg")), w.root / "secret.jpeg")

    def edit(lines: list[bytes]) -> list[bytes]:
        item = json.loads(lines[0])
        item["images"] = ["../secret.jpeg"]
        lines[0] = (json.dumps(item) + "\n").encode()
        return lines
    w.edit_items(bench, edit)
    return ["export", str(bench), "--format", "vlmevalkit", "-o", str(w.root / "out.tsv")]


def _image_fifo(w: Workspace) -> list[str]:
    bench = w.bench()
    rel = json.loads((bench / "items.jsonl").read_text().splitlines()[0])["images"][0]
    (bench / rel).unlink()
    os.mkfifo(bench / rel)
    return ["validate", str(bench)]


def _card_template(name: str, then: str = "validate") -> Setup:
    def setup(w: Workspace) -> list[str]:
        bench = w.bench()
        (w.root / "local.yaml").write_text("name: local\ntemplates: {single: '{question}'}\n")
        card = json.loads((bench / "benchmark.json").read_text())
        card["prompt_template"] = name.replace("ROOT", str(w.root))
        (bench / "benchmark.json").write_text(json.dumps(card))
        if then == "run":
            return ["run", str(bench), "-m", "random", "-o", str(w.root / "run")]
        return ["validate", str(bench)]
    return setup


def _items_link_out(w: Workspace) -> list[str]:
    bench = w.bench()
    shutil.move(bench / "items.jsonl", w.root / "elsewhere.jsonl")
    (bench / "items.jsonl").symlink_to(w.root / "elsewhere.jsonl")
    return ["run", str(bench), "-m", "random", "-o", str(w.root / "run")]


def _prompt_bomb(w: Workspace) -> list[str]:
    (w.root / "p.yaml").write_text("name: p\ntemplates: {single: '{question}'}\n" + BOMB)
    return ["run", str(w.bench()), "-m", "random", "--prompt", str(w.root / "p.yaml"), "-o",
            str(w.root / "run")]


def _recipe_bomb(w: Workspace) -> list[str]:
    (w.root / "r.yaml").write_text("name: r\n" + BOMB)
    return ["build", str(w.root / "r.yaml"), "-o", str(w.root / "b")]


def _predictions(edit: Callable[[list[str]], list[str]], command: str = "score") -> Setup:
    def setup(w: Workspace) -> list[str]:
        bench = w.bench()
        run = w.run(bench)
        path = run / "predictions.jsonl"
        path.write_text("".join(edit(path.read_text().splitlines(keepends=True))))
        return ["score", str(bench), str(run)]
    return setup


def _other_item(lines: list[str]) -> list[str]:
    return lines + [lines[0].replace('"lung-000"', '"elsewhere-7"')]


def _unknown_condition(lines: list[str]) -> list[str]:
    return [lines[0].replace('"clean"', '"nosuch"')] + lines[1:]


def _mixed_styles(w: Workspace) -> list[str]:
    bench = w.bench()
    a, b = w.scored(bench, "a"), w.run(bench, "b")
    score_run(ScoreConfig(bench, b, resamples=99, style="mammovqa"))
    return ["compare", str(a), str(b)]


def _review_export_inside(w: Workspace) -> list[str]:
    bench = w.bench()
    return ["review", "export", str(bench), "-o", str(bench / "v2"), "--db",
            str(w.root / "r.sqlite")]


def _a_folder(w: Workspace, *argv: str) -> list[str]:
    (w.root / "dir").mkdir()
    return [a.replace("DIR", str(w.root / "dir")) for a in argv]


def _not_utf8_table(w: Workspace) -> list[str]:
    (w.root / "t.tsv").write_bytes(b"question\tanswer\n\xff\xfe\tA\n")
    return ["import", "vlmevalkit", str(w.root / "t.tsv"), "-o", str(w.root / "b")]

#: A JSON value nested deeper than any parser here reads (Python's json would overflow).
DEEP = b"[" * 100_000 + b"]" * 100_000


def _deep_item_after_run(w: Workspace) -> list[str]:
    bench = w.bench()
    run = w.run(bench)
    w.edit_items(bench, lambda ls: [ls[0].replace(b'"meta":{}', b'"meta":{"x":' + DEEP + b"}"),
                                    *ls[1:]])
    return ["score", str(bench), str(run)]


def _deep_prediction(lines: list[str]) -> list[str]:
    return lines + ['{"item_id": "lung-000", "x": ' + DEEP.decode() + "}\n"]


def _deep_responses(w: Workspace) -> list[str]:
    good = {"id": "q1", "response": "B", "options": {"A": "yes", "B": "no"},
            "question_type": "single", "answer": "B"}
    (w.root / "r.jsonl").write_bytes(json.dumps(good).encode() + b"\n" + DEEP + b"\n")
    return ["parse", str(w.root / "r.jsonl"), "-o", str(w.root / "parsed.jsonl")]


def _vlmevalkit_row(w: Workspace, image: bytes, meta: str = "") -> list[str]:
    import base64

    (w.root / "t.tsv").write_text("index\tquestion\tA\tB\tanswer\timage\tmeta\n"
                                  f"0\tq?\tx\ty\tA\t{base64.b64encode(image).decode()}\t{meta}\n")
    return ["import", "vlmevalkit", str(w.root / "t.tsv"), "-o", str(w.root / "b")]


def _vlmevalkit_meta_list(w: Workspace) -> list[str]:
    image = next((w.bench() / "images").rglob("*.jpeg")).read_bytes()
    return _vlmevalkit_row(w, image, "[1, 2]")


def _vqa_rad_rows(**fields: object) -> Setup:
    """A VQA-RAD JSON of one row whose ``fields`` are replaced (its image beside it)."""
    def setup(w: Workspace) -> list[str]:
        shutil.copy(next((w.bench() / "images").rglob("*.jpeg")), w.root / "a.jpeg")
        row = {"qid": 1, "image_name": "a.jpeg", "question": "Is it lung?", "answer": "yes",
               "answer_type": "CLOSED", "phrase_type": "freeform", **fields}
        (w.root / "vqa.json").write_text(json.dumps([row]))
        return ["import", "vqa_rad", str(w.root / "vqa.json"), "-o", str(w.root / "b")]
    return setup


def _option_key(key: str, command: str) -> Setup:
    """``command`` on a benchmark whose second item (a test item) has option key ``key``."""
    def edit(lines: list[bytes]) -> list[bytes]:
        item = json.loads(lines[1])
        item["options"] = {"A": "adenocarcinoma", "B": "benign", key: "squamous cell carcinoma"}
        lines[1] = (json.dumps(item) + "\n").encode()
        return lines

    def setup(w: Workspace) -> list[str]:
        bench = w.edit_items(w.bench(), edit)
        if command == "validate":
            return ["validate", str(bench)]
        return ["export", str(bench), "--format", command, "-o", str(w.root / "out")]
    return setup


def _duplicate_export(fmt: str) -> Setup:
    def setup(w: Workspace) -> list[str]:
        bench = w.edit_items(w.bench(), _duplicate)
        return ["export", str(bench), "--format", fmt, "-o", str(w.root / "out")]
    return setup


def _two_options(lines: list[bytes]) -> list[bytes]:
    """The second item (a test item, answer B) asked with two options."""
    item = json.loads(lines[1])
    item["options"] = {"A": "adenocarcinoma", "B": "benign"}
    lines[1] = (json.dumps(item) + "\n").encode()
    return lines


def _permute(spec: str, edit: Callable[[list[bytes]], list[bytes]] | None = None) -> Setup:
    def setup(w: Workspace) -> list[str]:
        bench = w.bench()
        if edit is not None:
            w.edit_items(bench, edit)
        return ["run", str(bench), "-m", "random", "--conditions", f"clean,{spec}", "-o",
                str(w.root / "run")]
    return setup


def _review_export(decide: str | None, db: bool = True) -> Setup:
    """``review export`` of a benchmark whose review database holds ``decide`` for every item
    (None: a reviewer and no decision; ``db`` False: no database at all)."""
    def setup(w: Workspace) -> list[str]:
        bench = w.bench()
        path = w.root / "r.sqlite"
        if db:
            from medvqa.review import ReviewStore, load_bench

            store = ReviewStore(str(path))
            key = load_bench(bench).key
            store.add_reviewer("a", "reviewer", [key])
            (reviewer,) = store.reviewers()
            for n in range(6 if decide else 0):
                store.record_decision(nonce=str(n), bench=key, item_id=f"lung-{n:03d}",
                                      reviewer=reviewer, kind="review", verdict=decide,
                                      reason="ambiguous" if decide == "reject" else None)
        return ["review", "export", str(bench), "-o", str(w.root / "v2"), "--db", str(path),
                "--per-item", "1"]
    return setup


def _table_image_outside(w: Workspace) -> list[str]:
    """``import table`` of a CSV whose first row names an image outside its folder."""
    src = w.root / "src"
    src.mkdir()
    shutil.copy(next((w.bench() / "images").rglob("*.jpeg")), src / "ok.jpeg")
    (src / "t.csv").write_text("q,a,img,o1,o2\nWhich?,A,../secret.jpeg,x,y\n"
                               "Which?,B,ok.jpeg,x,y\n")
    return ["import", "table", str(src / "t.csv"), "--map",
            "question=q;answer=a;image=img;options=o1,o2", "-o", str(w.root / "b")]


def _over_a_benchmark(*argv: str) -> Setup:
    """``argv`` with ROOT/bench a benchmark (and its audit) already there."""
    def setup(w: Workspace) -> list[str]:
        bench = w.bench()
        (bench / "audit.json").write_text("{}\n")
        (w.root / "t.tsv").write_text("index\tquestion\tA\tB\tanswer\n0\tq?\tx\ty\tA\n")
        (w.root / "caps.csv").write_text("id,caption\nc1,a caption\n")
        return [a.replace("ROOT", str(w.root)) for a in argv]
    return setup


def _recipe_with(path: str = "imgs", labels: str = "", reader: str = "image_folder") -> Setup:
    """``build`` of a recipe in ROOT/rec naming ``path`` and ``labels`` (ROOT replaced).

    ROOT/rec/imgs/lung_n holds one real image; ROOT/elsewhere is a copy of it outside the
    recipe's folder, ROOT/rec/out a link to it, ROOT/rec/pipe.csv a FIFO.
    """
    def setup(w: Workspace) -> list[str]:
        image = next((w.bench() / "images").rglob("*.jpeg"))
        for folder in (w.root / "rec" / "imgs" / "lung_n", w.root / "elsewhere" / "lung_n"):
            folder.mkdir(parents=True)
            shutil.copy(image, folder / "a.jpeg")
        (w.root / "rec" / "out").symlink_to(w.root / "elsewhere")
        os.mkfifo(w.root / "rec" / "pipe.csv")
        (w.root / "rec" / "t.csv").write_text("img,label\n../../secret.jpeg,x\nlung_n/a.jpeg,y\n")
        (w.root / "rec" / "r.yaml").write_text(
            f"name: r\nsources:\n  - {{dataset: x, reader: {reader}, path: "
            f"'{path.replace('ROOT', str(w.root))}', labels: [{labels}], image_column: img}}\n"
            "topics:\n  - {name: t, column: label, questions: ['Which?']}\n")
        return ["build", str(w.root / "rec" / "r.yaml"), "-o", str(w.root / "b")]
    return setup


def _huge_label_table(w: Workspace) -> list[str]:
    """``build`` of a recipe whose label table is one byte above the cap (a sparse file)."""
    argv = _recipe_with(labels="big.csv", reader="table")(w)
    with (w.root / "rec" / "big.csv").open("wb") as fh:
        fh.write(b"img,label\nlung_n/a.jpeg,y\n")
        fh.truncate(MAX_LABEL_TABLE_BYTES + 1)
    return argv


def _models_weights(text: str, head: str = "") -> Setup:
    """``run --models ROOT/mf/models.yaml`` whose second model is ``text`` (ROOT replaced).

    ``head`` comes before ``models:``. ROOT/elsewhere is a weights folder outside the models
    file's folder, ROOT/mf/out a link to it; ROOT/org/name is a folder of the working folder
    (ROOT, where the command runs) only.
    """
    def setup(w: Workspace) -> list[str]:
        (w.root / "elsewhere").mkdir()
        (w.root / "elsewhere" / "config.json").write_text("{}")
        (w.root / "org" / "name").mkdir(parents=True)
        (w.root / "mf").mkdir()
        (w.root / "mf" / "out").symlink_to(w.root / "elsewhere")
        (w.root / "mf" / "models.yaml").write_text(
            head + "models:\n  - name: first\n    spec: random\n"
            + text.replace("ROOT", str(w.root)))
        os.chdir(w.root)  # the test restores the working folder
        return ["run", str(w.bench()), "--models", str(w.root / "mf" / "models.yaml"), "-o",
                str(w.root / "run")]
    return setup


def _import_image_folder_link(w: Workspace) -> list[str]:
    """``import vqa_rad`` of a JSON whose image folder beside it is a link elsewhere."""
    (w.root / "src").mkdir()
    (w.root / "elsewhere").mkdir()
    (w.root / "src" / "VQA_RAD Image Folder").symlink_to(w.root / "elsewhere")
    (w.root / "src" / "r.json").write_text(json.dumps([{
        "qid": 1, "image_name": "a.jpg", "question": "Is it?", "answer": "yes",
        "answer_type": "CLOSED", "phrase_type": "test_freeform", "question_type": "PRES"}]))
    return ["import", "vqa_rad", str(w.root / "src" / "r.json"), "-o", str(w.root / "b")]


def _models_prompt(prompt: str) -> Setup:
    """``run --models ROOT/mf/models.yaml`` whose second model's ``prompt:`` is ``prompt``.

    ROOT/local.yaml is a valid template outside the models file's folder, ROOT/mf/link.yaml
    a link to it.
    """
    def setup(w: Workspace) -> list[str]:
        (w.root / "local.yaml").write_text("name: local\ntemplates: {single: '{question}'}\n")
        (w.root / "mf").mkdir()
        (w.root / "mf" / "link.yaml").symlink_to(w.root / "local.yaml")
        (w.root / "mf" / "models.yaml").write_text(
            "models:\n  - name: first\n    spec: random\n  - name: second\n    spec: random\n"
            f"    prompt: {prompt}\n")
        return ["run", str(w.bench()), "--models", str(w.root / "mf" / "models.yaml"), "-o",
                str(w.root / "run")]
    return setup


def _llm_input_not_utf8(command: str) -> Setup:
    """``build captions|reports`` of a CSV, or a reports folder, holding bytes not UTF-8."""
    def setup(w: Workspace) -> list[str]:
        if command == "reports-folder":
            (w.root / "reps").mkdir()
            (w.root / "reps" / "r1.txt").write_text("A 2 cm nodule in the right upper lobe.\n")
            (w.root / "reps" / "r2.txt").write_bytes(b"A \xff\xfe nodule.\n")
            return ["build", "reports", str(w.root / "reps"), "--schema", "lirads", "-o",
                    str(w.root / "b"), "--model", "random", "--no-mcq"]
        column = "caption" if command == "captions" else "text"
        (w.root / "in.csv").write_bytes(f"id,{column}\nc1,A chest CT shows a ".encode()
                                        + b"\xff\xfe nodule.\n")
        tail = ["--judges", "", "--keywords", ""] if command == "captions" else [
            "--schema", "lirads", "--no-mcq"]
        return ["build", command, str(w.root / "in.csv"), "-o", str(w.root / "b"), "--model",
                "random", *tail]
    return setup


#: The end of every "may not be written" line.
UNWRITABLE = "choose a folder you may write (-o/--out), or fix its permissions"


def _unwritable(command: str) -> Setup:
    """``command`` writing into a folder nobody may write (its inputs copied there first)."""
    def setup(w: Workspace) -> list[str]:
        bench = w.bench()
        run = w.scored(bench)
        ro = w.read_only("ro", bench, run)
        return {
            "run-new": ["run", str(bench), "-m", "random", "-o", str(ro / "new")],
            "run-resume": ["run", str(ro / "bench"), "-m", "random", "-o", str(ro / "run")],
            "score": ["score", str(ro / "bench"), str(ro / "run"), "--resamples", "99"],
            "report": ["report", str(run), "-o", str(ro / "r.html")],
            "audit": ["audit", str(ro / "bench"), "--no-html"],
            "export": ["export", str(bench), "--format", "vlmevalkit", "-o", str(ro / "x.tsv")],
            "export-folder": ["export", str(bench), "--format", "lmms-eval", "-o",
                              str(ro / "tasks")],
            "build": ["build", "lc25000_lung", "-o", str(ro / "b")],
        }[command]
    return setup



def _keywords_not_utf8(w: Workspace) -> list[str]:
    (w.root / "caps.csv").write_text("id,caption\nc1,A chest CT shows a nodule.\n")
    (w.root / "k.yaml").write_bytes(b"name: k\nterms: [\xff\xfe]\n")
    return ["build", "captions", str(w.root / "caps.csv"), "-o", str(w.root / "b"), "--model",
            "random", "--judges", "", "--keywords", str(w.root / "k.yaml")]


def _table_not_utf8(suffix: str) -> Setup:
    def setup(w: Workspace) -> list[str]:
        sep = b"\t" if suffix == "tsv" else b","
        (w.root / f"t.{suffix}").write_bytes(b"q" + sep + b"a\nIs it?" + sep + b"\xff\xfe\n")
        return ["import", "table", str(w.root / f"t.{suffix}"), "--map", "question=q;answer=a",
                "-o", str(w.root / "b")]
    return setup


def _lmms_log(text: bytes) -> Setup:
    def setup(w: Workspace) -> list[str]:
        (w.root / "samples_x.jsonl").write_bytes(text)
        return ["import-predictions", "lmms-eval", str(w.root / "samples_x.jsonl"), "--bench",
                str(w.bench()), "-o", str(w.root / "run")]
    return setup


def _inspect_log_a_list(w: Workspace) -> list[str]:
    (w.root / "log.json").write_text("[1]")
    return ["import-predictions", "inspect", str(w.root / "log.json"), "--bench",
            str(w.bench()), "-o", str(w.root / "run")]


def _not_a_database(command: str, data: bytes = b"id,answer\n" * 100) -> Setup:
    """A review command whose --db names a file that is not a SQLite database (kept as is)."""
    def setup(w: Workspace) -> list[str]:
        bench = w.bench()
        (w.root / "answers.csv").write_bytes(data)
        db = ["--db", str(w.root / "answers.csv")]
        return {"stats": ["review", "stats", str(bench), *db],
                "exam": ["review", "exam", str(bench), "--split", "test", *db, "--runs",
                         str(w.root / "runs"), "--write-runs"]}[command]
    return setup


def _irt_out_a_folder(w: Workspace) -> list[str]:
    bench = w.bench()
    (w.root / "dir").mkdir()
    return ["irt", "fit", str(bench), *_irt_runs(w, bench, 5), "--folds", "0", "-o",
            str(w.root / "dir")]


def _two_versions(command: str) -> Setup:
    """``command`` on two runs of one benchmark name scored on different items (v1 and v2)."""
    def setup(w: Workspace) -> list[str]:
        v1 = w.bench("v1")
        v2 = w.edit_items(w.bench("v2"), lambda ls: [ls[0].replace(b"What tissue",
                                                                   b"Which tissue"), *ls[1:]])
        a, b = w.scored(v1, "a"), w.scored(v2, "b")
        if command == "report":
            return ["report", str(a), str(b), "--bench", str(v1), "-o", str(w.root / "r.html")]
        return ["compare", str(a), str(b), "--no-cluster"]
    return setup


CASES: list[Case] = [
    # validate
    Case("validate-not-utf8", _edited_validate(_not_utf8), 2,
         "items.jsonl:3: (encoding): not UTF-8"),
    Case("validate-empty", _edited_validate(_empty), 2, "the benchmark has no items"),
    Case("validate-link-outside", _outside_link, 2, "outside the benchmark folder (a link to"),
    Case("validate-card-fields", _card_missing_fields, 2, "name: Field required; "
         "created_with: Field required"),
    # run
    Case("run-not-utf8", _edited_run(_not_utf8), 2, "items.jsonl:3: (encoding): not UTF-8",
         absent=("run",)),
    Case("run-duplicate-ids", _edited_run(_duplicate), 2, "duplicate item id(s): 'lung-001'",
         absent=("run",)),
    Case("run-empty", _edited_run(_empty), 2, "no items", absent=("run",)),
    Case("run-out-is-bench", lambda w: ["run", str(w.bench()), "-m", "random", "-o",
                                        str(w.root / "bench")], 1, "is the benchmark folder"),
    Case("run-name-two-lines", _bench_run("--name", "a\nb"), 2,
         "--name 'a\\nb': a display name is one line of printable text", absent=("run",)),
    Case("run-name-with-models", lambda w: [*_models_run("")(w), "--name", "x"], 2,
         "--name names one --model; in models.yaml give each model a `name`", absent=("run",)),
    Case("run-ftp-endpoint", _bench_run(model="openai:m@ftp://127.0.0.1/v1"), 1,
         "scheme 'ftp' is not supported", absent=("run",)),
    Case("run-credentials-in-url", _bench_run(model=f"openai:m@http://me:s3cretpw@{URL[7:]}"), 1,
         "--api-key-env", forbid=("Traceback", "s3cretpw"), absent=("run",)),
    Case("run-unset-key-env", _bench_run("--api-key-env", "MEDVQA_NO_SUCH_KEY",
                                         model=f"openai:m@{URL}"), 1,
         "--api-key-env MEDVQA_NO_SUCH_KEY: the variable is not set",
         env={"MEDVQA_NO_SUCH_KEY": None}),
    Case("run-hosted-without-key", _bench_run(model="openai:gpt-4o"), 1,
         "needs an API key and $OPENAI_API_KEY is not set", env={"OPENAI_API_KEY": None}),
    Case("run-unknown-backend", _bench_run(model="nosuch:m"), 2, "unknown model kind 'nosuch'",
         absent=("run",)),
    Case("run-unknown-device", _bench_run("--device", "tpu"), 2,
         "--device: unknown device 'tpu'; use one of auto, cpu, cuda", absent=("run",)),
    Case("run-unknown-dtype", _bench_run("--dtype", "float8"), 2,
         "--dtype: unknown dtype 'float8'", absent=("run",)),
    Case("run-missing-checkpoint", lambda w: ["run", str(w.bench()), "-m",
                                              f"hf:{w.root / 'nothing'}", "-o",
                                              str(w.root / "run")], 2,
         "not a local checkpoint folder", absent=("run",)),
    # Weights that are not what they claim: one line naming the file; no pickled code runs.
    Case("run-hf-unsafe-pickle", _hf_pickle, 2, "pytorch_model.bin: cannot load the weights: "
         "a pickle that the safe loader refuses", absent=("run", "pwned")),
    Case("run-adapter-unsafe-pickle", _adapter_pickle, 2, "adapter_model.bin: cannot load the "
         "weights: a pickle that the safe loader refuses", absent=("run", "pwned")),
    Case("run-supervised-corrupt-header", _supervised_corrupt, 2, "weights.safetensors: cannot "
         "load the weights: not a valid safetensors file", absent=("run",)),
    Case("models-unknown-field", _models_run("  - spec: random\n    colour: red\n"), 2,
         "models.yaml:5: models[1].colour: unknown field; use one of spec", absent=("run",)),
    # A name is a folder under --out: one safe component, refused before anything runs.
    Case("models-name-parent", _models_run("  - spec: random\n    name: ../escaped\n"), 2,
         "models.yaml:5: models[1].name: '../escaped' is not one safe folder name",
         absent=("run", "escaped")),
    Case("models-name-absolute", _models_run("  - spec: random\n    name: /tmp/medvqa-abs\n"),
         2, "models[1].name: '/tmp/medvqa-abs' is not one safe folder name", absent=("run",)),
    Case("models-name-nested", _models_run("  - spec: random\n    name: a/b\n"), 2,
         "e.g. name: a-b", absent=("run",)),
    Case("models-name-markup", _models_run("  - spec: random\n    name: '<script>'\n"), 2,
         "models[1].name: '<script>' is not one safe folder name", absent=("run",)),
    Case("models-unknown-device", _models_run("  - spec: random\n    parameters: "
                                              "{device: tpu}\n"), 2,
         "models[1].parameters.device: unknown device 'tpu'", absent=("run",)),
    # Checked for every model before the first runs: nothing is half-written.
    Case("models-missing-key", _models_run("  - spec: openai:gpt-4o\n    parameters: "
                                           "{api_key_env: MEDVQA_NO_SUCH_KEY}\n"), 2,
         "models.yaml:4: models[1]: parameters.api_key_env MEDVQA_NO_SUCH_KEY: the variable "
         "is not set", env={"MEDVQA_NO_SUCH_KEY": None}, absent=("run",)),
    # An item line that does not validate is refused, not skipped: the denominator would change.
    Case("run-item-line-invalid", _edited_run(_malformed), 2, "items.jsonl:3: question",
         absent=("run",)),
    Case("run-answer-not-an-option", _edited_run(_answer_not_an_option), 2,
         "items.jsonl:3: answer: 'Z' is not among the options", absent=("run",)),
    # score and compare
    Case("score-not-utf8", _edited_score(_not_utf8), 2, "(encoding): not UTF-8"),
    Case("score-answer-not-an-option", _edited_score(_answer_not_an_option), 2,
         "items.jsonl:3: item lung-002: answer: 'Z' is not among the options",
         absent=("run/metrics.json",)),
    Case("score-other-benchmark", _other_benchmark, 2, "--allow-other-benchmark"),
    Case("score-by-unknown", _scored_then("score", "--by", "nosuchfield"), 1,
         "--by 'nosuchfield': use"),
    Case("score-resamples-0", _scored_then("score", "--resamples", "0"), 1,
         "--resamples must be at least 1"),
    Case("score-extract-prompt-missing-field", _extract_prompt_without_user, 2,
         "extractor prompt: missing field 'user'"),
    Case("score-extract-unknown-spec", _scored_then("score", "--extract", "nosuch:model"), 2,
         "--extract 'nosuch:model'"),
    Case("score-styles-unknown", _scored_then("score", "--styles", "strict,nosuch"), 1,
         "nosuch"),
    # the reader audit (medvqa review adjudicate, score --adjudication)
    Case("score-adjudication-other-benchmark", _adjudication_of_other_benchmark, 2,
         "an adjudication of another benchmark", absent=("run2/metrics.json.tmp",)),
    Case("score-adjudication-file-other-benchmark", _adjudication_file_of_other_benchmark, 2,
         "adj.json: an adjudication of another benchmark (lung-test, items_sha256"),
    Case("score-adjudication-other-run", _adjudication_of_other_run, 2,
         "no audit of"),
    Case("score-adjudication-missing", _scored_then("score", "--adjudication", "/nonexistent"),
         2, "--adjudication /nonexistent: no such file"),
    Case("adjudicate-sample-larger-than-run", _sample_larger_than_run, 0,
         "--sample 500 is more than the 12 responses of run (clean): all 12 are taken"),
    Case("adjudicate-unscored-run", _adjudicate_unscored, 2, "not scored yet"),
    Case("compare-resamples-0", _scored_then("compare", "--resamples", "0"), 1,
         "--resamples must be at least 1"),
    Case("compare-stale", _stale_compare, 2, "metrics.json is stale"),
    # power
    Case("power-no-items", _power_items(0), 2, "0 item(s); a power calculation needs at least 2"),
    Case("power-one-item", _power_items(1), 2, "1 item(s); a power calculation needs at least 2"),
    Case("power-delta-above-1", lambda w: ["power", str(w.bench()), "--delta", "1.5"], 2,
         "--delta 1.5: a difference in accuracy between 0 and 1 (exclusive)"),
    Case("power-delta-0", lambda w: ["power", str(w.bench()), "--delta", "0"], 2,
         "--delta 0: a difference in accuracy between 0 and 1 (exclusive)"),
    Case("power-run-of-another-benchmark", _power_other_benchmark, 2,
         "made for another benchmark"),
    # report
    Case("report-stale", _stale_after_force_new, 2, "metrics.json is stale: run.json changed"),
    Case("report-corrupt-metrics", _corrupt_metrics, 2, "metrics.json:1: (encoding)"),
    # other tools' files
    Case("export-vlmevalkit-nothing-loadable", _open_questions_without_images, 2,
         "nothing VLMEvalKit can load: the 3 item(s) have no image and are open-ended",
         absent=("out*.tsv",)),
    Case("import-lmms-eval-other-split", _lmms_log_of_train_as_test, 2,
         "--split 'test', but 2 of 2 samples do not fit the 'test' item at their doc_id",
         absent=("run",)),
    # build
    Case("build-no-items", _empty_recipe_data, 2, "--data-root", absent=("b",)),
    # over an existing benchmark: refused without --force, before any work
    Case("build-over-a-benchmark", _over_a_benchmark("build", "lc25000_lung", "-o", "ROOT/bench"),
         2, "bench: a benchmark is already there; choose another -o folder, or pass --force",
         absent=(".bench.building-*",)),
    Case("import-over-a-benchmark", _over_a_benchmark("import", "vlmevalkit", "ROOT/t.tsv", "-o",
                                                      "ROOT/bench"),
         2, "bench: a benchmark is already there", absent=(".bench.importing",)),
    Case("build-captions-over-a-benchmark", _over_a_benchmark(
        "build", "captions", "ROOT/caps.csv", "-o", "ROOT/bench", "--model", "random"), 2,
         "bench: a benchmark is already there", absent=(".bench.building-*",)),
    Case("filter-over-a-benchmark", lambda w: ["filter", "guessable", str(w.bench("src")),
                                               "--models", "random", "-o", str(w.bench())], 2,
         "bench: a benchmark is already there", absent=(".bench.building-*",)),
    Case("build-into-a-file", lambda w: (w.root / "f").touch() or
         ["build", "lc25000_lung", "-o", str(w.root / "f")], 2, "is a file, not a folder"),
    # a folder nobody may write (a read-only file system, or mode 0500): one line naming it
    *(Case(f"{name}-read-only", _unwritable(name), 2, UNWRITABLE)
      for name in ("run-new", "run-resume", "score", "report", "audit", "export",
                   "export-folder", "build")),
    # A full disk (a real 3 MB tmpfs): one line naming the folder and what is left as it was.
    Case("build-disk-full", _build_on_full_disk, 2, "disk/b: no space left on the device while "
         "building; the partial build was removed and nothing was written there",
         absent=("disk/b", "disk/.b.building-*", "disk/**/*.tmp")),
    Case("run-disk-full", _run_on_full_disk, 2, "disk/run: no space left on the device; every "
         "file there is whole", absent=("disk/run/*.tmp", "disk/run/.*.tmp")),
    Case("score-disk-full", _score_on_full_disk, 2, "disk/run: no space left on the device; "
         "predictions.jsonl and metrics.json are each whole",
         absent=("disk/run/metrics.json", "disk/run/.*.tmp")),
    # audit and card
    Case("audit-empty-benchmark", _audit(edit=_empty), 2, "no items to audit",
         absent=("bench/audit.json",)),
    Case("audit-not-a-benchmark", _not_a_bench("audit"), 2, "no items.jsonl"),
    Case("audit-against-missing", _audit("--against", "ROOT/missing"), 2, "not a folder",
         absent=("bench/audit.json",)),
    Case("audit-against-no-images", _empty_dir, 2, "no image files"),
    Case("audit-runs-unscored", _audit_unscored_run, 2, "score the run first"),
    Case("audit-fail-on-unknown", _audit("--fail-on", "sometimes"), 1, "--fail-on 'sometimes'"),
    Case("audit-question-method-unknown", _audit("--question-method", "vibes"), 1,
         "use tfidf, jaccard or embeddings"),
    Case("audit-threshold-out-of-range", _audit("--near-threshold", "40"), 1,
         "--near-threshold 40"),
    Case("card-not-a-benchmark", _not_a_bench("card"), 2, "no benchmark.json"),
    # irt and adaptive runs
    Case("irt-too-few-models", _irt_too_few, 2, "a calibration needs at least 5 (add 2 more",
         absent=("irt.json",)),
    Case("irt-other-benchmark", _irt_other_bench, 2, "the run was made on other items",
         absent=("irt.json",)),
    Case("irt-not-scored", _irt_not_scored, 2, "not scored", absent=("irt.json",)),
    Case("adaptive-other-items", _adaptive_other_items, 2, "calibrated on other items",
         absent=("run",)),
    Case("adaptive-exposure-unknown", _adaptive_exposure_unknown, 2,
         "--exposure 'bogus': use one of sympson-hetter, randomesque, none", absent=("run",)),
    *(Case(f"adaptive-option-without-adaptive{option}", _adaptive_option_alone(option, value),
           2, f"{option} is read by adaptive runs only: add --adaptive irt.json",
           absent=("run",))
      for option, value in (("--exposure", "none"), ("--target-se", "0.05"),
                            ("--randomesque", "3"), ("--budget", "50"),
                            ("--adaptive-batch", "4"))),
    # paths from data (issue 39): inside the benchmark, regular files, never a local file
    Case("export-image-outside", _image_outside, 2, "items.jsonl:1: images[0]: image path "
         "'../secret.jpeg' holds a '..' component", absent=("out*.tsv",)),
    Case("validate-image-fifo", _image_fifo, 2, "is a FIFO (named pipe), not a regular file"),
    Case("validate-template-absolute", _card_template("ROOT/local.yaml"), 2,
         "prompt_template: prompt template"),
    Case("run-template-outside", _card_template("../local.yaml", "run"), 2,
         "benchmark.json: prompt_template: prompt template '../local.yaml' holds a '..' "
         "component", absent=("run",)),
    Case("run-items-link-out", _items_link_out, 2, "items.jsonl: file 'items.jsonl' is outside "
         "its folder", absent=("run",)),
    Case("review-export-inside-bench", _review_export_inside, 2,
         "is inside the benchmark being reviewed", absent=("bench/v2",)),
    # option keys are capital letters: a prompt, the parsers and every export name options so
    *(Case(f"validate-option-key-{name}", _option_key(key, "validate"), 2,
           f"items.jsonl:2: options: key {key!r} is not an option letter")
      for name, key in (("digit", "1"), ("lower", "a"), ("two-letters", "AA"), ("empty", ""))),
    *(Case(f"export-{fmt}-option-key-digit", _option_key("1", fmt), 2,
           "items.jsonl:2: options: key '1' is not an option letter", absent=("out*",))
      for fmt in ("vlmevalkit", "parquet", "lmms-eval")),
    # an export's rows are matched back by id: a second item with one id is refused
    *(Case(f"export-{fmt}-duplicate-ids", _duplicate_export(fmt), 2,
           "items.jsonl:7: id: duplicate id 'lung-001' (first on line 2)", absent=("out*",))
      for fmt in ("vlmevalkit", "parquet", "lmms-eval")),
    # permute@k asks the items with more than k options (circular evaluation): a shift
    # written out that asks no item is refused; one that skips some items says how many
    Case("run-permute-beyond-every-item", _permute("permute@5"), 2,
         "--conditions permute@5: no selected item has more than 5 options (the most is 3), "
         "so it would ask nothing", absent=("run",)),
    Case("run-permute-range-beyond-every-item", _permute("permute@0-4"), 2,
         "--conditions permute@3, permute@4: no selected item has more than 3 options",
         absent=("run",)),
    Case("run-permute-beyond-some-items", _permute("permute@0-2", _two_options), 0,
         "note: permute@2: not asked of 1 of the 4 selected choice items (they have 2 options "
         "or fewer"),
    # review export: a version of nothing reviewed is refused, not written empty
    Case("review-export-unreviewed", _review_export(None), 2,
         "nobody has reviewed it yet (no decision on any of its 6 items", absent=("v2",)),
    Case("review-export-no-database", _review_export(None, db=False), 2,
         "r.sqlite: no review database: nobody has reviewed", absent=("v2", "r.sqlite")),
    Case("review-export-all-rejected", _review_export("reject"), 2,
         "no item is kept (6 removed, 0 unresolved of 6)", absent=("v2",)),
    # a row skipped for its image is named by its line (the header is line 1) and counted once
    Case("import-table-image-outside", _table_image_outside, 0,
         "1 skipped; licence", forbid=("Traceback", "no readable image")),
    Case("import-table-image-outside-line", _table_image_outside, 0,
         "t.csv:2: image '../secret.jpeg' holds a '..' component"),
    Case("review-exam-write-runs-unanswered", lambda w: (
        main_ok(["review", "add-reviewer", "ana", "--bench", str(w.bench()), "--db",
                 str(w.root / "r.sqlite")]) or
        ["review", "exam", str(w.root / "bench"), "--split", "test", "--runs",
         str(w.root / "runs"), "--write-runs", "--db", str(w.root / "r.sqlite")]), 2,
         "nobody has answered the test exam yet; no RUN/ was written", absent=("runs",)),
    # YAML from users: no alias expansion
    Case("run-prompt-yaml-bomb", _prompt_bomb, 2, "p.yaml:3: an anchor (&a) is not read",
         absent=("run",)),
    Case("models-yaml-bomb", _models_run("  - spec: random\n    parameters:\n      extra:\n"
                                         "        a: &a [x, x]\n        b: [*a, *a]\n"), 2,
         "models.yaml:7: an anchor (&a) is not read", absent=("run",)),
    Case("build-recipe-yaml-bomb", _recipe_bomb, 2, "r.yaml:2: an anchor (&a) is not read",
         absent=("b",)),
    # predictions.jsonl: one line per (item, condition), items of this benchmark
    Case("score-duplicate-prediction", _predictions(lambda ls: ls + [ls[0]]), 2,
         "predictions.jsonl:7: item lung-000, condition clean: a second prediction (the first "
         "is on line 1)", absent=("run/metrics.json",)),
    Case("score-item-of-another-benchmark", _predictions(_other_item), 2,
         "predictions.jsonl:7: item_id 'elsewhere-7': not in", absent=("run/metrics.json",)),
    Case("score-unknown-condition", _predictions(_unknown_condition), 2,
         "predictions.jsonl:1: condition: unknown condition 'nosuch'",
         absent=("run/metrics.json",)),
    Case("compare-mixed-styles", _mixed_styles, 2, "runs read by different styles"),
    # a file where a folder goes, a folder where a file goes, bytes that are not UTF-8
    Case("run-out-is-a-file", lambda w: (w.root / "f").touch() or
         ["run", str(w.bench()), "-m", "random", "-o", str(w.root / "f")], 2,
         "is a file, not a folder; choose a RUN/ folder"),
    Case("report-out-is-a-folder", lambda w: _a_folder(w, "report", str(w.scored(w.bench())),
                                                       "-o", "DIR"), 2,
         "is a folder; give the HTML file to write"),
    Case("export-out-is-a-folder", lambda w: _a_folder(w, "export", str(w.bench()), "--format",
                                                       "vlmevalkit", "-o", "DIR"), 2,
         "is a folder; the vlmevalkit export writes a file"),
    Case("import-table-not-utf8", _not_utf8_table, 2, "t.tsv:2: not UTF-8 (byte 16)",
         absent=("b",)),
    # hostile files: nesting deeper than a parser reads, cells of the wrong kind
    Case("score-item-nested-too-deeply", _deep_item_after_run, 2,
         "items.jsonl:1: (json): Invalid JSON: recursion limit exceeded",
         absent=("run/metrics.json",)),
    Case("score-prediction-nested-too-deeply", _predictions(_deep_prediction), 0,
         "predictions.jsonl:7: (json): Invalid JSON: recursion limit exceeded"),
    Case("parse-nested-too-deeply", _deep_responses, 0,
         "r.jsonl:2: (json): nested too deeply to read"),
    Case("import-vlmevalkit-meta-not-an-object", _vlmevalkit_meta_list, 2,
         "t.tsv:2: meta: an array, not a JSON object", absent=("b",)),
    Case("import-vlmevalkit-not-an-image", lambda w: _vlmevalkit_row(w, b"not an image"), 2,
         "t.tsv:2: unreadable image: 12 bytes in no image format Pillow reads",
         forbid=("Traceback", "BytesIO"), absent=("b",)),
    Case("import-vqa-rad-question-a-list", _vqa_rad_rows(question=["Is", "it?"]), 2,
         "vqa.json:1: question: a list, not text", absent=("b",)),
    Case("import-vqa-rad-answer-null", _vqa_rad_rows(answer=None), 2,
         "vqa.json:1: row without image_name, question or answer", absent=("b",)),
    # Round four (issue 39 re-probed from a fresh clone).
    Case("build-captions-keywords-not-utf8", _keywords_not_utf8, 2, "k.yaml:2: not UTF-8",
         absent=("b",)),
    Case("import-table-csv-not-utf8", _table_not_utf8("csv"), 2, "t.csv:2: not UTF-8",
         absent=("b",)),
    Case("import-table-tsv-not-utf8", _table_not_utf8("tsv"), 2, "t.tsv:2: not UTF-8",
         absent=("b",)),
    Case("import-lmms-eval-nested-too-deeply", _lmms_log(DEEP + b"\n"), 2,
         "samples_x.jsonl:1: not JSON: nested too deeply", absent=("run",)),
    Case("import-inspect-log-a-list", _inspect_log_a_list, 2, "log.json: not an Inspect",
         absent=("run",)),
    Case("export-lmms-eval-out-is-a-file", lambda w: (w.root / "f").touch() or [
        "export", str(w.bench()), "--format", "lmms-eval", "-o", str(w.root / "f")], 2,
         "is a file; the lmms-eval export writes a folder"),
    Case("card-out-is-a-folder", lambda w: _a_folder(w, "card", str(w.bench()), "-o", "DIR"), 2,
         "dir: is a folder; give the card's file to write"),
    Case("irt-fit-out-is-a-folder", _irt_out_a_folder, 2, "dir: is a folder, not a file"),
    Case("review-stats-db-not-a-database", _not_a_database("stats"), 2,
         "answers.csv: not a SQLite database; nothing was written to it"),
    Case("review-exam-db-not-a-database", _not_a_database("exam", b"x"), 2,
         "answers.csv: not a SQLite database", absent=("runs",)),
    Case("report-two-versions-of-a-benchmark", _two_versions("report"), 2,
         "runs of benchmark 'lung-test' scored on different items", absent=("r.html",)),
    Case("compare-two-versions-of-a-benchmark", _two_versions("compare"), 2,
         "runs scored on different items"),
    # the path guard on a recipe's own paths, a models file's prompt, an import's image folder
    Case("build-recipe-path-absolute", _recipe_with("ROOT/elsewhere"), 2,
         "r.yaml: sources[0].path: source path", absent=("b", ".b*")),
    Case("build-recipe-path-link-out", _recipe_with("out"), 2,
         "is outside the data root", absent=("b",)),
    Case("build-recipe-labels-fifo", _recipe_with(labels="pipe.csv", reader="table"), 2,
         "sources[0].labels[0]: label table 'pipe.csv' is a FIFO", absent=("b",)),
    Case("build-recipe-row-image-outside", _recipe_with(labels="t.csv", reader="table"), 0,
         "t.csv:2: image '../../secret.jpeg' holds a '..' component"),
    Case("models-prompt-link-out", _models_prompt("link.yaml"), 2,
         "models[1].prompt: prompt template 'link.yaml' is outside the models file's folder",
         absent=("run",)),
    Case("models-prompt-parent", _models_prompt("../local.yaml"), 2,
         "holds a '..' component", absent=("run",)),
    Case("import-image-folder-link-out", _import_image_folder_link, 2,
         "source path 'VQA_RAD Image Folder' is outside the import source", absent=("b",)),
    # a models file's local weights: inside its folder, or a --weights-root the user names
    Case("models-hf-weights-absolute", _models_weights("  - spec: hf:ROOT/elsewhere\n"), 2,
         "models.yaml:4: models[1].spec: local weights '", absent=("run",)),
    Case("models-hf-weights-link-out", _models_weights("  - spec: hf:out\n"), 2,
         "models[1].spec: local weights 'out' is outside the models file's folder (a link to",
         absent=("run",)),
    Case("models-supervised-parent", _models_weights("  - spec: supervised:../elsewhere\n"), 2,
         "models[1].spec: local weights '../elsewhere' holds a '..' component", absent=("run",)),
    Case("models-adapter-absolute", _models_weights(
        "  - spec: smollm2\n    parameters: {extra: {adapter: ROOT/elsewhere}}\n"), 2,
         "models.yaml:5: models[1].parameters.extra.adapter: local weights '",
         absent=("run",)),
    Case("models-defaults-adapter-link-out", _models_weights(
        "", head="defaults: {extra: {adapter: out}}\n"), 2,
         "models.yaml:1: defaults.extra.adapter: local weights 'out' is outside",
         absent=("run",)),
    Case("models-hub-id-shadowed-by-working-folder", _models_weights("  - spec: hf:org/name\n"),
         2, "'org/name' is read as a hub id, but the working folder holds 'org/name'",
         absent=("run",)),
    Case("run-weights-root-without-models", _bench_run("--weights-root", "/models"), 2,
         "--weights-root is read with --models only", absent=("run",)),
    Case("build-recipe-label-table-too-large", _huge_label_table, 2,
         "r.yaml: sources[0].labels[0]: label table 'big.csv' is 268,435,457 bytes, above the "
         "cap of 268,435,456 (256 MiB) for a label table; split it", absent=("b", ".b*")),
    Case("build-captions-csv-not-utf8", _llm_input_not_utf8("captions"), 2,
         "in.csv:2: not UTF-8", absent=("b",)),
    Case("build-reports-csv-not-utf8", _llm_input_not_utf8("reports"), 2,
         "in.csv:2: not UTF-8", absent=("b",)),
    Case("build-reports-folder-file-not-utf8", _llm_input_not_utf8("reports-folder"), 0,
         "r2.txt:1: not UTF-8"),
    # hf:DIR is checked before a weight loads and before RUN/ exists: one line naming the file
    Case("run-hf-config-missing", _hf_broken(lambda lm: (lm / "config.json").unlink()), 2,
         "lm: config.json: is missing; give the folder that save_pretrained wrote",
         absent=("run",)),
    Case("run-hf-config-a-number", _hf_broken(lambda lm: (lm / "config.json").write_text("3")),
         2, "lm: config.json: holds a number, not a JSON object; re-save the checkpoint",
         forbid=("Traceback",), absent=("run",)),
    Case("run-hf-config-no-model-type", _hf_broken(
        lambda lm: (lm / "config.json").write_text('{"hidden_size": 8}')), 2,
         "config.json: names no model_type (nor architectures)", absent=("run",)),
    Case("run-hf-weights-truncated", _hf_broken(lambda lm: (lm / "model.safetensors").write_bytes(
        (lm / "model.safetensors").read_bytes()[:-64])), 2,
         "lm: model.safetensors: truncated: its header places tensors up to byte",
         absent=("run",)),
    Case("run-hf-index-names-a-missing-shard", _hf_broken(_hf_index_without_a_shard), 2,
         "lm: model.safetensors.index.json: names shard model-00002-of-00002.safetensors, "
         "which is missing; copy or download every shard", absent=("run",)),
    Case("run-hf-no-tokenizer", _hf_broken(lambda lm: [(lm / n).unlink() for n in (
        "tokenizer.json", "tokenizer_config.json")]), 2,
         "lm: tokenizer.json: is missing, and no other tokenizer file is there",
         absent=("run",)),
    Case("run-hf-no-chat-template", _hf_broken(lambda lm: (lm / "chat_template.jinja").unlink()),
         2, "lm: chat_template.jinja: is missing, and tokenizer_config.json names no "
         "chat_template", absent=("run",)),
    Case("run-hf-adapter-as-the-model", _hf_broken(lambda lm: (lm / "config.json").rename(
        lm / "adapter_config.json")), 2, "config.json: is missing; this is a LoRA adapter: run "
         "its base model with it, hf:BASE --adapter", absent=("run",)),
    Case("run-hf-gguf-not-gguf", _not_a_gguf, 2,
         "m.gguf: m.gguf: not a GGUF file (it begins b'<htm', not b'GGUF')", absent=("run",)),
    # a RUN/ folder resumed with other weights or parameters: refused, naming its run.json
    Case("run-resumed-on-a-changed-checkpoint", _hf_resumed(_retrain), 2,
         "run/run.json: its answers came from other weights (checkpoint "),
    Case("run-resumed-on-a-changed-checkpoint-says-what-to-do", _hf_resumed(_retrain), 2,
         "choose a new --out folder, or use --force-new to start this one afresh"),
    Case("run-resumed-with-other-parameters", _hf_resumed(lambda lm: None, "--temperature",
                                                          "0.5"), 2,
         "run/run.json: its model parameters were {'max_tokens': 64, 'temperature': 0.0}, not "
         "{'max_tokens': 64, 'temperature': 0.5, 'seed': 0}"),
    # an image file above the byte cap is refused unread (a sparse file: nothing is held)
    Case("build-image-above-the-byte-cap", _huge_image, 2,
         "the file is 536,870,913 bytes, above the cap of 536,870,912 for one image file "
         "(512 MiB)", absent=("b", ".b*")),
    Case("validate-image-above-the-byte-cap", _huge_bench_image, 2,
         "is 536,870,913 bytes, above the cap of 536,870,912 for one image file"),
]
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input(case: Case, tmp_path: Path, bench_factory, capsys, monkeypatch) -> None:
    w = Workspace(tmp_path, bench_factory)
    cwd = os.getcwd()
    try:
        _check(case, w, capsys, monkeypatch)
    finally:
        os.chdir(cwd)  # a setup may run the command elsewhere
        for mount in w.mounts:
            subprocess.run(["umount", "-l", str(mount)], check=False)
        for path in w.locked:
            for folder in [path, *(p for p in path.rglob("*") if p.is_dir())]:
                folder.chmod(0o700)


def _check(case: Case, w: Workspace, capsys, monkeypatch) -> None:
    tmp_path = w.root
    argv = case.setup(w)
    capsys.readouterr()
    for name, value in case.env.items():
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    monkeypatch.setenv("COLUMNS", "200")
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    out = capsys.readouterr()
    text = out.out + out.err
    assert exit_info.value.code == case.code, text
    assert case.message in text, text
    for bad in case.forbid:
        assert bad not in text
    for rel in case.absent:
        assert not list(tmp_path.glob(rel)), rel
    if case.code:
        assert len(out.err.strip().splitlines()) <= 2, out.err  # one line (two with a hint)


def test_every_case_id_is_unique() -> None:
    assert len({c.id for c in CASES}) == len(CASES)


def test_workspace_makes_valid_inputs(tmp_path: Path, bench_factory) -> None:
    """The table's starting points are valid: each bad case is bad because of its one edit."""
    w = Workspace(tmp_path, bench_factory)
    bench = w.bench()
    with pytest.raises(SystemExit) as ok:
        main(["validate", str(bench)])
    assert ok.value.code == 0
    run = w.scored(bench)
    with pytest.raises(SystemExit) as ok:
        main(["report", str(run), "-o", str(tmp_path / "r.html")])
    assert ok.value.code == 0
    assert os.path.isfile(tmp_path / "r.md")


@pytest.mark.parametrize("data", [b"x", b"id,answer\n" * 100])
def test_a_file_given_as_review_db_is_left_as_it_was(data: bytes, tmp_path: Path,
                                                     bench_factory) -> None:
    """SQLite writes its tables over a short file of other bytes: --db refuses it first."""
    bench = bench_factory(tmp_path / "bench", 6)
    path = tmp_path / "answers.csv"
    path.write_bytes(data)
    with pytest.raises(SystemExit) as refused:
        main(["review", "stats", str(bench), "--db", str(path)])
    assert refused.value.code == 2
    assert path.read_bytes() == data
