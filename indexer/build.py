"""Parse a corpus folder and build the cached records and full-text index.

The cache of one corpus is a folder ``<cache>/<fingerprint>/`` holding
``records.pickle`` (the parsed :class:`rules_kb.model.Corpus`),
``graph.pickle`` (its :class:`rules_kb.graph.Graph`), ``concepts.pickle``
(the :class:`rules_kb.concepts.ConceptTable` that ``ask`` reads questions
with) and ``index/`` (the Whoosh index). It is built in a temporary folder and moved
into place at the end, so a cache folder is always complete.
"""

from __future__ import annotations

import pickle
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from indexer.course import parse_course
from indexer.faq import parse_faq
from indexer.glossary import parse_glossary
from indexer.rules_inline import parse_inline_rules
from indexer.rules_pages import parse_rule_pages
from rules_kb.corpus import read_document
from rules_kb.errors import IndexBuildError, describe_os_error
from rules_kb.graph import build_graph
from rules_kb.kb import CONCEPTS_FILE, GRAPH_FILE, INDEX_DIR, RECORDS_FILE
from rules_kb.model import (
    Card,
    CourseSection,
    Corpus,
    Diagnostic,
    Document,
    DocumentKind,
    FaqInfo,
    FaqSection,
    GlossaryEntry,
    Rule,
    Ruling,
)


@dataclass(slots=True)
class ParsedDocument:
    """Every record one parser read from one document."""

    rules: list[Rule] = field(default_factory=list)
    glossary: list[GlossaryEntry] = field(default_factory=list)
    cards: list[Card] = field(default_factory=list)
    rulings: list[Ruling] = field(default_factory=list)
    faq_sections: list[FaqSection] = field(default_factory=list)
    faqs: list[FaqInfo] = field(default_factory=list)
    course: list[CourseSection] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def parse_rules_document(text: str, document: Document) -> ParsedDocument:
    """A complete edition: its numbered rules (:mod:`indexer.rules_inline`)
    and its glossary (:mod:`indexer.glossary`)."""
    rules = parse_inline_rules(text, document.id, document.edition)
    glossary = parse_glossary(text, document.id, document.edition, after=rules.body[1])
    return ParsedDocument(
        rules=list(rules.rules),
        glossary=list(glossary.entries),
        diagnostics=[*rules.diagnostics, *glossary.diagnostics],
    )


def parse_rules_excerpt(text: str, document: Document) -> ParsedDocument:
    """A one-section rules page (:mod:`indexer.rules_pages`)."""
    rules = parse_rule_pages(text, document.id, document.edition)
    return ParsedDocument(rules=list(rules.rules), diagnostics=list(rules.diagnostics))


def parse_faq_document(text: str, document: Document) -> ParsedDocument:
    """A FAQ (:mod:`indexer.faq`): metadata, sections, cards, rulings, quoted rules."""
    faq = parse_faq(text, document.id, document.edition)
    return ParsedDocument(
        rules=list(faq.rules),
        cards=list(faq.cards),
        rulings=list(faq.rulings),
        faq_sections=list(faq.sections),
        faqs=[faq.info] if faq.info is not None else [],
        diagnostics=list(faq.diagnostics),
    )


def parse_course_document(text: str, document: Document) -> ParsedDocument:
    """A course (:mod:`indexer.course`)."""
    course = parse_course(text, document.id)
    return ParsedDocument(course=list(course.sections), diagnostics=list(course.diagnostics))


#: ``parser(text, document)`` for each document kind.
PARSERS: dict[DocumentKind, Callable[[str, Document], ParsedDocument]] = {
    DocumentKind.RULES: parse_rules_document,
    DocumentKind.RULES_EXCERPT: parse_rules_excerpt,
    DocumentKind.FAQ: parse_faq_document,
    DocumentKind.COURSE: parse_course_document,
}

#: ``progress(description, completed, total)``: called as the build advances.
Progress = Callable[[str, int, int], None]


def _no_progress(description: str, completed: int, total: int) -> None:
    return None


