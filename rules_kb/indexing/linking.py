"""Building the rule graph of a corpus: :func:`build_graph`.

Reads every record of a :class:`rules_kb.core.model.Corpus` and returns a
:class:`rules_kb.engines.graph.Graph` (edges of every
:class:`~rules_kb.engines.graph.Relation`) with the diagnostics of references
that resolve nowhere or were misprinted. Each kind of edge is one step of
:data:`STEPS`:

- :func:`structure` — parent rule → subrule; FAQ section → the rules it
  quotes; card or section → its rulings;
- :func:`references` — a text citing a rule (:mod:`rules_kb.core.references`),
  resolved in the edition its document cites, or pointing to a glossary
  entry or a FAQ section by name;
- :func:`uses_terms` — a rule's text using a glossary headword or form;
- :func:`keywords` — a FAQ card having a keyword ability (titles of 502);
- :func:`versions` — a FAQ's new text of a rule → the complete edition's;
- :func:`counterparts` — the same rule in editions numbered differently,
  by the content of the texts, examples included, read through
  :func:`content_terms` (:mod:`rules_kb.indexing.similarity`).

Words are compared through the index's analysis
(:func:`rules_kb.engines.analysis.analyze`).
"""

from __future__ import annotations

import bisect
import difflib
import math
import re
from collections import Counter
from collections.abc import Callable

from indexer import read_document
from rules_kb.core.errors import RulesKbError
from rules_kb.core.model import (
    Corpus,
    Diagnostic,
    Document,
    DocumentKind,
    GlossaryEntry,
    RecordKind,
    Rule,
    Severity,
    SourceSpan,
    card_node,
    course_node,
    faq_section_node,
    glossary_node,
    node_id,
    rule_node,
    ruling_nodes,
)
from rules_kb.core.numbers import Level, RuleNumber
from rules_kb.core.references import ReferenceKind, find_references
from rules_kb.core.text import fold, singular, term_key
from rules_kb.core.vocabulary import CardType, Color, Supertype, Term, Zone
from rules_kb.engines.analysis import analyze
from rules_kb.engines.graph import Edge, Graph, Relation
from rules_kb.indexing.similarity import matched_editions

#: Counterparts are kept from this cosine similarity up. On the 18 pairs of the
#: corpus checked by hand (2004 418 ↔ 2011 611, 2004 202 ↔ 2011 201, 2004
#: 505.7 ↔ 2011 201.3; see tests/test_graph.py) the true pairs score 0.48 and
#: more; once they are taken, the best candidate left (a 2011 rule new since
#: 2004: 201.4b, 201.4c) scores under 0.20.
COUNTERPART_THRESHOLD = 0.35

#: Counterparts compare the first this many letters of each stem: the
#: index's Snowball stemmer leaves apart inflections that editions swap when
#: they reword a rule ("modifient" → ``modifient``, "modifie" → ``modif``;
#: "continus" → ``continus``, "continu" → ``continu``); cut to five letters
#: they meet (``modif``, ``conti``). Truncation is a known stand-in for
#: stemming in French retrieval (McNamee, Nicholas and Mayfield, "Addressing
#: morphological variation in alphabetic languages", SIGIR 2009).
STEM_PREFIX = 5

#: A one-word glossary form found in more than this share of an edition's
#: rules is a common word ("carte", "joueur", "si"): it is linked only from
#: the rules its glossary entry cites.
COMMON_TERM_SHARE = 0.025

#: Words too frequent to tell rules apart (beyond the index's stop words), for counterparts.
_STOP = frozenset(
    {"a", "le", "la", "les", "de", "des", "du", "un", "une", "et", "ou", "en", "est", "qui", "que", "il", "elle"}
)
_WORD_RE = re.compile(r"\w+(?:-\w+)*")
_PRINTED_NUMBER_RE = re.compile(r"\d[\w.]*\w|\d")
_NEWLINE_RE = re.compile("\n")

#: ``(term, start, end)``: a word of a text through the index's analysis.
Word = tuple[str, int, int]


def tokens(text: str) -> list[Word]:
    """``(term, start, end)`` of every word of ``text`` through the index's
    analysis, stop words kept (folded) so that "en jeu" is not "jeu";
    numbers and P/T left out."""
    return [
        (token.term, token.start, token.end)
        for token in analyze(text, removestops=False)
        if not any(char.isdigit() for char in token.term)
    ]


