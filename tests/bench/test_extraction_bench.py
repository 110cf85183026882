"""The ``extraction`` bench section: its figures on the shipped set and its realistic mix."""

from __future__ import annotations

from medvqa.bench._extraction import (
    _parse_all,
    labelled_rows,
    realistic_mix,
    rule_figures,
    speed_figures,
)


def test_rule_figures_report_recall_false_credit_and_invalid_rate():
    rows = labelled_rows()
    figures = {f.name: f for f in rule_figures(rows, _parse_all(rows))}
    recall = figures["rules: recall on clear answers"]
    credit = next(f for name, f in figures.items() if name.startswith("rules: false credit"))
    assert recall.met and recall.value >= 0.9
    assert credit.met and credit.value == 0
    assert 0 < figures["rules: invalid rate, all responses"].value < 1


def test_the_realistic_mix_repeats_short_forms_and_includes_modern_ones():
    mix = realistic_mix(3000, labelled_rows())
    texts = [t for t, *_ in mix]
    assert len(set(texts)) < len(texts) * 0.5  # the common short forms repeat
    assert any("<think>" in t or "boxed" in t or '"answer"' in t for t in texts)


def test_speed_figures_are_measured_with_their_target():
    figures = speed_figures(labelled_rows(), quick=True)
    assert [f.unit for f in figures] == ["responses/s", "responses/s"]
    assert figures[0].target == ">= 100,000" and all(f.value > 0 for f in figures)
