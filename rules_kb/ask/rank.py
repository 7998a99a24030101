"""Steps 4, 5 and 8 of ``ask``: score the candidate rules, part by part,
then rank them.

- **Concepts** (:func:`weigh_concepts`). Each concept scores the rules it
  names through the graph: the rule titled so and the rules its glossary
  entry cites (1), their subrules (:data:`SUBRULE_SHARE`, more for those
  whose words the definition repeats; as much as the cited rule for the one
  it paraphrases, :data:`PARAPHRASE_MIN`), the rules using the term (a
  little), a card's keyword rules; scaled by how specific the concept is
  (rare words weigh more, :func:`specificity`). A typed rule number scores
  :data:`NUMBER_WEIGHT`.
- **Graph** (:func:`expand_graph`). The best rules pass a share of their
  score to the rules they cite (:data:`CITED_SHARE`; the best citing rule
  counts, and not a sibling citing its siblings).
- **Ranking** (:func:`rank`), after the checker's part: the answers, best
  first, by the sum of the parts times their learned weights
  (:mod:`rules_kb.ask.fusion`); a rule whose number the question types is
  the judge's own citation and comes first, then the rules the checker
  applied to the question's board when the question asks about that
  outcome (the rules' own verdict, not a guess); applied to a board the
  story only sets up, they count by their learned weight.
"""

from __future__ import annotations

import math

from rules_kb.ask.answer import RuleAnswer
from rules_kb.ask.fusion import contributions
from rules_kb.ask.reading import Reading
from rules_kb.ask.retrieve import concept_stems
from rules_kb.ask.semantic import fill_dense
from rules_kb.ask.verify import APPLIED_REASON
from rules_kb.core.model import RecordKind, Rule, descendants, node_kind, rule_node
from rules_kb.engines.concepts import ConceptKind, ConceptTable, Target
from rules_kb.engines.graph import Relation
from rules_kb.loader import KnowledgeBase

#: Share of a concept's weight its rule's subrules get.
SUBRULE_SHARE = 0.8
#: Share of a subrule's weight that depends on how close it is to the glossary definition citing its rule.
PARAPHRASE_SHARE = 0.5
#: A subrule whose words a glossary definition repeats this closely (cosine) or more,
#: and more than any other, is the rule the term stands for: it weighs as the cited rule.
PARAPHRASE_MIN = 0.75
#: Weight of that subrule against the cited rule's.
PARAPHRASE_WEIGHT = 1.25
#: Weight of a rule that only uses a concept's glossary term, before dividing by the term's users.
USER_WEIGHT = 0.3
#: Share of a rule's score passed to each rule it cites (at most :data:`CITED_CAP`).
CITED_SHARE = 0.4
CITED_CAP = 0.5
#: How many of the best rules pass score to the rules they cite.
EXPANDED = 8
#: Weight of the concepts' part against the words' part (the best rule for the words scores 1).
CONCEPT_WEIGHT = 1.0
#: Scoring of the typed rule numbers.
NUMBER_WEIGHT = 3.0


def specificity(reading: Reading, stems: list[str]) -> float:
    """How specific a concept is, in [0.3, 1]: ``log(N / df) / log(N / 3)``
    for its rarest word in the index (``df`` documents of ``N`` hold it);
    a phrase of several words is at least 0.8."""
    if not stems:
        return 1.0
    index = reading.index
    total = index.doc_count
    frequencies = [index.doc_frequency("text", stem) + index.doc_frequency("title", stem) for stem in stems]
    rarest = max(1, min(frequencies))
    value = math.log(total / rarest) / math.log(total / 3)
    if len(stems) > 1:
        value = max(value, 0.8)
    return min(1.0, max(0.3, value))


