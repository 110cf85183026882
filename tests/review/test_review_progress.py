"""The review page says where the reviewer is, confirms each saved decision, and shows where a
label-built item came from."""

from __future__ import annotations

import re

import pytest
from _lung_bench import make_bench
from _review_client import form_tokens, login, make_client

from medvqa.review import load_bench
from medvqa.schema import Item


@pytest.fixture
def app(bench, tmp_path):
    client, store = make_client(bench, str(tmp_path / "r.sqlite"), per_item=1)
    b = load_bench(bench)
    return client, store, store.add_reviewer("ann", "reviewer", [b.key]), len(b.items)


def _text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_page_counts_and_confirms_each_saved_decision(app):
    client, _, token, total = app
    login(client, token)
    page = client.get("/b/0/next")
    item = re.search(r'id="item-id">([^<]+)<', page.text).group(1)
    assert re.search(rf"Item \d+ of {total} · 0 reviewed by you", _text(page.text))
    assert 'id="saved"' not in page.text
    csrf, nonce = form_tokens(page.text)
    after = client.post("/b/0/decide", data={"item_id": item, "action": "accept", "csrf": csrf,
                                             "nonce": nonce})
    shown = _text(after.text)
    assert f"Saved: item {item} accepted." in shown
    assert "1 reviewed by you" in shown and f"1 of {total} with all their reviews" in shown


def test_a_forged_confirmation_is_escaped_or_ignored(app):
    client, _, token, _ = app
    login(client, token)
    bogus = client.get("/b/0/item?id=r1&saved=r0&verdict=deleted").text
    assert 'id="saved"' not in bogus
    markup = client.get("/b/0/item?id=r1&saved=%3Cscript%3Ex%3C/script%3E&verdict=accept").text
    assert "<script>x</script>" not in markup and "&lt;script&gt;x&lt;/script&gt;" in markup


def test_a_label_built_item_shows_its_source_file_and_label_row(tmp_path):
    item = Item(id="lab-1", question="Which tissue?", options={"A": "benign", "B": "tumour"},
                answer="B", question_type="single", source="LC25000",
                meta={"source_file": "lung_aca/lungaca7.jpeg", "label_file": "labels.csv",
                      "label_row": 7})
    bench = make_bench(tmp_path / "bench", items=[item])
    client, store = make_client(bench, str(tmp_path / "r.sqlite"), per_item=1)
    login(client, store.add_reviewer("ann", "reviewer", [load_bench(bench).key]))
    shown = _text(client.get("/b/0/item?id=lab-1").text)
    assert "Where this item came from" in shown
    for fact in ("dataset LC25000", "image file lung_aca/lungaca7.jpeg",
                 "label file labels.csv", "label row 7"):
        assert fact in shown