def plain_words(text: str) -> list[str]:
    """Folded words without elided article and plural mark (``"l'initiative"`` → ``"initiative"``)."""
    return [singular(word) for word in _WORD_RE.findall(fold(text.replace("’", "'").replace("'", " ")))]


class Linker:
    """What the steps share while the graph of one corpus is built: the
    corpus, its rules and glossary by edition, the edges and diagnostics found."""

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
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
        self.ruling_nodes = ruling_nodes(corpus.rulings)
        self._texts: dict[str, tuple[str, list[int]]] = {}
        self._words: dict[str, list[Word]] = {}
        self._glossary_keys: dict[str, dict[str, GlossaryEntry]] = {}

    def words(self, text: str) -> list[Word]:
        """:func:`tokens` of ``text``, read once per text (editions repeat most rules word for word)."""
        found = self._words.get(text)
        if found is None:
            found = self._words[text] = tokens(text)
        return found

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

    def source_text(self, document_id: str) -> tuple[str, list[int]]:
        """The text of a document and the offsets of its line ends, for
        locating a reference on its line (``""`` if unreadable)."""
        if document_id not in self._texts:
            try:
                text = read_document(self.documents[document_id])
            except (RulesKbError, KeyError, OSError):
                text = ""
            self._texts[document_id] = (text, [match.start() for match in _NEWLINE_RE.finditer(text)])
        return self._texts[document_id]

    def line_of(self, source: SourceSpan, printed: str) -> int:
        """The line of ``source`` where ``printed`` (a number) stands."""
        text, newlines = self.source_text(source.document)
        if text and source.char_end > source.char_start:
            position = text.find(printed, source.char_start, source.char_end)
            if position >= 0:
                return bisect.bisect_left(newlines, position) + 1
        return source.line_start

    def cite(self, node: str, text: str, source: SourceSpan, document: Document | None, own: str, what: str) -> None:
        """Add the edges for every reference in ``text`` of the record ``node``."""
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
                        target = node_id(RecordKind.RULE, edition, number)
                        self.edges.append(Edge(node, target, Relation.CITES, 1.0, reference.text))
                    break
            else:
                self.diagnostics.append(self.unresolved(reference.text, source.document, line, editions, what))

    def unresolved(self, printed: str, document: str, line: int, editions: list[str], what: str) -> Diagnostic:
        """The diagnostic of a reference that resolves in none of ``editions``,
        saying what each edition holds."""
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
            f"{what} : la référence « {printed} » ne correspond à aucune règle de " + " ni de ".join(described) + ".",
            Severity.WARNING,
        )  # fmt: skip

    def glossary_keys(self, edition: str) -> dict[str, GlossaryEntry]:
        """The first entry of ``edition``'s glossary under each key of its headword and forms."""
        if edition not in self._glossary_keys:
            keys: dict[str, GlossaryEntry] = {}
            for entry in self.glossary.get(edition, ()):
                for form in (entry.term, *entry.forms):
                    keys.setdefault(term_key(form), entry)
            self._glossary_keys[edition] = keys
        return self._glossary_keys[edition]

    def point(self, node: str, name: str, source: SourceSpan, document: Document | None, editions: list[str],
              what: str) -> None:  # fmt: skip
        """A pointer to a glossary entry, else to a FAQ section of the same document."""
        wanted = term_key(name)
        for edition in [*editions, self.default_edition]:
            entry = self.glossary_keys(edition).get(wanted)
            if entry is not None:
                self.edges.append(Edge(node, glossary_node(entry), Relation.POINTS_TO, 1.0, name))
                return
        folded = fold(name)
        for position, section in enumerate(self.corpus.faq_sections, start=1):
            if document is not None and section.faq == document.id and folded in fold(section.title):
                self.edges.append(Edge(node, faq_section_node(section, position), Relation.POINTS_TO, 1.0, name))
                return
        self.diagnostics.append(
            Diagnostic(
                source.document, source.line_start, "unresolved-reference",
                f"{what} : le renvoi à « {name} » ne correspond à aucune entrée du glossaire ni à aucune partie du document.",
                Severity.WARNING,
            )
        )  # fmt: skip


# -- the steps ------------------------------------------------------------------------


