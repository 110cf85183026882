"""Issue 23 item 17 in the report: one row per severity curve with its trend verdict, verdicts
that follow the Holm-adjusted test, and the families stated in the methods."""

from __future__ import annotations

from report_fixtures import delta, reads_images, rendered, run

from medvqa.report._report import methods_text


def test_a_curve_is_one_row_of_the_controls_table_with_its_trend_verdict() -> None:
    _, md = rendered(reads_images())
    controls = md.split("### Controls", 1)[1].split("###", 1)[0]
    rows = [line for line in controls.splitlines() if line.startswith("| cnn (supervised)")]
    assert len(rows) == 2  # blind, and the hue curve: not one row per severity
    hue = next(r for r in rows if "hue" in r)
    assert "severities 1, 5" in hue and "0.833 → 0.333" in hue
    assert "accuracy falls with severity" in hue and "corrupt:hue\\@5" not in controls


def test_a_control_significant_only_before_holm_reads_no_evidence() -> None:
    controls = {"deltas": {"blind": delta(0.5, 0.4, (0.01, 0.2), 0.036, 0.82, False)}}
    _, md = rendered([run("supervised:cnn", "b", 0.5, (0.4, 0.6), 100, controls)])
    row = next(line for line in md.split("### Controls", 1)[1].splitlines()
               if line.startswith("| cnn (supervised)"))
    assert "0.036 (Holm 0.82)" in row and "no evidence it needs the image" in row


def test_the_methods_state_the_families_and_the_rule() -> None:
    methods = methods_text(reads_images())
    for fact in ("primary family", "one-sided", "Holm-adjusted p is below 0.05",
                 "interval of clean − condition lies above 0", "slope is negative"):
        assert fact in methods