def concept_weights(kb: KnowledgeBase, concepts: ConceptTable, target: Target) -> dict[str, tuple[float, str]]:
    """Rule node → (weight, how) for one concept's target (before
    specificity): the subrules of a cited rule closest to the glossary
    definition citing it weigh more."""
    weights: dict[str, tuple[float, str]] = {}

    def put(rule: Rule | None, weight: float, how: str, subrules: bool = True, closeness: dict | None = None) -> None:
        if rule is None:
            return
        node = rule_node(rule)
        if weight > weights.get(node, (0.0, ""))[0]:
            weights[node] = (weight, how)
        if subrules:
            subs = descendants(kb.rule, rule)
            cosines = [closeness.get(rule_node(sub), 1.0) for sub in subs] if closeness else [1.0] * len(subs)
            best = max(cosines, default=0.0) or 1.0
            for sub, cosine in zip(subs, cosines):
                if closeness and cosine == best and cosine >= PARAPHRASE_MIN:
                    put(sub, weight * PARAPHRASE_WEIGHT, f"{how} : le glossaire reprend ses mots", subrules=False)
                    continue
                share = SUBRULE_SHARE * (1 - PARAPHRASE_SHARE + PARAPHRASE_SHARE * cosine / best)
                put(sub, weight * share, f"{how} (sous-règle de {rule.number})", subrules=False)

    for node in target.nodes:
        kind = node_kind(node)
        if kind is RecordKind.RULE:
            put(kb.record(node), 1.0, "titre")
        elif kind is RecordKind.GLOSSARY:
            entry = kb.record(node)
            if entry is None:
                continue
            for number in entry.cites:
                put(kb.rule(number, entry.edition), 1.0, f"citée par le glossaire « {entry.term} »",
                    closeness=concepts.closeness.get(node, {}))  # fmt: skip
            users = kb.graph.incoming(node, Relation.USES_TERM)
            share = USER_WEIGHT * min(1.0, 8 / max(1, len(users)))
            for edge in users:
                put(kb.record(edge.source), share, f"emploie « {edge.text} »", subrules=False)
        elif kind is RecordKind.CARD:
            for edge in kb.graph.outgoing(node, Relation.KEYWORD):
                put(kb.record(edge.target), 0.6, f"mot-clé de la carte « {target.name} »")
    return weights


def weigh_concepts(reading: Reading) -> None:
    """Part ``concepts``: each concept through the graph (module docstring);
    for each stretch of the question, a rule counts its best concept once.
    Then the rules of other editions than the one asked for are dropped."""
    kb, candidates = reading.kb, reading.candidates
    spans: dict[tuple[int, int], dict[str, tuple[float, str]]] = {}
    for concept in reading.concepts:
        if concept.target.kind is ConceptKind.NUMBER:
            for node in concept.target.nodes:
                candidates.add(node, "concepts", NUMBER_WEIGHT, f"numéro {concept.text}")
            continue
        specific = specificity(
            reading, concept_stems(reading.index, concept.text) or concept_stems(reading.index, concept.target.name)
        )
        span = spans.setdefault((concept.start, concept.end), {})
        label = (
            f"« {concept.text} »"
            if concept.text.casefold() == concept.target.name.casefold()
            else f"« {concept.text} » ({concept.target.name})"
        )
        for node, (weight, how) in concept_weights(kb, reading.table, concept.target).items():
            value = weight * specific * CONCEPT_WEIGHT
            if value > span.get(node, (0.0, ""))[0]:
                span[node] = (value, f"{label} : {how}")
    for span in spans.values():
        for node, (value, reason) in span.items():
            candidates.add(node, "concepts", value, reason)
    if reading.edition:
        for node in [n for n in candidates.parts if n.split(":")[1] != reading.edition]:
            del candidates.parts[node]


def expand_graph(reading: Reading) -> None:
    """Part ``graph``: the :data:`EXPANDED` best rules pass a share of their
    score to the rules they cite."""
    kb, candidates, edition = reading.kb, reading.candidates, reading.edition
    ranked = sorted(candidates.parts, key=candidates.score, reverse=True)[:EXPANDED]
    passed: dict[str, tuple[float, str]] = {}
    for node in ranked:
        share = max(0.0, min(CITED_CAP, CITED_SHARE * candidates.score(node)))
        source = kb.record(node)
        for edge in kb.graph.outgoing(node, Relation.CITES):
            target = kb.record(edge.target) if node_kind(edge.target) is RecordKind.RULE else None
            if target is None or edge.target == node or (edition and target.edition != edition):
                continue
            if source is not None and target.parent and target.parent == source.parent:
                continue  # a sibling cited from within its own rule is already in the running
            if share > passed.get(edge.target, (0.0, ""))[0]:
                passed[edge.target] = (share, f"citée par {source.number if source else node}")
    for node, (share, reason) in passed.items():
        candidates.add(node, "graph", share, reason)


#: How many of the best rules call the rules cited with them in the players' stories.
ANCHORS = 3


