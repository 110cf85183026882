"""The path guard's contract: every command that opens a path written in data, every path form.

A downloaded benchmark (or a folder to import, a recipe, a models file) is untrusted. Each
command below opens a path it read from data — an item's image, ``prompt_template``,
``items.jsonl`` itself, an import's image column and image folder, a recipe's source ``path``
and ``labels`` and the image column of its label table, an image folder's class folders and
files, a models.yaml ``prompt``, its local weights (``hf:PATH`` and
``parameters.extra.adapter``) — and is tried with each hostile form: an absolute path,
``..``, a link out of the folder, a FIFO (which would hang a plain ``open``) and a NUL byte.
Every one must refuse with one line naming the file (exit 2), or, for rows of data, skip that
row naming its line; never copy, embed or send the outside file, never hang, never a
traceback. A SIGALRM bounds each test, so a hang fails instead of blocking the suite.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from _lung_bench import make_bench
from _medvqa_cli import cli
from _tiny_lm import tiny_text_lm

from medvqa.benchmark import ImageLoader, ImageLoadError
from medvqa.run._models_file import folder_name
from medvqa.schema import file_sha256

FORMS = ("absolute", "dotdot", "link", "fifo", "nul")
SECRET = b"MEDVQA-TEST-SECRET"
#: A fragment of the refusal of each form.
SAYS = {"absolute": "is an absolute path", "dotdot": "holds a '..' component",
        "link": "(a link to", "fifo": "FIFO", "nul": "NUL byte"}


@pytest.fixture(autouse=True)
def _no_hang() -> Iterator[None]:
    def hung(*_: object) -> None:
        raise TimeoutError("the command hung (a FIFO opened blocking?)")

    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


def _secret(root: Path, like: Path) -> Path:
    """A real image outside every benchmark, with a marker appended (still decodes)."""
    path = root / "secret.jpeg"
    path.write_bytes(like.read_bytes() + SECRET)
    return path


def _reseal(bench: Path) -> None:
    card = json.loads((bench / "benchmark.json").read_text())
    card["items_sha256"] = file_sha256(bench / "items.jsonl")
    (bench / "benchmark.json").write_text(json.dumps(card))


def hostile_image(root: Path, form: str) -> Path:
    """A 6-item benchmark whose first item's image is ``form``."""
    bench = make_bench(root / "B", 6)
    lines = (bench / "items.jsonl").read_text().splitlines()
    item = json.loads(lines[0])
    rel = item["images"][0]
    secret = _secret(root, bench / rel)
    if form == "absolute":
        item["images"] = [str(secret)]
    elif form == "dotdot":
        item["images"] = ["../secret.jpeg"]
    elif form == "nul":
        item["images"] = ["images/a\x00b.jpeg"]
    elif form == "link":
        (bench / rel).unlink()
        (bench / rel).symlink_to(secret)
    elif form == "fifo":
        (bench / rel).unlink()
        os.mkfifo(bench / rel)
    lines[0] = json.dumps(item)
    (bench / "items.jsonl").write_text("\n".join(lines) + "\n")
    _reseal(bench)
    return bench


def hostile_template(root: Path, form: str) -> Path:
    """A benchmark whose ``prompt_template`` is ``form`` (a valid template lies outside)."""
    bench = make_bench(root / "B", 6)
    outside = root / "local.yaml"
    outside.write_text("name: local\ntemplates: {single: 'SECRET {question}'}\n")
    name = {"absolute": str(outside), "dotdot": "../local.yaml", "link": "t.yaml",
            "fifo": "t.yaml", "nul": "t\x00.yaml"}[form]
    if form == "link":
        (bench / "t.yaml").symlink_to(outside)
    elif form == "fifo":
        os.mkfifo(bench / "t.yaml")
    card = json.loads((bench / "benchmark.json").read_text())
    card["prompt_template"] = name
    (bench / "benchmark.json").write_text(json.dumps(card))
    return bench


def _err(capsys: pytest.CaptureFixture[str]) -> str:
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return out.err


def _no_secret_under(folder: Path) -> None:
    for path in folder.rglob("*"):
        if path.is_file() and not path.is_symlink():
            assert SECRET not in path.read_bytes(), path


@pytest.mark.parametrize("form", FORMS)
def test_validate_refuses_an_image(form: str, tmp_path: Path, capsys) -> None:
    bench = hostile_image(tmp_path, form)
    assert cli("validate", str(bench)) == 2
    assert SAYS[form] in capsys.readouterr().out


