"""Collect the decision harness's corpus: ``tests/reading/harness/corpus.jsonl.gz``.

Three parts, each input named by its first source (``medvqa.reading.harness``):

- ``labelled``: the shipped labelled set (``resources/answers/labelled_responses.jsonl``);
- the inputs of every reader test: the tests of ``tests/reading`` are run, and every input a
  test hands to a reader is recorded — each ``parse`` of the strict, MammoVQA and PathMMU
  parsers (the decision tables, the published scorers' golden rows, the rule table's examples
  and counter-examples), and each text a test asks an option set read as values to find
  (read as a response to those options). The source is the test module's name without
  ``test_``. Property tests (hypothesis) draw their inputs at random and are left out, as are
  the slow tests and this harness's own test; responses longer than :data:`MAX_CHARS` (the
  speed tests' long texts) are left out too;
- seeded generated responses (:data:`GENERATED`): the bench's realistic mix, its modern mix
  and its all-distinct responses (``medvqa.measurements``), each count and seed written here.

Run it from the repository's root after adding tests, then regenerate the table::

    python tests/reading/harness_corpus.py
    python -m medvqa.reading.harness --regenerate
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final

import pytest

from medvqa.reading.harness import CORPUS, HarnessInput, merge_sources, write_corpus

REPO: Final = Path(__file__).resolve().parents[2]
HERE: Final = Path(__file__).resolve().parent
#: Responses longer than this are left out (the speed tests' texts of many kilobytes).
MAX_CHARS: Final = 2_000
#: The generated part: (source, count, seed) of each generator.
GENERATED: Final = (("realistic", 8_000, 0), ("modern", 8_000, 1), ("distinct", 400, 2))
#: Tests whose inputs are not reader inputs, or that would record the whole corpus.
SKIPPED_FILES: Final = ("test_decision_harness.py", "test_hostile_responses.py")

Found = tuple[str, Any, dict[str, str], str, str]


def labelled() -> Iterator[Found]:
    """The shipped labelled set's inputs, in file order."""
    from medvqa.measurements._extraction import labelled_rows

    for r in labelled_rows():
        yield ("labelled", r["response"], r["options"], r["question_type"],
               r.get("question") or "")


def generated() -> Iterator[Found]:
    """The seeded generated responses of :data:`GENERATED`."""
    from medvqa.measurements._extraction import labelled_rows, modern_mix, realistic_mix
    from medvqa.measurements._scoring import _OPTIONS, responses

    made: dict[str, Callable[[int, int], list[tuple[str, dict[str, str], str, str]]]] = {
        "realistic": lambda n, seed: realistic_mix(n, seed),
        "modern": lambda n, seed: modern_mix(n, labelled_rows(), seed),
        "distinct": lambda n, seed: [(t, _OPTIONS, "single", "") for t in responses(n, seed)],
    }
    for source, n, seed in GENERATED:
        for response, options, qtype, question in made[source](n, seed):
            yield source, response, options, qtype, question


def _usable(response: Any, options: Any, qtype: Any, question: Any) -> bool:
    if not (isinstance(options, dict) and all(isinstance(k, str) and isinstance(v, str)
                                              for k, v in options.items())):
        return False
    if not isinstance(qtype, str) or not isinstance(question, str):
        return False
    if isinstance(response, str):
        try:
            response.encode("utf-8")
        except UnicodeEncodeError:
            return False  # a lone surrogate (the hostile tests): no reader input of a run
        return len(response) <= MAX_CHARS
    try:
        json.dumps(response, allow_nan=False)
    except (TypeError, ValueError):
        return False
    return True


class _Values:
    """An option set read as values that records every text a test asks it to find."""

    def __init__(self, inner: Any, options: dict[str, str], question: str,
                 record: Callable[[Any, dict[str, str], str, str], None]) -> None:
        self._inner, self._options, self._question, self._record = (inner, options,
                                                                   question, record)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def find(self, text: str, *, bare: bool = False) -> Any:
        self._record(text, self._options, "single", self._question)
        return self._inner.find(text, bare=bare)