def parse_corpus(
    folder: Path, documents: tuple[Document, ...], fingerprint: str = "", progress: Progress = _no_progress
) -> Corpus:
    """Parse every document of the manifest with the parser of its kind.

    Returns a :class:`Corpus` with every record, in manifest order then
    document order, and the diagnostics. Raises
    :class:`rules_kb.errors.CorpusError` if a document cannot be read.
    """
    merged = ParsedDocument()
    parsed = set()
    for position, document in enumerate(documents):
        progress(f"Analyse de {document.file}", position, len(documents))
        parser = PARSERS.get(document.kind)
        if parser is None:
            continue
        result = parser(read_document(document), document)
        for name in ParsedDocument.__slots__:
            getattr(merged, name).extend(getattr(result, name))
        parsed.add(document.id)
    progress("Analyse terminée", len(documents), len(documents))
    return Corpus(
        documents=documents,
        rules=tuple(merged.rules),
        diagnostics=tuple(merged.diagnostics),
        fingerprint=fingerprint,
        folder=str(folder),
        parsed_documents=frozenset(parsed),
        glossary=tuple(merged.glossary),
        cards=tuple(merged.cards),
        rulings=tuple(merged.rulings),
        faq_sections=tuple(merged.faq_sections),
        faqs=tuple(merged.faqs),
        course=tuple(merged.course),
    )


def index_records(corpus: Corpus):
    """The records of ``corpus`` as Whoosh documents, in corpus order.

    Yields dicts with ``kind`` (``rule``, ``glossary``, ``card``,
    ``ruling``, ``faq-section``, ``course``), ``id`` (rule number, term,
    card name, section title, or ``"<card or section>#<n>"`` for a
    ruling), ``key`` (unique), ``edition``, ``document``, ``line``,
    ``number`` (a rule's own number), ``cites`` (rule numbers a glossary
    entry, ruling or course section refers to), ``title``, ``text``,
    ``examples``, ``depth``; a ruling also has ``about`` (its card or
    section, stored but not searched, so that a ruling is not found by its
    section's title).
    """
    for rule in corpus.rules:
        numbers = rule.number if not rule.is_misnumbered else f"{rule.number} {rule.printed_number}"
        yield dict(
            kind="rule", id=rule.number, key=f"rule:{rule.key}", edition=rule.edition,
            document=rule.source.document, line=rule.source.line_start, number=numbers,
            title=rule.title, text=rule.text, examples="\n\n".join(rule.examples), depth=int(rule.level),
        )  # fmt: skip
    for entry in corpus.glossary:
        yield dict(
            kind="glossary", id=entry.term, key=f"glossary:{entry.edition}:{entry.term}", edition=entry.edition,
            document=entry.source.document, line=entry.source.line_start, number="", cites=" ".join(entry.cites),
            title=" ".join(dict.fromkeys((entry.term, *entry.forms))), text=entry.text,
            examples="\n\n".join(entry.examples), depth=0,
        )  # fmt: skip
    for card in corpus.cards:
        pt = f" {card.power}/{card.toughness}" if card.power or card.toughness else ""
        yield dict(
            kind="card", id=card.name, key=f"card:{card.faq}:{card.name}", edition="",
            document=card.source.document, line=card.source.line_start, number="",
            title=card.name, text=f"{card.mana_cost} {card.type_line}{pt} {card.rules_text}".strip(),
            examples="\n\n".join(ruling.text for ruling in card.rulings), depth=0,
        )  # fmt: skip
    counts: dict[str, int] = {}
    for ruling in corpus.rulings:
        about = ruling.card or ruling.section
        counts[about] = counts.get(about, 0) + 1
        yield dict(
            kind="ruling", id=f"{about}#{counts[about]}", key=f"ruling:{ruling.faq}:{about}#{counts[about]}",
            edition="", document=ruling.source.document, line=ruling.source.line_start,
            number="", cites=" ".join(ruling.cites), title="", about=about, text=ruling.text, examples="",
            depth=0,
        )  # fmt: skip
    for position, section in enumerate(corpus.faq_sections, start=1):
        yield dict(
            kind="faq-section", id=section.title or f"section {position}", key=f"faq-section:{section.faq}:{position}",
            edition="", document=section.source.document, line=section.source.line_start, number="",
            title=section.title, text=section.text, examples="", depth=0,
        )  # fmt: skip
    for position, section in enumerate(corpus.course, start=1):
        yield dict(
            kind="course", id=section.title, key=f"course:{section.course}:{position}", edition="",
            document=section.source.document, line=section.source.line_start, number="", cites=" ".join(section.points_to),
            title=section.title, text=section.text, examples="", depth=section.level,
        )  # fmt: skip


