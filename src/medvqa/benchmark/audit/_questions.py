"""Question-level duplicates: the same question about the same image, asked twice.

Items are grouped by the images they show (files that decode to the same pixels count as one
image; items without images form one group). Within a group:

- the same normalised question (:func:`normalise`) with the same answer is a duplicate item
  (``question-duplicate``: a warning within one split, a leak across splits), and with
  another answer a labelling conflict (``label-conflict``, an error: one of them is wrong);
  multiple-choice items conflict only when one's answer is among the other's options (with
  other options, another answer may rightly be the best one);
- near-duplicate questions (similarity ≥ the method's threshold) with different answers are a
  probable labelling conflict (``label-conflict``, a warning), and with the same answer in
  different splits a paraphrase leak (``question-near-duplicate``, severity of the splits).

Two questions that differ by a contrast word (left / right, upper / lower, not …) or a number
are never near-duplicates: "Is the left kidney enlarged?" and "Is the right kidney enlarged?"
may rightly have different answers.

Similarity: TF-IDF cosine (scikit-learn, fitted on the benchmark's questions; default), word
Jaccard when scikit-learn is not installed, or sentence-embedding cosine
(``sentence-transformers``, where installed; ``method="embeddings"``).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np

from medvqa._optional import optional_import
from medvqa.benchmark.audit._collection import Collection
from medvqa.benchmark.audit._model import Finding, Severity
from medvqa.benchmark.audit._severity import leak_severity, listed
from medvqa.benchmark.audit._text import jaccard, normalise, words
from medvqa.errors import MissingDependencyError

log = logging.getLogger(__name__)

#: Default smallest similarity of near-duplicate questions, by method.
DEFAULT_SIMILARITY = {"tfidf": 0.75, "jaccard": 0.7, "embeddings": 0.9}

#: Words whose presence on one side only makes two questions different questions.
CONTRAST = frozenset(
    "left right upper lower superior inferior anterior posterior medial lateral proximal "
    "distal ventral dorsal cranial caudal internal external not no without never none "
    "increased decreased larger smaller more less above below before after first second "
    "male female benign malignant normal abnormal".split())

#: Groups larger than this are checked for exact duplicates only (pairwise cost).
MAX_GROUP = 5000


class QuestionSettings(NamedTuple):
    """The method used and its threshold (recorded in audit.json)."""

    method: str
    similarity: float


def resolve_method(method: str, similarity: float | None) -> QuestionSettings:
    """The method that will run (``tfidf`` falls back to ``jaccard`` without scikit-learn).

    Raises:
        MissingDependencyError: ``embeddings`` without ``sentence-transformers``.
        ValueError: an unknown method.

    """
    if method not in DEFAULT_SIMILARITY:
        raise ValueError(f"question method {method!r}: use tfidf, jaccard or embeddings")
    if method == "tfidf":
        try:
            optional_import("sklearn.feature_extraction.text")
        except MissingDependencyError:
            log.warning("scikit-learn is not installed: near-duplicate questions by word "
                        "Jaccard (pip install 'medvqa[train]' for TF-IDF)")
            method = "jaccard"
    elif method == "embeddings":
        optional_import("sentence_transformers")
    return QuestionSettings(method, DEFAULT_SIMILARITY[method] if similarity is None
                            else similarity)


def contrasting(a: str, b: str) -> bool:
    """Whether two questions differ by a contrast word or a number.

    >>> contrasting("is the left kidney enlarged", "is the right kidney enlarged")
    True
    >>> contrasting("is the kidney enlarged", "is the kidney big and enlarged")
    False
    """
    diff = set(words(a)) ^ set(words(b))
    return any(w in CONTRAST or w.isdigit() for w in diff)


Similarity = Callable[[Sequence[str]], np.ndarray]


def _tfidf(all_questions: Sequence[str]) -> Similarity:
    from sklearn.feature_extraction.text import TfidfVectorizer

    vec = TfidfVectorizer(sublinear_tf=True, token_pattern=r"(?u)\b\w+\b").fit(all_questions)

    def sim(texts: Sequence[str]) -> np.ndarray:
        m = vec.transform(texts)
        return np.asarray((m @ m.T).toarray())

    return sim


def _embeddings(model_name: str) -> Similarity:
    st = optional_import("sentence_transformers")
    model = st.SentenceTransformer(model_name)

    def sim(texts: Sequence[str]) -> np.ndarray:
        e = np.asarray(model.encode(list(texts), normalize_embeddings=True))
        return np.asarray(e @ e.T)

    return sim


def _jaccard(texts: Sequence[str]) -> np.ndarray:
    return np.array([[jaccard(a, b) for b in texts] for a in texts])


def _group_key(coll: Collection, images: tuple[int, ...]) -> tuple[str, ...]:
    table = coll.images
    return tuple(sorted(table.pixels[k] if table.ok[k] else f"path:{table.paths[k]}"
                        for k in images))


def question_findings(coll: Collection, settings: QuestionSettings,
                      embedding_model: str = "") -> list[Finding]:
    """Duplicate questions, paraphrase leaks and labelling conflicts of one benchmark."""
    published = coll.info.published_split is not None
    groups: dict[tuple[str, ...], dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for n, item in enumerate(coll.items):
        groups[_group_key(coll, item.images)][normalise(item.question)].append(n)
    out: list[Finding] = []
    for key in sorted(groups):
        for text, members in sorted(groups[key].items()):
            out += _exact(coll, text, members, published, _about(key))
    if settings.method == "tfidf":
        sim = _tfidf(sorted({normalise(it.question) for it in coll.items}))
    elif settings.method == "embeddings":
        sim = _embeddings(embedding_model)
    else:
        sim = _jaccard
    limit = MAX_GROUP if settings.method != "jaccard" else MAX_GROUP // 10
    for key in sorted(groups):
        texts = sorted(groups[key])
        if 1 < len(texts) <= limit:
            out += _near(coll, groups[key], texts, sim(texts), settings.similarity, published,
                         _about(key))
    return out


def comparable(coll: Collection, a: int, b: int) -> bool:
    """Whether items ``a`` and ``b`` with different answers contradict each other.

    Open (or region) answers always do; a choice item's answer does when it is among the
    other item's options.
    """
    x, y = coll.items[a], coll.items[b]
    if not x.options or not y.options:
        return not x.options and not y.options
    return set(x.answer.split("|")) <= y.options or set(y.answer.split("|")) <= x.options


def _conflict(coll: Collection, left: list[int], right: list[int]) -> bool:
    return any(coll.items[a].answer != coll.items[b].answer and comparable(coll, a, b)
               for a in left for b in right)


def _answers(coll: Collection, members: list[int]) -> dict[str, list[int]]:
    by: dict[str, list[int]] = defaultdict(list)
    for n in members:
        by[coll.items[n].answer].append(n)
    return by


def _about(key: tuple[str, ...]) -> str:
    return "about the same image" if key else "without an image"


def _exact(coll: Collection, text: str, members: list[int], published: bool,
           about: str = "about the same image") -> list[Finding]:
    if len(members) < 2:
        return []
    ids, count = listed(coll.items[n].id for n in members)
    splits = sorted({coll.items[n].split for n in members})
    answers = _answers(coll, members)
    if len(answers) > 1 and not _conflict(coll, members, members):
        return []  # the same stem with other options: a different question
    if len(answers) > 1:
        return [Finding(
            check="label-conflict", severity="error",
            message=f"the same question {about} has {len(answers)} answers: "
                    f"{text!r} → {', '.join(repr(a) for a in sorted(answers))}",
            items=ids, n_items=count, splits=splits,
            data={"question": text, "answers": {a: [coll.items[n].id for n in ns]
                                                for a, ns in sorted(answers.items())}})]
    severity: Severity = leak_severity(splits, published) if len(splits) > 1 else "warning"
    where = f"across {' and '.join(splits)}" if len(splits) > 1 else f"in {splits[0]}"
    return [Finding(
        check="question-duplicate", severity=severity,
        message=f"{count} items ask {coll.items[members[0]].question!r} {about} with the same "
                f"answer {where}",
        items=ids, n_items=count, splits=splits, data={"question": text})]


def _near(coll: Collection, group: dict[str, list[int]], texts: list[str], sim: np.ndarray,
          threshold: float, published: bool, about: str = "about the same image"
          ) -> list[Finding]:
    out = []
    for a, b in np.argwhere(np.triu(sim >= threshold - 1e-9, k=1)).tolist():
        s = min(1.0, float(sim[a, b]))
        if contrasting(texts[a], texts[b]):
            continue
        members = group[texts[a]] + group[texts[b]]
        ans_a = {coll.items[n].answer for n in group[texts[a]]}
        ans_b = {coll.items[n].answer for n in group[texts[b]]}
        if ans_a != ans_b and not _conflict(coll, group[texts[a]], group[texts[b]]):
            continue
        splits = sorted({coll.items[n].split for n in members})
        ids, count = listed(coll.items[n].id for n in members)
        data = {"questions": [texts[a], texts[b]], "similarity": round(s, 4)}
        if ans_a != ans_b:
            out.append(Finding(
                check="label-conflict", severity="warning",
                message=f"near-duplicate questions {about} have different "
                        f"answers: {texts[a]!r} → {'/'.join(sorted(ans_a))}, "
                        f"{texts[b]!r} → {'/'.join(sorted(ans_b))} (similarity {s:.2f})",
                items=ids, n_items=count, splits=splits,
                data=data | {"answers": [sorted(ans_a), sorted(ans_b)]}))
            continue
        split_a = {coll.items[n].split for n in group[texts[a]]}
        split_b = {coll.items[n].split for n in group[texts[b]]}
        if split_a == split_b and len(split_a) == 1:
            continue
        out.append(Finding(
            check="question-near-duplicate",
            severity=leak_severity(splits, published, exact=False),
            message=f"a paraphrase of the same question {about}, same "
                    f"answer, across {' and '.join(splits)}: {texts[a]!r} / {texts[b]!r} "
                    f"(similarity {s:.2f})",
            items=ids, n_items=count, splits=splits, data=data))
    return out