@pytest.mark.parametrize("fmt", ["vlmevalkit", "parquet", "lmms-eval"])
@pytest.mark.parametrize("form", FORMS)
def test_export_refuses_an_image(form: str, fmt: str, tmp_path: Path, capsys) -> None:
    bench = hostile_image(tmp_path, form)
    out = tmp_path / "out"
    assert cli("export", str(bench), "--format", fmt, "-o", str(out / "x.tsv")) == 2
    err = _err(capsys)
    assert "items.jsonl:1: images[0]:" in err and SAYS[form] in err
    assert "nothing was exported" in err
    assert not out.exists() or not any(out.rglob("*"))


@pytest.mark.parametrize("form", FORMS)
def test_the_runner_records_an_item_error(form: str, tmp_path: Path) -> None:
    bench = hostile_image(tmp_path, form)
    rel = json.loads((bench / "items.jsonl").read_text().splitlines()[0])["images"][0]
    with pytest.raises(ImageLoadError) as refused:
        ImageLoader(bench).load(rel)
    assert SAYS[form] in str(refused.value)


@pytest.mark.parametrize("form", FORMS)
def test_audit_and_card_skip_the_image_without_hanging(form: str, tmp_path: Path,
                                                       capsys) -> None:
    bench = hostile_image(tmp_path, form)
    assert cli("audit", str(bench), "--no-html") in {0, 3}
    findings = (bench / "audit.json").read_text()
    assert "skipped by every image check" in findings
    assert cli("card", str(bench)) == 0
    _err(capsys)


@pytest.mark.parametrize("form", FORMS)
def test_review_export_refuses_an_accepted_image(form: str, tmp_path: Path, capsys) -> None:
    from medvqa.review import ReviewStore, load_bench

    bench = hostile_image(tmp_path, form)
    db = tmp_path / "r.sqlite"
    store = ReviewStore(str(db))
    key = load_bench(bench).key
    store.add_reviewer("a", "reviewer", [key])
    (reviewer,) = store.reviewers()
    for n in range(6):
        store.record_decision(nonce=str(n), bench=key, item_id=f"lung-{n:03d}",
                              reviewer=reviewer, kind="review", verdict="accept")
    out = tmp_path / "v2"
    assert cli("review", "export", str(bench), "-o", str(out), "--db", str(db),
               "--per-item", "1") == 2
    err = _err(capsys)
    assert "item lung-000: images[0]:" in err and SAYS[form] in err
    assert not out.exists()


@pytest.mark.parametrize("form", FORMS)
def test_a_prompt_template_outside_the_benchmark_is_refused(form: str, tmp_path: Path,
                                                            capsys) -> None:
    bench = hostile_template(tmp_path, form)
    assert cli("validate", str(bench)) == 2
    assert "prompt_template" in capsys.readouterr().out
    assert cli("run", str(bench), "-m", "random", "-o", str(tmp_path / "run")) == 2
    err = _err(capsys)
    assert "benchmark.json: prompt_template:" in err
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("form", ["link", "fifo"])
def test_items_jsonl_itself_must_be_a_file_inside(form: str, tmp_path: Path, capsys) -> None:
    bench = make_bench(tmp_path / "B", 6)
    items = bench / "items.jsonl"
    if form == "link":
        outside = tmp_path / "elsewhere.jsonl"
        shutil.move(items, outside)
        items.symlink_to(outside)
    else:
        items.unlink()
        os.mkfifo(items)
    for argv in (["validate", str(bench)], ["export", str(bench), "--format", "vlmevalkit",
                                             "-o", str(tmp_path / "x.tsv")],
                 ["run", str(bench), "-m", "random", "-o", str(tmp_path / "run")]):
        assert cli(*argv) == 2, argv
        _err(capsys)
    assert not (tmp_path / "run").exists()


def _vqa_rad_source(root: Path, form: str) -> Path:
    """A VQA-RAD JSON of three rows, the third naming its image in ``form``."""
    rad = sorted((Path(__file__).resolve().parents[1] / "data" / "vqa_rad" /
                  "VQA_RAD Image Folder").glob("*.jpg"))
    folder = root / "src" / "VQA_RAD Image Folder"
    folder.mkdir(parents=True)
    for img in rad[:2]:
        shutil.copy(img, folder / img.name)
    secret = _secret(root, rad[2])
    name = {"absolute": str(secret), "dotdot": "../../secret.jpeg", "link": "l.jpg",
            "fifo": "f.jpg", "nul": "a\x00b.jpg"}[form]
    if form == "link":
        (folder / "l.jpg").symlink_to(secret)
    elif form == "fifo":
        os.mkfifo(folder / "f.jpg")
    rows = [{"qid": i, "image_name": n, "question": "Is there a mass?", "answer": "yes",
             "answer_type": "CLOSED", "phrase_type": "test_freeform", "question_type": "PRES"}
            for i, n in enumerate([rad[0].name, rad[1].name, name])]
    table = root / "src" / "VQA_RAD Dataset Public.json"
    table.write_text(json.dumps(rows))
    return table


