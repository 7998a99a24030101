"""Counterparts found through the inverted index are exactly those of comparing every pair."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from rules_kb.build import similarity
from rules_kb.build.similarity import cosine, matched_pairs


def every_pair(olds, news, threshold):
    """The quadratic reference: score every pair, take them best first."""
    scored = sorted(
        ((cosine(old, new), old_id, new_id) for new_id, new in news for old_id, old in olds), key=lambda t: -t[0]
    )
    taken, pairs = set(), []
    for score, old, new in scored:
        if score < threshold:
            break
        if old in taken or new in taken:
            continue
        taken.update((old, new))
        pairs.append((score, old, new))
    return pairs


def _unit(weights: dict[str, float]) -> dict[str, float]:
    norm = math.sqrt(sum(value * value for value in weights.values())) or 1.0
    return {term: value / norm for term, value in weights.items()}


_vectors = st.lists(
    st.dictionaries(st.sampled_from([f"t{n}" for n in range(12)]), st.floats(0.01, 5.0), max_size=6).map(_unit),
    max_size=8,
)


@settings(max_examples=300, deadline=None)
@given(_vectors, _vectors, st.floats(0.0, 1.0), st.booleans(), st.sampled_from([(8, 0.125), (0, 0.0), (1, 0.3)]))
def test_same_pairs_as_comparing_every_pair(olds, news, threshold, duplicate, common):
    """Whatever share of the terms is common (indexed or bounded), the same pairs."""
    similarity.MIN_COMMON, similarity.COMMON_SHARE = common
    olds = [(f"old-{n}", vector) for n, vector in enumerate(olds)]
    news = [(f"new-{n}", vector) for n, vector in enumerate(news)]
    if duplicate and olds:  # exact copies make ties
        news += [(f"copy-{n}", dict(vector)) for n, (_, vector) in enumerate(olds)]
    try:
        assert matched_pairs(olds, news, threshold) == every_pair(olds, news, threshold)
    finally:
        similarity.MIN_COMMON, similarity.COMMON_SHARE = 8, 0.125


def test_a_rule_pairs_with_its_copy_not_its_neighbour():
    olds = [("a", _unit({"blessure": 3, "fatale": 2, "creature": 1})), ("b", _unit({"pile": 2, "sort": 1}))]
    news = [("b2", _unit({"pile": 2, "sort": 1})), ("a2", _unit({"blessure": 3, "fatale": 2, "creature": 1}))]
    assert sorted((old, new) for _score, old, new in matched_pairs(olds, news, 0.45)) == [("a", "a2"), ("b", "b2")]
