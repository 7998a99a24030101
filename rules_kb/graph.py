"""The rule graph: every record of the corpus and how they refer to each other.

Nodes are the records of a :class:`rules_kb.model.Corpus`, named by a
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

:func:`build_graph` reads a corpus and returns the graph with the
diagnostics of references that resolve nowhere. It runs when the cache is
built (:mod:`indexer.build`) and is pickled beside the records.
"""

from __future__ import annotations

import enum
import math
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

from rules_kb.model import Corpus, Diagnostic, Document, DocumentKind, GlossaryEntry, Rule, Ruling, Severity
from rules_kb.numbers import Level, RuleNumber
from rules_kb.text import fold, normalise_term


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


#: Counterparts are kept from this cosine similarity up. On the pairs of the
#: corpus checked by hand (2004 418 ↔ 2011 611, 2004 202 ↔ 2011 201; see
#: tests/test_graph.py) the true pairs score 0.48 and more, the best wrong
#: candidate left 0.40.
COUNTERPART_THRESHOLD = 0.45

#: A one-word glossary form found in more than this share of an edition's
#: rules is a common word ("carte", "joueur", "si"): it is linked only from
#: the rules its glossary entry cites.
COMMON_TERM_SHARE = 0.025


def node_id(kind: str, *parts: str) -> str:
    """``node_id("rule", "2004", "420.5c")`` → ``"rule:2004:420.5c"``."""
    return ":".join((kind, *parts))


def rule_node(rule: Rule) -> str:
    """The node id of a rule."""
    return node_id("rule", rule.edition, rule.number)


def glossary_node(entry: GlossaryEntry) -> str:
    """The node id of a glossary entry."""
    return node_id("glossary", entry.edition, entry.term)


def ruling_nodes(rulings: Iterable[Ruling]) -> list[str]:
    """The node ids of ``rulings`` (all the rulings of a corpus, in order):
    ``ruling:<faq>:<card or section>#<rank>``."""
    counts: Counter[str] = Counter()
    ids = []
    for ruling in rulings:
        about = ruling.card or ruling.section
        counts[about] += 1
        ids.append(node_id("ruling", ruling.faq, f"{about}#{counts[about]}"))
    return ids


def record_nodes(corpus: Corpus, kind: str = "") -> dict[str, Any]:
    """The records of ``corpus`` by node id: those of one ``kind``
    (``"rule"``, ``"glossary"``…), or all of them."""
    tables = {
        "rule": lambda: ((rule_node(rule), rule) for rule in corpus.rules),
        "glossary": lambda: ((glossary_node(entry), entry) for entry in corpus.glossary),
        "card": lambda: ((node_id("card", card.faq, card.name), card) for card in corpus.cards),
        "ruling": lambda: zip(ruling_nodes(corpus.rulings), corpus.rulings),
        "faq-section": lambda: (
            (node_id("faq-section", section.faq, str(position)), section)
            for position, section in enumerate(corpus.faq_sections, start=1)
        ),
        "course": lambda: (
            (node_id("course", section.course, str(position)), section)
            for position, section in enumerate(corpus.course, start=1)
        ),
    }
    nodes: dict[str, Any] = {}
    for name, pairs in tables.items():
        if not kind or kind == name:
            nodes.update(pairs())
    return nodes


def node_kind(node: str) -> str:
    """``"rule"``, ``"glossary"``, ``"card"``, ``"ruling"``, ``"faq-section"`` or ``"course"``."""
    return node.partition(":")[0]


