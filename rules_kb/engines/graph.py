"""The rule graph: every record of the corpus and how they refer to each other.

Nodes are the records of a :class:`rules_kb.core.model.Corpus`, named by a
string id (:func:`node_id`):

- ``rule:2004:420.5c`` — a rule of an edition,
- ``glossary:2004:Blessures fatales`` — a glossary entry,
- ``card:faq-tsp-2006:Guide griffon`` — a FAQ card,
- ``ruling:faq-tsp-2006:Guide griffon#1`` — a FAQ ruling (its card or section, then its rank),
- ``faq-section:faq-tsp-2006:3`` — a section of a FAQ's general notes (its rank),
- ``course:cours-2:4`` — a course section (its rank).

Edges (:class:`Edge`) have a :class:`Relation`: parent rule to child, a
text citing a rule or pointing to a glossary entry, a rule using a glossary
term, a card having a keyword, a FAQ's revised rule and the text it revises,
the same rule in another edition (found by content), a FAQ section quoting
a rule, a card or section and its rulings.

:func:`rules_kb.indexing.linking.build_graph` reads a corpus and returns the
graph with the diagnostics of references that resolve nowhere. It runs when
the cache is built (:mod:`rules_kb.indexing.cache`), which stores its edges;
the loaded graph (:class:`rules_kb.engines.store.StoredGraph`) answers the
same questions (:class:`GraphView`) from the cache.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import NamedTuple

from rules_kb.core.model import Diagnostic


class Relation(enum.Enum):
    """What an edge says, from its source to its target."""

    CONTAINS = "contains"
    """A rule contains its subrule (parent → child)."""
    CITES = "cites"
    """A text cites a rule ("Voir règle 420") — rule, glossary entry, ruling, FAQ or course section → rule."""
    POINTS_TO = "points-to"
    """A text points to a glossary entry or a FAQ section by its name ("Voir aussi "Contrôleur"")."""
    USES_TERM = "uses-term"
    """A rule's text uses a glossary headword or form (rule → glossary entry)."""
    KEYWORD = "keyword"
    """A FAQ card has a keyword ability (card → the keyword's rule)."""
    VERSION_OF = "version-of"
    """A FAQ's new text of a rule → the same number in the complete edition."""
    COUNTERPART = "counterpart"
    """The same rule in another edition, found by the content of the texts (older → newer edition)."""
    QUOTES = "quotes"
    """A FAQ section quotes a rule (section → the quoted rule)."""
    HAS_RULING = "has-ruling"
    """A FAQ card or section → one of its rulings."""

    @property
    def label(self) -> str:
        """The French name of the relation, for what users read (``"cite"``)."""
        return RELATION_LABELS[self]


#: French names of the relations, for what users read.
RELATION_LABELS = {
    Relation.CONTAINS: "contient",
    Relation.CITES: "cite",
    Relation.POINTS_TO: "renvoie à",
    Relation.USES_TERM: "emploie le terme",
    Relation.KEYWORD: "a le mot-clé",
    Relation.VERSION_OF: "nouvelle version de",
    Relation.COUNTERPART: "équivaut à",
    Relation.QUOTES: "cite le texte de",
    Relation.HAS_RULING: "décision",
}


class Edge(NamedTuple):
    """One edge: ``source`` and ``target`` node ids, the ``relation``,
    ``score`` (similarity in [0, 1] for :attr:`Relation.COUNTERPART` and
    :attr:`Relation.VERSION_OF`, else 1.0) and ``text``: the reference as
    printed (``"règles 409.1a à 409.1h"``) or the term as written in the
    text (``"blessures fatales"``), ``""`` otherwise."""

    source: str
    target: str
    relation: Relation
    score: float = 1.0
    text: str = ""


class GraphView:
    """What features ask the rule graph: the edges from or to a node, and a
    neighbourhood. :class:`Graph` holds edges in memory (while building);
    :class:`rules_kb.engines.store.StoredGraph` reads them from the cache.
    Edges come in the order they were built."""

    def outgoing(self, node: str, *relations: Relation) -> list[Edge]:
        """Edges from ``node``, of the given relations (all if none)."""
        raise NotImplementedError

    def incoming(self, node: str, *relations: Relation) -> list[Edge]:
        """Edges to ``node``, of the given relations (all if none)."""
        raise NotImplementedError

    def neighbourhood(
        self, center: str, depth: int = 1, relations: Iterable[Relation] = (), limit: int = 0
    ) -> tuple[list[str], list[Edge], bool]:
        """Nodes within ``depth`` edges of ``center`` (either direction).

        Returns ``(nodes, edges, truncated)``: nodes in breadth-first order
        (``center`` first), the edges between them, and whether ``limit``
        (a number of nodes, 0 for none) cut the walk short.
        """
        wanted = tuple(dict.fromkeys(relations))
        seen = {center: 0}
        order = [center]
        truncated = False
        frontier = [center]
        for distance in range(1, depth + 1):
            following = []
            for node in frontier:
                for edge in [*self.outgoing(node, *wanted), *self.incoming(node, *wanted)]:
                    other = edge.target if edge.source == node else edge.source
                    if other in seen:
                        continue
                    if limit and len(order) >= limit:
                        truncated = True
                        continue
                    seen[other] = distance
                    order.append(other)
                    following.append(other)
            frontier = following
        edges = [edge for node in order for edge in self.outgoing(node, *wanted) if edge.target in seen]
        return order, edges, truncated


class Graph(GraphView):
    """The edges of the rule graph in memory, indexed both ways, and the
    diagnostics of references that resolve nowhere.

    ``edges`` is a tuple of :class:`Edge`; ``diagnostics`` a tuple of
    :class:`rules_kb.core.model.Diagnostic`.
    """

    __slots__ = ("_in", "_out", "diagnostics", "edges")

    def __init__(self, edges: tuple[Edge, ...], diagnostics: tuple[Diagnostic, ...] = ()) -> None:
        self.edges = edges
        self.diagnostics = diagnostics
        self._out: dict[str, list[Edge]] = {}
        self._in: dict[str, list[Edge]] = {}
        for edge in edges:
            self._out.setdefault(edge.source, []).append(edge)
            self._in.setdefault(edge.target, []).append(edge)

    def outgoing(self, node: str, *relations: Relation) -> list[Edge]:
        """Edges from ``node``, of the given relations (all if none)."""
        return [edge for edge in self._out.get(node, ()) if not relations or edge.relation in relations]

    def incoming(self, node: str, *relations: Relation) -> list[Edge]:
        """Edges to ``node``, of the given relations (all if none)."""
        return [edge for edge in self._in.get(node, ()) if not relations or edge.relation in relations]
