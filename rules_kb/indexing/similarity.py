"""Pairing the texts of editions by their words, without comparing every pair.

:func:`matched_pairs` takes two lists of unit vectors (term → weight, each
of norm 1) and pairs them best first, each vector in one pair at most, from
a threshold up — the same pairs, in the same order, with the same scores,
as scoring every pair would give (``tests/test_similarity.py`` checks it
against that quadratic reference). :func:`matched_editions` does it for
every pair of editions at once. Scoring every pair takes ten editions of
the rules from a fifth of a second to minutes; two things avoid it.

**Candidates.** Only pairs that may reach the threshold are scored
(:func:`candidates`): the *all-pairs* search of Bayardo, Ma and Srikant
("Scaling up all pairs similarity search", WWW 2007) with the ℓ2 bounds of
Anastasiu and Karypis ("L2AP", ICDE 2014). The terms of each old vector
are read from the most widespread to the rarest; a term enters the
inverted index only once the terms before it (its *prefix*) could no longer
reach the threshold by themselves — bounded by their weights times the
largest weight each has in a new vector. A pair reaching the threshold
must share an indexed term. A new vector gathers, through the index, the
part of its dot product with each old vector that indexed terms make; the
rest is at most the smaller of the prefix's bound and the norm of the
prefix times the norm of the new vector's terms that come before the
indexed ones. Only the pairs whose part plus that bound reach the
threshold are scored in full.

**Distinct texts.** Editions of the rules repeat most rules word for word;
:func:`matched_editions` finds the candidates once among the distinct
vectors of all editions, then scores and pairs each pair of editions from
them. Its cost grows with the number of distinct texts, not with the
number of editions squared.
"""

from __future__ import annotations

import bisect
import math
from collections import Counter
from collections.abc import Sequence

#: Slack on the bounds (floating-point sums differ by the order of their terms): a bound
#: this close under the threshold still counts as reaching it.
_SLACK = 1e-9

#: A vector: term → weight, of norm 1.
Vector = dict[str, float]
#: A pair kept: ``(score, old id, new id)``.
Pair = tuple[float, str, str]


def cosine(a: Vector, b: Vector) -> float:
    """The cosine of two unit vectors: the sum of the products of their
    common terms' weights (summed over the shorter vector, in its order)."""
    if len(a) > len(b):
        a, b = b, a
    return sum(value * b.get(term, 0.0) for term, value in a.items())


def candidates(olds: Sequence[Vector], news: Sequence[Vector], threshold: float) -> list[list[int]]:
    """For each new vector, the positions of the old vectors whose cosine
    with it may reach ``threshold`` > 0 (see the module docstring): every
    pair that reaches it is there, and few others."""
    bar = threshold - _SLACK
    spread = Counter(term for old in olds for term in old)
    rank = {term: position for position, term in enumerate(sorted(spread, key=lambda term: (-spread[term], term)))}
    largest: dict[str, float] = {}
    for new in news:
        for term, weight in new.items():
            if weight > largest.get(term, 0.0):
                largest[term] = weight
    end = len(rank)
    index: dict[str, list[tuple[int, float]]] = {}
    bounds: list[float] = []
    norms: list[float] = []
    splits: list[int] = []
    for i, old in enumerate(olds):
        bound, squares, split = 0.0, 0.0, end
        for term in sorted(old, key=rank.__getitem__):
            weight = old[term]
            if split == end:
                following = bound + weight * largest.get(term, 0.0)
                if following < bar:
                    bound, squares = following, squares + weight * weight
                    continue
                split = rank[term]
            index.setdefault(term, []).append((i, weight))
        bounds.append(bound)
        norms.append(math.sqrt(squares))
        splits.append(split)
    found: list[list[int]] = []
    for new in news:
        ranks = sorted(rank[term] for term in new if term in rank)
        squares = [0.0]
        for term in sorted((term for term in new if term in rank), key=rank.__getitem__):
            squares.append(squares[-1] + new[term] * new[term])
        parts: dict[int, float] = {}
        for term, weight in new.items():
            for i, old_weight in index.get(term, ()):
                parts[i] = parts.get(i, 0.0) + old_weight * weight
        kept = []
        for i, part in parts.items():
            before = squares[bisect.bisect_left(ranks, splits[i])]
            if part + min(bounds[i], norms[i] * math.sqrt(before)) >= bar:
                kept.append(i)
        found.append(sorted(kept))
    return found