@pytest.mark.parametrize("form", FORMS)
def test_import_vqa_rad_skips_the_row(form: str, tmp_path: Path, capsys) -> None:
    table = _vqa_rad_source(tmp_path, form)
    assert cli("import", "vqa_rad", str(table), "-o", str(tmp_path / "b")) == 0
    out = capsys.readouterr()
    assert "VQA_RAD Dataset Public.json:3:" in out.out + out.err
    assert "2 items" in out.out + out.err
    _no_secret_under(tmp_path / "b")


@pytest.mark.parametrize("form", FORMS)
def test_import_table_skips_the_row(form: str, tmp_path: Path, capsys) -> None:
    lung = sorted((Path(__file__).resolve().parents[1] / "data" / "lc25000_lung_224" /
                   "lung_image_sets" / "lung_n").glob("*.jpeg"))
    src = tmp_path / "src"
    src.mkdir()
    shutil.copy(lung[0], src / "a.jpeg")
    secret = _secret(tmp_path, lung[1])
    name = {"absolute": str(secret), "dotdot": "../secret.jpeg", "link": "l.jpeg",
            "fifo": "f.jpeg", "nul": "a\x00b.jpeg"}[form]
    if form == "link":
        (src / "l.jpeg").symlink_to(secret)
    elif form == "fifo":
        os.mkfifo(src / "f.jpeg")
    rows = [{"q": "Is it benign?", "gt": "yes", "img": "a.jpeg"},
            {"q": "Is it benign?", "gt": "no", "img": name}]
    (src / "t.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert cli("import", "table", str(src / "t.jsonl"), "--map",
               "question=q;answer=gt;image=img", "-o", str(tmp_path / "b")) == 0
    out = capsys.readouterr()
    assert "t.jsonl:2:" in out.out + out.err
    _no_secret_under(tmp_path / "b")


@pytest.mark.parametrize("form", FORMS)
def test_the_report_links_no_image_outside_the_benchmark(form: str, tmp_path: Path,
                                                         capsys) -> None:
    bench = hostile_image(tmp_path, form)
    run = tmp_path / "run"
    assert cli("run", str(bench), "-m", "random", "-o", str(run), "--split", "all") == 0
    assert cli("score", str(bench), str(run), "--resamples", "99") == 0
    out = tmp_path / "rep" / "r.html"
    assert cli("report", str(run), "--bench", str(bench), "-o", str(out)) == 0
    _err(capsys)
    page = (tmp_path / "rep" / "r.items.html").read_text("utf-8")
    assert "secret.jpeg" not in page and str(tmp_path / "secret") not in page
    assert "images/" in page  # the other items' images are still shown


