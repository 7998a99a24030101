"""The records rules-kb is made of: documents, rules, diagnostics.

Every record is immutable and knows where it came from (document id and line
span), so that ``show``, diagnostics and exports can cite the source.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from rules_kb.numbers import Level, RuleNumber


class DocumentKind(enum.Enum):
    """What a corpus document is (``kind`` in ``corpus/manifest.toml``)."""

    RULES = "rules"
    """A complete edition of the comprehensive rules."""
    RULES_EXCERPT = "rules-excerpt"
    """A page of the comprehensive rules holding one section."""
    FAQ = "faq"
    """A set FAQ: general notes, card entries and rulings."""
    COURSE = "course"
    """A teaching article pointing to the rules."""


@dataclass(frozen=True, slots=True)
class Document:
    """One entry of ``corpus/manifest.toml``.

    ``date`` is an ISO date string, ``YYYY-MM-DD`` or ``YYYY`` when only the
    year is known. ``path`` is the absolute path of the file as loaded.
    """

    id: str
    file: str
    kind: DocumentKind
    language: str
    edition: str
    date: str
    title: str
    origin: str
    path: str = ""


@dataclass(frozen=True, slots=True)
class SourceSpan:
    """Where a record was read: document id, 1-based inclusive line range,
    and the 0-based ``[char_start, char_end)`` range in the document text."""

    document: str
    line_start: int
    line_end: int
    char_start: int = 0
    char_end: int = 0


@dataclass(frozen=True, slots=True)
class Rule:
    """A numbered rule of one edition of the comprehensive rules.

    ``number`` is canonical (``"420.5c"``, ``"420"``, ``"4"`` for a chapter),
    ``printed_number`` is the number as the source printed it, without a
    trailing dot (it differs from ``number`` only where the source misnumbered
    the rule). ``title`` is the heading text of chapters, sections and titled
    rules (``"Interaction des effets continus"``), else ``""``. ``text`` is the
    rule's text re-joined into paragraphs (``"\\n\\n"`` between paragraphs),
    without its examples; ``examples`` are the "Exemple :" paragraphs that
    follow it, without the label. ``parent`` is the canonical number one
    level up (``""`` for a chapter), ``children`` the numbers one level down,
    in order.
    """

    number: str
    edition: str
    title: str
    text: str
    examples: tuple[str, ...]
    parent: str
    children: tuple[str, ...]
    source: SourceSpan
    printed_number: str

    @property
    def level(self) -> Level:
        """Chapter, section, rule or subrule."""
        return RuleNumber.parse(self.number).level

    @property
    def is_misnumbered(self) -> bool:
        """True where the source printed another number than the rule's place."""
        return self.printed_number != self.number

    @property
    def key(self) -> str:
        """Unique key across editions: ``"2004:420.5c"``."""
        return f"{self.edition}:{self.number}"


class Severity(enum.Enum):
    """How serious a diagnostic is."""

    ERROR = "erreur"
    """The source is wrong and rules-kb had to guess (e.g. a misnumbered rule)."""
    WARNING = "avertissement"
    """Something unusual that was kept as it is."""


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A problem found in a source document; data, never an exception.

    ``line`` is 1-based in ``document``; ``code`` is a stable identifier
    (``"misnumbered-rule"``); ``message`` is in French for the judge.
    """

    document: str
    line: int
    code: str
    message: str
    severity: Severity = Severity.ERROR


@dataclass(frozen=True, slots=True)
class Corpus:
    """Everything parsed from a corpus folder.

    ``rules`` are in document order within each edition. ``fingerprint`` is
    the hash of the corpus files and of the parser code the records were
    built from.
    """

    documents: tuple[Document, ...]
    rules: tuple[Rule, ...]
    diagnostics: tuple[Diagnostic, ...]
    fingerprint: str = ""
    folder: str = ""
    parsed_documents: frozenset[str] = field(default_factory=frozenset)
