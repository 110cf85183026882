"""`medvqa import FORMAT SOURCE`: each published layout (written here in the dataset's own field
layout, with real images from data/) imports with its questions and splits unchanged, provenance
and licence recorded; a wrong-format file is one line and exit 2."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from _medvqa_cli import cli
from benchcheck import check_bench

RAD = Path(__file__).resolve().parents[2] / "data" / "vqa_rad" / "VQA_RAD Image Folder"
LUNG = Path(__file__).resolve().parents[2] / "data" / "lc25000_lung_224" / "lung_image_sets"


def rad_images(n: int) -> list[Path]:
    return sorted(RAD.glob("*.jpg"))[:n]


def lung_images(n: int) -> list[Path]:
    return sorted((LUNG / "lung_n").glob("*.jpeg"))[:n]


def write_slake(root: Path) -> Path:
    folder = root / "Slake1.0"
    imgs = rad_images(3)
    for k, img in enumerate(imgs):
        (folder / "imgs" / f"xmlab{k}").mkdir(parents=True)
        shutil.copy(img, folder / "imgs" / f"xmlab{k}" / "source.jpg")

    def row(qid: int, k: int, q: str, a: str, lang: str, atype: str, ctype: str) -> dict:
        return {"img_id": k, "img_name": f"xmlab{k}/source.jpg", "question": q, "answer": a,
                "q_lang": lang, "location": "Lung", "modality": "CT", "answer_type": atype,
                "base_type": "vqa", "content_type": ctype, "triple": ["vhead", "_", "_"],
                "qid": qid}

    tables = {
        "train": [row(1, 0, "Does the picture contain lung?", "Yes", "en", "CLOSED", "Organ"),
                  row(2, 0, "图片中包含肺吗？", "是", "zh", "CLOSED", "Organ"),
                  row(3, 1, "What modality is used?", "CT", "en", "OPEN", "Modality")],
        "validate": [row(4, 1, "Is this a CT or an MRI?", "CT", "en", "CLOSED", "Modality")],
        "test": [row(5, 2, "Is the lung healthy?", "No", "en", "CLOSED", "Abnormality"),
                 row(6, 2, "Where is the abnormality?", "Left Lung, Right", "en", "OPEN",
                     "Position")],
    }
    for name, rows in tables.items():
        (folder / f"{name}.json").write_text(json.dumps(rows, ensure_ascii=False, indent=1))
    return folder


def test_slake_english_by_default_splits_and_content_type(tmp_path: Path) -> None:
    src = write_slake(tmp_path)
    assert cli("import", "slake", str(src), "-o", str(tmp_path / "b")) == 0
    bench, items = check_bench(tmp_path / "b")
    by = {i.meta["qid"]: i for i in items}
    assert sorted(by) == [1, 3, 4, 5, 6]  # the Chinese question is left out
    assert by[1].question == "Does the picture contain lung?" and by[1].question_type == "yesno"
    assert by[1].options[by[1].answer] == "Yes" and by[1].split == "train"
    assert by[3].question_type == "open" and by[3].answer == "CT"
    # CLOSED but not yes/no: kept as published, an open question.
    assert by[4].question_type == "open" and by[4].split == "val"
    assert by[6].answer == "Left Lung, Right" and by[6].split == "test"
    assert by[5].category == "Abnormality" and by[5].meta["content_type"] == "Abnormality"
    assert by[5].meta["label_rows"] == ["test.json:1"] and by[5].case_id == "2"
    assert bench.sources[0].dataset == "SLAKE" and bench.sources[0].license == "CC BY 4.0"
    assert cli("import", "slake", str(src), "--lang", "zh", "-o", str(tmp_path / "zh")) == 0
    _, zh = check_bench(tmp_path / "zh")
    assert [i.question for i in zh] == ["图片中包含肺吗？"]


def test_slake_given_to_vqa_rad_is_one_line_exit_2(tmp_path: Path) -> None:
    src = write_slake(tmp_path)
    proc = subprocess.run(
        [sys.executable, "-m", "medvqa.cli", "import", "vqa_rad", str(src / "train.json"),
         "--images", str(src / "imgs"), "-o", str(tmp_path / "b")],
        capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    text = " ".join(proc.stderr.split())  # one message (the console wraps it at 80 columns)
    assert text.count("error:") == 1 and "Traceback" not in text
    assert "train.json: not a VQA-RAD file: rows lack image_name" in text
    assert not (tmp_path / "b").exists()


def test_vqa_rad_official_json(tmp_path: Path, data_dir: Path) -> None:
    src = data_dir / "vqa_rad" / "VQA_RAD Dataset Public.json"
    assert cli("import", "vqa_rad", str(src), "-o", str(tmp_path / "b")) == 0
    bench, items = check_bench(tmp_path / "b")
    rows = json.loads(src.read_text())
    assert len(items) == len(rows) and items[0].question == rows[0]["question"].strip()
    assert bench.sources[0].license == "CC0 1.0" and bench.sources[0].url


def write_hf_parquet(folder: Path, rows_by_split: dict[str, list[tuple[Path, str, str]]]) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    (folder / "data").mkdir(parents=True)
    schema = pa.schema([("image", pa.struct([("bytes", pa.binary()), ("path", pa.string())])),
                        ("question", pa.string()), ("answer", pa.string())])
    for split, rows in rows_by_split.items():
        table = pa.Table.from_pylist([{"image": {"bytes": p.read_bytes(), "path": p.name},
                                       "question": q, "answer": a} for p, q, a in rows],
                                     schema=schema)
        pq.write_table(table, folder / "data" / f"{split}-00000-of-00001.parquet")


@pytest.mark.parametrize("fmt", ["pathvqa", "vqa_rad_hf"])
def test_hugging_face_parquet_copies(fmt: str, tmp_path: Path) -> None:
    imgs = lung_images(3)
    write_hf_parquet(tmp_path / "hf", {
        "train": [(imgs[0], "is this benign tissue?", "yes"),
                  (imgs[1], "what does this show?", "alveolar septa")],
        "validation": [(imgs[1], "is there necrosis?", "no")],
        "test": [(imgs[2], "what is present?", "normal lung parenchyma")],
    })
    assert cli("import", fmt, str(tmp_path / "hf"), "-o", str(tmp_path / "b")) == 0
    bench, items = check_bench(tmp_path / "b")
    by = {i.question: i for i in items}
    assert by["is this benign tissue?"].question_type == "yesno"
    assert by["is this benign tissue?"].options[by["is this benign tissue?"].answer] == "Yes"
    assert by["what does this show?"].answer == "alveolar septa"
    assert [i.split for i in items] == ["test", "train", "train", "val"]  # files in name order
    assert (tmp_path / "b" / by["what is present?"].images[0]).read_bytes() == imgs[2].read_bytes()
    assert by["is there necrosis?"].case_id == by["what does this show?"].case_id  # same image
    assert bench.sources[0].license in {"MIT", "CC0 1.0"}


def test_pmc_vqa_csv_strips_letter_prefixes(tmp_path: Path) -> None:
    imgs = lung_images(2)
    (tmp_path / "pmc" / "images").mkdir(parents=True)
    for img in imgs:
        shutil.copy(img, tmp_path / "pmc" / "images" / img.name)
    header = ["Figure_path", "Question", "Answer", "Choice A", "Choice B", "Choice C",
              "Choice D", "Answer_label"]
    rows = [[imgs[0].name, "What staining is shown?", "H&E", "A:H&E ", "B:PAS ", "C:Gram ",
             "D:Ziehl-Neelsen", "A"],
            [imgs[1].name, "Which organ?", "B:Lung", "A: Liver", "B: Lung", "C: NA", "D: None",
             ""]]
    with (tmp_path / "pmc" / "test_2.csv").open("w", newline="") as fh:
        csv.writer(fh).writerows([header, *rows])
    assert cli("import", "pmc_vqa", str(tmp_path / "pmc" / "test_2.csv"),
               "-o", str(tmp_path / "b")) == 0
    _, items = check_bench(tmp_path / "b")
    assert items[0].options == {"A": "H&E", "B": "PAS", "C": "Gram", "D": "Ziehl-Neelsen"}
    assert items[0].answer == "A" and items[0].split == "test"
    assert items[1].options["C"] == "NA" and items[1].answer == "B"  # matched by Answer text
    assert items[1].question == "Which organ?"


def test_omnimedvqa_json(tmp_path: Path) -> None:
    root = tmp_path / "OmniMedVQA"
    imgs = rad_images(2)
    (root / "Images" / "MedPix").mkdir(parents=True)
    (root / "QA information" / "Open-access").mkdir(parents=True)
    rows = []
    for k, img in enumerate(imgs):
        shutil.copy(img, root / "Images" / "MedPix" / img.name)
        rows.append({"dataset": "MedPix", "question_id": f"MedPix_{k:04d}",
                     "question_type": "Modality Recognition",
                     "question": "What imaging modality was used?", "gt_answer": "CT",
                     "image_path": f"Images/MedPix/{img.name}", "option_A": "MR",
                     "option_B": "CT", "option_C": "X-ray", "modality_type": "CT"})
    (root / "QA information" / "Open-access" / "MedPix.json").write_text(json.dumps(rows))
    assert cli("import", "omnimedvqa", str(root), "-o", str(tmp_path / "b")) == 0
    _, items = check_bench(tmp_path / "b")
    assert [i.answer for i in items] == ["B", "B"] and items[0].split == "test"
    assert items[0].category == "Modality Recognition" and items[0].meta["dataset"] == "MedPix"
    assert items[0].id == "omnimedvqa/MedPix_0000"
    one = root / "QA information" / "Open-access" / "MedPix.json"
    assert cli("import", "omnimedvqa", str(one), "-o", str(tmp_path / "c")) == 0


def test_generic_table_with_column_mapping(tmp_path: Path) -> None:
    imgs = lung_images(2)
    for img in imgs:
        shutil.copy(img, tmp_path / img.name)
    rows = [{"qid": "q1", "img": imgs[0].name, "q": "Which tissue?", "o1": "benign",
             "o2": "tumour", "gt": "benign", "fold": "validation", "site": "lung", "age": 61},
            {"qid": "q2", "img": imgs[1].name, "q": "Is it benign?", "o1": "", "o2": "",
             "gt": "yes", "fold": "test", "site": "lung", "age": 70}]
    (tmp_path / "mine.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    assert cli("import", "table", str(tmp_path / "mine.jsonl"), "--name", "mine", "--license",
               "CC BY 4.0", "--map", "id=qid;question=q;answer=gt;image=img;options=o1,o2;"
               "split=fold", "-o", str(tmp_path / "b")) == 0
    bench, items = check_bench(tmp_path / "b")
    assert items[0].id == "mine/q1" and items[0].answer == "A" and items[0].split == "val"
    assert items[0].meta["site"] == "lung" and items[0].meta["age"] == 61
    assert items[1].question_type == "yesno" and bench.license == "CC BY 4.0"
    bad = cli("import", "table", str(tmp_path / "mine.jsonl"), "--map", "question=nope,answer=gt",
              "-o", str(tmp_path / "c"))
    assert bad == 2


def test_vlmevalkit_tsv_keeps_split_and_extra_columns(tmp_path: Path) -> None:
    import base64

    img = base64.b64encode(rad_images(1)[0].read_bytes()).decode()
    header = ["index", "image", "question", "A", "B", "C", "answer", "category", "department",
              "task", "granularity", "modality"]
    rows = [["1", img, "Which organ is abnormal?", "liver", "lung", "kidney", "B", "Organ",
             "Radiology", "Disease diagnosis", "organ", "CT"],
            ["2", "1", "Which side?", "left", "right", "", "A", "Position", "Radiology",
             "Attribute recognition", "lesion", "CT"]]
    with (tmp_path / "GMAI-MMBench_VAL.tsv").open("w", newline="") as fh:
        csv.writer(fh, delimiter="\t", lineterminator="\n").writerows([header, *rows])
    assert cli("import", "vlmevalkit", str(tmp_path / "GMAI-MMBench_VAL.tsv"), "--split", "val",
               "--license", "CC BY-NC 4.0", "-o", str(tmp_path / "b")) == 0
    _, items = check_bench(tmp_path / "b")
    assert [i.split for i in items] == ["val", "val"]  # never re-split 7:1:2
    assert items[0].meta["department"] == "Radiology" and items[1].meta["granularity"] == "lesion"
    assert items[1].images == items[0].images


def test_zero_items_is_bad_input_and_keeps_the_old_benchmark(tmp_path: Path) -> None:
    src = write_slake(tmp_path)
    assert cli("import", "slake", str(src), "-o", str(tmp_path / "b")) == 0
    before = (tmp_path / "b" / "items.jsonl").read_bytes()
    shutil.rmtree(src / "imgs")
    assert cli("import", "slake", str(src), "-o", str(tmp_path / "b")) == 2
    assert (tmp_path / "b" / "items.jsonl").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["Slake1.0", "b"]  # no staging left


def test_printed_recipe_builds_the_same_benchmark(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    src = write_slake(tmp_path)
    assert cli("import", "slake", str(src), "--print-recipe") == 0
    text = capsys.readouterr().out
    root = text.splitlines()[0].removeprefix("# paths relative to --data-root ")
    (tmp_path / "slake.yaml").write_text(text)
    assert cli("build", str(tmp_path / "slake.yaml"), "--data-root", root,
               "-o", str(tmp_path / "built")) == 0
    assert cli("import", "slake", str(src), "-o", str(tmp_path / "imported")) == 0
    assert (tmp_path / "built" / "items.jsonl").read_bytes() == (
        tmp_path / "imported" / "items.jsonl").read_bytes()


def test_build_list_shows_the_import_recipe_types(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli("build", "--list") == 0
    out = capsys.readouterr().out
    assert all(t in out for t in ("slake", "pathvqa", "pmc_vqa", "omnimedvqa", "table"))


def test_hub_id_offline_is_one_clear_line(tmp_path: Path) -> None:
    import os

    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_HOME": str(tmp_path / "hf")}
    proc = subprocess.run(
        [sys.executable, "-m", "medvqa.cli", "import", "pathvqa", "someone/path-vqa",
         "-o", str(tmp_path / "b")], capture_output=True, text=True, timeout=120, env=env)
    text = " ".join(proc.stderr.split())
    assert proc.returncode == 2 and "someone/path-vqa: not a local path" in text, text
    assert "Traceback" not in text


@pytest.mark.parametrize(("fmt", "given"), [
    ("slake", "omni"), ("omnimedvqa", "slake"), ("pmc_vqa", "table"), ("vlmevalkit", "pmc"),
    ("pathvqa", "table_parquet"), ("vqa_rad", "omni")])
def test_a_file_of_another_format_is_exit_2(fmt: str, given: str, tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    files = {
        "omni": ("x.json", json.dumps([{"question": "q", "gt_answer": "a", "image_path": "i",
                                         "option_A": "a"}])),
        "slake": ("x.json", json.dumps([{"img_name": "i", "question": "q", "answer": "a",
                                          "q_lang": "en", "answer_type": "OPEN"}])),
        "table": ("x.csv", "question,answer\nq,a\n"),
        "pmc": ("x.tsv", "Figure_path,Question,Choice A,Choice B\ni,q,A:a,B:b\n"),
    }
    if given == "table_parquet":
        src = tmp_path / "x.parquet"
        pq.write_table(pa.table({"q": ["q"], "a": ["a"]}), src)
    else:
        name, text = files[given]
        src = tmp_path / name
        src.write_text(text)
    assert cli("import", fmt, str(src), "--images", str(tmp_path), "-o", str(tmp_path / "b")) == 2
    assert not (tmp_path / "b").exists()
