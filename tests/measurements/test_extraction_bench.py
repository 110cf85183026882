"""The ``extraction`` bench section: its figures on the shipped set and its two mixes."""

from __future__ import annotations

from medvqa.measurements._extraction import (
    _common_forms,
    _parse_all,
    labelled_rows,
    modern_mix,
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


def test_the_realistic_mix_is_the_scoring_benchs():
    from medvqa.measurements._scoring import _OPTIONS, realistic_responses

    mix = realistic_mix(3000, seed=3)
    assert [t for t, *_ in mix] == realistic_responses(3000, seed=3)
    assert all(o == _OPTIONS and q == "single" and not qq for _, o, q, qq in mix)


def test_the_modern_mix_keeps_the_short_forms_and_replaces_a_third_of_the_distinct_ones():
    realistic = realistic_mix(3000)
    modern = modern_mix(3000, labelled_rows())
    texts = [t for t, *_ in modern]
    assert len(set(texts)) < len(texts) * 0.5  # the common short forms repeat
    assert any("<think>" in t or "boxed" in t or '"answer"' in t for t in texts)
    changed = [i for i, (a, b) in enumerate(zip(realistic, modern, strict=True)) if a != b]
    distinct = sum(t not in _common_forms() for t, *_ in realistic)  # the explaining ones
    assert 0.2 * distinct < len(changed) < 0.5 * distinct
    assert all(modern[i][0].endswith(f"(case {i})") for i in changed)


def test_speed_figures_put_the_target_on_the_realistic_mix():
    figures = speed_figures(labelled_rows(), quick=True)
    assert [f.unit for f in figures] == ["responses/s"] * 3
    assert "realistic mix" in figures[0].name and figures[0].target == ">= 100,000"
    assert "modern mix" in figures[1].name and not figures[1].target
    assert all(f.value > 0 for f in figures)


def test_extractor_figures_ask_a_real_loopback_extractor_about_the_rules_no_answer_rows():
    from medvqa.measurements._extraction import extractor_figures
    from medvqa.testing import ChatServer

    rows = labelled_rows()
    parsed = _parse_all(rows)
    with ChatServer(reply=lambda prompt, body: '{"answer": "NONE"}') as server:
        figures = {f.name: f for f in extractor_figures(f"openai:reader@{server.url}",
                                                         rows, parsed)}
    asked = next(f for name, f in figures.items() if name.endswith("(rules found no answer)"))
    rescues = next(f for name, f in figures.items() if name.endswith("false rescues"))
    assert asked.value > 0 and rescues.value == 0 and rescues.met
