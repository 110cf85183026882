"""A response that copies the option list back answers nothing."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from medvqa.reading._options import option_set
from medvqa.reading._options_listed import lists_every_option

OPTIONS = (("A", "Mass"), ("B", "Calcification"), ("C", "Asymmetry"))


@given(st.permutations(OPTIONS), st.sampled_from([", ", "; ", "\n"]),
       st.sampled_from([": ", ") ", ". "]), st.booleans())
def test_every_option_with_its_text_is_the_list(order, join, sep, lead):
    text = ("Answer: " if lead else "") + join.join(f"{k}{sep}{t}" for k, t in order)
    assert lists_every_option(text, option_set(OPTIONS))


@given(st.permutations(OPTIONS))
def test_a_list_short_of_one_option_or_with_another_text_is_not(order):
    ix = option_set(OPTIONS)
    assert not lists_every_option(", ".join(f"{k}: {t}" for k, t in order[:2]), ix)
    changed = [(k, "Lipoma" if i == 0 else t) for i, (k, t) in enumerate(order)]
    assert not lists_every_option(", ".join(f"{k}: {t}" for k, t in changed), ix)