def structure(linker: Linker) -> None:
    """Parent → child; FAQ section → quoted rules; card or section → rulings."""
    corpus = linker.corpus
    edges = linker.edges
    for rule in corpus.rules:
        for child in rule.children:
            edges.append(Edge(rule_node(rule), node_id(RecordKind.RULE, rule.edition, child), Relation.CONTAINS))
    sections = list(enumerate(corpus.faq_sections, start=1))
    for rule in corpus.rules:
        if not rule.quoted_from:
            continue
        for position, section in sections:
            span = section.source
            if section.faq == rule.quoted_from and span.char_start <= rule.source.char_start < span.char_end:
                edges.append(Edge(faq_section_node(section, position), rule_node(rule), Relation.QUOTES))
                break
    section_nodes = {(s.faq, s.title): faq_section_node(s, p) for p, s in sections}
    for node, ruling in zip(linker.ruling_nodes, corpus.rulings):
        if ruling.card:
            owner = node_id(RecordKind.CARD, ruling.faq, ruling.card)
        else:
            owner = section_nodes.get((ruling.faq, ruling.section), "")
        if owner:
            edges.append(Edge(owner, node, Relation.HAS_RULING))


def references(linker: Linker) -> None:
    """Every record's references to rules, glossary entries and FAQ sections."""
    corpus, documents = linker.corpus, linker.documents
    for rule in corpus.rules:
        document = documents.get(rule.quoted_from or rule.source.document)
        text = "\n\n".join((rule.text, *rule.examples))
        linker.cite(rule_node(rule), text, rule.source, document, rule.edition, f"Règle {rule.number} ({rule.edition})")
    for entry in corpus.glossary:
        document = documents.get(entry.source.document)
        text = "\n\n".join((*entry.definition, *entry.examples))
        linker.cite(glossary_node(entry), text, entry.source, document, entry.edition, f"Glossaire, « {entry.term} »")
    for node, ruling in zip(linker.ruling_nodes, corpus.rulings):
        document = documents.get(ruling.faq)
        linker.cite(node, ruling.text, ruling.source, document, "", f"Décision sur « {ruling.card or ruling.section} »")
    for position, section in enumerate(corpus.faq_sections, start=1):
        document = documents.get(section.faq)
        linker.cite(faq_section_node(section, position), section.text, section.source, document, "",
                    f"FAQ, section « {section.title} »")  # fmt: skip
    for position, section in enumerate(corpus.course, start=1):
        document = documents.get(section.course)
        linker.cite(course_node(section, position), f"{section.title}\n\n{section.text}", section.source, document, "",
                    f"Cours, « {section.title} »")  # fmt: skip


def longest_matches(
    text: str, words: list[Word], forms: dict[str, list[tuple[tuple[str, ...], GlossaryEntry]]]
) -> list[tuple[GlossaryEntry, str]]:
    """Glossary entries whose form is in ``text`` (read as ``words``, its
    :func:`tokens`), longest match first, each entry once with the words as
    written. ``forms`` maps a first term to the forms starting with it
    (their terms, longest first) and their entries. A one-word match of one
    or two letters ("X") counts only as printed."""
    matches: dict[str, tuple[GlossaryEntry, str]] = {}
    position = 0
    while position < len(words):
        for key, entry in forms.get(words[position][0], ()):
            size = len(key)
            if size > len(words) - position or any(words[position + k][0] != key[k] for k in range(1, size)):
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


