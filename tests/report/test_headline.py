"""Issue 23 item 19: what the report says first, and when a sample is too small to compare
models — on small in-memory runs rendered to HTML and Markdown."""

from __future__ import annotations

from report_fixtures import reads_images, rendered, run, tiny

from medvqa.report._headline import MIN_ITEMS, sample_check


def test_a_tiny_run_says_its_sample_is_too_small_to_compare_models() -> None:
    html, md = rendered(tiny())
    section = md.split("## a-idrid", 1)[1]
    assert "too small to compare models" in section.split("| Model |", 1)[0]
    assert "±0.30, n 10" in md and "too small to compare models" in html
    assert f"fewer than {MIN_ITEMS} items" in md.split("## Methods", 1)[1]


def test_a_large_sample_with_narrow_intervals_is_not_too_small() -> None:
    check = sample_check([run("random", "b", 0.5, (0.46, 0.54), 600)])
    assert check is not None and not check.too_small and check.text() == (
        "95 % intervals up to ±0.04, n 600")
    html, md = rendered([run("random", "b", 0.5, (0.46, 0.54), 600)])
    assert "too small to compare" not in md.split("## Methods", 1)[0]
    assert "too small to compare" not in html.split("<h2>Methods", 1)[0]


def test_few_items_are_too_small_even_when_every_answer_is_right() -> None:
    check = sample_check([run("m", "b", 1.0, (1.0, 1.0), 12)])
    assert check is not None and check.too_small and check.n == 12


def test_the_headline_comparison_comes_first() -> None:
    html, md = rendered(tiny() + reads_images())
    # The opening section, before any benchmark, names the model that reads the images,
    # the baselines and the control that shows it.
    head = md.split("## ", 2)[1]
    assert head.startswith("Does a model read the images?")
    first = next(line for line in head.splitlines() if line.startswith("| z-lung"))
    for fact in ("cnn (supervised)", "0.867 [0.733, 0.967]", "0.333", "0.400", "above both",
                 "blind Δ +0.534 [+0.300, +0.767]", "Holm p 0.0188", "needs the image"):
        assert fact in first
    rows = [line for line in head.splitlines() if line.startswith("| a-idrid")
            or line.startswith("| z-lung")]
    assert rows[0].startswith("| z-lung")  # not alphabetical: the one that reads images
    assert md.index("## z-lung") < md.index("## a-idrid")
    assert html.index("Does a model read the images?") < html.index('id="bench-z-lung"') \
        < html.index('id="bench-a-idrid"')