def _write_index(corpus: Corpus, index_dir: Path, progress: Progress) -> None:
    from whoosh import index
    from whoosh.fields import ID, NUMERIC, STORED, TEXT, Schema

    from rules_kb.analysis import french_analyzer, number_analyzer

    analyzer = french_analyzer()
    schema = Schema(
        kind=ID(stored=True),
        id=ID(stored=True),
        key=ID(stored=True, unique=True),
        edition=ID(stored=True),
        document=ID(stored=True),
        line=STORED,
        number=TEXT(analyzer=number_analyzer(), stored=False, field_boost=8.0),
        cites=TEXT(analyzer=number_analyzer(), stored=False),
        title=TEXT(analyzer=analyzer, stored=True, field_boost=3.0),
        text=TEXT(analyzer=analyzer, stored=True),
        examples=TEXT(analyzer=analyzer, stored=True, field_boost=0.6),
        depth=NUMERIC(stored=True),
        about=STORED,
        order=STORED,
    )
    index_dir.mkdir(parents=True)
    ix = index.create_in(str(index_dir), schema)
    writer = ix.writer()
    total = (
        len(corpus.rules) + len(corpus.glossary) + len(corpus.cards) + len(corpus.rulings)
        + len(corpus.faq_sections) + len(corpus.course)
    )  # fmt: skip
    for position, record in enumerate(index_records(corpus)):
        if position % 100 == 0:
            progress("Indexation", position, total)
        writer.add_document(order=position, **record)
    progress("Écriture de l'index", total, total)
    writer.commit()


def build_cache(
    corpus: Corpus, cache_root: Path, progress: Progress = _no_progress, replace: bool = False
) -> Path:
    """Write ``records.pickle``, ``graph.pickle`` and the Whoosh index of ``corpus`` under ``cache_root``.

    Returns the folder ``cache_root/<fingerprint>``. If another process built
    the same fingerprint meanwhile, its folder is kept, unless ``replace``
    (``rules-kb index``) asks for a fresh one. Raises
    :class:`rules_kb.errors.IndexBuildError` if the cache cannot be written.
    """
    target = cache_root / corpus.fingerprint
    try:
        cache_root.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".build-", dir=cache_root))
    except OSError as error:
        raise IndexBuildError(
            f"Impossible de créer le dossier de cache « {cache_root} » : {describe_os_error(error)}. "
            "Choisissez un dossier inscriptible avec la variable RULES_KB_HOME.",
            str(cache_root),
        ) from None
    try:
        _write_index(corpus, staging / INDEX_DIR, progress)
        progress("Construction du graphe des règles", 0, 1)
        graph = build_graph(corpus)
        with open(staging / GRAPH_FILE, "wb") as handle:
            pickle.dump(graph, handle, protocol=pickle.HIGHEST_PROTOCOL)
        with open(staging / RECORDS_FILE, "wb") as handle:
            pickle.dump(corpus, handle, protocol=pickle.HIGHEST_PROTOCOL)
        progress("Table des concepts (glossaire, titres, cartes, lexique)", 0, 1)
        from rules_kb.concepts import build_table
        from rules_kb.kb import KnowledgeBase

        kb = KnowledgeBase(corpus, staging)
        kb._graph = graph
        with open(staging / CONCEPTS_FILE, "wb") as handle:
            pickle.dump(build_table(kb), handle, protocol=pickle.HIGHEST_PROTOCOL)
        if target.exists() and replace:
            old = target.with_name(f".old-{target.name}-{staging.name}")
            target.rename(old)
            shutil.rmtree(old, ignore_errors=True)
        if target.exists():
            shutil.rmtree(staging, ignore_errors=True)
        else:
            staging.rename(target)
    except OSError as error:
        shutil.rmtree(staging, ignore_errors=True)
        raise IndexBuildError(
            f"Impossible d'écrire l'index dans « {cache_root} » : {describe_os_error(error)}. "
            "Vérifiez la place disque ou choisissez un autre dossier avec RULES_KB_HOME.",
            str(cache_root),
        ) from None
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return target
