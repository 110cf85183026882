"""``swap`` and ``permute@k``: properties of the derangement and of the option shift."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from medvqa.conditions import get_condition
from medvqa.conditions._text import derangement, shift_options
from medvqa.schema import Item

LETTERS = "ABCDEFGHIJ"


@given(st.lists(st.sampled_from(["q1", "q2", "q3", "q4"]), min_size=2, max_size=40),
       st.integers(0, 5))
def test_derangement_is_a_permutation_without_fixed_points(texts: list[str], seed: int):
    ids = [f"i{k}" for k in range(len(texts))]
    got = derangement(ids, texts, seed)
    assert sorted(got.values()) == sorted(texts)  # every question used exactly once
    if max(texts.count(t) for t in set(texts)) * 2 <= len(texts):
        # nobody keeps their own text
        assert all(got[i] != t for i, t in zip(ids, texts, strict=True))


def test_derangement_depends_on_the_seed() -> None:
    ids, texts = [f"i{k}" for k in range(30)], [f"q{k}" for k in range(30)]
    assert derangement(ids, texts, 0) != derangement(ids, texts, 1)


@given(st.integers(2, 10), st.integers(0, 9), st.data())
def test_shift_keeps_the_answer_text(n: int, k: int, data) -> None:
    options = {LETTERS[i]: f"text {i}" for i in range(n)}
    answer = data.draw(st.sampled_from(list(options)))
    item = Item(id="x", question="q", options=options, answer=answer, question_type="single")
    shifted = shift_options(item, k)
    assert list(shifted.options) == list(options)
    assert shifted.options[shifted.answer] == options[answer]
    assert sorted(shifted.options.values()) == sorted(options.values())


def test_multi_answers_are_remapped_as_a_set() -> None:
    item = Item(id="x", question="q", options={"A": "a", "B": "b", "C": "c", "D": "d"},
                answer=["A", "C"], question_type="multi")
    shifted = shift_options(item, 1)
    assert {shifted.options[a] for a in shifted.answer} == {"a", "c"}


def _items(n: int, same_question: bool = False) -> list[Item]:
    return [Item(id=f"i{k}", question="same?" if same_question else f"question {k}?",
                 options={"A": "x", "B": "y"}, answer="A", question_type="single")
            for k in range(n)]


def test_swap_gives_each_item_another_question_and_keeps_options() -> None:
    items = _items(6)
    swap = get_condition("swap", seed=3)
    swap.prepare(items)
    shown = [swap.transform_item(i) for i in items]
    assert all(s.question != i.question and s.options == i.options and s.answer == i.answer
               for s, i in zip(shown, items, strict=False))
    assert sorted(s.question for s in shown) == sorted(i.question for i in items)


def test_swap_skips_items_whose_type_shares_one_question() -> None:
    items = _items(4, same_question=True)
    swap = get_condition("swap")
    swap.prepare(items)
    assert not any(swap.applies_to(i) for i in items)


def test_swap_without_prepare_keeps_the_item_for_scoring() -> None:
    item = _items(1)[0]
    assert get_condition("swap").transform_item(item) == item


def test_permute_applies_only_below_the_option_count() -> None:
    item = _items(1)[0]
    assert get_condition("permute@1").applies_to(item)
    assert not get_condition("permute@2").applies_to(item)
    open_item = Item(id="o", question="q", answer="free text", question_type="open")
    assert not get_condition("permute@0").applies_to(open_item)


@given(st.integers(2, 6), st.integers(0, 7), st.booleans())
def test_shift_is_the_model_copy_it_replaces(n: int, k: int, multi: bool) -> None:
    options = {LETTERS[i]: f"text {i}" for i in range(n)}
    answer: str | list[str] = ["A", LETTERS[n - 1]] if multi else LETTERS[n - 1]
    item = Item(id="x", question="q", options=options, answer=answer,
                question_type="multi" if multi else "single", meta={"age": 40})
    shifted = shift_options(item, k)
    if k % n == 0:
        assert shifted is item
        return
    texts = list(options.values())
    copied = item.model_copy(update={
        "options": {LETTERS[i]: texts[(i + k) % n] for i in range(n)},
        "answer": (sorted(LETTERS[(LETTERS.index(a) - k) % n] for a in answer)
                   if isinstance(answer, list) else LETTERS[(LETTERS.index(answer) - k) % n])})
    assert shifted == copied
    assert shifted.model_fields_set == copied.model_fields_set
    assert shifted.model_dump_json() == copied.model_dump_json()
    assert shifted.meta is item.meta  # a shallow copy, as model_copy makes