class Graph:
    """The edges of the rule graph, indexed both ways, and the diagnostics
    of references that resolve nowhere.

    ``edges`` is a tuple of :class:`Edge`; ``diagnostics`` a tuple of
    :class:`rules_kb.model.Diagnostic`. Pickled as plain tuples (read back
    several times faster than records; ``show`` reads it each time).
    """

    __slots__ = ("edges", "diagnostics", "_out", "_in")

    def __init__(self, edges: tuple[Edge, ...], diagnostics: tuple[Diagnostic, ...] = ()) -> None:
        self.edges = edges
        self.diagnostics = diagnostics
        self._index()

    def _index(self) -> None:
        self._out: dict[str, list[Edge]] = {}
        self._in: dict[str, list[Edge]] = {}
        for edge in self.edges:
            self._out.setdefault(edge.source, []).append(edge)
            self._in.setdefault(edge.target, []).append(edge)

    def __getstate__(self):
        names: dict[str, str] = {}
        edges = [
            (names.setdefault(e.source, e.source), names.setdefault(e.target, e.target), e.relation.value, e.score, e.text)
            for e in self.edges
        ]
        return {"edges": edges, "diagnostics": self.diagnostics}

    def __setstate__(self, state) -> None:
        relations = {relation.value: relation for relation in Relation}
        self.edges = tuple(Edge(s, t, relations[r], score, text) for s, t, r, score, text in state["edges"])
        self.diagnostics = state["diagnostics"]
        self._index()

    def outgoing(self, node: str, *relations: Relation) -> list[Edge]:
        """Edges from ``node``, of the given relations (all if none)."""
        return [edge for edge in self._out.get(node, ()) if not relations or edge.relation in relations]

    def incoming(self, node: str, *relations: Relation) -> list[Edge]:
        """Edges to ``node``, of the given relations (all if none)."""
        return [edge for edge in self._in.get(node, ()) if not relations or edge.relation in relations]

    def neighbourhood(
        self, center: str, depth: int = 1, relations: Iterable[Relation] = (), limit: int = 0
    ) -> tuple[list[str], list[Edge], bool]:
        """Nodes within ``depth`` edges of ``center`` (either direction).

        Returns ``(nodes, edges, truncated)``: nodes in breadth-first order
        (``center`` first), the edges between them, and whether ``limit``
        (a number of nodes, 0 for none) cut the walk short.
        """
        wanted = set(relations)
        seen = {center: 0}
        order = [center]
        truncated = False
        frontier = [center]
        for distance in range(1, depth + 1):
            following = []
            for node in frontier:
                for edge in [*self._out.get(node, ()), *self._in.get(node, ())]:
                    if wanted and edge.relation not in wanted:
                        continue
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
        edges = [
            edge
            for node in order
            for edge in self._out.get(node, ())
            if edge.target in seen and (not wanted or edge.relation in wanted)
        ]
        return order, edges, truncated


# --- building -----------------------------------------------------------------


def word_diff(old: str, new: str) -> tuple[tuple[str, str], ...]:
    """A word-level diff of two texts: ``(op, text)`` pairs in order, ``op``
    one of ``"equal"``, ``"delete"`` (only in ``old``), ``"insert"`` (only in
    ``new``); the texts of the pairs, joined with spaces, give back each text."""
    import difflib

    before, after = old.split(), new.split()
    parts: list[tuple[str, str]] = []
    matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op in ("equal", "delete", "replace") and i2 > i1:
            parts.append(("equal" if op == "equal" else "delete", " ".join(before[i1:i2])))
        if op in ("insert", "replace") and j2 > j1:
            parts.append(("insert", " ".join(after[j1:j2])))
    return tuple(parts)


