"""Pairing the texts of two editions by their words, without comparing every pair.

:func:`matched_pairs` takes two lists of unit vectors (term → weight, each
of norm 1) and pairs them best first, each vector in one pair at most, from
a threshold up — the same pairs, in the same order, as scoring every pair
would give (``tests/test_similarity.py`` checks it against that quadratic
reference). Scoring every pair takes ten editions of the rules from a
fifth of a second to minutes; here a pair is scored only when the two
vectors share a rare term (an inverted index of the older edition), or
when their common terms alone could reach the threshold.

A term is *common* when more than :data:`MIN_COMMON` vectors, and more than
:data:`COMMON_SHARE` of them, hold it: its postings are long and it tells
few pairs apart. A pair sharing only common terms scores at most the sum,
over the new vector's common terms, of its weight times the largest weight
of the term among the old vectors; when that bound is below the threshold,
no such pair can be kept and none is scored.
"""

from __future__ import annotations

from collections.abc import Sequence

#: A term held by more than this many old vectors (and :data:`COMMON_SHARE` of them) is common.
MIN_COMMON = 8
#: A term held by more than this share of the old vectors (and :data:`MIN_COMMON`) is common.
COMMON_SHARE = 0.125
#: Slack on the bound of a pair sharing only common terms (floating-point sums differ by order).
_SLACK = 1e-9

#: A vector: term → weight, of norm 1.
Vector = dict[str, float]


def cosine(a: Vector, b: Vector) -> float:
    """The cosine of two unit vectors: the sum of the products of their
    common terms' weights (summed over the shorter vector, in its order)."""
    if len(a) > len(b):
        a, b = b, a
    return sum(value * b.get(term, 0.0) for term, value in a.items())


def matched_pairs(
    olds: Sequence[tuple[str, Vector]], news: Sequence[tuple[str, Vector]], threshold: float
) -> list[tuple[float, str, str]]:
    """``(score, old id, new id)`` pairs, best first: every pair scoring
    ``threshold`` or more (:func:`cosine`) is taken in order of score (ties:
    in order of ``news``, then of ``olds``) unless one of its two ids is
    already paired. ``olds`` and ``news`` are ``(id, unit vector)`` lists."""
    scored: list[tuple[float, int, int]] = []
    if threshold <= 0:  # every pair counts, even those sharing no term
        for j, (_, new) in enumerate(news):
            scored.extend((cosine(old, new), j, i) for i, (_, old) in enumerate(olds))
    else:
        postings: dict[str, list[int]] = {}
        for i, (_, old) in enumerate(olds):
            for term in old:
                postings.setdefault(term, []).append(i)
        limit = max(MIN_COMMON, COMMON_SHARE * len(olds))
        common = {term for term, found in postings.items() if len(found) > limit}
        largest = {term: max(olds[i][1][term] for i in postings[term]) for term in common}
        for j, (_, new) in enumerate(news):
            candidates: set[int] = set()
            bound = 0.0
            for term, weight in new.items():
                if term in common:
                    bound += weight * largest[term]
                elif term in postings:
                    candidates.update(postings[term])
            if bound >= threshold - _SLACK:
                for term in new:
                    if term in common:
                        candidates.update(postings[term])
            for i in candidates:
                score = cosine(olds[i][1], new)
                if score >= threshold:
                    scored.append((score, j, i))
    scored.sort(key=lambda triple: (-triple[0], triple[1], triple[2]))
    taken: set[str] = set()
    pairs = []
    for score, j, i in scored:
        old, new = olds[i][0], news[j][0]
        if old in taken or new in taken:
            continue
        taken.update((old, new))
        pairs.append((score, old, new))
    return pairs
