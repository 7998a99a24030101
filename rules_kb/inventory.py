"""What a corpus holds: its documents with their record counts, its
diagnostics, every record (``index``, ``corpus list``, ``corpus check``,
``corpus dump``)."""

from __future__ import annotations

from typing import NamedTuple

from rules_kb.core.model import Document, RecordKind
from rules_kb.core.shapes import COUNTED
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


__all__ = ["COUNTED", "Listed", "RecordKind", "Summary", "listing", "summary"]
