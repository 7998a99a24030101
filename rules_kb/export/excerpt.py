"""An annotated excerpt of the rules: the selected rules with their links,
examples, glossary terms, FAQ rulings and other editions, ready for a
renderer (:mod:`rules_kb.export.html`, :mod:`rules_kb.export.markdown`,
:mod:`rules_kb.export.data`).

Texts are cut into :class:`Segment` runs: plain text, a reference to rules
(``règle 420.5c``), a glossary word the rule uses, a pointer to a glossary
entry (``Voir aussi "Contrôleur"``). Each linked run is resolved once here:
to an anchor of the excerpt (``#r420-5c``) when its target is in it, else
to a :class:`Note` quoting the cited rules. Renderers only read the result.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, replace
from datetime import datetime

from rules_kb.core.model import Card, Document, GlossaryEntry, Rule, Ruling, card_node, glossary_node, rule_node
from rules_kb.core.references import ReferenceKind, find_references
from rules_kb.core.text import MONTHS, fold
from rules_kb.engines.graph import GraphView, Relation
from rules_kb.export.selection import Selected, Selection
from rules_kb.loader import KnowledgeBase
from rules_kb.lookup.rules import Version, rule_links


class SegmentKind(enum.Enum):
    """What a run of text is."""

    TEXT = "text"
    """Plain text."""
    RULE = "rule"
    """A reference to one or more rules, as printed (``règles 418.5b-418.5g``)."""
    TERM = "term"
    """A glossary headword or form the rule's text uses (``blessures fatales``)."""
    POINTER = "pointer"
    """A pointer to a glossary entry or FAQ part by its name (``Voir aussi "Contrôleur"``)."""


@dataclass(frozen=True, slots=True)
class Segment:
    """A run of text. ``targets`` are the graph node ids it designates (see
    :mod:`rules_kb.engines.graph`); once resolved, ``href`` is where it links
    (``"#r420-5c"``, or ``"regles-2004-4.html#r420-5c"`` in a rulebook;
    ``""``: no link) and ``note`` the number of the :class:`Note` quoting
    its targets (0: none)."""

    text: str
    kind: SegmentKind = SegmentKind.TEXT
    targets: tuple[str, ...] = ()
    href: str = ""
    note: int = 0


#: A paragraph: its segments, whose texts joined give the paragraph back.
Paragraph = tuple[Segment, ...]


@dataclass(frozen=True, slots=True)
class Note:
    """A rule cited from the excerpt but not in it: ``number`` (1, 2…), the
    reference as first printed, and the cited rules with their texts."""

    number: int
    reference: str
    rules: tuple[Rule, ...]


@dataclass(frozen=True, slots=True)
class RulingEntry:
    """A FAQ ruling: ``why`` it is shown (``"cite"``: it cites the rule;
    ``"section"``: the FAQ section quoting the rule gives it; ``"card"``:
    a ruling of a selected card) and its text as segments."""

    ruling: Ruling
    why: str
    text: Paragraph


@dataclass(frozen=True, slots=True)
class RuleEntry:
    """A selected rule and its annotations.

    ``anchor`` is its id in the excerpt (``"r420-5c"``); ``document`` the
    document it was read from (the FAQ that quotes it, for a FAQ's rule);
    ``paragraphs`` and ``examples`` its text as segments; ``terms`` the
    anchors of the glossary entries it uses; ``rulings`` the FAQ rulings
    bearing on it; ``cards`` names of the FAQ cards having it as keyword;
    ``counterparts`` the same rule in other editions with their similarity
    (0–1); ``versions`` its other texts (a FAQ's revision) with the diff;
    ``rulings_above`` where its rulings already listed for a rule above are.
    Without annotations, the lists are empty and the segments plain.
    """

    rule: Rule
    anchor: str
    document: Document | None
    paragraphs: tuple[Paragraph, ...]
    examples: tuple[Paragraph, ...] = ()
    terms: tuple[str, ...] = ()
    rulings: tuple[RulingEntry, ...] = ()
    cards: tuple[str, ...] = ()
    counterparts: tuple[tuple[Rule, float], ...] = ()
    versions: tuple[Version, ...] = ()
    rulings_above: tuple[str, ...] = ()
    """Anchors of the rules above under which more of its rulings are
    already listed (each ruling is listed once per excerpt)."""


