"""The store's assignment of the next item: N independent reviews, claims, skipping."""

from __future__ import annotations

from medvqa.review import ReviewStore, load_bench


def test_next_item_gives_each_item_n_reviews(bench, tmp_path):
    b = load_bench(bench)
    store = ReviewStore(tmp_path / "n.sqlite")
    for name in "abc":
        store.add_reviewer(name, "reviewer", [b.key])
    a, bb, c = store.reviewers()
    order = list(b.items)
    # a opens r0 (a claim): b is sent to r0 too (2 per item), c goes elsewhere once r0 is full.
    first = store.next_item(b.key, order, a, per_item=2)
    assert first == "r0"
    store.claim(b.key, first, a)
    assert store.next_item(b.key, order, bb, per_item=2) == "r0"
    store.claim(b.key, "r0", bb)
    assert store.next_item(b.key, order, c, per_item=2) == "r1"
    store.record_decision(nonce="1", bench=b.key, item_id="r0", reviewer=a, kind="review",
                          verdict="accept")
    # a never gets an item they decided; the partly reviewed r0 is still b's.
    assert store.next_item(b.key, order, a, per_item=2) == "r1"
    store.record_decision(nonce="2", bench=b.key, item_id="r0", reviewer=bb, kind="review",
                          verdict="accept")
    assert store.next_item(b.key, order, c, per_item=2) == "r1"
    # when every item has its reviews, nothing is left
    assert store.next_item(b.key, ["r0"], c, per_item=2) is None


def test_a_reviewer_changing_their_mind_counts_once(bench, tmp_path):
    b = load_bench(bench)
    store = ReviewStore(tmp_path / "m.sqlite")
    store.add_reviewer("a", "reviewer", [b.key])
    (a,) = store.reviewers()
    for nonce, verdict in (("1", "accept"), ("2", "reject")):
        store.record_decision(nonce=nonce, bench=b.key, item_id="r0", reviewer=a, kind="review",
                              verdict=verdict, reason="ambiguous")
    assert len(store.decisions(b.key)) == 2  # both rows kept (append-only)
    assert store.latest_reviews(b.key)["r0"]["a"].verdict == "reject"
