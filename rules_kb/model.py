"""The records rules-kb is made of: documents, rules, glossary entries,
FAQ cards, rulings and sections, course sections, diagnostics.

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
    ``cites_edition`` is the edition whose numbers the document's references
    use when it is not the document's own (``""``: its own edition, or for a
    document without rules the newest complete edition).
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
    cites_edition: str = ""


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
    quoted_from: str = ""
    """Id of the document that quotes this rule (a FAQ quoting a new or
    revised rule), ``""`` for a rule read from the rules themselves."""

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


@dataclass(frozen=True, slots=True)
class GlossaryEntry:
    """An entry of the glossary (*Glossaire*) of the comprehensive rules.

    ``term`` is the headword without its marker (``"Contrer, contrecarrer"``),
    ``forms`` the words it defines (``("Contrer", "contrecarrer")``; one form
    for a plain headword). ``definition`` holds the paragraphs of the
    definition, without its examples; ``examples`` the "Exemple :"
    paragraphs without the label. ``cites`` are the rule numbers the entry
    mentions, in order; ``see`` the headwords it points to ("Voir X",
    "Voir aussi "X""). ``obsolete`` and ``informal`` come from the
    "(obsolète)" and "(informel)" markers.
    """

    term: str
    forms: tuple[str, ...]
    definition: tuple[str, ...]
    examples: tuple[str, ...]
    cites: tuple[str, ...]
    see: tuple[str, ...]
    obsolete: bool
    informal: bool
    edition: str
    source: SourceSpan

    @property
    def text(self) -> str:
        """The definition paragraphs joined by blank lines."""
        return "\n\n".join(self.definition)

    @property
    def is_pointer(self) -> bool:
        """True for an entry that only points elsewhere ("APNAP — Voir …")."""
        return bool(self.see) and all(paragraph.startswith("Voir") for paragraph in self.definition)


@dataclass(frozen=True, slots=True)
class Ruling:
    """A ruling of a FAQ: one ``*`` item.

    ``card`` is the card it is about (``""`` for a ruling of a general
    section), ``section`` the title of the general section it belongs to
    (``""`` for a card's ruling), ``faq`` the FAQ's document id, ``cites``
    the rule numbers it mentions.
    """

    text: str
    card: str
    section: str
    faq: str
    cites: tuple[str, ...]
    source: SourceSpan


@dataclass(frozen=True, slots=True)
class Card:
    """A card entry of a FAQ, as printed there.

    ``mana_cost`` is in braces (``"{2}{W}"``, ``""`` for a land, ``"{}"``
    for a card without mana cost); ``type_line`` as printed
    (``"Créature : ours"``); ``power`` and ``toughness`` are strings
    (``"2"``, ``"*"``), ``""`` for a non-creature. ``timeshifted`` marks the
    cards of the FAQ's "décalées dans le temps" part.
    """

    name: str
    mana_cost: str
    type_line: str
    rules_text: str
    power: str
    toughness: str
    rulings: tuple[Ruling, ...]
    faq: str
    timeshifted: bool
    source: SourceSpan


@dataclass(frozen=True, slots=True)
class FaqSection:
    """A section of a FAQ's general notes (``***Title***``): its text, without
    the rules it quotes (those are :class:`Rule` records) and its rulings."""

    title: str
    text: str
    rulings: tuple[Ruling, ...]
    faq: str
    source: SourceSpan


@dataclass(frozen=True, slots=True)
class FaqDate:
    """A date a FAQ announces: ``label`` (what happens), ``text`` as printed,
    ``iso`` (``YYYY-MM-DD``, the first day of a range; ``""`` if unreadable)."""

    label: str
    text: str
    iso: str


@dataclass(frozen=True, slots=True)
class FaqInfo:
    """The metadata of a FAQ: its own title, authors, date of last change
    (ISO), announced dates, and its introduction text."""

    faq: str
    title: str
    authors: tuple[str, ...]
    last_changed: str
    dates: tuple[FaqDate, ...]
    introduction: str
    source: SourceSpan


@dataclass(frozen=True, slots=True)
class Paragraph:
    """A paragraph of a course: ``text``, or a bulleted list in ``items``
    (``text`` is then ``""``)."""

    text: str
    items: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class CourseSection:
    """A section of a course: ``title`` as printed (without its final colon),
    ``level`` (1 for the document's title and capitalised headings, 2 for
    the others), its paragraphs, and ``points_to``: the rules sections it
    refers readers to (``("110",)``), its own or its enclosing section's."""

    title: str
    level: int
    paragraphs: tuple[Paragraph, ...]
    points_to: tuple[str, ...]
    course: str
    source: SourceSpan

    @property
    def text(self) -> str:
        """The paragraphs as plain text, list items on lines starting with "• "."""
        return "\n\n".join(
            paragraph.text or "\n".join(f"• {item}" for item in paragraph.items)
            for paragraph in self.paragraphs
        )


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
    glossary: tuple[GlossaryEntry, ...] = ()
    cards: tuple[Card, ...] = ()
    rulings: tuple[Ruling, ...] = ()
    """Every ruling, of cards and of general sections, in document order."""
    faq_sections: tuple[FaqSection, ...] = ()
    faqs: tuple[FaqInfo, ...] = ()
    course: tuple[CourseSection, ...] = ()