def uses_terms(linker: Linker) -> None:
    """Rule → glossary entry, where the rule's title or text uses a headword or form.

    Each rule is read against the glossary of its edition (else of the
    newest complete edition). Longest match first; a one-word form too
    common in the edition (:data:`COMMON_TERM_SHARE`) is linked only from
    the rules its entry cites (or their subrules); a form of one or two
    letters ("X") only as printed.
    """
    forms: dict[str, dict[str, list[tuple[tuple[str, ...], GlossaryEntry]]]] = {}
    for edition, entries in linker.glossary.items():
        table: dict[tuple[str, ...], GlossaryEntry] = {}
        for entry in entries:
            for form in dict.fromkeys((entry.term, *entry.forms)):
                key = tuple(term for term, _, _ in tokens(form))
                if key:
                    table.setdefault(key, entry)
        by_first: dict[str, list[tuple[tuple[str, ...], GlossaryEntry]]] = {}
        for key, entry in table.items():
            by_first.setdefault(key[0], []).append((key, entry))
        for found in by_first.values():
            found.sort(key=lambda pair: -len(pair[0]))
        forms[edition] = by_first
    found: list[tuple[Rule, GlossaryEntry, str]] = []
    frequency: Counter[str] = Counter()
    for rule in linker.corpus.rules:
        glossary = rule.edition if rule.edition in forms else linker.default_edition
        table = forms.get(glossary)
        if not table:
            continue
        text = f"{rule.title}\n{rule.text}"
        matches = longest_matches(text, linker.words(text), table)
        found.extend((rule, entry, written) for entry, written in matches)
        if rule.edition == glossary:
            frequency.update(glossary_node(entry) for entry, written in matches if len(written.split()) == 1)
    sizes = Counter(rule.edition for rule in linker.corpus.rules)
    for rule, entry, written in found:
        node = glossary_node(entry)
        share = frequency[node] / max(1, sizes[entry.edition])
        if (
            share > COMMON_TERM_SHARE
            and len(written.split()) == 1
            and not {rule.number, rule.parent} & set(entry.cites)
        ):
            continue
        linker.edges.append(Edge(rule_node(rule), node, Relation.USES_TERM, 1.0, written))


def keywords(linker: Linker) -> None:
    """Card → keyword rule, where the card's text has the keyword's name
    (titles of the rules of 502; the FAQ's own quoted rules first)."""
    titled: dict[str, list[tuple[tuple[str, ...], Rule]]] = {}
    for card in linker.corpus.cards:
        document = linker.documents.get(card.faq)
        words = plain_words(card.rules_text)
        linked: set[str] = set()
        for edition in linker.editions_for(document):
            if edition not in titled:
                titled[edition] = sorted(
                    (
                        (tuple(plain_words(rule.title)), rule)
                        for rule in linker.rules.get(edition, {}).values()
                        if rule.title and rule.parent and RuleNumber.parse(rule.parent).section == 502
                        and rule.level is Level.RULE
                    ),
                    key=lambda pair: -len(pair[0]),
                )  # fmt: skip
            position = 0
            while position < len(words):
                for key, rule in titled[edition]:
                    if key and tuple(words[position : position + len(key)]) == key:
                        if rule.title not in linked:
                            linked.add(rule.title)
                            linker.edges.append(
                                Edge(card_node(card), rule_node(rule), Relation.KEYWORD, 1.0, rule.title)
                            )
                        position += len(key)
                        break
                else:
                    position += 1


def versions(linker: Linker) -> None:
    """A FAQ's quoted rule → the same number in the newest complete edition."""
    base = linker.rules.get(linker.default_edition, {})
    for rule in linker.corpus.rules:
        other = base.get(rule.number) if rule.quoted_from else None
        if other is not None:
            score = difflib.SequenceMatcher(a=other.text.split(), b=rule.text.split(), autojunk=False).ratio()
            linker.edges.append(Edge(rule_node(rule), rule_node(other), Relation.VERSION_OF, round(score, 3)))


#: The closed vocabularies whose words an edition may print differently from
#: another (2004's "en jeu" is 2011's "sur le champ de bataille", "retiré de la
#: partie" became "exil"): their forms are one term for counterparts.
RENAMED_VOCABULARIES: tuple[type[Term], ...] = (Zone, CardType, Supertype, Color)

#: Forms of :data:`RENAMED_VOCABULARIES` by their first term: ``(terms, key)``, longest first.
Phrases = dict[str, list[tuple[tuple[str, ...], str]]]


def vocabulary_phrases(vocabularies: tuple[type[Term], ...] = RENAMED_VOCABULARIES) -> Phrases:
    """Every form and inflection of each member of ``vocabularies`` as
    :func:`tokens` read it (``("champ", "de", "bataill")``), mapped to one key
    per member (``"=zone:battlefield"``), by first term, longest first. A
    one-word form that is a word of a longer form of the same member ("jeu"
    of "en jeu", "base" of "de base") is left out: alone it means something
    else ("règles du jeu")."""
    found: dict[tuple[str, ...], str] = {}
    for vocabulary in vocabularies:
        for member in vocabulary:
            key = f"={vocabulary.__name__.lower()}:{member.value}"
            forms = [tuple(term for term, _, _ in tokens(form)) for form in (*member.forms, *member.inflections)]
            inner = {term for form in forms if len(form) > 1 for term in form}
            for form in forms:
                if form and not (len(form) == 1 and form[0] in inner):
                    found.setdefault(form, key)
    phrases: Phrases = {}
    for form, key in found.items():
        phrases.setdefault(form[0], []).append((form, key))
    for listed in phrases.values():
        listed.sort(key=lambda pair: -len(pair[0]))
    return phrases