@dataclass(frozen=True, slots=True)
class GlossaryItem:
    """A glossary entry of the excerpt: its ``anchor`` (``"g-blessures-fatales"``),
    definition paragraphs and examples as segments, and whether the judge
    selected it (``selected``) or a rule of the excerpt uses or points to it."""

    entry: GlossaryEntry
    anchor: str
    paragraphs: tuple[Paragraph, ...]
    examples: tuple[Paragraph, ...]
    selected: bool


@dataclass(frozen=True, slots=True)
class CardItem:
    """A selected FAQ card with its ``anchor`` (``"c-guide-griffon"``) and rulings."""

    card: Card
    anchor: str
    rulings: tuple[RulingEntry, ...]


@dataclass(frozen=True, slots=True)
class Header:
    """What the excerpt is: ``selection`` (the parts asked for),
    ``editions`` of its rules, ``documents`` its records come from,
    ``exported`` (local time), the judge's ``note`` (``""``: none),
    ``annotated`` (False for bare texts) and ``warnings`` of the selection."""

    selection: tuple[Selected, ...]
    description: str
    editions: tuple[str, ...]
    documents: tuple[Document, ...]
    exported: datetime
    note: str
    annotated: bool
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Excerpt:
    """An annotated excerpt: header, rules in rule order, the glossary
    entries they use (once), the selected cards, and the notes quoting the
    rules cited from outside the excerpt (in the order first cited)."""

    header: Header
    rules: tuple[RuleEntry, ...]
    glossary: tuple[GlossaryItem, ...] = ()
    cards: tuple[CardItem, ...] = ()
    notes: tuple[Note, ...] = ()


# --- segments -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TextLinks:
    """The links of one record's texts, from the graph: printed reference →
    rule nodes (``cites``), quoted name → glossary or FAQ node
    (``pointers``), and ``(words as written, glossary node)`` of the terms
    its text uses."""

    cites: dict[str, tuple[str, ...]]
    pointers: dict[str, tuple[str, ...]]
    terms: tuple[tuple[str, str], ...] = ()


def text_links(graph: GraphView, node: str) -> TextLinks:
    """The :class:`TextLinks` of the record ``node`` in ``graph``."""
    cites: dict[str, list[str]] = {}
    pointers: dict[str, list[str]] = {}
    terms = []
    for edge in graph.outgoing(node, Relation.CITES, Relation.POINTS_TO, Relation.USES_TERM):
        if edge.relation is Relation.CITES:
            cites.setdefault(edge.text, []).append(edge.target)
        elif edge.relation is Relation.POINTS_TO:
            pointers.setdefault(edge.text, []).append(edge.target)
        else:
            terms.append((edge.text, edge.target))
    return TextLinks(
        {text: tuple(dict.fromkeys(nodes)) for text, nodes in cites.items()},
        {text: tuple(dict.fromkeys(nodes)) for text, nodes in pointers.items()},
        tuple(terms),
    )


def segment(text: str, links: TextLinks, terms: bool = False) -> Paragraph:
    """Cut ``text`` into segments: its references (those the graph resolved),
    and with ``terms`` the first use of each glossary term of ``links``.

    The segments' texts joined give ``text`` back. Never raises.
    """
    spans: list[tuple[int, int, SegmentKind, tuple[str, ...]]] = []
    for reference in find_references(text):
        if reference.kind is ReferenceKind.TERM:
            targets, kind = links.pointers.get(reference.title, ()), SegmentKind.POINTER
        else:
            targets, kind = links.cites.get(reference.text, ()), SegmentKind.RULE
        if targets:
            spans.append((reference.start, reference.end, kind, targets))
    if terms:
        for written, node in links.terms:
            for match in re.finditer(rf"(?<!\w){re.escape(written)}(?!\w)", text):
                start, end = match.span()
                if all(end <= s or start >= e for s, e, _, _ in spans):
                    spans.append((start, end, SegmentKind.TERM, (node,)))
                    break
    spans.sort()
    found: list[Segment] = []
    position = 0
    for start, end, kind, targets in spans:
        if start < position:
            continue  # overlapping reference: the first one wins
        if start > position:
            found.append(Segment(text[position:start]))
        found.append(Segment(text[start:end], kind, targets))
        position = end
    if position < len(text) or not found:
        found.append(Segment(text[position:]))
    return tuple(found)