class _Builder:
    """Collects the edges and diagnostics of one corpus (see :func:`build_graph`)."""

    def __init__(self, corpus: Corpus) -> None:
        from rules_kb.analysis import french_analyzer

        self.corpus = corpus
        self.analyzer = french_analyzer()
        self.edges: list[Edge] = []
        self.diagnostics: list[Diagnostic] = []
        self.documents = {document.id: document for document in corpus.documents}
        self.rules: dict[str, dict[str, Rule]] = {}
        for rule in corpus.rules:
            self.rules.setdefault(rule.edition, {})[rule.number] = rule
        complete = sorted(
            (d.edition for d in corpus.documents if d.kind is DocumentKind.RULES and d.edition in self.rules),
            reverse=True,
        )
        self.default_edition = complete[0] if complete else next(iter(self.rules), "")
        self.glossary: dict[str, list[GlossaryEntry]] = {}
        for entry in corpus.glossary:
            self.glossary.setdefault(entry.edition, []).append(entry)
        self._texts: dict[str, str] = {}

    # references ---------------------------------------------------------------

    def editions_for(self, document: Document | None, own: str = "") -> list[str]:
        """Where a reference of ``document`` resolves, in order: its declared
        ``cites_edition``; else its own edition (a FAQ: its quoted rules) then
        the newest complete edition."""
        if document is not None and document.cites_edition:
            return [document.cites_edition]
        editions = [own or (document.edition if document else "")]
        if document is None or document.kind in (DocumentKind.FAQ, DocumentKind.COURSE):
            editions.append(self.default_edition)
        return [edition for edition in dict.fromkeys(editions) if edition]

    def source_text(self, document_id: str) -> str:
        """The text of a document, for locating a reference on its line ("" if unreadable)."""
        if document_id not in self._texts:
            from rules_kb.corpus import read_document
            from rules_kb.errors import RulesKbError

            try:
                self._texts[document_id] = read_document(self.documents[document_id])
            except (RulesKbError, KeyError, OSError):
                self._texts[document_id] = ""
        return self._texts[document_id]

    def line_of(self, source, printed: str) -> int:
        """The line of ``source`` (a SourceSpan) where ``printed`` (a number) stands."""
        text = self.source_text(source.document)
        if text and source.char_end > source.char_start:
            position = text.find(printed, source.char_start, source.char_end)
            if position >= 0:
                return text.count("\n", 0, position) + 1
        return source.line_start

    def cite(self, node: str, text: str, source, document: Document | None, own: str = "", what: str = "") -> None:
        """Add the edges for every reference in ``text`` of the record ``node``."""
        from rules_kb.references import ReferenceKind, find_references

        editions = self.editions_for(document, own)
        for reference in find_references(text):
            if reference.kind is ReferenceKind.TERM:
                self.point(node, reference.title, source, document, editions, what)
                continue
            line = self.line_of(source, _PRINTED_NUMBER_RE.search(reference.text).group(0))
            if reference.malformed:
                self.diagnostics.append(
                    Diagnostic(
                        source.document, line, "malformed-reference",
                        f"{what} : la référence « {reference.text} » n'a pas la forme d'un numéro de règle ; "
                        f"lue comme {reference.first}.",
                        Severity.WARNING,
                    )
                )  # fmt: skip
            for edition in editions:
                targets = reference.expand(self.rules.get(edition, {}))
                if targets:
                    for number in targets:
                        self.edges.append(Edge(node, node_id("rule", edition, number), Relation.CITES, 1.0, reference.text))
                    break
            else:
                self.diagnostics.append(self.unresolved(reference, source.document, line, editions, what))

    def unresolved(self, reference, document: str, line: int, editions: list[str], what: str) -> Diagnostic:
        described = []
        for edition in editions:
            kinds = {self.documents[r.source.document].kind for r in self.rules.get(edition, {}).values()}
            if not kinds:
                described.append(f"l'édition {edition}, absente du corpus")
            elif kinds <= {DocumentKind.RULES_EXCERPT, DocumentKind.FAQ}:
                sections = sorted({RuleNumber.parse(n).section for n in self.rules[edition]} - {-1})
                shown = ", ".join(str(s) for s in sections[:6]) + (" …" if len(sections) > 6 else "")
                described.append(f"l'édition {edition} (seulement par extraits : {shown})")
            else:
                described.append(f"l'édition {edition}")
        return Diagnostic(
            document, line, "unresolved-reference",
            f"{what} : la référence « {reference.text} » ne correspond à aucune règle de "
            + " ni de ".join(described) + ".",
            Severity.WARNING,
        )  # fmt: skip

    def point(self, node: str, name: str, source, document: Document | None, editions: list[str], what: str) -> None:
        """A pointer to a glossary entry, else to a FAQ section of the same document."""
        wanted = normalise_term(name)
        for edition in [*editions, self.default_edition]:
            for entry in self.glossary.get(edition, ()):
                if wanted in {normalise_term(form) for form in (entry.term, *entry.forms)}:
                    self.edges.append(Edge(node, glossary_node(entry), Relation.POINTS_TO, 1.0, name))
                    return
        folded = fold(name)
        for position, section in enumerate(self.corpus.faq_sections, start=1):
            if document is not None and section.faq == document.id and folded in fold(section.title):
                self.edges.append(Edge(node, node_id("faq-section", section.faq, str(position)), Relation.POINTS_TO, 1.0, name))
                return
        self.diagnostics.append(
            Diagnostic(
                source.document, source.line_start, "unresolved-reference",
                f"{what} : le renvoi à « {name} » ne correspond à aucune entrée du glossaire ni à aucune partie du document.",
                Severity.WARNING,
            )
        )  # fmt: skip

    def references(self) -> None:
        corpus = self.corpus
        for rule in corpus.rules:
            document = self.documents.get(rule.quoted_from or rule.source.document)
            text = "\n\n".join((rule.text, *rule.examples))
            self.cite(rule_node(rule), text, rule.source, document, rule.edition, f"Règle {rule.number} ({rule.edition})")
        for entry in corpus.glossary:
            document = self.documents.get(entry.source.document)
            text = "\n\n".join((*entry.definition, *entry.examples))
            self.cite(glossary_node(entry), text, entry.source, document, entry.edition, f"Glossaire, « {entry.term} »")
        for node, ruling in self.ruling_nodes():
            document = self.documents.get(ruling.faq)
            self.cite(node, ruling.text, ruling.source, document, "", f"Décision sur « {ruling.card or ruling.section} »")
        for position, section in enumerate(corpus.faq_sections, start=1):
            document = self.documents.get(section.faq)
            node = node_id("faq-section", section.faq, str(position))
            self.cite(node, section.text, section.source, document, "", f"FAQ, section « {section.title} »")
        for position, section in enumerate(corpus.course, start=1):
            document = self.documents.get(section.course)
            node = node_id("course", section.course, str(position))
            self.cite(node, f"{section.title}\n\n{section.text}", section.source, document, "", f"Cours, « {section.title} »")

    def ruling_nodes(self) -> Iterator[tuple[str, Ruling]]:
        return zip(ruling_nodes(self.corpus.rulings), self.corpus.rulings)

    # structure -----------------------------------------------------------------

    def structure(self) -> None:
        """Parent → child; FAQ section → quoted rules and rulings; card → rulings."""
        for rule in self.corpus.rules:
            for child in rule.children:
                self.edges.append(Edge(rule_node(rule), node_id("rule", rule.edition, child), Relation.CONTAINS))
        sections = list(enumerate(self.corpus.faq_sections, start=1))
        for rule in self.corpus.rules:
            if not rule.quoted_from:
                continue
            for position, section in sections:
                span = section.source
                if section.faq == rule.quoted_from and span.char_start <= rule.source.char_start < span.char_end:
                    self.edges.append(Edge(node_id("faq-section", section.faq, str(position)), rule_node(rule), Relation.QUOTES))
                    break
        section_nodes = {(s.faq, s.title): node_id("faq-section", s.faq, str(p)) for p, s in sections}
        for node, ruling in self.ruling_nodes():
            if ruling.card:
                owner = node_id("card", ruling.faq, ruling.card)
            else:
                owner = section_nodes.get((ruling.faq, ruling.section), "")
            if owner:
                self.edges.append(Edge(owner, node, Relation.HAS_RULING))

    # terms -----------------------------------------------------------------------

    def tokens(self, text: str) -> list[tuple[str, int, int]]:
        """``(term, start, end)`` of every word of ``text`` through the index's
        analyzer, stop words kept (folded) so that "en jeu" is not "jeu"."""
        return [
            (token.text, token.startchar, token.endchar)
            for token in self.analyzer(text, chars=True, removestops=False)
            if not any(char.isdigit() for char in token.text)
        ]

    def uses_terms(self) -> None:
        """Rule → glossary entry, where the rule's title or text uses a headword or form.

        Each rule is read against the glossary of its edition (else of the
        newest complete edition). Longest match first; a one-word form too
        common in the edition (:data:`COMMON_TERM_SHARE`) is linked only from
        the rules its entry cites (or their subrules); a form of one or two
        letters ("X") only as printed.
        """
        forms: dict[str, dict[tuple[str, ...], GlossaryEntry]] = {}
        for edition, entries in self.glossary.items():
            table = forms[edition] = {}
            for entry in entries:
                for form in dict.fromkeys((entry.term, *entry.forms)):
                    key = tuple(term for term, _, _ in self.tokens(form))
                    if key:
                        table.setdefault(key, entry)
        found: list[tuple[Rule, GlossaryEntry, str]] = []
        frequency: Counter[str] = Counter()
        for rule in self.corpus.rules:
            glossary = rule.edition if rule.edition in forms else self.default_edition
            table = forms.get(glossary)
            if not table:
                continue
            matches = _longest_matches(f"{rule.title}\n{rule.text}", self.tokens, table)
            found.extend((rule, entry, written) for entry, written in matches)
            if rule.edition == glossary:
                frequency.update(glossary_node(entry) for entry, written in matches if len(written.split()) == 1)
        sizes = Counter(rule.edition for rule in self.corpus.rules)
        for rule, entry, written in found:
            node = glossary_node(entry)
            share = frequency[node] / max(1, sizes[entry.edition])
            if share > COMMON_TERM_SHARE and len(written.split()) == 1:
                if not {rule.number, rule.parent} & set(entry.cites):
                    continue
            self.edges.append(Edge(rule_node(rule), node, Relation.USES_TERM, 1.0, written))

    def keywords(self) -> None:
        """Card → keyword rule, where the card's text has the keyword's name
        (rules 502.x titles; the FAQ's own quoted rules first)."""
        for card in self.corpus.cards:
            document = self.documents.get(card.faq)
            words = _plain_words(card.rules_text)
            linked: set[str] = set()
            for edition in self.editions_for(document):
                keywords = sorted(
                    (
                        (tuple(_plain_words(rule.title)), rule)
                        for rule in self.rules.get(edition, {}).values()
                        if rule.title and rule.parent and RuleNumber.parse(rule.parent).section == 502 and rule.level is Level.RULE
                    ),
                    key=lambda pair: -len(pair[0]),
                )
                position = 0
                while position < len(words):
                    for key, rule in keywords:
                        if key and tuple(words[position : position + len(key)]) == key:
                            if rule.title not in linked:
                                linked.add(rule.title)
                                self.edges.append(Edge(node_id("card", card.faq, card.name), rule_node(rule), Relation.KEYWORD, 1.0, rule.title))
                            position += len(key)
                            break
                    else:
                        position += 1

    # editions ------------------------------------------------------------------

    def versions(self) -> None:
        """A FAQ's quoted rule → the same number in the newest complete edition."""
        import difflib

        base = self.rules.get(self.default_edition, {})
        for rule in self.corpus.rules:
            other = base.get(rule.number) if rule.quoted_from else None
            if other is not None:
                score = difflib.SequenceMatcher(a=other.text.split(), b=rule.text.split(), autojunk=False).ratio()
                self.edges.append(Edge(rule_node(rule), rule_node(other), Relation.VERSION_OF, round(score, 3)))

    def counterparts(self) -> None:
        """The same rule in editions numbered differently, by the content of
        the texts: TF-IDF cosine of the words (stemmed, without numbers) of a
        rule and its subrules; pairs are taken best first, each rule in one
        pair at most, from :data:`COUNTERPART_THRESHOLD` up."""
        subtree: dict[str, Counter[str]] = {}
        by_node: dict[str, Rule] = {}
        for edition, rules in self.rules.items():
            for number in sorted(rules, key=RuleNumber.parse, reverse=True):
                rule = rules[number]
                words = Counter(term for term, _, _ in self.tokens(f"{rule.title}\n{rule.text}") if term not in _STOP)
                for child in rule.children:
                    words.update(subtree.get(node_id("rule", edition, child), Counter()))
                subtree[rule_node(rule)] = words
                by_node[rule_node(rule)] = rule
        documents = Counter(term for words in subtree.values() for term in words)
        total = len(subtree)
        idf = {term: math.log(total / count) for term, count in documents.items()}
        vectors = {}
        for node, words in subtree.items():
            vector = {term: (1 + math.log(count)) * idf[term] for term, count in words.items()}
            norm = math.sqrt(sum(value * value for value in vector.values())) or 1.0
            vectors[node] = {term: value / norm for term, value in vector.items()}

        def cosine(a: str, b: str) -> float:
            va, vb = vectors[a], vectors[b]
            if len(va) > len(vb):
                va, vb = vb, va
            return sum(value * vb.get(term, 0.0) for term, value in va.items())

        complete = {d.edition for d in self.corpus.documents if d.kind in (DocumentKind.RULES, DocumentKind.RULES_EXCERPT)}
        editions = sorted(edition for edition in self.rules if edition in complete)
        for index, older in enumerate(editions):
            for newer in editions[index + 1 :]:
                olds = [rule_node(r) for r in self.rules[older].values()]
                news = [rule_node(r) for r in self.rules[newer].values()]
                scored = sorted(
                    ((cosine(old, new), old, new) for new in news for old in olds),
                    key=lambda triple: -triple[0],
                )
                taken: set[str] = set()
                for score, old, new in scored:
                    if score < COUNTERPART_THRESHOLD:
                        break
                    if old in taken or new in taken:
                        continue
                    taken.update((old, new))
                    self.edges.append(Edge(old, new, Relation.COUNTERPART, round(score, 3)))