def content_terms(terms: list[str], phrases: Phrases) -> list[str]:
    """The terms counterparts compare, from a text's :func:`tokens` terms:
    a form of :func:`vocabulary_phrases` becomes its member's key (longest
    first), other terms keep their first :data:`STEM_PREFIX` letters, and the
    words of :data:`_STOP` are left out."""
    found = []
    position = 0
    while position < len(terms):
        for form, key in phrases.get(terms[position], ()):
            if tuple(terms[position : position + len(form)]) == form:
                found.append(key)
                position += len(form)
                break
        else:
            term = terms[position]
            if term not in _STOP:
                found.append(term[:STEM_PREFIX])
            position += 1
    return found


def counterparts(linker: Linker) -> None:
    """The same rule in editions numbered differently, by the content of the
    texts: TF-IDF cosine of the terms (:func:`content_terms`: stems cut to
    :data:`STEM_PREFIX` letters, renamed vocabulary as one term, no numbers)
    of a rule, its examples and its subrules; pairs are taken best first,
    each rule in one pair at most, from :data:`COUNTERPART_THRESHOLD` up
    (:func:`rules_kb.indexing.similarity.matched_editions`: every two editions).

    The examples count: editions reword a rule's text more freely than its
    examples (2011 611.2c and 2004 418.3b: 0.39 on their texts' stems, 0.59
    with their examples, 0.76 read as above; 2011 611.3c and 2004 418.2,
    "arrivent en jeu" and "arrivée sur le champ de bataille": 0.34, then 0.55)."""
    phrases = vocabulary_phrases()
    subtree: dict[str, Counter[str]] = {}
    for edition, rules in linker.rules.items():
        for number in sorted(rules, key=RuleNumber.parse, reverse=True):
            rule = rules[number]
            terms = [
                term for part in (f"{rule.title}\n{rule.text}", *rule.examples) for term, _, _ in linker.words(part)
            ]
            words = Counter(content_terms(terms, phrases))
            for child in rule.children:
                words.update(subtree.get(node_id(RecordKind.RULE, edition, child), Counter()))
            subtree[rule_node(rule)] = words
    documents = Counter(term for words in subtree.values() for term in words)
    total = len(subtree)
    idf = {term: math.log(total / count) for term, count in documents.items()}
    vectors: dict[str, dict[str, float]] = {}
    for node, words in subtree.items():
        vector = {term: (1 + math.log(count)) * idf[term] for term, count in words.items()}
        norm = math.sqrt(sum(value * value for value in vector.values())) or 1.0
        vectors[node] = {term: value / norm for term, value in vector.items()}
    numbered = {
        d.edition for d in linker.corpus.documents if d.kind in (DocumentKind.RULES, DocumentKind.RULES_EXCERPT)
    }
    editions = sorted(edition for edition in linker.rules if edition in numbered)
    rules = [[(node, vectors[node]) for node in map(rule_node, linker.rules[edition].values())] for edition in editions]
    for pairs in matched_editions(rules, COUNTERPART_THRESHOLD):
        for score, old, new in pairs:
            linker.edges.append(Edge(old, new, Relation.COUNTERPART, round(score, 3)))


#: The steps of :func:`build_graph`, in order.
STEPS: tuple[Callable[[Linker], None], ...] = (structure, references, uses_terms, keywords, versions, counterparts)


def build_graph(corpus: Corpus) -> Graph:
    """The graph of ``corpus``: every edge of :class:`Relation` (each once,
    in the order of :data:`STEPS`) and the diagnostics of references that
    resolve nowhere (code ``unresolved-reference``) or were misprinted
    (``malformed-reference``)."""
    linker = Linker(corpus)
    for step in STEPS:
        step(linker)
    return Graph(tuple(dict.fromkeys(linker.edges)), tuple(linker.diagnostics))