def weigh_companions(reading: Reading) -> None:
    """Part ``companions``: the rules judges cite with the best ones. For
    each rule, the most it decides the players' stories that one of the
    anchors decides: the :data:`ANCHORS` best rules (by their score so far,
    the meaning included) and the rules the checker applied to the board
    (:mod:`rules_kb.ask.verify`);
    :meth:`rules_kb.engines.dense.DenseIndex.companions`, learned from the
    stories' expected rules, the question's own story left out. A rule
    cited with an anchor becomes a candidate even when no other signal
    found it (the rule that says when a state-based action is checked,
    cited with the action). Its weight is learned with the others: it
    brings the rules that decide the question with the first, not the
    first's neighbours."""
    index = reading.kb.dense
    if index.empty:
        return
    candidates = reading.candidates
    companions = index.companions(reading.hidden_stories)
    asked = set(reading.verification.asked)
    applied = [
        node
        for node in candidates.parts
        if node.split(":", 2)[2] in asked and candidates.parts[node].get("checker", 0) > 0
    ]
    best = sorted(candidates.parts, key=candidates.score, reverse=True)[:ANCHORS]
    anchors = list(dict.fromkeys([*best, *applied]))
    found: dict[str, tuple[float, str]] = {}
    for anchor in anchors:
        for node, share in companions.get(anchor, {}).items():
            if reading.edition and node.split(":")[1] != reading.edition:
                continue
            if node != anchor and share > found.get(node, (0.0, ""))[0]:
                found[node] = (share, f"souvent citée avec {anchor.split(':', 2)[2]}")
    for node, (share, reason) in found.items():
        candidates.add(node, "companions", share, reason)


#: How many of the rules judges cite with the checker's rule follow it in the answer.
VERDICT_COMPANIONS = 2


def verdict_companions(reading: Reading, applied: set[str], scores: dict[str, float]) -> dict[str, float]:
    """Candidate node → its share (:meth:`rules_kb.engines.dense.DenseIndex.companions`)
    for the :data:`VERDICT_COMPANIONS` rules the players' stories cite most
    often with a rule the checker applied (the best scored first among
    equals), cited with it in two stories at least (once is an anecdote):
    they follow the verdict's rule in the answer ("ma 2/2 a pris 2
    blessures" → 420.5c, then 314.2, when the damage goes away), not the
    first rule's neighbours by the words. Empty when the checker applied
    no rule."""
    if not applied:
        return {}
    index = reading.kb.dense
    table, told = index.companions(reading.hidden_stories), index.story_counts(reading.hidden_stories)
    cited: dict[str, float] = {}
    for anchor in applied:
        twice = 2 / (told.get(anchor, 0) + 1)  # the share of a rule cited with the anchor in two stories
        for node, share in table.get(anchor, {}).items():
            if node in scores and node not in applied and share >= twice - 1e-9:
                cited[node] = max(cited.get(node, 0.0), share)
    best = sorted(cited, key=lambda node: (-cited[node], -scores[node], node))[:VERDICT_COMPANIONS]
    return {node: cited[node] for node in best}


def rank(reading: Reading) -> None:
    """The answers: the ``limit`` best rules (one per number), best first, each
    with its score parts, its three best reasons and a snippet."""
    fill_dense(reading)
    kb, candidates = reading.kb, reading.candidates
    weighted = contributions(candidates.parts, candidates.weights)
    scores = {node: sum(parts.values()) for node, parts in weighted.items()}
    typed = {
        node
        for concept in reading.concepts
        if concept.target.kind is ConceptKind.NUMBER
        for node in concept.target.nodes
    }
    applied = {
        node
        for node in scores
        if node.split(":", 2)[2] in reading.verification.asked and candidates.parts[node]["checker"] > 0
    }
    cited = verdict_companions(reading, applied, scores)
    ordered = sorted(
        scores, key=lambda node: (node not in typed, node not in applied, -cited.get(node, 0.0), -scores[node], node)
    )
    answers: list[RuleAnswer] = []
    seen_numbers: set[str] = set()
    for node in ordered:
        rule = kb.record(node)
        if rule is None or rule.number in seen_numbers:
            continue
        seen_numbers.add(rule.number)
        hit = reading.hits.get(node)
        stored = (
            hit.stored
            if hit is not None
            else {"text": rule.text, "title": rule.title, "examples": "\n\n".join(rule.examples)}
        )
        text, matches = reading.index.snippet(stored, reading.terms)
        reasons = candidates.reasons.get(node, {})
        answers.append(
            RuleAnswer(
                number=rule.number,
                edition=rule.edition,
                score=round(scores[node], 4),
                title=rule.title,
                why=" ; ".join(_ordered_reasons(reasons)[:2]),
                snippet=text,
                matches=matches,
                parts={name: round(value, 4) for name, value in weighted[node].items()},
                text=rule.text,
            )
        )
        if len(answers) >= reading.limit:
            break
    reading.answers = answers


def _ordered_reasons(reasons: dict[str, str]) -> list[str]:
    """The reasons (``{reason: part}``), the checker's verdict first, then
    concepts and the other parts, then the words of the text, each group in the order given."""
    return sorted(reasons, key=lambda reason: (reason != APPLIED_REASON, reasons[reason] == "text"))
