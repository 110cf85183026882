"""Round trip through lmms-eval's task format: BENCH/ → task folder (YAML + utils.py + Parquet)
→ loaded by lmms-eval's own config loader (``lmms_eval.utils.load_yaml_config``, which resolves
the ``!function`` hooks) and by ``datasets`` → each document's prompt and images sent to the
loopback chat server the way lmms-eval's generate loop does → a ``samples_*.jsonl`` log in
lmms-eval's format → import-predictions → medvqa score → agreement with lmms-eval's own
``process_results``.

lmms-eval's evaluator itself is not run: it imports torchvision, which this project must not
install; its config loader and the task's hooks are lmms-eval's real code paths."""

from __future__ import annotations

import base64
import io
import json
import urllib.request
from pathlib import Path

import pytest
from _medvqa_cli import cli

from medvqa.benchmark import load_template, render_prompt
from medvqa.interop import agreement, export_lmms_eval
from medvqa.schema import Item, read_jsonl
from medvqa.testing import ChatServer


def load_task(yaml_path: Path) -> dict:
    lmms_utils = pytest.importorskip("lmms_eval.utils")
    return lmms_utils.load_yaml_config(str(yaml_path))


def load_docs(cfg: dict, cache: Path):
    """The documents as lmms-eval's ``ConfigurableTask.download`` loads them."""
    import datasets

    return datasets.load_dataset(cfg["dataset_path"], cache_dir=str(cache),
                                 **(cfg.get("dataset_kwargs") or {}))