def paragraphs(text: str) -> tuple[str, ...]:
    """The paragraphs of a record's text (separated by blank lines)."""
    return tuple(part for part in text.split("\n\n") if part.strip())


def slug(text: str) -> str:
    """An anchor-safe form of ``text``: ``"Blessures fatales"`` → ``"blessures-fatales"``."""
    return re.sub(r"[^a-z0-9]+", "-", fold(text)).strip("-") or "x"


def rule_anchor(number: str) -> str:
    """The anchor of a rule: ``"420.5c"`` → ``"r420-5c"``."""
    return "r" + number.replace(".", "-")


def exported_label(when: datetime) -> str:
    """``"21 novembre 2026 à 14:03"``."""
    return f"{when.day} {MONTHS[when.month - 1]} {when.year} à {when:%H:%M}"


def document_label(entry: RuleEntry) -> str:
    """Where a rule was read, in French: ``"édition 2004 · cr-2004, ligne 2810"``."""
    rule = entry.rule
    document = entry.document.id if entry.document else rule.source.document
    return f"édition {rule.edition} · {document}, ligne {rule.source.line_start}"


def version_label(rule: Rule) -> str:
    """Which text of a rule this is: ``"édition 2006-faq (citée par faq-tsp-2006)"``."""
    return f"édition {rule.edition}" + (f" (citée par {rule.quoted_from})" if rule.quoted_from else "")


# --- building -------------------------------------------------------------------


class _Resolver:
    """Resolves segments against the anchors of an excerpt, numbering notes."""

    def __init__(self, kb: KnowledgeBase, anchors: dict[str, str]) -> None:
        self.kb = kb
        self.anchors = anchors
        self.notes: dict[tuple[str, ...], Note] = {}

    def resolve(self, paragraph: Paragraph, notes: bool = True) -> Paragraph:
        """``paragraph`` with its links resolved; a rule cited from outside
        the excerpt gets a note when ``notes``, else stays text."""
        return tuple(self.one(part, notes) for part in paragraph)

    def one(self, part: Segment, notes: bool = True) -> Segment:
        if part.kind is SegmentKind.TEXT:
            return part
        inside = next((self.anchors[node] for node in part.targets if node in self.anchors), "")
        if inside:
            return replace(part, href=f"#{inside}")
        if part.kind is not SegmentKind.RULE or not notes:
            return part
        rules = tuple(rule for node in part.targets if isinstance(rule := self.kb.record(node), Rule))
        if not rules:
            return part
        note = self.notes.get(part.targets)
        if note is None:
            note = self.notes[part.targets] = Note(len(self.notes) + 1, part.text, rules)
        return replace(part, href=f"#n{note.number}", note=note.number)


def _anchors(selection: Selection, extra_glossary) -> tuple[dict[str, str], list[tuple[GlossaryEntry, bool]]]:
    anchors: dict[str, str] = {}
    taken: set[str] = set()

    def unique(wanted: str) -> str:
        candidate, count = wanted, 1
        while candidate in taken:
            count += 1
            candidate = f"{wanted}-{count}"
        taken.add(candidate)
        return candidate

    for rule in selection.rules:
        wanted = rule_anchor(rule.number)
        anchors[rule_node(rule)] = unique(wanted if wanted not in taken else f"{wanted}-{slug(rule.edition)}")
    entries: list[tuple[GlossaryEntry, bool]] = []
    for entry, selected in [*((entry, True) for entry in selection.glossary), *extra_glossary]:
        node = glossary_node(entry)
        if node not in anchors:
            anchors[node] = unique(f"g-{slug(entry.term)}")
            entries.append((entry, selected))
    for card in selection.cards:
        anchors[card_node(card)] = unique(f"c-{slug(card.name)}")
    return anchors, entries


def _documents(kb: KnowledgeBase, ids) -> tuple[Document, ...]:
    wanted = set(ids)
    return tuple(document for document in kb.documents if document.id in wanted)


