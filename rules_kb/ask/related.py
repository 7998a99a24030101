"""Steps 9 and 10 of ``ask``: what else bears on the question — the FAQ
rulings on the same cards and rules, and the glossary entries of the concepts."""

from __future__ import annotations

from rules_kb.ask.reading import Reading
from rules_kb.core.model import GlossaryEntry, RecordKind, node_id, node_kind
from rules_kb.core.text import fold
from rules_kb.engines.concepts import ConceptKind
from rules_kb.engines.graph import Relation

#: How many FAQ rulings an answer lists at most.
RULINGS_LIMIT = 5
#: How many rulings of one FAQ section or one card come before the others have had their turn.
RULINGS_PER_GROUP = 2


def find_rulings(reading: Reading) -> None:
    """FAQ rulings on the question: those of the cards it names, of the FAQ
    sections quoting the answer's first rules (or their parent), citing
    those rules, or of the cards having their keyword when the question
    names that keyword and the ruling is about it (its text names it: a
    Totem card's ruling on its animation does not answer a trample
    question; nor does a trample ruling a question that never says
    trample). A ruling found through a rule, not a named card, must share
    words with the question (it matches the question's query). Ranked by
    that link, then by how well their text matches the question."""
    kb = reading.kb
    graph = kb.graph
    weights: dict[str, float] = {}
    named = {fold(concept.target.name) for concept in reading.concepts}
    by_card: set[str] = set()

    def put(node: str, weight: float) -> None:
        if node_kind(node) is RecordKind.RULING:
            weights[node] = max(weights.get(node, 0.0), weight)

    for concept in reading.concepts:
        if concept.target.kind is ConceptKind.CARD:
            for node in concept.target.nodes:
                for edge in graph.outgoing(node, Relation.HAS_RULING):
                    put(edge.target, 3.0)
                    by_card.add(edge.target)
    for rank, answer in enumerate(reading.answers[:3]):
        node = node_id(RecordKind.RULE, answer.edition, answer.number)
        factor = 1.0 - rank * 0.2
        rule = kb.record(node)
        parent = node_id(RecordKind.RULE, answer.edition, rule.parent) if rule is not None and rule.parent else ""
        edges = [*graph.incoming(node), *(graph.incoming(parent, Relation.QUOTES, Relation.KEYWORD) if parent else [])]
        for edge in edges:
            source = edge.source
            if edge.relation is Relation.QUOTES:
                for ruling in graph.outgoing(source, Relation.HAS_RULING):
                    put(ruling.target, 2.0 * factor)
            elif edge.relation is Relation.CITES:
                put(source, 1.5 * factor)
            elif edge.relation is Relation.KEYWORD:
                keyword = kb.record(edge.target)
                name = fold(keyword.title) if keyword is not None and keyword.title else ""
                if not name or name not in named:
                    continue
                for ruling in graph.outgoing(source, Relation.HAS_RULING):
                    found = kb.record(ruling.target)
                    if found is not None and name in fold(found.text):
                        put(ruling.target, 0.5 * factor)
    if not weights:
        return
    text_scores: dict[str, float] = {}
    if reading.query is not None:
        index = reading.index
        results = index.run(reading.query, 100, index.allowed(None, (RecordKind.RULING.value,)))
        top = max((hit.score for hit in results), default=0.0) or 1.0
        for hit in results:
            text_scores[hit.stored.key] = hit.score / top
    shared = [node for node in weights if node in by_card or text_scores.get(node, 0.0) > 0]
    ranked = sorted(shared, key=lambda node: (-(weights[node] + text_scores.get(node, 0.0)), node))
    reading.rulings = diversified([ruling for node in ranked if (ruling := kb.record(node)) is not None])


def diversified(rulings: list, limit: int = RULINGS_LIMIT, per_group: int = RULINGS_PER_GROUP) -> tuple:
    """The first ``limit`` of ``rulings`` (best first), at most ``per_group``
    of one FAQ section's or one card's before the others have had their turn:
    the rulings of one section must not hide those of another link."""
    first: list[int] = []
    counts: dict[tuple[str, str], int] = {}
    for place, ruling in enumerate(rulings):
        group = (ruling.section, ruling.card)
        if counts.get(group, 0) < per_group:
            counts[group] = counts.get(group, 0) + 1
            first.append(place)
    chosen = set(first)
    order = first + [place for place in range(len(rulings)) if place not in chosen]
    return tuple(rulings[place] for place in order[:limit])


def find_glossary(reading: Reading) -> None:
    """The glossary entries the concepts name, in the question's order
    (pointer entries with the entries they point to)."""
    found: list[GlossaryEntry] = []
    for concept in reading.concepts:
        for node in concept.target.nodes:
            if node_kind(node) is RecordKind.GLOSSARY:
                entry = reading.kb.record(node)
                if entry is not None and entry not in found:
                    found.append(entry)
    reading.glossary = tuple(found)
