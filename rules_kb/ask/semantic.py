"""Steps of ``ask`` beyond the rules' own words: the situations and the meaning.

- **Situations** (:func:`search_situations`): the question's words (and the
  concepts' words) searched in the situations of every rule
  (:mod:`rules_kb.build.situations`); a rule scores its best situation's
  BM25 over the best rule's (part ``situations``), and the
  :data:`SITUATION_POOL` best become candidates.
- **Meaning** (:func:`weigh_dense`): the cosine of the question's embedding
  (:mod:`rules_kb.build.dense`) with each rule's text (part ``dense``) and
  with each situation (``dense_situations``, a rule's best), as z-scores
  over all the rules, all the situations; the :data:`DENSE_POOL` closest
  rules become candidates. Without the model, a note says the answer comes
  from the words alone and the weights learned without these parts are used.
"""

from __future__ import annotations

import math

from rules_kb.ask import fusion
from rules_kb.ask.reading import Reading
from rules_kb.build.dense import read_vectors
from rules_kb.build.situations import SituationTables, tables_from_data

#: How many rules the situations' words make candidates.
SITUATION_POOL = 30
#: How many rules the question's meaning makes candidates.
DENSE_POOL = 30


def situation_tables(kb) -> SituationTables:
    """The lexical index of the situations of a knowledge base (kept on it)."""
    return kb.cached("situations", lambda: tables_from_data(kb.store.meta("situations")))


def search_situations(reading: Reading) -> None:
    """Part ``situations`` (module docstring)."""
    terms = [*reading.words, *reading.expansion]
    if not terms:
        return
    scores = situation_tables(reading.kb).rule_scores(terms, reading.hidden)
    if reading.edition:
        scores = {node: value for node, value in scores.items() if node.split(":")[1] == reading.edition}
    top = max(scores.values(), default=0.0) or 1.0
    candidates = reading.candidates
    ranked = sorted(scores, key=lambda node: (-scores[node], node))
    for place, node in enumerate(ranked):
        if place < SITUATION_POOL or node in candidates.parts:
            candidates.set(node, "situations", scores[node] / top)
    for node in ranked[:3]:
        candidates.add(node, "situations", 0.0, "situation de jeu semblable")


def _zscores(values: list[float]) -> tuple[float, float]:
    if not values:
        return 0.0, 1.0
    mean = sum(values) / len(values)
    spread = math.sqrt(sum((value - mean) ** 2 for value in values) / len(values)) or 1.0
    return mean, spread


def weigh_dense(reading: Reading) -> None:
    """Parts ``dense`` and ``dense_situations`` (module docstring)."""
    if reading.vector is None:
        return
    vector = reading.vector.result()
    index = read_vectors(reading.kb)
    if vector is None or index.empty:
        why = reading.vector.error or "aucun vecteur dans le cache"
        reading.notes.append(f"Recherche par le sens indisponible ({why}) : règles trouvées par les mots seuls.")
        reading.candidates.weights = fusion.weights(dense=False)
        return
    cosines = index.cosines(vector)
    rule_mean, rule_spread = _zscores([cosines[row] for row in set(index.rule_rows.values())])
    hidden = reading.hidden
    shown = [row for number, row in enumerate(index.situation_rows) if row >= 0 and number not in hidden]
    situation_mean, situation_spread = _zscores([cosines[row] for row in shown])
    parts: dict[str, dict[str, float]] = {}
    for node, row in index.rule_rows.items():
        value = (cosines[row] - rule_mean) / rule_spread
        parts[node] = {"dense": value, "dense_situations": value}
    best: dict[str, float] = {}
    for number, (node, row) in enumerate(zip(index.situation_nodes, index.situation_rows)):
        if row >= 0 and number not in hidden:
            value = (cosines[row] - situation_mean) / situation_spread
            if value > best.get(node, -math.inf):
                best[node] = value
    for node, value in best.items():
        parts.setdefault(node, {"dense": 0.0})["dense_situations"] = value
    if reading.edition:
        parts = {node: value for node, value in parts.items() if node.split(":")[1] == reading.edition}
    reading.dense_parts = parts
    closest = sorted(parts, key=lambda node: (-max(parts[node].values()), node))[:DENSE_POOL]
    for node in closest:
        reading.candidates.add(node, "dense", 0.0, "sens proche de la question")
    fill_dense(reading)


def fill_dense(reading: Reading) -> None:
    """Give every candidate its dense parts (0 for a rule without a vector)."""
    parts, candidates = reading.dense_parts, reading.candidates
    if not parts:
        return
    for node in candidates.parts:
        values = parts.get(node)
        if values is not None:
            candidates.set(node, "dense", values["dense"])
            candidates.set(node, "dense_situations", values["dense_situations"])