def _greedy(scored: list[tuple[float, int, int]], olds: Sequence[tuple[str, Vector]],
            news: Sequence[tuple[str, Vector]]) -> list[Pair]:  # fmt: skip
    """Pairs taken best first (ties in order of ``news``, then ``olds``), each id once."""
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


def matched_pairs(
    olds: Sequence[tuple[str, Vector]], news: Sequence[tuple[str, Vector]], threshold: float
) -> list[Pair]:
    """``(score, old id, new id)`` pairs, best first: every pair scoring
    ``threshold`` or more (:func:`cosine` of the old vector and the new) is
    taken in order of score (ties: in order of ``news``, then of ``olds``)
    unless one of its two ids is already paired. ``olds`` and ``news`` are
    ``(id, unit vector)`` lists."""
    scored: list[tuple[float, int, int]] = []
    if threshold <= 0:  # every pair counts, even those sharing no term
        for j, (_, new) in enumerate(news):
            scored.extend((cosine(old, new), j, i) for i, (_, old) in enumerate(olds))
    else:
        found = candidates([old for _, old in olds], [new for _, new in news], threshold)
        for j, (_, new) in enumerate(news):
            for i in found[j]:
                score = cosine(olds[i][1], new)
                if score >= threshold:
                    scored.append((score, j, i))
    return _greedy(scored, olds, news)


def matched_editions(editions: Sequence[Sequence[tuple[str, Vector]]], threshold: float) -> list[list[Pair]]:
    """:func:`matched_pairs` of every two editions, older first: for
    ``editions`` (lists of ``(id, unit vector)``, oldest first), the pairs of
    editions ``(0, 1)``, ``(0, 2)``… ``(1, 2)``… in that order — the very same
    pairs and scores, computed from the distinct vectors (two vectors are the
    same when they hold the same terms with the same weights, in the same order)."""
    if threshold <= 0:
        return [matched_pairs(editions[a], editions[b], threshold)
                for a in range(len(editions)) for b in range(a + 1, len(editions))]  # fmt: skip
    distinct: dict[tuple, int] = {}
    vectors: list[Vector] = []
    classes: list[list[int]] = []
    for edition in editions:
        found = []
        for _, vector in edition:
            key = tuple(vector.items())
            if key not in distinct:
                distinct[key] = len(vectors)
                vectors.append(vector)
            found.append(distinct[key])
        classes.append(found)
    # the old side of a pair is in an edition before the last, the new side in one after the first
    olds = sorted({found for edition in classes[:-1] for found in edition})
    news = sorted({found for edition in classes[1:] for found in edition})
    near = dict(zip(news, ([olds[i] for i in found] for found in candidates([vectors[c] for c in olds],
                                                                               [vectors[c] for c in news], threshold))))  # fmt: skip
    scores: dict[tuple[int, int], float] = {}
    results = []
    for a in range(len(editions)):
        members: dict[int, list[int]] = {}
        for i, found in enumerate(classes[a]):
            members.setdefault(found, []).append(i)
        for b in range(a + 1, len(editions)):
            scored: list[tuple[float, int, int]] = []
            for j, new in enumerate(classes[b]):
                for old in near[new]:
                    if old not in members:
                        continue
                    score = scores.get((old, new))
                    if score is None:
                        score = scores[(old, new)] = cosine(vectors[old], vectors[new])
                    if score >= threshold:
                        scored.extend((score, j, i) for i in members[old])
            results.append(_greedy(scored, editions[a], editions[b]))
    return results