class Recorder:
    """A pytest plugin that records every reader input the tests of a run hand over."""

    def __init__(self) -> None:
        self.found: list[Found] = []
        self.left_out = 0
        self._values: dict[tuple[object, ...], _Values] = {}

    def pytest_collection_modifyitems(self, config: pytest.Config,
                                      items: list[pytest.Item]) -> None:
        keep: list[pytest.Item] = []
        drop: list[pytest.Item] = []
        for item in items:
            fn = getattr(item, "function", None)
            random = getattr(fn, "is_hypothesis_test", False)
            skipped = item.path.name in SKIPPED_FILES or item.get_closest_marker("slow")
            (drop if random or skipped else keep).append(item)
        items[:] = keep
        config.hook.pytest_deselected(items=drop)

    def _recorder(self, source: str) -> Callable[[Any, dict[str, str], str, str], None]:
        def record(response: Any, options: Any, qtype: Any, question: Any) -> None:
            if _usable(response, options, qtype, question):
                self.found.append((source, response, dict(options), qtype, question))
            else:
                self.left_out += 1
        return record

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Iterator[None]:
        from medvqa.reading._mammovqa import MammoVQAParser
        from medvqa.reading._pathmmu import PathMMUParser
        from medvqa.reading._strict import StrictParser

        module = getattr(item, "module", None)
        source = module.__name__.removeprefix("test_") if module else item.path.stem
        record = self._recorder(source)
        saved: list[tuple[Any, str, Any]] = []
        for cls in (StrictParser, MammoVQAParser, PathMMUParser):
            parse = cls.__dict__["parse"]

            def recorded(self_: Any, response: Any, options: Any, question_type: Any, *,
                         question: Any = "", _parse: Any = parse) -> Any:
                record(response, options, question_type, question)
                return _parse(self_, response, options, question_type, question=question)

            saved.append((cls, "parse", parse))
            setattr(cls, "parse", recorded)  # noqa: B010 - put back after the test
        values = getattr(module, "option_values", None) if module else None
        if values is not None:
            saved.append((module, "option_values", values))
            setattr(module, "option_values", self._wrap_values(values, record))  # noqa: B010
        try:
            yield
        finally:
            for owner, name, original in saved:
                setattr(owner, name, original)

    def _wrap_values(self, values: Any, record: Callable[[Any, dict[str, str], str, str], None]
                     ) -> Callable[..., Any]:
        def wrapped(options: tuple[tuple[str, str], ...], question: str = "") -> Any:
            inner = values(options, question)
            if inner is None:
                return None
            key = (id(inner), options, question)
            if key not in self._values:
                self._values[key] = _Values(inner, dict(options), question, record)
            return self._values[key]
        return wrapped


def from_tests() -> tuple[list[Found], int]:
    """Every reader input the tests of ``tests/reading`` hand over, and how many were left out.

    Raises:
        RuntimeError: pytest could not run the tests (an error in collecting them).
    """
    recorder = Recorder()
    code = pytest.main([str(HERE), "-q", "-p", "no:cacheprovider", "-o", "addopts=",
                        "-m", "not slow"], plugins=[recorder])
    if code not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
        raise RuntimeError(f"pytest could not run the tests of {HERE} (exit {code})")
    return recorder.found, recorder.left_out


def build() -> tuple[list[HarnessInput], int]:
    """The corpus, and how many test inputs were left out."""
    tested, left_out = from_tests()
    return merge_sources([*labelled(), *sorted(tested, key=_order), *generated()]), left_out


def _order(found: Found) -> tuple[str, str]:
    return found[0], json.dumps(found[1:], ensure_ascii=False, sort_keys=True)


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    inputs, left_out = build()
    path = HERE / "harness" / CORPUS
    write_corpus(path, inputs)
    by_source: dict[str, int] = {}
    for i in inputs:
        by_source[i.id.rsplit("-", 1)[0]] = by_source.get(i.id.rsplit("-", 1)[0], 0) + 1
    print(f"wrote {path}: {len(inputs):,} inputs ({left_out} test inputs left out)")
    for source, n in sorted(by_source.items()):
        print(f"  {source:24s} {n:6,}")
