"""The records rules-kb is made of: documents, rules, glossary entries,
FAQ cards, rulings and sections, course sections, diagnostics.

Every record is immutable and knows where it came from (document id and line
span), so that ``show``, diagnostics and exports can cite the source.
Records are typed named tuples (:class:`typing.NamedTuple`): immutable
values like frozen dataclasses, read from the cache by position, and cheap
to import (``show`` must start in a few milliseconds; importing
:mod:`dataclasses` alone costs a fifth of that budget).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import NamedTuple

from rules_kb.core.numbers import Level, RuleNumber
from rules_kb.core.text import fold


class RecordKind(enum.Enum):
    """The kinds of record of a corpus.

    ``value`` is the id used in graph node ids, the index and JSON
    (``"rule"``); ``label`` the French name users read (``"règle"``);
    ``nouns`` the French singular and plural for counts (``"entrée du
    glossaire"``); ``field`` the attribute of :class:`Corpus` holding them
    (also the key of the counts in JSON); ``aliases`` what else a user may
    type for the kind (``--kind carte``).
    """

    def __new__(cls, value: str, label: str, nouns: tuple[str, str], field: str, aliases: tuple[str, ...]):
        member = object.__new__(cls)
        member._value_ = value
        member.label = label
        member.nouns = nouns
        member.field = field
        member.aliases = aliases
        return member

    RULE = ("rule", "règle", ("règle", "règles"), "rules", ("regle", "règle", "regles", "règles"))
    GLOSSARY = (
        "glossary", "glossaire", ("entrée du glossaire", "entrées du glossaire"), "glossary", ("glossaire", "terme"),
    )  # fmt: skip
    CARD = ("card", "carte", ("carte", "cartes"), "cards", ("carte", "cartes"))
    RULING = (
        "ruling", "décision", ("décision", "décisions"), "rulings", ("decision", "décision", "decisions", "décisions"),
    )  # fmt: skip
    FAQ_SECTION = (
        "faq-section",
        "section de FAQ",
        ("section de FAQ", "sections de FAQ"),
        "faq_sections",
        ("faq", "section"),
    )
    COURSE = ("course", "cours", ("section de cours", "sections de cours"), "course", ("cours",))

    @classmethod
    def named(cls, text: str) -> RecordKind | None:
        """The kind a user typed: its id, label or an alias (``"Cartes"``,
        ``"faq-section"``), case and accents aside; None if none."""
        wanted = text.strip().lower()
        for kind in cls:
            if wanted == kind.value or wanted in kind.aliases or fold(wanted) in kind.aliases:
                return kind
        return None


class DocumentKind(enum.Enum):
    """What a corpus document is (``kind`` in ``corpus/manifest.toml``):
    ``value`` is the manifest's word, ``label`` the French name users read
    (``"règles complètes"``)."""

    def __new__(cls, value: str, label: str):
        member = object.__new__(cls)
        member._value_ = value
        member.label = label
        return member

    RULES = ("rules", "règles complètes")
    """A complete edition of the comprehensive rules."""
    RULES_EXCERPT = ("rules-excerpt", "extrait des règles")
    """A page of the comprehensive rules holding one section."""
    FAQ = ("faq", "FAQ")
    """A set FAQ: general notes, card entries and rulings."""
    COURSE = ("course", "cours")
    """A teaching article pointing to the rules."""


class Document(NamedTuple):
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


class SourceSpan(NamedTuple):
    """Where a record was read: document id, 1-based inclusive line range,
    and the 0-based ``[char_start, char_end)`` range in the document text."""

    document: str
    line_start: int
    line_end: int
    char_start: int = 0
    char_end: int = 0


class Rule(NamedTuple):
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


class GlossaryEntry(NamedTuple):
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


class Ruling(NamedTuple):
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


class Card(NamedTuple):
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


class FaqSection(NamedTuple):
    """A section of a FAQ's general notes (``***Title***``): its text, without
    the rules it quotes (those are :class:`Rule` records) and its rulings."""

    title: str
    text: str
    rulings: tuple[Ruling, ...]
    faq: str
    source: SourceSpan


class FaqDate(NamedTuple):
    """A date a FAQ announces: ``label`` (what happens), ``text`` as printed,
    ``iso`` (``YYYY-MM-DD``, the first day of a range; ``""`` if unreadable)."""

    label: str
    text: str
    iso: str


class FaqInfo(NamedTuple):
    """The metadata of a FAQ: its own title, authors, date of last change
    (ISO), announced dates, and its introduction text."""

    faq: str
    title: str
    authors: tuple[str, ...]
    last_changed: str
    dates: tuple[FaqDate, ...]
    introduction: str
    source: SourceSpan


class Paragraph(NamedTuple):
    """A paragraph of a course: ``text``, or a bulleted list in ``items``
    (``text`` is then ``""``)."""

    text: str
    items: tuple[str, ...] = ()


class CourseSection(NamedTuple):
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
            paragraph.text or "\n".join(f"• {item}" for item in paragraph.items) for paragraph in self.paragraphs
        )


class Severity(enum.Enum):
    """How serious a diagnostic is."""

    ERROR = "erreur"
    """The source is wrong and rules-kb had to guess (e.g. a misnumbered rule)."""
    WARNING = "avertissement"
    """Something unusual that was kept as it is."""


class Diagnostic(NamedTuple):
    """A problem found in a source document; data, never an exception.

    ``line`` is 1-based in ``document``; ``code`` is a stable identifier
    (``"misnumbered-rule"``); ``message`` is in French for the judge.
    """

    document: str
    line: int
    code: str
    message: str
    severity: Severity = Severity.ERROR


class Corpus(NamedTuple):
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
    parsed_documents: frozenset[str] = frozenset()
    glossary: tuple[GlossaryEntry, ...] = ()
    cards: tuple[Card, ...] = ()
    rulings: tuple[Ruling, ...] = ()
    """Every ruling, of cards and of general sections, in document order."""
    faq_sections: tuple[FaqSection, ...] = ()
    faqs: tuple[FaqInfo, ...] = ()
    course: tuple[CourseSection, ...] = ()


# -- node ids --------------------------------------------------------------------
#
# Every record has a string id, used as a node of the rule graph, a key of
# the cache and an anchor of exports: its kind, then what tells it apart.


def node_id(kind: RecordKind, *parts: str) -> str:
    """``node_id(RecordKind.RULE, "2004", "420.5c")`` → ``"rule:2004:420.5c"``."""
    return ":".join((kind.value, *parts))


def node_kind(node: str) -> RecordKind:
    """The :class:`RecordKind` of a node id (``"rule:2004:420.5c"`` → ``RULE``).
    Raises ValueError for a string that is no node id."""
    return RecordKind(node.partition(":")[0])


def rule_node(rule: Rule) -> str:
    """``rule:<edition>:<number>``."""
    return node_id(RecordKind.RULE, rule.edition, rule.number)


def glossary_node(entry: GlossaryEntry) -> str:
    """``glossary:<edition>:<term>``."""
    return node_id(RecordKind.GLOSSARY, entry.edition, entry.term)


def card_node(card: Card) -> str:
    """``card:<faq>:<name>``."""
    return node_id(RecordKind.CARD, card.faq, card.name)


def ruling_nodes(rulings) -> list[str]:
    """The node ids of ``rulings`` (all the rulings of a corpus, in order):
    ``ruling:<faq>:<card or section>#<rank>``, the rank counted from 1 for
    each card or section."""
    counts: dict[str, int] = {}
    ids = []
    for ruling in rulings:
        about = ruling.card or ruling.section
        counts[about] = counts.get(about, 0) + 1
        ids.append(node_id(RecordKind.RULING, ruling.faq, f"{about}#{counts[about]}"))
    return ids


def faq_section_node(section: FaqSection, position: int) -> str:
    """``faq-section:<faq>:<position>`` (from 1, in corpus order)."""
    return node_id(RecordKind.FAQ_SECTION, section.faq, str(position))


def course_node(section: CourseSection, position: int) -> str:
    """``course:<course>:<position>`` (from 1, in corpus order)."""
    return node_id(RecordKind.COURSE, section.course, str(position))


def record_nodes(corpus: Corpus, kind: RecordKind | None = None) -> dict[str, object]:
    """The records of ``corpus`` by node id: those of one ``kind``, or all of them,
    kinds in :class:`RecordKind` order, records in corpus order."""
    tables = {
        RecordKind.RULE: lambda: ((rule_node(rule), rule) for rule in corpus.rules),
        RecordKind.GLOSSARY: lambda: ((glossary_node(entry), entry) for entry in corpus.glossary),
        RecordKind.CARD: lambda: ((card_node(card), card) for card in corpus.cards),
        RecordKind.RULING: lambda: zip(ruling_nodes(corpus.rulings), corpus.rulings),
        RecordKind.FAQ_SECTION: lambda: (
            (faq_section_node(section, position), section) for position, section in enumerate(corpus.faq_sections, 1)
        ),
        RecordKind.COURSE: lambda: (
            (course_node(section, position), section) for position, section in enumerate(corpus.course, 1)
        ),
    }
    nodes: dict[str, object] = {}
    for name, found in tables.items():
        if kind is None or kind is name:
            nodes.update(found())
    return nodes


def descendants(rule_of: Callable[[str, str], Rule | None], rule: Rule, depth: int = 2) -> list[Rule]:
    """The subrules of ``rule`` down to ``depth`` levels (``rule_of(number,
    edition)`` gives a rule or None); none for a chapter (a glossary entry
    citing a whole chapter names no rule of it)."""
    if depth <= 0 or rule.level is Level.CHAPTER:
        return []
    found = []
    for child in rule.children:
        sub = rule_of(child, rule.edition)
        if sub is not None:
            found.append(sub)
            found.extend(descendants(rule_of, sub, depth - 1))
    return found