def chat(url: str, prompt: str, images: list) -> str:
    parts = []
    for im in images:
        buf = io.BytesIO()
        im.save(buf, format="PNG")
        parts.append({"type": "image_url", "image_url": {
            "url": "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()}})
    body = {"model": "test", "messages": [{"role": "user", "content": [
        *parts, {"type": "text", "text": prompt}]}]}
    req = urllib.request.Request(f"{url}/chat/completions", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as resp:  # noqa: S310 - loopback only
        return json.load(resp)["choices"][0]["message"]["content"]


def test_task_loads_with_lmms_eval_config_loader(bench: Path, tmp_path: Path) -> None:
    assert cli("export", str(bench), "--format", "lmms-eval", "-o", str(tmp_path / "task")) == 0
    cfg = load_task(tmp_path / "task" / "medvqa_vqa_rad.yaml")
    assert cfg["task"] == "medvqa_vqa_rad" and cfg["test_split"] == "test"
    assert callable(cfg["doc_to_text"]) and callable(cfg["process_results"])
    docs = load_docs(cfg, tmp_path / "c")
    assert sorted(docs) == ["test", "train"]
    items = {i.id: i for i in read_jsonl(bench / "items.jsonl", Item)}
    template = load_template("default")
    for doc in docs["test"]:
        item = items[doc["id"]]
        assert cfg["doc_to_text"](doc) == render_prompt(item, template)  # medvqa's prompt
        assert len(cfg["doc_to_visual"](doc)) == len(item.images)
        gold = cfg["doc_to_target"](doc)
        assert cfg["process_results"](doc, [gold])["accuracy"] == 1.0


def test_task_folder_still_loads_after_it_is_moved(bench: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """No absolute path in the YAML: a copied or moved task folder loads from anywhere."""
    import shutil

    export_lmms_eval(bench, tmp_path / "task")
    text = (tmp_path / "task" / "medvqa_vqa_rad.yaml").read_text()
    assert str(tmp_path) not in text
    shutil.move(tmp_path / "task", tmp_path / "elsewhere")
    monkeypatch.chdir(bench)  # not the folder the export ran from, nor the task's
    cfg = load_task(tmp_path / "elsewhere" / "medvqa_vqa_rad.yaml")
    docs = load_docs(cfg, tmp_path / "c")
    assert sorted(docs) == ["test", "train"] and len(docs["test"]) > 0
    assert cfg["doc_to_visual"](docs["test"][0])  # images decode as images


def test_lmms_eval_round_trip(bench: Path, tmp_path: Path) -> None:
    out = export_lmms_eval(bench, tmp_path / "task")
    cfg = load_task(out.yaml_path)
    docs = load_docs(cfg, tmp_path / "c")["test"]
    golds = {doc["id"]: cfg["doc_to_target"](doc) for doc in docs}

    def style(doc: dict) -> int:
        return len(doc["id"]) % 4 if doc["options"] else len(doc["id"]) % 2

    def reply(prompt: str, body: dict) -> str:
        doc = next(d for d in docs if d["question"] in prompt)
        gold = golds[doc["id"]]
        other = next((o["letter"] for o in doc["options"] if o["letter"] != gold), "")
        # Right; right with trailing words; wrong; two letters, the right one first (lmms-eval's
        # first-letter rule takes it, medvqa's strict parser abstains).
        return [gold, f"{gold}. The image shows it.", "Z", f"{gold} or {other}"][style(doc)]

    samples = []
    with ChatServer(reply=reply) as server:
        for doc_id, doc in enumerate(docs):
            text = chat(server.url, cfg["doc_to_text"](doc), cfg["doc_to_visual"](doc))
            metrics = cfg["process_results"](doc, [text])
            samples.append({"doc_id": doc_id, "target": cfg["doc_to_target"](doc),
                            "resps": [[text]], "filtered_resps": [text], **metrics})
    log = tmp_path / "samples_medvqa_vqa_rad.jsonl"
    log.write_text("".join(json.dumps(s) + "\n" for s in samples))
    lmms_acc = sum(s["accuracy"] for s in samples) / len(samples)

    run = tmp_path / "run"
    assert cli("import-predictions", "lmms-eval", str(log), "--bench", str(bench), "--split",
               "test", "-o", str(run)) == 0
    assert cli("score", str(bench), str(run), "--resamples", "200") == 0
    res = agreement(run)
    assert res.n == len(docs) and res.tool_accuracy == pytest.approx(lmms_acc)
    hedged = {d["id"] for d in docs if d["options"] and style(d) == 3}
    assert hedged and {d.item_id for d in res.disagreements} == hedged
    assert all(d.tool_correct and d.medvqa_invalid for d in res.disagreements)
    delta = sum((1 if d.medvqa_correct else -1) for d in res.disagreements) / res.n
    assert res.medvqa_accuracy - res.tool_accuracy == pytest.approx(delta)


def _samples_log(cfg: dict, docs, path: Path, split: str | None, with_doc: bool = False) -> Path:
    """A samples log as lmms-eval writes it: doc_id, target, arguments (prompt … task, split).

    ``split`` None: an older log whose arguments end before the split; ``with_doc``: the
    document itself (recent versions) — without it only positions, targets and prompts say
    which items were asked.
    """
    lines = []
    for doc_id, doc in enumerate(docs):
        prompt, target = cfg["doc_to_text"](doc), cfg["doc_to_target"](doc)
        args = [prompt, {"max_new_tokens": 64}, doc_id, cfg["task"]] + ([split] if split else [])
        sample = {"doc_id": doc_id, "target": target, "arguments": args,
                  "resps": [[target]], "filtered_resps": [target], "accuracy": 1.0}
        if with_doc:
            sample["doc"] = {k: v for k, v in doc.items() if k != "images"}
        lines.append(json.dumps(sample) + "\n")
    path.write_text("".join(lines))
    return path


@pytest.mark.parametrize("named", [True, False], ids=["split-named", "split-inferred"])
def test_samples_of_another_split_land_on_that_splits_items(bench: Path, tmp_path: Path,
                                                           named: bool, capsys) -> None:
    """The issue's flow: export --split train, no --split at import: not test's items."""
    from medvqa.cli import main
    from medvqa.schema import Prediction

    with pytest.raises(SystemExit):
        main(["export", str(bench), "--format", "lmms-eval", "-o", str(tmp_path / "task"),
              "--split", "train"])
    printed = capsys.readouterr().out
    assert f"--bench {bench} --split train -o RUN/" in printed  # the matching import command
    cfg = load_task(tmp_path / "task" / "medvqa_vqa_rad.yaml")
    docs = load_docs(cfg, tmp_path / "c")["train"]
    log = _samples_log(cfg, docs, tmp_path / "samples_medvqa_vqa_rad.jsonl",
                       "train" if named else None)
    run = tmp_path / "run"
    assert cli("import-predictions", "lmms-eval", str(log), "--bench", str(bench), "-o",
               str(run)) == 0
    items = {i.id: i for i in read_jsonl(bench / "items.jsonl", Item)}
    preds = list(read_jsonl(run / "predictions.jsonl", Prediction))
    assert len(preds) == len(docs) and {items[p.item_id].split for p in preds} == {"train"}
    assert [p.item_id for p in preds] == [d["id"] for d in docs]  # each at its own item


def test_samples_that_do_not_fit_the_split_given_are_refused(bench: Path, tmp_path: Path,
                                                              capsys) -> None:
    from medvqa.cli import main

    out = export_lmms_eval(bench, tmp_path / "task", split="train")
    cfg = load_task(out.yaml_path)
    docs = load_docs(cfg, tmp_path / "c")["train"]
    log = _samples_log(cfg, docs, tmp_path / "samples_medvqa_vqa_rad.jsonl", None)
    with pytest.raises(SystemExit) as exit_info:
        main(["import-predictions", "lmms-eval", str(log), "--bench", str(bench), "--split",
              "test", "-o", str(tmp_path / "run")])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2
    assert "do not fit the 'test' item at their doc_id" in err and "--split train" in err
    assert not (tmp_path / "run").exists()
