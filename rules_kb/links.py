"""What the rule graph says about one rule or one glossary entry, as records.

:func:`rule_links` gathers, for ``show``: the rules a rule cites, the
records citing it, the glossary terms it uses, the FAQ rulings and cards
bearing on it, its counterparts in other editions and the word diff of its
versions. :func:`term_users` gives the rules using a glossary entry, for
``define``. Both read :attr:`rules_kb.kb.KnowledgeBase.graph`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules_kb.graph import Relation, glossary_node, node_kind, rule_node, word_diff
from rules_kb.model import Card, GlossaryEntry, Rule, Ruling
from rules_kb.numbers import RuleNumber

if TYPE_CHECKING:
    from rules_kb.kb import KnowledgeBase


@dataclass(frozen=True, slots=True)
class Link:
    """One record at the other end of an edge: its node id, kind (``"rule"``,
    ``"glossary"``, ``"card"``, ``"ruling"``, ``"faq-section"``,
    ``"course"``), the record itself, ``text`` (the reference as printed,
    or the term as written) and ``score`` (similarity, for counterparts and
    versions)."""

    node: str
    kind: str
    record: Any
    text: str = ""
    score: float = 1.0


@dataclass(frozen=True, slots=True)
class Version:
    """Another text of the same rule (a FAQ's revision) with the word diff
    from the older text to the newer: ``(op, words)`` pairs, ``op`` in
    ``"equal"``, ``"delete"``, ``"insert"``; ``score`` is their similarity."""

    rule: Rule
    diff: tuple[tuple[str, str], ...]
    score: float
    subrules: tuple[tuple[Rule, tuple[tuple[str, str], ...]], ...] = ()
    """The direct subrules of this version, each with its diff from (or to)
    the subrule of the same number of the rule shown (all inserted or
    deleted where that edition has no such subrule)."""


@dataclass(frozen=True, slots=True)
class RuleLinks:
    """The neighbourhood of a rule in the graph, as ``show`` prints it.

    ``cites``: rules it cites (:class:`Link` to :class:`Rule`), in rule
    order; ``cited_by``: records citing it (rules first, in rule order, then
    glossary entries, rulings, FAQ and course sections); ``terms``: glossary
    entries its text uses; ``rulings``: FAQ rulings citing it or given in the
    FAQ section that quotes it (``text`` says which: ``"cite"`` or
    ``"section"``); ``cards``: FAQ cards with it as keyword;
    ``counterparts``: the same rule in other editions (``score``);
    ``versions``: other texts of the same number with their diff.
    """

    cites: tuple[Link, ...]
    cited_by: tuple[Link, ...]
    terms: tuple[Link, ...]
    rulings: tuple[Link, ...]
    cards: tuple[Link, ...]
    counterparts: tuple[Link, ...]
    versions: tuple[Version, ...]


_KIND_ORDER = {"rule": 0, "glossary": 1, "ruling": 2, "card": 3, "faq-section": 4, "course": 5}


def _order(link: Link) -> tuple:
    if isinstance(link.record, Rule):
        return (0, link.record.edition, RuleNumber.parse(link.record.number))
    return (_KIND_ORDER.get(link.kind, 9), "", RuleNumber(0))


def _links(kb: KnowledgeBase, edges, far_end) -> tuple[Link, ...]:
    found: dict[str, Link] = {}
    for edge in edges:
        node = far_end(edge)
        record = kb.record(node)
        if record is not None and node not in found:
            found[node] = Link(node, node_kind(node), record, edge.text, edge.score)
    return tuple(sorted(found.values(), key=_order))


def rule_links(kb: KnowledgeBase, rule: Rule) -> RuleLinks:
    """The :class:`RuleLinks` of ``rule`` in ``kb``'s graph."""
    graph = kb.graph
    node = rule_node(rule)
    target = lambda edge: edge.target  # noqa: E731
    source = lambda edge: edge.source  # noqa: E731
    cites = _links(kb, graph.outgoing(node, Relation.CITES), target)
    cited_by = _links(kb, graph.incoming(node, Relation.CITES), source)
    terms = tuple(
        sorted(_links(kb, graph.outgoing(node, Relation.USES_TERM), target), key=lambda link: link.record.term.casefold())
    )
    # the texts of this number: this rule and its versions, for FAQ rulings and cards
    same = [node, *(e.target for e in graph.outgoing(node, Relation.VERSION_OF))]
    same += [e.source for e in graph.incoming(node, Relation.VERSION_OF)]
    rulings: dict[str, Link] = {}
    for edge in graph.incoming(node, Relation.CITES):
        if node_kind(edge.source) == "ruling":
            rulings.setdefault(edge.source, Link(edge.source, "ruling", kb.record(edge.source), "cite"))
    for text_node in same:
        for quote in graph.incoming(text_node, Relation.QUOTES):
            for has in graph.outgoing(quote.source, Relation.HAS_RULING):
                rulings.setdefault(has.target, Link(has.target, "ruling", kb.record(has.target), "section"))
    cards = _links(kb, [e for n in same for e in graph.incoming(n, Relation.KEYWORD)], source)
    counterparts = _links(
        kb,
        [*graph.outgoing(node, Relation.COUNTERPART), *graph.incoming(node, Relation.COUNTERPART)],
        lambda edge: edge.target if edge.source == node else edge.source,
    )
    versions = []
    for other_node in same[1:]:
        other = kb.record(other_node)
        if other is None:
            continue
        revised = bool(other.quoted_from)
        diff = _diff(rule, other, revised)
        newer = other if revised else rule
        edge = next(iter(graph.outgoing(rule_node(newer), Relation.VERSION_OF)), None)
        subrules = tuple(
            (child, _diff(kb.rule(child.number, rule.edition), child, revised))
            for child in (kb.rule(number, other.edition) for number in other.children)
            if child is not None
        )
        versions.append(Version(other, diff, edge.score if edge else 0.0, subrules))
    return RuleLinks(
        cites, cited_by, terms, tuple(link for link in rulings.values() if link.record is not None),
        cards, counterparts, tuple(versions),
    )  # fmt: skip


def _full_text(rule: Rule | None) -> str:
    return " ".join(part for part in (rule.title, rule.text) if part) if rule is not None else ""


def _diff(shown: Rule | None, other: Rule, revised: bool) -> tuple[tuple[str, str], ...]:
    """Word diff from the older text to the newer: ``other`` is the newer
    when ``revised`` (a FAQ's revision of the rule shown)."""
    if revised:
        return word_diff(_full_text(shown), _full_text(other))
    return word_diff(_full_text(other), _full_text(shown))


def term_users(kb: KnowledgeBase, entry: GlossaryEntry) -> tuple[Link, ...]:
    """Rules whose text uses ``entry`` (``text``: the words as written), in
    rule order, editions of the entry first."""
    links = _links(kb, kb.graph.incoming(glossary_node(entry), Relation.USES_TERM), lambda edge: edge.source)
    return tuple(sorted(links, key=lambda link: (link.record.edition != entry.edition, _order(link))))


def first_sentence(text: str, limit: int = 140) -> str:
    """The first sentence of ``text``, cut at ``limit`` characters with "…"."""
    text = " ".join(text.split())
    end = text.find(". ")
    sentence = text if end < 0 else text[: end + 1]
    return sentence if len(sentence) <= limit else sentence[: limit - 1].rstrip() + "…"


def describe(record: Any) -> str:
    """A short French label of a record: ``"420.5c (2004)"``, ``"glossaire : Couche"``…"""
    if isinstance(record, Rule):
        return f"{record.number} ({record.edition})"
    if isinstance(record, GlossaryEntry):
        return f"glossaire : {record.term}"
    if isinstance(record, Ruling):
        return f"décision FAQ : {record.card or record.section}"
    if isinstance(record, Card):
        return f"carte : {record.name}"
    title = getattr(record, "title", "")
    if hasattr(record, "course"):
        return f"cours : {title}"
    return f"section de FAQ : {title}"