def build_excerpt(
    kb: KnowledgeBase,
    selection: Selection,
    annotations: bool = True,
    note: str = "",
    now: datetime | None = None,
) -> Excerpt:
    """The :class:`Excerpt` of ``selection``: every selected rule with (if
    ``annotations``) its links resolved, examples, glossary terms, FAQ
    rulings, cards, counterparts and versions; the glossary entries used,
    pointed to or selected; the selected cards; notes for the rules cited
    from outside. ``note`` is the judge's own note; ``now`` the export
    time (default: the current local time, to the minute).
    """
    graph = kb.graph
    documents = {document.id: document for document in kb.documents}
    exported = (now or datetime.now().astimezone()).replace(second=0, microsecond=0)
    used: list[tuple[GlossaryEntry, bool]] = []
    links = {}
    if annotations:
        for rule in selection.rules:
            text = text_links(graph, rule_node(rule))
            links[rule_node(rule)] = text
            for node in [n for _, n in text.terms] + [n for nodes in text.pointers.values() for n in nodes]:
                entry = kb.record(node)
                if isinstance(entry, GlossaryEntry):
                    used.append((entry, False))
                    if entry.is_pointer:
                        used.extend((target, False) for target in kb.glossary.follow(entry))
        used.sort(key=lambda pair: fold(pair[0].term))
    anchors, entries = _anchors(selection, used)
    resolver = _Resolver(kb, anchors)

    def annotated(node: str, text: str, terms: bool = False, notes: bool = True) -> Paragraph:
        if not annotations:
            return (Segment(text),)
        found = links.get(node) or text_links(graph, node)
        return resolver.resolve(segment(text, found, terms), notes)

    def rulings_of(pairs) -> tuple[RulingEntry, ...]:
        return tuple(RulingEntry(ruling, why, annotated(node, ruling.text, notes=False)) for node, ruling, why in pairs)

    rules: list[RuleEntry] = []
    listed: dict[str, str] = {}  # ruling node → anchor of the rule it is listed under
    for rule in selection.rules:
        node = rule_node(rule)
        document = documents.get(rule.quoted_from or rule.source.document)
        texts = tuple(annotated(node, part, terms=True) for part in paragraphs(rule.text))
        if not annotations:
            rules.append(RuleEntry(rule, anchors[node], document, texts))
            continue
        found = rule_links(kb, rule)
        terms = tuple(anchors[link.node] for link in found.terms if link.node in anchors)
        above = tuple(dict.fromkeys(listed[link.node] for link in found.rulings if link.node in listed))
        new = [link for link in found.rulings if link.node not in listed]
        listed.update((link.node, anchors[node]) for link in new)
        rules.append(
            RuleEntry(
                rule, anchors[node], document, texts,
                examples=tuple(annotated(node, example) for example in rule.examples),
                terms=terms,
                rulings=rulings_of((link.node, link.record, link.text) for link in new),
                cards=tuple(link.record.name for link in found.cards),
                counterparts=tuple((link.record, link.score) for link in found.counterparts),
                versions=found.versions,
                rulings_above=above,
            )
        )  # fmt: skip
    glossary = tuple(
        GlossaryItem(
            entry,
            anchors[glossary_node(entry)],
            tuple(annotated(glossary_node(entry), part, notes=False) for part in entry.definition),
            tuple(annotated(glossary_node(entry), part, notes=False) for part in entry.examples) if annotations else (),
            selected,
        )
        for entry, selected in entries
    )
    cards = []
    for card in selection.cards:
        pairs = [
            (edge.target, kb.record(edge.target), "card")
            for edge in graph.outgoing(card_node(card), Relation.HAS_RULING)
        ]
        cards.append(CardItem(card, anchors[card_node(card)], rulings_of(p for p in pairs if p[1] is not None)))
    notes = tuple(resolver.notes.values())
    document_ids = [rule.quoted_from or rule.source.document for rule in selection.rules]
    document_ids += [entry.source.document for entry, _ in entries] + [card.faq for card in selection.cards]
    header = Header(
        selection.items,
        selection.description,
        selection.editions,
        _documents(kb, document_ids),
        exported,
        note.strip(),
        annotations,
        selection.warnings,
    )
    return Excerpt(header, tuple(rules), glossary, tuple(cards), notes)
