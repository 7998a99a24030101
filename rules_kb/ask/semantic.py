"""Steps of ``ask`` beyond the rules' own words: the situations and the meaning.

- **Situations** (:func:`search_situations`): the question's words (and the
  concepts' words) searched in the rules' profiles, each rule's words and
  its situations' (:mod:`rules_kb.engines.situations`); a rule scores its
  BM25 over the best rule's (part ``situations``), and the
  :data:`SITUATION_POOL` best become candidates.
- **Meaning** (:func:`weigh_dense`): the cosine of the question's embedding
  (:mod:`rules_kb.engines.dense`) with each rule's profile, the normalised
  sum of its and its situations' vectors with the mean of the players'
  stories it decides (:class:`rules_kb.engines.dense.StoryRows`), plus, for
  the closest rules, how close their stories are one by one
  (:meth:`rules_kb.engines.dense.DenseIndex.closeness`; part ``dense``), as
  a z-score over all the rules; the :data:`DENSE_POOL` closest rules
  become candidates. Without the model, a note says the answer comes from
  the words alone and the weights learned without these parts are used.
"""

from __future__ import annotations

import math

from rules_kb.ask.fusion import SUPPORT, weights
from rules_kb.ask.reading import Reading
from rules_kb.engines.situations import ProfileTables

#: How many rules the situations' words make candidates.
SITUATION_POOL = 30
#: How many rules the question's meaning makes candidates.
DENSE_POOL = 30


def profile_tables(kb) -> ProfileTables:
    """The lexical index of the rules' profiles of a knowledge base (kept on it)."""
    return kb.profiles


def search_situations(reading: Reading) -> None:
    """Part ``situations`` (module docstring)."""
    terms = [*reading.words, *reading.expansion]
    if not terms:
        return
    scores = profile_tables(reading.kb).rule_scores(terms, reading.hidden)
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
    """Part ``dense`` (module docstring)."""
    if reading.vector is None:
        return
    vector = reading.vector.result()
    index = reading.kb.dense
    if vector is None or index.empty:
        why = reading.vector.error or "aucun vecteur dans le cache"
        reading.notes.append(f"Recherche par le sens indisponible ({why}) : règles trouvées par les mots seuls.")
        reading.candidates.weights = weights(dense=False)
        return
    if index.missing:
        reading.notes.append(
            f"{index.missing} textes (règles ou situations) n'ont pas de vecteur : le modèle manquait quand "
            "l'index a été construit ; reconstruisez l'index pour les ajouter."
        )
    closeness = index.closeness(vector, reading.hidden, reading.hidden_stories)
    mean, spread = _zscores(list(closeness.values()))
    parts = {node: {"dense": (value - mean) / spread} for node, value in closeness.items()}
    if reading.edition:
        parts = {node: value for node, value in parts.items() if node.split(":")[1] == reading.edition}
    reading.dense_parts = parts
    closest = sorted(parts, key=lambda node: (-parts[node]["dense"], node))[:DENSE_POOL]
    for node in closest:
        reading.candidates.add(node, "dense", 0.0, "sens proche de la question")
    fill_dense(reading)


def fill_dense(reading: Reading) -> None:
    """Give every candidate its dense parts (0 for a rule without a vector)
    and its support (:mod:`rules_kb.ask.fusion`): ``log(1 + n)`` for the
    ``n`` stories in its profile, the hidden ones left out."""
    parts, candidates = reading.dense_parts, reading.candidates
    if not parts:
        return
    told = reading.kb.dense.story_counts(reading.hidden_stories)
    for node in candidates.parts:
        values = parts.get(node)
        if values is not None:
            candidates.set(node, "dense", values["dense"])
        if told.get(node):
            candidates.set(node, SUPPORT, math.log1p(told[node]))
