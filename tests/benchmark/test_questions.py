"""Question-level duplicates, paraphrase leaks and labelling conflicts."""

from __future__ import annotations

from pathlib import Path

import pytest
from _audit_helpers import OPTIONS, lung_files, png_copy

from medvqa.benchmark.audit import AuditConfig, run_audit
from medvqa.schema import Item

YESNO = {"A": "Yes", "B": "No"}


def _build(questions: list[tuple[str, str, str, dict[str, str]]]):
    """Item builder: row n gets question, split-independent answer letter and options."""

    def build(n: int, rel: str, split: str, case: str | None) -> Item:
        q, answer, qtype, options = questions[n]
        return Item(id=f"q{n}", images=[rel], question=q, options=options, answer=answer,
                    question_type=qtype, case_id=case, source="s", split=split)

    return build


def _findings(bench: Path, method: str = "tfidf") -> dict[str, list]:
    out: dict[str, list] = {}
    for f in run_audit(AuditConfig(bench, question_method=method, workers=1)).findings:
        out.setdefault(f.check, []).append(f)
    return out


def test_exact_duplicate_in_one_split_is_a_warning(arranged) -> None:
    (a,) = lung_files(1)
    rows = [("Is the lung normal?", "A", "yesno", YESNO), ("is the LUNG normal", "A", "yesno",
                                                           {"A": "yes", "B": "no"})]
    bench = arranged([("test", "c", a), ("test", "c", a)], build=_build(rows))
    (dup,) = _findings(bench)["question-duplicate"]
    assert dup.severity == "warning" and dup.items == ["q0", "q1"]


def test_same_question_other_answer_is_a_conflict(arranged) -> None:
    (a,) = lung_files(1)
    rows = [("Is the lung normal?", "A", "yesno", YESNO), ("Is the lung normal?", "B", "yesno",
                                                           YESNO)]
    bench = arranged([("test", "c", a), ("test", "c", png_copy(a))], build=_build(rows))
    (conflict,) = _findings(bench)["label-conflict"]
    assert conflict.severity == "error"  # the same pixels count as the same image


def test_other_options_are_not_a_conflict(arranged) -> None:
    (a,) = lung_files(1)
    other = {"A": "fibrosis", "B": "necrosis", "C": "oedema"}
    rows = [("Which tissue?", "A", "single", OPTIONS), ("Which tissue?", "B", "single", other)]
    bench = arranged([("test", "c", a), ("test", "c", a)], build=_build(rows))
    assert "label-conflict" not in _findings(bench)


#: Questions about other images, so that TF-IDF's document frequencies mean something.
FILLER = ["Is there a pleural effusion?", "What organ is shown?", "Is the heart enlarged?",
          "Which plane is this image taken in?", "Is there free air under the diaphragm?",
          "What is the modality?", "Is this a CT scan?", "Are the kidneys normal?"]


@pytest.mark.parametrize("method", ["tfidf", "jaccard"])
def test_paraphrase_across_splits_is_a_leak(arranged, method: str) -> None:
    a, *others = lung_files(1 + len(FILLER))
    rows = [("Are there increased vascular markings?", "A", "yesno", YESNO),
            ("Are the vascular markings increased?", "A", "yesno", YESNO)]
    rows += [(q, "A", "yesno", YESNO) for q in FILLER]
    bench = arranged([("train", "c1", a), ("test", "c2", a)]
                     + [("train", f"o{k}", f) for k, f in enumerate(others)], build=_build(rows))
    found = _findings(bench, method)
    (leak,) = found["question-near-duplicate"]
    assert leak.severity == "warning" and leak.data["similarity"] >= 0.7


def test_near_duplicate_with_other_answer_is_a_probable_conflict(arranged) -> None:
    a, *others = lung_files(1 + len(FILLER))
    rows = [("Are there increased vascular markings?", "A", "yesno", YESNO),
            ("Are the vascular markings increased?", "B", "yesno", YESNO)]
    rows += [(q, "A", "yesno", YESNO) for q in FILLER]
    bench = arranged([("test", "c", a), ("test", "c", a)]
                     + [("train", f"o{k}", f) for k, f in enumerate(others)], build=_build(rows))
    (conflict,) = _findings(bench)["label-conflict"]
    assert conflict.severity == "warning"


def test_left_and_right_are_different_questions(arranged) -> None:
    (a,) = lung_files(1)
    rows = [("Is the left hemidiaphragm normal?", "A", "yesno", YESNO),
            ("Is the right hemidiaphragm normal?", "B", "yesno", YESNO)]
    bench = arranged([("test", "c", a), ("test", "c", a)], build=_build(rows))
    assert "label-conflict" not in _findings(bench)


def test_questions_about_other_images_are_not_compared(arranged) -> None:
    a, b = lung_files(2)
    rows = [("Is the lung normal?", "A", "yesno", YESNO), ("Is the lung normal?", "B", "yesno",
                                                           YESNO)]
    bench = arranged([("test", "c1", a), ("test", "c2", b)], build=_build(rows))
    found = _findings(bench)
    assert "label-conflict" not in found and "question-duplicate" not in found


def test_embeddings_without_the_extra_name_the_install(arranged) -> None:
    from importlib.util import find_spec

    from medvqa.errors import MissingDependencyError

    if find_spec("sentence_transformers") is not None:
        pytest.skip("sentence-transformers is installed: no hint to show")
    (a,) = lung_files(1)
    with pytest.raises(MissingDependencyError, match=r"medvqa\[embeddings\]"):
        run_audit(AuditConfig(arranged([("test", "c", a)]), question_method="embeddings"))