#: Words too frequent to tell rules apart (beyond the index's stop words).
_STOP = frozenset({"a", "le", "la", "les", "de", "des", "du", "un", "une", "et", "ou", "en", "est", "qui", "que", "il", "elle"})
_WORD_RE = re.compile(r"\w+(?:-\w+)*")
_PRINTED_NUMBER_RE = re.compile(r"\d[\w.]*\w|\d")


def _plain_words(text: str) -> list[str]:
    """Folded words without elided article and plural mark (``"l'initiative"`` → ``"initiative"``)."""
    words = []
    for word in _WORD_RE.findall(fold(text.replace("’", "'").replace("'", " "))):
        words.append(word[:-1] if len(word) > 3 and word[-1] in "sx" else word)
    return words


def _longest_matches(text, tokens, table) -> list[tuple[GlossaryEntry, str]]:
    """Glossary entries whose form is in ``text`` (token sequences of
    ``table``), longest match first, each entry once with the words as written."""
    words = tokens(text)
    longest = max(map(len, table), default=0)
    matches: dict[str, tuple[GlossaryEntry, str]] = {}
    position = 0
    while position < len(words):
        for size in range(min(longest, len(words) - position), 0, -1):
            entry = table.get(tuple(term for term, _, _ in words[position : position + size]))
            if entry is None:
                continue
            written = text[words[position][1] : words[position + size - 1][2]]
            if size == 1 and len(written) <= 2 and written not in (entry.term, *entry.forms):
                continue
            matches.setdefault(entry.term, (entry, written))
            position += size
            break
        else:
            position += 1
    return list(matches.values())


def build_graph(corpus: Corpus) -> Graph:
    """The graph of ``corpus``: every edge of :class:`Relation` and the
    diagnostics of references that resolve nowhere (code
    ``unresolved-reference``) or were misprinted (``malformed-reference``).

    Imports the index's analyzer (Whoosh); runs in about a second.
    """
    builder = _Builder(corpus)
    builder.structure()
    builder.references()
    builder.uses_terms()
    builder.keywords()
    builder.versions()
    builder.counterparts()
    edges = tuple(dict.fromkeys(builder.edges))
    return Graph(edges, tuple(builder.diagnostics))
