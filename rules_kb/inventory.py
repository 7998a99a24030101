"""What a corpus holds: its documents with their record counts, its
diagnostics, every record (``index``, ``corpus list``, ``corpus check``,
``corpus dump``), and the documents answers come from, as a page's header
names them (:func:`sources`)."""

from __future__ import annotations

from typing import NamedTuple

from rules_kb.core.model import Document, DocumentKind, RecordKind
from rules_kb.core.shapes import COUNTED
from rules_kb.core.text import french_date
from rules_kb.loader import KnowledgeBase


class Summary(NamedTuple):
    """A corpus in figures: its ``folder``, its ``cache`` folder and
    ``fingerprint``, the number of records of each kind (``counts``, by
    :attr:`RecordKind.field`) and of diagnostics."""

    folder: str
    cache: str
    fingerprint: str
    counts: dict[str, int]
    diagnostics: int


class Listed(NamedTuple):
    """A document of the manifest, its record ``counts`` (by
    :attr:`RecordKind.field`) and whether a parser read it (``parsed``)."""

    document: Document
    counts: dict[str, int]
    parsed: bool


def summary(kb: KnowledgeBase) -> Summary:
    """The :class:`Summary` of ``kb``."""
    totals = dict.fromkeys(COUNTED, 0)
    for counts in kb.counts.values():
        for name, count in counts.items():
            totals[name] += count
    return Summary(kb.folder, str(kb.cache_dir), kb.fingerprint, totals, len(kb.diagnostics))


def listing(kb: KnowledgeBase) -> tuple[Listed, ...]:
    """Every document of the manifest, in order, with its counts."""
    counts, parsed = kb.counts, kb.parsed_documents
    return tuple(
        Listed(document, counts.get(document.id, dict.fromkeys(COUNTED, 0)), document.id in parsed)
        for document in kb.documents
    )


class Source(NamedTuple):
    """What answers come from, for a reader: ``label`` in French (« Règles
    complètes du 1er juin 2004 »), the ``edition`` its records belong to and
    the ``documents`` (ids) it stands for."""

    label: str
    edition: str
    documents: tuple[str, ...]


def _tail(title: str) -> str:
    """What a document's own title says after its series' name: ``"Foire aux
    questions — Spirale temporelle"`` → ``"Spirale temporelle"`` (the whole title without a dash)."""
    return title.rpartition(" — ")[2].strip()


def sources(kb: KnowledgeBase) -> tuple[Source, ...]:
    """The documents of ``kb``'s manifest as a reader names them, in manifest
    order (from ``corpus/manifest.toml``: kind, date, title): a complete
    edition of the rules « Règles complètes du 1er juin 2004 »; the pages of
    one edition of the rules together, « Règles complètes du 4 février 2011
    (extraits : 611. Effets continus, 201. Nom) »; a FAQ « FAQ Spirale
    temporelle (18 août 2006) »; a course by its title and date."""
    found: list[Source] = []
    excerpts: dict[tuple[str, str], list[Document]] = {}
    for document in kb.documents:
        if document.kind is DocumentKind.RULES_EXCERPT:
            group = excerpts.setdefault((document.edition, document.date), [])
            if not group:
                found.append(Source("", document.edition, ()))  # placed at its first page
            group.append(document)
            continue
        date = french_date(document.date)
        if document.kind is DocumentKind.RULES:
            label = f"Règles complètes du {date}"
        elif document.kind is DocumentKind.FAQ:
            label = f"FAQ {_tail(document.title)} ({date})"
        else:
            label = f"{document.title} ({date})"
        found.append(Source(label, document.edition, (document.id,)))
    placed = iter(excerpts.items())
    for position, source in enumerate(found):
        if not source.label:
            (edition, date), pages = next(placed)
            tails = ", ".join(_tail(page.title) for page in pages)
            found[position] = Source(
                f"Règles complètes du {french_date(date)} (extraits : {tails})", edition, tuple(p.id for p in pages)
            )
    return tuple(found)


__all__ = ["COUNTED", "Listed", "RecordKind", "Source", "Summary", "listing", "sources", "summary"]
