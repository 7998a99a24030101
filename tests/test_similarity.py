"""Counterparts found through the inverted index are exactly those of comparing every pair."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from rules_kb.indexing.similarity import candidates, cosine, matched_editions, matched_pairs


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


@settings(max_examples=500, deadline=None)
@given(_vectors, _vectors, st.floats(0.0, 1.0), st.booleans())
def test_same_pairs_as_comparing_every_pair(olds, news, threshold, duplicate):
    """Whatever the vectors and the threshold (0 included: pairs sharing no term count then), the same pairs."""
    olds = [(f"old-{n}", vector) for n, vector in enumerate(olds)]
    news = [(f"new-{n}", vector) for n, vector in enumerate(news)]
    if duplicate and olds:  # exact copies make ties
        news += [(f"copy-{n}", dict(vector)) for n, (_, vector) in enumerate(olds)]
    assert matched_pairs(olds, news, threshold) == every_pair(olds, news, threshold)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from([f"t{n}" for n in range(40)]), st.floats(0.01, 5.0), min_size=1,
                                max_size=15).map(_unit), min_size=20, max_size=40),
       st.floats(0.3, 0.9))  # fmt: skip
def test_same_pairs_on_many_overlapping_vectors(vectors, threshold):
    """Many vectors over few terms: long postings, where the index leaves most terms out."""
    olds = [(f"old-{n}", vector) for n, vector in enumerate(vectors[::2])]
    news = [(f"new-{n}", vector) for n, vector in enumerate(vectors[1::2])]
    assert matched_pairs(olds, news, threshold) == every_pair(olds, news, threshold)


def test_a_rule_pairs_with_its_copy_not_its_neighbour():
    olds = [("a", _unit({"blessure": 3, "fatale": 2, "creature": 1})), ("b", _unit({"pile": 2, "sort": 1}))]
    news = [("b2", _unit({"pile": 2, "sort": 1})), ("a2", _unit({"blessure": 3, "fatale": 2, "creature": 1}))]
    assert sorted((old, new) for _score, old, new in matched_pairs(olds, news, 0.45)) == [("a", "a2"), ("b", "b2")]


@settings(max_examples=200, deadline=None)
@given(st.lists(_vectors, min_size=1, max_size=4), st.floats(0.0, 1.0), st.data())
def test_every_two_editions_as_each_pair_alone(editions, threshold, data):
    """Editions repeating vectors of others (word-for-word rules) give, pair by pair, what matched_pairs gives."""
    groups = []
    for number, vectors in enumerate(editions):
        pool = [vector for group in groups for _, vector in group]
        repeated = data.draw(st.lists(st.sampled_from(pool), max_size=4)) if pool else []
        groups.append([(f"e{number}-{n}", dict(vector)) for n, vector in enumerate([*vectors, *repeated])])
    expected = [
        matched_pairs(groups[a], groups[b], threshold) for a in range(len(groups)) for b in range(a + 1, len(groups))
    ]
    assert matched_editions(groups, threshold) == expected


@settings(max_examples=200, deadline=None)
@given(_vectors, _vectors, st.floats(0.01, 1.0))
def test_candidates_hold_every_pair_reaching_the_threshold(olds, news, threshold):
    found = candidates(olds, news, threshold)
    for j, new in enumerate(news):
        for i, old in enumerate(olds):
            if cosine(old, new) >= threshold:
                assert i in found[j]
