"""The parsers: each reads one kind of corpus document and returns its
records with the diagnostics of what it had to guess.

- :mod:`indexer.rules_inline`: complete rules printed inline (2004), and
  :mod:`indexer.glossary` their glossary;
- :mod:`indexer.rules_pages`: one-section rules pages (2011);
- :mod:`indexer.faq`: a set FAQ copied from a forum;
- :mod:`indexer.course`: a teaching article;
- :mod:`indexer.html`: the text of an HTML document, for the same parsers.

:func:`parse_corpus` reads every document of a manifest with the parser of
its kind (:data:`PARSERS`) and gathers the records in a
:class:`rules_kb.core.model.Corpus`. Parsers import only the core
(:mod:`rules_kb.core`); building what is derived from the records (graph,
index, cache) is :mod:`rules_kb.engines`'s work.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from indexer.course import parse_course
from indexer.faq import parse_faq
from indexer.glossary import parse_glossary
from indexer.html import html_to_text
from indexer.rules_inline import parse_inline_rules
from indexer.rules_pages import parse_rule_pages
from rules_kb.core.corpus import Progress, no_progress
from rules_kb.core.errors import CorpusError, describe_os_error
from rules_kb.core.model import (
    Card,
    Corpus,
    CourseSection,
    Diagnostic,
    Document,
    DocumentKind,
    FaqInfo,
    FaqSection,
    GlossaryEntry,
    Rule,
    Ruling,
    Severity,
)

#: File suffixes read as HTML.
HTML_SUFFIXES = (".html", ".htm")


def read_document(document: Document) -> str:
    """The text of a document; raises :class:`CorpusError` if unreadable.

    A ``.txt`` (or any other) file is read as UTF-8; an ``.html``/``.htm``
    file is converted to text keeping its block structure
    (:func:`indexer.html.html_to_text`), so the same parsers read both.
    """
    path = Path(document.path)
    if path.suffix.lower() in HTML_SUFFIXES:
        try:
            return html_to_text(path.read_bytes())
        except (OSError, ValueError, LookupError) as error:
            reason = describe_os_error(error) if isinstance(error, OSError) else str(error)
            raise CorpusError(
                f"Impossible de lire le document HTML « {document.id} » ({path}) : {reason}. "
                "Vérifiez le fichier ou donnez-le en texte UTF-8.",
                str(path),
            ) from None
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise CorpusError(
            f"Le document « {document.id} » ({path}) n'est pas un texte UTF-8 "
            f"(octet invalide à la position {error.start}). Convertissez-le en UTF-8.",
            str(path),
        ) from None
    except OSError as error:
        raise CorpusError(
            f"Impossible de lire le document « {document.id} » ({path}) : {describe_os_error(error)}.", str(path)
        ) from None


class ParsedDocument(NamedTuple):
    """Every record one parser read from one document."""

    rules: tuple[Rule, ...] = ()
    glossary: tuple[GlossaryEntry, ...] = ()
    cards: tuple[Card, ...] = ()
    rulings: tuple[Ruling, ...] = ()
    faq_sections: tuple[FaqSection, ...] = ()
    faqs: tuple[FaqInfo, ...] = ()
    course: tuple[CourseSection, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()


def parse_rules_document(text: str, document: Document) -> ParsedDocument:
    """A complete edition: its numbered rules (:mod:`indexer.rules_inline`)
    and its glossary (:mod:`indexer.glossary`)."""
    rules = parse_inline_rules(text, document.id, document.edition)
    glossary = parse_glossary(text, document.id, document.edition, after=rules.body[1])
    return ParsedDocument(
        rules=tuple(rules.rules),
        glossary=tuple(glossary.entries),
        diagnostics=(*rules.diagnostics, *glossary.diagnostics),
    )


def parse_rules_excerpt(text: str, document: Document) -> ParsedDocument:
    """A one-section rules page (:mod:`indexer.rules_pages`)."""
    rules = parse_rule_pages(text, document.id, document.edition)
    return ParsedDocument(rules=tuple(rules.rules), diagnostics=tuple(rules.diagnostics))


def parse_faq_document(text: str, document: Document) -> ParsedDocument:
    """A FAQ (:mod:`indexer.faq`): metadata, sections, cards, rulings, quoted rules."""
    faq = parse_faq(text, document.id, document.edition)
    return ParsedDocument(
        rules=tuple(faq.rules),
        cards=tuple(faq.cards),
        rulings=tuple(faq.rulings),
        faq_sections=tuple(faq.sections),
        faqs=(faq.info,) if faq.info is not None else (),
        diagnostics=tuple(faq.diagnostics),
    )


def parse_course_document(text: str, document: Document) -> ParsedDocument:
    """A course (:mod:`indexer.course`)."""
    course = parse_course(text, document.id)
    return ParsedDocument(course=tuple(course.sections), diagnostics=tuple(course.diagnostics))


#: ``parser(text, document)`` for each document kind.
PARSERS: dict[DocumentKind, Callable[[str, Document], ParsedDocument]] = {
    DocumentKind.RULES: parse_rules_document,
    DocumentKind.RULES_EXCERPT: parse_rules_excerpt,
    DocumentKind.FAQ: parse_faq_document,
    DocumentKind.COURSE: parse_course_document,
}

#: The fields of :class:`ParsedDocument` that hold records (not diagnostics).
_RECORD_FIELDS = tuple(name for name in ParsedDocument._fields if name != "diagnostics")


def document_diagnostics(text: str, document: Document, parsed: ParsedDocument) -> tuple[Diagnostic, ...]:
    """The diagnostics of one parsed document: its parser's, and one when
    the document gave no record.

    A blank text gives only ``"empty-document"`` (an empty or truncated
    copy; what the parser said about nothing is left out). A text in which
    the parser recognised no record and said nothing gives
    ``"document-without-records"`` (a document of another kind than the
    manifest says).
    """
    if not text.strip():
        return (
            Diagnostic(
                document=document.id,
                line=1,
                code="empty-document",
                message=f"Le document « {document.id} » ({document.file}) est vide : il n'apporte rien au corpus. "
                "Remettez-y son texte ou retirez-le du manifeste.",
                severity=Severity.WARNING,
            ),
        )
    if parsed.diagnostics or any(getattr(parsed, name) for name in _RECORD_FIELDS):
        return parsed.diagnostics
    return (
        Diagnostic(
            document=document.id,
            line=1,
            code="document-without-records",
            message=f"Rien n'a été reconnu dans le document « {document.id} » ({document.file}) "
            f"lu comme « {document.kind.value} » : il n'apporte rien au corpus. "
            "Vérifiez son type (kind) dans le manifeste.",
            severity=Severity.WARNING,
        ),
    )


def parse_corpus(
    folder: Path, documents: tuple[Document, ...], fingerprint: str = "", progress: Progress = no_progress
) -> Corpus:
    """Parse every document of the manifest with the parser of its kind.

    Returns a :class:`Corpus` with every record, in manifest order then
    document order, and the diagnostics (with one for a document that gave
    no record: :func:`document_diagnostics`). Raises
    :class:`rules_kb.core.errors.CorpusError` if a document cannot be read.
    """
    merged: dict[str, list] = {name: [] for name in ParsedDocument._fields}
    parsed = set()
    for position, document in enumerate(documents):
        progress(f"Analyse de {document.file}", position, len(documents))
        parser = PARSERS.get(document.kind)
        if parser is None:
            continue
        text = read_document(document)
        result = parser(text, document)
        for name in _RECORD_FIELDS:
            merged[name].extend(getattr(result, name))
        merged["diagnostics"].extend(document_diagnostics(text, document, result))
        parsed.add(document.id)
    progress("Analyse terminée", len(documents), len(documents))
    return Corpus(
        documents=documents,
        rules=tuple(merged["rules"]),
        diagnostics=tuple(merged["diagnostics"]),
        fingerprint=fingerprint,
        folder=str(folder),
        parsed_documents=frozenset(parsed),
        glossary=tuple(merged["glossary"]),
        cards=tuple(merged["cards"]),
        rulings=tuple(merged["rulings"]),
        faq_sections=tuple(merged["faq_sections"]),
        faqs=tuple(merged["faqs"]),
        course=tuple(merged["course"]),
    )
