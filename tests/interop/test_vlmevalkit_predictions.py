"""VLMEvalKit results → RUN/: an inference file (the exported rows plus a ``prediction`` column,
as VLMEvalKit writes ``{model}_{dataset}.xlsx``) imports by item id; text pandas would read as
missing stays text; unmatched rows are reported; score, compare and report accept the run."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from _medvqa_cli import cli

from medvqa.interop._export_vlmevalkit import export_vlmevalkit
from medvqa.schema import Prediction, read_jsonl


def inference_file(tsv: Path, out: Path, answer: str) -> Path:
    frame = pd.read_csv(tsv, sep="\t", dtype=str, keep_default_na=False)
    frame = frame.drop(columns=["image"])
    frame["prediction"] = [r["answer"] if k % 3 else answer for k, (_, r) in
                           enumerate(frame.iterrows())]
    frame.loc[len(frame)] = {**{c: "" for c in frame.columns}, "id": "not-an-item",
                             "index": "999", "prediction": "A"}
    frame.to_excel(out, index=False) if out.suffix == ".xlsx" else frame.to_csv(
        out, sep="\t", index=False)
    return out


@pytest.mark.parametrize("suffix", [".xlsx", ".tsv"])
def test_import_vlmevalkit_predictions(bench: Path, tmp_path: Path, suffix: str,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("openpyxl")
    exported = export_vlmevalkit(bench, tmp_path / "VQA_RAD.tsv", ["test"])
    mcq = next(f.path for f in exported.files if f.kind == "MCQ")
    result = inference_file(mcq, tmp_path / f"MyVLM_VQA_RAD{suffix}", "None")
    run = tmp_path / "run"
    assert cli("import-predictions", "vlmevalkit", str(result), "--bench", str(bench),
               "-o", str(run)) == 0
    said = capsys.readouterr()
    assert "not-an-item" in said.err and "1 unmatched" in said.out
    preds = list(read_jsonl(run / "predictions.jsonl", Prediction))
    assert preds[0].response == "None"  # kept as text, not NaN
    info = json.loads((run / "run.json").read_text())
    assert info["model"] == "vlmevalkit:MyVLM_VQA_RAD" and info["counts"]["unmatched"] == 1
    assert info["model_info"]["imported_from"]["file"].endswith(result.name)
    assert cli("score", str(bench), str(run), "--resamples", "200") == 0
    metrics = json.loads((run / "metrics.json").read_text())
    overall = metrics["conditions"]["clean"]["overall"]
    right = sum(1 for k in range(len(preds)) if k % 3)
    assert overall["accuracy"]["value"] == pytest.approx(right / len(preds))
    assert overall["invalid_rate"]["value"] == pytest.approx((len(preds) - right) / len(preds))
    assert cli("report", str(run), "-o", str(tmp_path / "r.html")) == 0
    assert cli("compare", str(run), str(run), "--bench", str(bench)) == 0


def test_wrong_file_is_bad_input(bench: Path, tmp_path: Path) -> None:
    (tmp_path / "x.tsv").write_text("index\tanswer\n1\tA\n")
    assert cli("import-predictions", "vlmevalkit", str(tmp_path / "x.tsv"), "--bench",
               str(bench), "-o", str(tmp_path / "run")) == 2
    assert cli("import-predictions", "inspect", str(tmp_path / "x.tsv"), "--bench",
               str(bench), "-o", str(tmp_path / "run")) == 2
    assert cli("import-predictions", "lmms-eval", str(tmp_path / "x.tsv"), "--bench",
               str(bench), "-o", str(tmp_path / "run")) == 2


def test_reimport_replaces_stale_results_and_never_overwrites_a_real_run(
        bench: Path, tmp_path: Path) -> None:
    pytest.importorskip("openpyxl")
    exported = export_vlmevalkit(bench, tmp_path / "VQA_RAD.tsv", ["test"])
    result = inference_file(exported.files[0].path, tmp_path / "M_VQA_RAD.tsv", "A")
    args = ("import-predictions", "vlmevalkit", str(result), "--bench", str(bench), "-o")
    assert cli(*args, str(tmp_path / "run")) == 0
    assert cli("score", str(bench), str(tmp_path / "run"), "--resamples", "50") == 0
    assert cli(*args, str(tmp_path / "run")) == 0
    assert not (tmp_path / "run" / "metrics.json").exists()  # stale scores removed
    assert cli("run", str(bench), "-m", "random", "-o", str(tmp_path / "real")) == 0
    assert cli(*args, str(tmp_path / "real")) == 2


def test_a_blind_run_imported_beside_the_clean_one_gives_controls(bench: Path,
                                                                   tmp_path: Path) -> None:
    pytest.importorskip("openpyxl")
    exported = export_vlmevalkit(bench, tmp_path / "VQA_RAD.tsv", ["test"])
    clean = inference_file(exported.files[0].path, tmp_path / "M_VQA_RAD.xlsx", "A")
    frame = pd.read_excel(clean, dtype=str, keep_default_na=False)
    frame["prediction"] = "A"  # on blank images the model always says A
    blind = tmp_path / "M_VQA_RAD_blank.xlsx"
    frame.to_excel(blind, index=False)
    run = tmp_path / "run"
    base = ("import-predictions", "vlmevalkit")
    assert cli(*base, str(clean), "--bench", str(bench), "-o", str(run)) == 0
    assert cli(*base, str(blind), "--bench", str(bench), "-o", str(run), "--condition",
               "blind") == 0
    assert cli(*base, str(blind), "--bench", str(bench), "-o", str(run), "--condition",
               "blnd") == 1
    info = json.loads((run / "run.json").read_text())
    assert info["conditions"] == ["clean", "blind"]
    assert set(info["model_info"]["imported_conditions"]) == {"clean", "blind"}
    assert cli("score", str(bench), str(run), "--resamples", "200") == 0
    metrics = json.loads((run / "metrics.json").read_text())
    delta = metrics["controls"]["deltas"]["blind"]["overall"]
    assert delta["n"] == len(frame) - 1 and delta["delta"] > 0  # clean answers 2/3 right


def _exact_matching_result(predictions: Path) -> Path:
    """VLMEvalKit's evaluation output: the same rows, plus its verdict ``hit`` and a ``log``."""
    frame = pd.read_excel(predictions, dtype=str, keep_default_na=False)
    frame["hit"] = [int(p == a) for p, a in zip(frame["prediction"], frame["answer"],
                                                   strict=True)]
    frame["log"] = "Match Found"
    out = predictions.with_name(f"{predictions.stem}_exact_matching_result.xlsx")
    frame.to_excel(out, index=False)
    return out


