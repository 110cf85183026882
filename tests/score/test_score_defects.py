"""The smaller defects of issue 12 §5, each pinned by a test that failed before the fix."""

from __future__ import annotations

import json

import numpy as np
import pytest
from sacrebleu.metrics import BLEU

from medvqa.reading import bleu_stats, corpus_bleu, make_parser, open_scores
from medvqa.schema import Item, MetricsFile, Prediction
from medvqa.score._block import metrics_block
from medvqa.score._metric_table import METRICS, Metric
from medvqa.score._rows import score_row

PAIRS = [("Yes", "yes"), ("Left pleural effusion.", "left pleural effusion"),
         ("a small nodule in the right upper lobe", "small nodule right upper lobe"),
         ("No", "yes"), ("The heart is enlarged with mild edema", "enlarged heart, mild edema")]


def _open_rows(pairs, case=None):
    parser = make_parser("open")
    return [score_row(Item(id=f"o{i}", question="What is seen?", answer=gold,
                           question_type="open", case_id=case),
                      Prediction(item_id=f"o{i}", response=resp), parser)
            for i, (resp, gold) in enumerate(pairs)]


def test_open_macro_f1_normalises_both_sides():
    rows = _open_rows([("Pleural effusion.", "Pleural effusion"), ("The heart.", "heart"),
                       ("Yes", "yes")])
    block = metrics_block(rows, 199, 0, False)
    assert block.accuracy.value == 1.0
    assert block.macro_f1.value == 1.0  # was 0.333: raw gold vs normalised prediction


def test_corpus_bleu4_is_sacrebleu_lower_cased_13a():
    rows = _open_rows(PAIRS)
    block = metrics_block(rows, 199, 0, False)
    expected = BLEU(lowercase=True, tokenize="13a").corpus_score(
        [p for p, _ in PAIRS], [[g for _, g in PAIRS]]).score / 100
    assert block.open["bleu4"].value == pytest.approx(expected, abs=1e-6)
    assert expected > 0
    # "Yes" vs "yes" alone: identical once lower-cased (was sentence BLEU on raw case → 0).
    assert corpus_bleu(np.array(bleu_stats("Yes Yes Yes Yes", "yes yes yes yes")))[0] == 1.0


@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_vectorised_corpus_bleu_equals_sacrebleu_on_subsets(n):
    stats = np.array([bleu_stats(p, g) for p, g in PAIRS[:n]])
    ref = BLEU(lowercase=True, tokenize="13a").corpus_score(
        [p for p, _ in PAIRS[:n]], [[g for _, g in PAIRS[:n]]]).score / 100
    assert corpus_bleu(stats.sum(axis=0))[0] == pytest.approx(ref, abs=1e-9)


def test_rouge_l_keeps_non_latin_text():
    assert open_scores("左侧胸腔积液", "左侧胸腔积液").rouge_l == 1.0
    assert 0 < open_scores("右侧胸腔积液", "左侧胸腔积液").rouge_l < 1
    assert open_scores("плевральный выпот", "плевральный выпот").rouge_l == 1.0


def test_clustered_is_false_when_no_case_repeats():
    from medvqa.score._per_condition import run_units

    every = np.ones(5, dtype=bool)
    none = run_units(np.zeros(5, dtype=bool), np.zeros(5, dtype=np.int64), every, True)[1]
    assert none.startswith("items")  # case_id None everywhere
    one = (np.ones(5, dtype=bool), np.full(5, 3, dtype=np.int64), every)
    assert run_units(*one, True)[1] == "cases (1 cases, 5 items)"
    assert run_units(*one, False)[1].startswith("items (--no-cluster")


def test_pathmmu_random_fallbacks_are_counted_beside_accuracy():
    parser = make_parser("pathmmu", seed=42)
    opts = {"A": "Steatosis", "B": "Cirrhosis", "C": "Normal"}
    rows = [score_row(Item(id=f"p{i}", question="?", options=opts, answer="A",
                           question_type="single"),
                      Prediction(item_id=f"p{i}", response=r), parser)
            for i, r in enumerate(["(A)", "**A**", "I cannot tell", "A)", "(B)"])]
    block = metrics_block(rows, 199, 0, False)
    assert block.random_fallbacks == 3 and block.invalid_rate.value == 0.0
    item = Item(id="s", question="?", options=opts, answer="A", question_type="single")
    strict = [score_row(item, Prediction(item_id="s", response="A"), make_parser("strict"))]
    assert metrics_block(strict, 199, 0, False).random_fallbacks is None


def test_a_registered_metric_reaches_metrics_json_console_and_report(monkeypatch, tmp_path):
    import medvqa.report._report as report
    import medvqa.score._block as block_module
    from medvqa.report._console import print_metrics

    extra = Metric("answered", "answered", lambda b: int(len(b) - b.invalid.sum()),
                   console=True, report=True, kind="count")
    monkeypatch.setattr(block_module, "METRICS", (*METRICS, extra))
    rows = _open_rows(PAIRS)
    block = metrics_block(rows, 99, 0, False)
    from medvqa.schema import ConditionMetrics

    metrics = MetricsFile(style="strict", n=5, seed=0, resamples=99, clustered=False,
                          conditions={"clean": ConditionMetrics(overall=block)})
    text = metrics.model_dump_json()
    assert json.loads(text)["conditions"]["clean"]["overall"]["answered"] == 5
    reread = MetricsFile.model_validate_json(text)
    import medvqa.score._metric_table as table

    monkeypatch.setattr(table, "METRICS", (*METRICS, extra))
    from rich.console import Console

    console = Console(record=True, width=200)
    print_metrics(console, reread, tmp_path)
    assert "answered" in console.export_text()
    run = report.LoadedRun(tmp_path, None, reread)
    row = report._leaderboard_row(run)
    assert row["answered"] == "5"
