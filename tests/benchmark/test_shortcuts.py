"""Shortcut tests on items: answer letters, option cues, answer classes."""

from __future__ import annotations

from medvqa.benchmark.audit import AuditConfig, run_audit
from medvqa.benchmark.audit._shortcuts import ShortcutTally
from medvqa.benchmark.audit._stats import poisson_binomial_sf
from medvqa.schema import Item


def _item(n: int, options: dict[str, str], answer: str, split: str = "test",
          qtype: str = "single") -> Item:
    return Item(id=f"i{n}", question="Which one?", options=options, answer=answer,
                question_type=qtype, split=split)  # type: ignore[arg-type]


def _tally(items: list[Item]) -> dict[str, list]:
    t = ShortcutTally()
    for it in items:
        t.add(it)
    out: dict[str, list] = {}
    for f in t.findings(alpha=0.01):
        out.setdefault(f.check, []).append(f)
    return out


OPTS = {"A": "mass", "B": "cyst", "C": "calcification", "D": "normal"}


def test_answer_always_a_is_unbalanced() -> None:
    (f,) = _tally([_item(n, OPTS, "A") for n in range(40)])["answer-letter-balance"]
    assert f.severity == "warning" and f.data["observed"] == {"A": 40}
    assert f.data["expected"]["A"] == 10.0 and f.data["p_value"] < 1e-10


def test_rotated_answers_are_balanced() -> None:
    (f,) = _tally([_item(n, OPTS, "ABCD"[n % 4]) for n in range(40)])["answer-letter-balance"]
    assert f.severity == "note" and f.data["p_value"] == 1.0


def test_expectation_follows_each_items_option_count() -> None:
    two = {"A": "yes", "B": "no"}
    items = [_item(n, OPTS, "ABCD"[n % 4]) for n in range(40)]
    items += [_item(100 + n, two, "AB"[n % 2]) for n in range(20)]
    (f,) = _tally(items)["answer-letter-balance"]
    assert f.data["expected"] == {"A": 20.0, "B": 20.0, "C": 10.0, "D": 10.0}
    assert f.severity == "note"


def test_longest_option_is_the_answer_cue() -> None:
    items = []
    for n in range(30):
        letters = "ABCD"
        right = letters[n % 4]
        opts = {k: ("a long and detailed correct description" if k == right else "short")
                for k in letters}
        items.append(_item(n, opts, right))
    cues = {f.data["cue"]: f for f in _tally(items)["option-cue"]}
    assert cues["longest"].severity == "warning"
    assert cues["longest"].data["hits"] == 30 and cues["longest"].data["follower_accuracy"] == 1.0


def test_no_cue_when_the_answer_is_never_the_longest() -> None:
    items = [_item(n, {"A": "tiny", "B": "much longer option", "C": "mid one"}, "A")
             for n in range(30)]
    cues = {f.data["cue"]: f for f in _tally(items)["option-cue"]}
    assert cues["longest"].severity == "note" and cues["longest"].data["hits"] == 0


def test_hedged_option_cue() -> None:
    items = [_item(n, {"A": "possibly a benign cyst, likely", "B": "carcinoma", "C": "abscess"},
                   "A") for n in range(25)]
    cues = {f.data["cue"]: f for f in _tally(items)["option-cue"]}
    assert cues["most hedged"].severity == "warning"


def test_skewed_answer_class_per_split() -> None:
    yn = {"A": "Yes", "B": "No"}
    items = [_item(n, yn, "A" if n % 10 else "B", "test", "yesno") for n in range(40)]
    items += [_item(100 + n, yn, "AB"[n % 2], "train", "yesno") for n in range(40)]
    found = {f.data["split"]: f for f in _tally(items)["answer-class-balance"]}
    assert found["test"].severity == "warning" and found["test"].data["majority_share"] == 0.9
    assert found["train"].severity == "note"


def test_poisson_binomial_tail_is_exact_for_tiny_p() -> None:
    from scipy.stats import binom

    p = poisson_binomial_sf(30, {0.25: 30})
    assert abs(p - 0.25**30) / 0.25**30 < 1e-9
    assert abs(poisson_binomial_sf(12, {0.25: 30, 0.5: 10})
               - sum(binom.pmf(a, 30, 0.25) * binom.sf(11 - a, 10, 0.5)
                     for a in range(31))) < 1e-12


def test_pathmmu_socialpath_longest_option_is_a_shortcut(tmp_path, data_dir) -> None:
    """PathMMU keeps its published options: the audit finds their length cue."""
    from medvqa.recipes import BuildConfig, build_benchmark

    bench = tmp_path / "pathmmu"
    build_benchmark(BuildConfig("pathmmu_socialpath", bench, data_root=data_dir))
    audit = run_audit(AuditConfig(bench, workers=1))
    cues = {f.data["cue"]: f for f in audit.findings if f.check == "option-cue"}
    assert cues["longest"].severity == "warning"
    assert cues["longest"].data["hits"] > cues["longest"].data["expected_hits"]