def _captions(root: Path, form: str) -> Path:
    """A captions JSONL of two rows beside one image; the second names its image in ``form``."""
    lung = sorted((Path(__file__).resolve().parents[1] / "data" / "lc25000_lung_224" /
                   "lung_image_sets" / "lung_n").glob("*.jpeg"))
    src = root / "src"
    src.mkdir()
    shutil.copy(lung[0], src / "ok.jpeg")
    secret = _secret(root, lung[1])
    name = {"absolute": str(secret), "dotdot": "../secret.jpeg", "link": "l.jpeg",
            "fifo": "f.jpeg", "nul": "a\x00b.jpeg"}[form]
    if form == "link":
        (src / "l.jpeg").symlink_to(secret)
    elif form == "fifo":
        os.mkfifo(src / "f.jpeg")
    rows = [{"id": "c1", "caption": "A chest CT shows a nodule in the right lung.",
             "image": "ok.jpeg"},
            {"id": "c2", "caption": "A chest CT shows a mass in the left lung.", "image": name}]
    (src / "caps.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return src / "caps.jsonl"


@pytest.mark.parametrize("form", FORMS)
def test_build_captions_skips_the_row(form: str, tmp_path: Path, capsys) -> None:
    caps = _captions(tmp_path, form)
    assert cli("build", "captions", str(caps), "-o", str(tmp_path / "b"), "--model", "random",
               "--judges", "", "--keywords", "") == 0
    out = capsys.readouterr()
    assert "caps.jsonl:2: image:" in out.out + out.err
    _no_secret_under(tmp_path / "b")


@pytest.mark.parametrize("form", FORMS)
def test_build_reports_reads_no_volume_outside(form: str, tmp_path: Path, capsys) -> None:
    import nibabel as nib
    import numpy as np

    volume = np.zeros((8, 8, 4), dtype=np.uint8)
    volume[2:5, 2:5, :] = 200
    nib.save(nib.Nifti1Image(volume, np.eye(4)), str(tmp_path / "secret.nii.gz"))
    src = tmp_path / "src"
    src.mkdir()
    name = {"absolute": str(tmp_path / "secret.nii.gz"), "dotdot": "../secret.nii.gz",
            "link": "l.nii.gz", "fifo": "f.nii.gz", "nul": "a\x00.nii.gz"}[form]
    if form == "link":
        (src / "l.nii.gz").symlink_to(tmp_path / "secret.nii.gz")
    elif form == "fifo":
        os.mkfifo(src / "f.nii.gz")
    (src / "rep.jsonl").write_text(json.dumps({"id": "r1", "findings": "A 2 cm nodule.",
                                               "volume": name}) + "\n")
    assert cli("build", "reports", str(src / "rep.jsonl"), "--schema", "lirads", "-o",
               str(tmp_path / "b"), "--model", "random", "--no-mcq") == 0
    out = capsys.readouterr()
    assert "rep.jsonl:1: volume:" in out.out + out.err
    assert not list((tmp_path / "b").rglob("*.png"))


@pytest.mark.parametrize("form", FORMS)
def test_filter_guessable_copies_no_image_from_outside(form: str, tmp_path: Path,
                                                       capsys) -> None:
    bench = hostile_image(tmp_path, form)
    out = tmp_path / "f"
    # --min-correct above the models given: no item is dropped, so the hostile one is kept.
    code = cli("filter", "guessable", str(bench), "--models", "frequent", "--min-correct", "2",
               "-o", str(out))
    err = _err(capsys)
    assert code == 2, err
    assert "item lung-000: images[0]:" in err and SAYS[form] in err
    assert "nothing was written" in err
    assert not out.exists()


def _lung(n: int) -> list[Path]:
    return sorted((Path(__file__).resolve().parents[1] / "data" / "lc25000_lung_224" /
                   "lung_image_sets" / "lung_n").glob("*.jpeg"))[:n]


def _outside_class_folder(root: Path) -> Path:
    """A class folder of real images, one the secret, outside every recipe's folder."""
    folder = root / "elsewhere" / "lung_n"
    folder.mkdir(parents=True)
    a, b = _lung(2)
    shutil.copy(a, folder / "a.jpeg")
    _secret(root, b)
    shutil.copy(root / "secret.jpeg", folder / "s.jpeg")
    return folder.parent


def _hostile_path(folder: Path, form: str, outside: Path) -> str:
    """``outside`` named from ``folder`` in ``form`` (a link or FIFO made in ``folder``)."""
    if form == "link":
        (folder / "l").symlink_to(outside)
        return "l"
    if form == "fifo":
        os.mkfifo(folder / "f")
        return "f"
    return {"absolute": str(outside), "dotdot": f"../{outside.name}",
            "nul": "a\\0b"}[form]  # a YAML double-quoted escape: the NUL byte itself


RECIPE = """name: r
type: classify
sources:
  - dataset: x
    reader: {reader}
    path: "{path}"
    labels: [{labels}]
    image_column: img
topics:
  - name: t
    column: label
    questions: ["Which tissue?"]
"""


@pytest.mark.parametrize("field", ["path", "labels"])
@pytest.mark.parametrize("form", FORMS)
def test_a_recipe_path_outside_its_folder_is_refused(form: str, field: str, tmp_path: Path,
                                                     capsys) -> None:
    outside = _outside_class_folder(tmp_path)
    (tmp_path / "elsewhere.csv").write_text("img,label\nlung_n/s.jpeg,x\n")
    rec = tmp_path / "rec"
    rec.mkdir()
    if field == "path":
        text = RECIPE.format(reader="image_folder", labels="",
                             path=_hostile_path(rec, form, outside))
    else:
        shutil.copytree(outside, rec / "imgs")
        table = _hostile_path(rec, form, tmp_path / "elsewhere.csv")
        text = RECIPE.format(reader="table", path="imgs", labels=f'"{table}"')
    (rec / "r.yaml").write_text(text)
    out = tmp_path / "b"
    assert cli("build", str(rec / "r.yaml"), "-o", str(out)) == 2
    err = _err(capsys)
    shown = "sources[0].path:" if field == "path" else "sources[0].labels[0]:"
    assert f"r.yaml: {shown}" in err and SAYS[form] in err, err
    assert not out.exists() and not list(tmp_path.glob(".b*"))


@pytest.mark.parametrize("form", FORMS)
def test_a_recipe_table_row_names_no_image_outside(form: str, tmp_path: Path, capsys) -> None:
    a, b = _lung(2)
    rec = tmp_path / "rec"
    (rec / "imgs").mkdir(parents=True)
    shutil.copy(a, rec / "imgs" / "a.jpeg")
    secret = _secret(tmp_path, b)
    name = {"absolute": str(secret), "dotdot": "../../secret.jpeg", "link": "l.jpeg",
            "fifo": "f.jpeg", "nul": "a\x00b.jpeg"}[form]
    if form == "link":
        (rec / "imgs" / "l.jpeg").symlink_to(secret)
    elif form == "fifo":
        os.mkfifo(rec / "imgs" / "f.jpeg")
    (rec / "t.csv").write_text(f"img,label\n{name},x\na.jpeg,y\n")
    (rec / "r.yaml").write_text(RECIPE.format(reader="table", path="imgs", labels="t.csv"))
    assert cli("build", str(rec / "r.yaml"), "-o", str(tmp_path / "b"), "--allow-empty") == 0
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    assert "t.csv:2: image" in out.out + out.err and SAYS[form] in out.out + out.err
    _no_secret_under(tmp_path / "b")


@pytest.mark.parametrize("what", ["class-folder", "file", "fifo"])
def test_an_image_folder_reads_no_link_out_of_it(what: str, tmp_path: Path, capsys) -> None:
    a, b = _lung(2)
    rec = tmp_path / "rec"
    (rec / "imgs" / "cls").mkdir(parents=True)
    shutil.copy(a, rec / "imgs" / "cls" / "a.jpeg")
    secret = _secret(tmp_path, b)
    if what == "class-folder":
        (rec / "imgs" / "evil").symlink_to(_outside_class_folder(tmp_path / "o") / "lung_n")
    elif what == "file":
        (rec / "imgs" / "cls" / "b.jpeg").symlink_to(secret)
    else:
        os.mkfifo(rec / "imgs" / "cls" / "b.jpeg")
    (rec / "r.yaml").write_text(RECIPE.format(reader="image_folder", path="imgs", labels=""))
    assert cli("build", str(rec / "r.yaml"), "-o", str(tmp_path / "b")) == 0
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    if what != "fifo":  # a FIFO is no image file: passed over like a text file
        assert "(a link to" in out.out + out.err
    _no_secret_under(tmp_path / "b")


@pytest.mark.parametrize("form", FORMS)
def test_a_models_file_prompt_outside_its_folder_is_refused(form: str, tmp_path: Path,
                                                            capsys) -> None:
    bench = make_bench(tmp_path / "B", 6)
    outside = tmp_path / "local.yaml"
    outside.write_text("name: local\ntemplates: {single: 'SECRET {question}'}\n")
    folder = tmp_path / "mf"
    folder.mkdir()
    name = {"absolute": str(outside), "dotdot": "../local.yaml", "link": "l.yaml",
            "fifo": "f.yaml", "nul": "a\\0.yaml"}[form]
    if form == "link":
        (folder / "l.yaml").symlink_to(outside)
    elif form == "fifo":
        os.mkfifo(folder / "f.yaml")
    (folder / "models.yaml").write_text("models:\n  - name: first\n    spec: random\n"
                                        f"  - name: second\n    spec: random\n"
                                        f"    prompt: \"{name}\"\n")
    run = tmp_path / "run"
    assert cli("run", str(bench), "--models", str(folder / "models.yaml"), "-o", str(run)) == 2
    err = _err(capsys)
    assert "models.yaml:6: models[1].prompt:" in err and SAYS[form] in err, err
    assert not run.exists()  # refused before the first model ran


def test_a_models_file_prompt_is_read_beside_the_file(tmp_path: Path, monkeypatch,
                                                      capsys) -> None:
    bench = make_bench(tmp_path / "B", 6)
    folder = tmp_path / "mf"
    (folder / "prompts").mkdir(parents=True)
    (folder / "prompts" / "mine.yaml").write_text(
        "name: mine\ntemplates: {single: 'MINE {question}'}\n")
    (folder / "models.yaml").write_text(
        "models:\n  - spec: random\n    prompt: prompts/mine.yaml\n")
    monkeypatch.chdir(tmp_path)  # not the models file's folder
    assert cli("run", str(bench), "--models", str(folder / "models.yaml"), "-o",
               str(tmp_path / "run")) == 0
    _err(capsys)
    assert "mine" in (tmp_path / "run" / "random" / "run.json").read_text()


def _models_file(folder: Path, second: str) -> Path:
    """``folder/models.yaml``: a first model that would run, then ``second``'s lines."""
    folder.mkdir(exist_ok=True)
    path = folder / "models.yaml"
    path.write_text("models:\n  - name: first\n    spec: random\n  - name: second\n" + second)
    return path


@pytest.mark.parametrize("field", ["spec", "adapter"])
@pytest.mark.parametrize("form", FORMS)
def test_a_models_file_weights_outside_its_folder_are_refused(form: str, field: str,
                                                              tmp_path: Path, capsys) -> None:
    bench = make_bench(tmp_path / "B", 6)
    outside = tiny_text_lm(tmp_path / "weights")  # real weights, outside the file's folder
    folder = tmp_path / "mf"
    folder.mkdir()
    name = _hostile_path(folder, form, outside)
    second = (f'    spec: "hf:{name}"\n' if field == "spec" else
              f'    spec: smollm2\n    parameters: {{extra: {{adapter: "{name}"}}}}\n')
    models = _models_file(folder, second)
    run = tmp_path / "run"
    assert cli("run", str(bench), "--models", str(models), "-o", str(run)) == 2
    err = _err(capsys)
    shown = ("models.yaml:5: models[1].spec:" if field == "spec"
             else "models.yaml:6: models[1].parameters.extra.adapter:")
    assert shown in err and SAYS[form] in err, err
    assert "--weights-root DIR" in err  # what to do
    assert not run.exists()  # refused before the first model ran


def test_a_link_inside_a_weights_folder_is_refused(tmp_path: Path, capsys) -> None:
    bench = make_bench(tmp_path / "B", 6)
    lm = tiny_text_lm(tmp_path / "mf" / "lm")
    secret = tmp_path / "secret.json"
    secret.write_bytes(SECRET)
    (lm / "config.json").unlink()
    (lm / "config.json").symlink_to(secret)
    models = _models_file(tmp_path / "mf", "    spec: hf:lm\n")
    assert cli("run", str(bench), "--models", str(models), "-o", str(tmp_path / "run")) == 2
    err = _err(capsys)
    assert "models[1].spec: local weights 'lm' hold 'config.json', a link to" in err, err
    assert not (tmp_path / "run").exists()


def test_models_file_weights_are_read_beside_it_or_in_a_weights_root(tmp_path: Path,
                                                                     monkeypatch,
                                                                     capsys) -> None:
    bench = make_bench(tmp_path / "B", 6)
    folder = tmp_path / "mf"
    beside = tiny_text_lm(folder / "lm")
    kept = tiny_text_lm(tmp_path / "store" / "lm2")
    (folder / "models.yaml").write_text(
        f"models:\n  - spec: hf:lm\n  - spec: hf:{kept}\n")
    monkeypatch.chdir(tmp_path)  # not the models file's folder
    run = tmp_path / "run"
    args = ("run", str(bench), "--models", str(folder / "models.yaml"), "-o", str(run),
            "--limit", "1", "--conditions", "clean")
    assert cli(*args) == 2  # the second names weights outside: refused, nothing run
    assert "is an absolute path" in _err(capsys) and not run.exists()
    assert cli(*args, "--weights-root", str(tmp_path / "store")) == 0, _err(capsys)
    # the sub-folder is named by the spec as written; run.json records what was loaded
    assert json.loads((run / "hf-lm" / "run.json").read_text())["model"] == f"hf:{beside}"
    assert (run / folder_name(f"hf:{kept}") / "run.json").is_file()


def _rad_rows(table: Path, names: list[str]) -> None:
    rows = [{"qid": i, "image_name": n, "question": "Is there a mass?", "answer": "yes",
             "answer_type": "CLOSED", "phrase_type": "test_freeform", "question_type": "PRES"}
            for i, n in enumerate(names)]
    table.write_text(json.dumps(rows))


@pytest.mark.parametrize("layout", ["vqa_rad-file", "vqa_rad-folder", "slake"])
def test_an_import_image_folder_linked_out_of_the_source_is_refused(layout: str, tmp_path: Path,
                                                                    capsys) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    shutil.copy(_secret(tmp_path, _lung(1)[0]), outside / "a.jpg")
    src = tmp_path / "src"
    src.mkdir()
    if layout == "slake":
        (src / "test.json").write_text(json.dumps([{
            "img_name": "a.jpg", "question": "Is it?", "answer": "Yes", "answer_type": "CLOSED",
            "q_lang": "en", "qid": 1}]))
        (src / "imgs").symlink_to(outside)
        argv, shown = ["slake", str(src)], "'imgs'"
    else:
        _rad_rows(src / "VQA_RAD Dataset Public.json", ["a.jpg"])
        folder = "VQA_RAD Image Folder" if layout == "vqa_rad-file" else "imgs"
        (src / folder).symlink_to(outside)
        given = src / "VQA_RAD Dataset Public.json" if layout == "vqa_rad-file" else src
        argv, shown = ["vqa_rad", str(given)], repr(folder)
    out = tmp_path / "b"
    assert cli("import", *argv, "-o", str(out)) == 2
    err = " ".join(_err(capsys).split())
    assert f"medvqa import {argv[0]}" in err and f"source path {shown} is outside the import " \
        "source" in err and "(a link to" in err and "--images" in err, err
    assert not out.exists() and not list(tmp_path.glob(".b*"))


def test_an_images_folder_the_user_names_is_followed(tmp_path: Path, capsys) -> None:
    """``--images`` is named on the command line, not read from data: a link to it is followed
    once, and its images must then stay inside its real folder."""
    real = tmp_path / "disk" / "imgs"
    real.mkdir(parents=True)
    a, b = _lung(2)
    shutil.copy(a, real / "a.jpg")
    (real.parent / "above.jpg").write_bytes(b.read_bytes())
    (tmp_path / "imgs").symlink_to(real)
    src = tmp_path / "src"
    src.mkdir()
    _rad_rows(src / "VQA_RAD Dataset Public.json", ["a.jpg", "../above.jpg"])
    assert cli("import", "vqa_rad", str(src / "VQA_RAD Dataset Public.json"), "--images",
               str(tmp_path / "imgs"), "-o", str(tmp_path / "b")) == 0
    out = capsys.readouterr()
    assert "1 items" in out.out + out.err and "holds a '..' component" in out.out + out.err


@pytest.mark.parametrize("form", FORMS)
def test_train_classifier_reads_no_image_outside(form: str, tmp_path: Path, capsys) -> None:
    pytest.importorskip("torch")
    bench = hostile_image(tmp_path, form)
    items = [json.loads(line) for line in (bench / "items.jsonl").read_text().splitlines()]
    for i, item in enumerate(items):  # one category of three classes, trained and validated
        item["category"], item["split"] = "lung", "train" if i < 3 else "val"
    (bench / "items.jsonl").write_text("".join(json.dumps(i) + "\n" for i in items))
    _reseal(bench)
    out = tmp_path / "run"
    assert cli("train", "classifier", str(bench), "-o", str(out), "--arch", "small-cnn",
               "--epochs", "1", "--device", "cpu") == 2
    err = _err(capsys)
    assert "items.jsonl:1: field images:" in err and SAYS[form] in err, err
    assert not out.exists()


@pytest.mark.parametrize("form", ["link", "fifo"])
def test_build_reports_from_a_folder_reads_no_file_outside(form: str, tmp_path: Path,
                                                           capsys) -> None:
    folder = tmp_path / "reports"
    folder.mkdir()
    (folder / "r1.txt").write_text("A 2 cm nodule in the right upper lobe.\n")
    secret = tmp_path / "secret.txt"
    secret.write_text(f"{SECRET.decode()}: a 3 cm mass in the liver.\n")
    if form == "link":
        (folder / "r2.txt").symlink_to(secret)
    else:
        os.mkfifo(folder / "r2.txt")
    assert cli("build", "reports", str(folder), "--schema", "lirads", "-o", str(tmp_path / "b"),
               "--model", "random", "--no-mcq") == 0
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    assert "r2.txt: report 'r2.txt'" in out.out + out.err and SAYS[form] in out.out + out.err
    _no_secret_under(tmp_path / "b")


@pytest.mark.parametrize("form", ["link", "fifo"])
def test_an_import_table_found_in_the_source_must_be_a_file_inside(form: str, tmp_path: Path,
                                                                   capsys) -> None:
    src = tmp_path / "src"
    (src / "imgs").mkdir(parents=True)
    if form == "link":
        _rad_rows(tmp_path / "elsewhere.json", ["a.jpg"])
        (src / "x.json").symlink_to(tmp_path / "elsewhere.json")
    else:
        os.mkfifo(src / "x.json")
    assert cli("import", "vqa_rad", str(src), "-o", str(tmp_path / "b")) == 2
    err = " ".join(_err(capsys).split())
    assert "sources[0].labels[0]: label table 'x.json'" in err and SAYS[form] in err, err
    assert not (tmp_path / "b").exists()


def linked_subfolder_bench(root: Path, target: str) -> Path:
    """A 6-item benchmark whose first image's folder (``images/ab``) is a link.

    ``target`` ``inside``: the link leads to another folder of the benchmark, where the image
    itself is a link to the secret outside. ``outside``: the link leads to a folder outside
    the benchmark holding the secret under the image's name.
    """
    bench = make_bench(root / "B", 6)
    rel = json.loads((bench / "items.jsonl").read_text().splitlines()[0])["images"][0]
    sub = (bench / rel).parent
    secret = _secret(root, bench / rel)
    moved = root / "moved" if target == "outside" else bench / "images" / "moved"
    shutil.move(str(sub), moved)
    sub.symlink_to(moved, target_is_directory=True)
    if target == "outside":
        shutil.copy(secret, moved / Path(rel).name)
    else:
        (moved / Path(rel).name).unlink()
        (moved / Path(rel).name).symlink_to(secret)
    return bench


@pytest.mark.parametrize("target", ["inside", "outside"])
def test_a_link_below_a_linked_benchmark_subfolder_is_refused(target: str, tmp_path: Path,
                                                              capsys) -> None:
    """A link in a linked sub-folder is followed to its end: whether the sub-folder's link
    or the file's leaves the benchmark, the run, validate and every export refuse it."""
    bench = linked_subfolder_bench(tmp_path, target)
    rel = json.loads((bench / "items.jsonl").read_text().splitlines()[0])["images"][0]
    with pytest.raises(ImageLoadError, match=r"\(a link to"):
        ImageLoader(bench).load(rel)
    assert cli("validate", str(bench)) == 2
    assert "(a link to" in capsys.readouterr().out
    out = tmp_path / "out"
    assert cli("export", str(bench), "--format", "vlmevalkit", "-o", str(out / "x.tsv")) == 2
    assert "items.jsonl:1: images[0]:" in _err(capsys)
    assert not out.exists() or not any(out.rglob("*"))


def test_a_link_below_a_linked_class_folder_is_refused(tmp_path: Path, capsys) -> None:
    """An image folder's class folder may be a link inside it; a file link below it that
    leads out of the folder is refused all the same, and the secret is never copied."""
    a, b = _lung(2)
    secret = _secret(tmp_path, b)
    rec = tmp_path / "rec"
    real = rec / "imgs" / "real"
    real.mkdir(parents=True)
    shutil.copy(a, real / "a.jpeg")
    (real / "evil.jpeg").symlink_to(secret)
    (rec / "imgs" / "linked").symlink_to(real, target_is_directory=True)
    (rec / "r.yaml").write_text(RECIPE.format(reader="image_folder", path="imgs", labels=""))
    assert cli("build", str(rec / "r.yaml"), "-o", str(tmp_path / "b")) == 0
    out = capsys.readouterr()
    text = out.out + out.err
    assert "Traceback" not in text
    assert "linked/evil.jpeg" in text and "(a link to" in text, text
    _no_secret_under(tmp_path / "b")


def test_a_link_below_a_linked_import_subfolder_is_refused(tmp_path: Path, capsys) -> None:
    """An import table's image under a sub-folder that is a link inside the source, itself a
    link out of it: that row is skipped, naming its line."""
    a, b = _lung(2)
    secret = _secret(tmp_path, b)
    src = tmp_path / "src"
    (src / "real").mkdir(parents=True)
    shutil.copy(a, src / "a.jpeg")
    (src / "real" / "evil.jpeg").symlink_to(secret)
    (src / "sub").symlink_to(src / "real", target_is_directory=True)
    rows = [{"q": "Is it benign?", "gt": "yes", "img": "a.jpeg"},
            {"q": "Is it benign?", "gt": "no", "img": "sub/evil.jpeg"}]
    (src / "t.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert cli("import", "table", str(src / "t.jsonl"), "--map",
               "question=q;answer=gt;image=img", "-o", str(tmp_path / "b")) == 0
    out = capsys.readouterr()
    text = out.out + out.err
    assert "t.jsonl:2:" in text and "(a link to" in text, text
    _no_secret_under(tmp_path / "b")