@pytest.mark.parametrize("given", ["predictions", "predictions+result", "result"])
def test_agreement_from_either_vlmevalkit_file(bench: Path, tmp_path: Path, given: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """The predictions .xlsx alone gives answers but no verdicts (agreement says what to
    import); its *_exact_matching_result.xlsx, imported or lying beside it, gives both."""
    pytest.importorskip("openpyxl")
    from medvqa.interop import agreement

    exported = export_vlmevalkit(bench, tmp_path / "VQA_RAD.tsv", ["test"])
    mcq = next(f.path for f in exported.files if f.kind == "MCQ")
    (tmp_path / "vlm").mkdir()
    preds = inference_file(mcq, tmp_path / "vlm" / "MyVLM_VQA_RAD.xlsx", "Z")
    result = _exact_matching_result(preds)
    if given == "predictions":
        result.unlink()
    source = result if given == "result" else preds
    run = tmp_path / "run"
    assert cli("import-predictions", "vlmevalkit", str(source), "--bench", str(bench),
               "-o", str(run)) == 0
    said = capsys.readouterr().err
    assert cli("score", str(bench), str(run), "--resamples", "50") == 0
    info = json.loads((run / "run.json").read_text())
    assert info["model"] == "vlmevalkit:MyVLM_VQA_RAD"
    if given == "predictions":
        assert "has no VLMEvalKit verdicts (hit)" in said
        assert "MyVLM_VQA_RAD_exact_matching_result.xlsx" in said
        assert cli("agreement", str(run)) == 2
        assert "*_exact_matching_result.xlsx, not the predictions .xlsx" in \
            capsys.readouterr().err
        return
    if given == "predictions+result":
        assert "verdicts (hit) read from MyVLM_VQA_RAD_exact_matching_result.xlsx" in said
    res = agreement(run)
    right = sum(1 for k in range(res.n) if k % 3)
    assert res.n > 0 and res.tool_accuracy == pytest.approx(right / res.n)
    assert cli("agreement", str(run)) == 0
