"""The learned fusion of ``ask``'s signals.

Each candidate rule has one value per signal (:data:`FEATURES`, the keys of
:data:`rules_kb.ask.answer.PARTS`): the words' BM25F (``text``) and
coverage, the BM25 of its profile, its words and its situations'
(``situations``), the concepts through the graph, the rules citing it
(``graph``), the checker's verdict, the mechanisms the story implies
(``mechanisms``, :mod:`rules_kb.ask.mechanisms`), and the cosine of the
question's embedding with its profile, with the closeness of its stories
one by one (``dense``, :meth:`rules_kb.engines.dense.DenseIndex.closeness`,
a z-score over all the rules).
Beside the signals, the rule's *support*: ``log(1 + n)`` for the ``n``
players' stories folded into its profile
(:class:`rules_kb.engines.dense.StoryRows`), which says how far its dense
rank can be trusted; it weighs alone and times the dense rank, and its
parts count in ``dense``.
(A subrule's place among its siblings and a heading's having a subrule
the words found were signals too, until their learned weights came out
nil.) Its score is the sum of those
values times their weights, plus, for each signal, the rule's rank among
the candidates by that signal (as ``1 / (1 + rank)``, 0 when the signal
does not see it) times a weight of its own: a rank says the same thing
whatever the question's length, a value does not. ``--explain`` shows,
for each signal, the sum of its two products (:func:`contributions`).

The weights are learned, not set by hand: a listwise logistic ranker (the
probability of the right rules among each question's candidates, a softmax
of their scores, maximised with an L2 penalty) over the candidates of
questions whose right rules are known — every situation of
``rules_kb/data/situations.jsonl`` asked as a question with itself left out
of the index, and the tuning questions of ``tests/eval/tuning.jsonl`` — by
``bench/train_fusion.py``, which writes ``rules_kb/data/fusion.json``
with the fingerprint of what it learned from. Two sets are learned: with
the dense signals, and without them (the model unavailable).
"""

from __future__ import annotations

import json
from pathlib import Path

#: The signals, in the order of the weights.
FEATURES = (
    "text", "coverage", "situations", "concepts", "graph", "checker", "dense", "mechanisms", "companions",
)  # fmt: skip
#: The suffix of the weight of a signal's rank.
RANK = "@rang"
#: The key of the support in a candidate's values (not a signal of its own: its parts count in ``dense``).
SUPPORT = "stories"
#: The weights of the support: alone, and times the dense rank.
SUPPORT_WEIGHTS = (SUPPORT, "dense" + RANK + "×" + SUPPORT)
#: The signals and weights that need the embedding model.
DENSE_FEATURES = ("dense", SUPPORT)
#: Every weight's name: each signal's, then each signal's rank's, then the support's.
WEIGHT_NAMES = (*FEATURES, *(feature + RANK for feature in FEATURES), *SUPPORT_WEIGHTS)
#: The learned weights (package data, written by ``bench/train_fusion.py``).
WEIGHTS_FILE = Path(__file__).resolve().parent.parent / "data" / "fusion.json"
#: The weights used when the file is missing: the sum of the parts, as before any learning.
UNIT_WEIGHTS = {name: (1.0 if name in FEATURES and name not in DENSE_FEATURES else 0.0) for name in WEIGHT_NAMES}

_loaded: dict | None = None


def _data() -> dict:
    global _loaded
    if _loaded is None:
        try:
            _loaded = json.loads(WEIGHTS_FILE.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            _loaded = {}
    return _loaded


def weights(dense: bool) -> dict[str, float]:
    """Signal → weight, learned with the dense signals (``dense``) or without them."""
    learned = _data().get("dense" if dense else "lexical")
    if not isinstance(learned, dict):
        return dict(UNIT_WEIGHTS)
    return {name: float(learned.get(name, 0.0)) for name in WEIGHT_NAMES}


def reciprocal_ranks(parts: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
    """Node → signal → ``1 / (1 + rank)`` of the node among the candidates
    by that signal's value (ties share a rank; 0 for a value of 0)."""
    found: dict[str, dict[str, float]] = {node: {} for node in parts}
    for feature in FEATURES:
        values = sorted(
            {values.get(feature, 0.0) for values in parts.values() if values.get(feature, 0.0)}, reverse=True
        )
        rank = {value: 1 / (1 + place) for place, value in enumerate(values)}
        for node, node_values in parts.items():
            found[node][feature] = rank.get(node_values.get(feature, 0.0), 0.0)
    return found


def design(parts: dict[str, dict[str, float]]) -> dict[str, list[float]]:
    """Node → its values for :data:`WEIGHT_NAMES` (the signals, their
    ranks, the support and the support times the dense rank)."""
    ranks = reciprocal_ranks(parts)
    return {
        node: [values.get(f, 0.0) for f in FEATURES] + [ranks[node][f] for f in FEATURES]
        + [values.get(SUPPORT, 0.0), values.get(SUPPORT, 0.0) * ranks[node]["dense"]]
        for node, values in parts.items()
    }  # fmt: skip


def contributions(parts: dict[str, dict[str, float]], learned: dict[str, float]) -> dict[str, dict[str, float]]:
    """Node → signal → its part of the node's score: the signal's value and
    its rank, each times its weight; the support's parts count in ``dense``."""
    ranks = reciprocal_ranks(parts)
    found = {}
    for node, values in parts.items():
        found[node] = {
            f: values.get(f, 0.0) * learned.get(f, 0.0) + ranks[node][f] * learned.get(f + RANK, 0.0) for f in FEATURES
        }
        support = values.get(SUPPORT, 0.0)
        alone, with_rank = SUPPORT_WEIGHTS
        found[node]["dense"] += support * (learned.get(alone, 0.0) + ranks[node]["dense"] * learned.get(with_rank, 0.0))
    return found


def trained_fingerprint() -> str:
    """The fingerprint of what the weights were learned from (``""`` if none)."""
    return str(_data().get("fingerprint", ""))
