"""Parser of a set FAQ copied from a forum, as the Time Spiral FAQ of 2006.

Reads ``corpus/faq-spirale-temporelle-2006.txt`` (and any document of that
form). What it expects, by kind rather than by line:

- Forum chrome around each message: a status line ("Hors Ligne"), a rank
  line ("Grade : …"), a signature line (starting with underscores), lone
  "|" lines. They are dropped; the text between them is a message (blank
  lines inside a message do not end it). The
  first line of the first message is the FAQ's title.
- Entries separated by ``-----``. The first entry is the introduction: its
  authors ("Compilée par …, avec des contributions de …"), its date of last
  change and the dates it announces are kept as :class:`FaqInfo`.
- Part headings in capitals at the start of an entry ("NOTES GÉNÉRALES",
  "NOTES SUR DES CARTES SPÉCIFIQUES", "… CARTES « DÉCALÉES DANS LE TEMPS »"):
  a heading that names cards starts the card entries; one that names the
  "décalées" cards marks the following cards as timeshifted.
- General notes: one :class:`FaqSection` per entry, titled ``***…***`` (or,
  where the stars were lost, by its first words). The official rules they
  quote ("502.57. Flash 502.57a …", "420.5n …") become :class:`Rule` records
  of the FAQ's edition, marked ``quoted_from`` the FAQ.
- Card entries: name, mana cost in braces, type line, rules text,
  power/toughness, then rulings each starting with ``*``: a star followed
  by a space, or glued to the capital of a new sentence ("engagée. *La
  capacité…"; not "*au moment où*" nor "*Tous* les", which are emphasis).
  A card cut at the end of a message and repeated at the start of the next
  is kept once.

Emphasis underscores (``_Spirale temporelle_``) are removed from texts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from indexer.textutil import LineIndex, fold, rejoin
from rules_kb.core.model import (
    Card,
    Diagnostic,
    FaqDate,
    FaqInfo,
    FaqSection,
    Rule,
    Ruling,
    Severity,
    SourceSpan,
)
from rules_kb.core.numbers import Level, RuleNumber
from rules_kb.core.references import REFERENCE_BEFORE, rule_numbers_in
from rules_kb.core.vocabulary import CardType, Supertype

_STATUS_RE = re.compile(r"^.{0,12}\b(?:hors|en)\s?ligne\s*$", re.IGNORECASE)
_RANK_RE = re.compile(r"^\s*grade\s*:", re.IGNORECASE)
_SIGNATURE_RE = re.compile(r"^\s*_{5,}")
_SEPARATOR_LINE_RE = re.compile(r"^\s*\|\s*$")
_ENTRY_SEPARATOR_RE = re.compile(r"-{5,}")
#: A star after a space or at the start: a ruling's mark when a space
#: follows it ("* Activer…"), or when it is glued to a capital (see
#: :func:`_starts_ruling`).
_STAR_RE = re.compile(r"(?:(?<=\s)|^)\*(?=\s|[A-ZÀ-ÞŒÆ«\"“])")
#: A star that opens an emphasis closed within the same sentence
#: ("*au moment où*", "*Tous* les").
_EMPHASIS_STAR_RE = re.compile(r"\*(?=\S)[^*.!?\n]*?(?<=\S)\*(?!\w)")
#: What ends the card's text or a ruling before a star glued to a capital.
_SENTENCE_END = '.!?»)"”'
_STARS_TITLE_RE = re.compile(r"^\s*\*{3}(?P<title>.+?)\*{3}")
_PART_HEADING_RE = re.compile(
    r"\s*(?P<heading>(?:[A-ZÀ-ÞŒÆ][A-ZÀ-ÞŒÆ'’-]+|«|»)(?:\s+(?:[A-ZÀ-ÞŒÆ][A-ZÀ-ÞŒÆ'’-]+|«|»))+)(?=\s|$)"
)
_EMPHASIS_RE = re.compile(r"(?<![\w_])_(?=\S)([^_]+?)(?<=\S)_(?![\w_])")
#: An underscore left alone by a lost pair ("_Spirale temporelle.").
_STRAY_UNDERSCORE_RE = re.compile(r"(?<!\w)_(?=\w)|(?<=\w)_(?!\w)")
_UNTITLED_RE = re.compile(r"^\s*(?P<title>[A-ZÀ-Þ][\w'’-]*(?:\s+[\w'’-]+){0,3}?)\s+(?=(?:Le|La|Les|L['’]|Un|Une)\s)")

#: A card type as a type line prints it first (capitalised), then after a
#: hyphen ("Artefact-créature"), and the supertypes it may print after it.
_TYPE_WORDS = "(?:" + "|".join(card_type.label.capitalize() for card_type in CardType) + ")"
_SECOND_TYPE = "(?:" + "|".join(card_type.label for card_type in CardType) + ")"
_SUPERTYPE_WORDS = "(?:" + "|".join(word for supertype in Supertype for word in supertype.inflections) + ")"
_CARD_RE = re.compile(
    r"\s*(?P<name>\S.*?)\s+(?:(?P<cost>(?:\{[^{}\s]*\})+)\s+)?"
    rf"(?P<type>(?:{Supertype.LEGENDARY.label.capitalize()}\s+)?{_TYPE_WORDS}(?:-{_SECOND_TYPE})?"
    rf"(?:\s+{_SUPERTYPE_WORDS})*)(?=\s|$)",
    re.DOTALL,
)
_SUBTYPES_RE = re.compile(r"\s+:\s+(?P<subtypes>[a-zà-ÿœæ][^\s{]*(?:\s+[a-zà-ÿœæ][^\s{]*)*)")
_PT_RE = re.compile(r"\s+(?P<power>[\d*X+-]+)/(?P<toughness>[\d*X+-]+)(?=\s|$)")

_QUOTED_NUMBER_RE = re.compile(r"(?<![\w.,/{\-])(?P<number>\d{3}[.,]\d+[a-z]?)(?P<dot>\.)?(?=\s)")
_REFERENCE_BEFORE_RE = re.compile(REFERENCE_BEFORE, re.IGNORECASE)
_QUOTE_START = ".:!?»)"
_TITLE_MAX_CHARS = 60

_MONTHS = {
    name: number
    for number, name in enumerate(
        (
            "janvier",
            "fevrier",
            "mars",
            "avril",
            "mai",
            "juin",
            "juillet",
            "aout",
            "septembre",
            "octobre",
            "novembre",
            "decembre",
        ),
        start=1,
    )
}
_DATE_RE = re.compile(
    r"(?P<day>\d{1,2})(?:er)?(?:-\d{1,2})?\s+(?P<month>janvier|f[ée]vrier|mars|avril|mai|juin|juillet|ao[ûu]t|"
    r"septembre|octobre|novembre|d[ée]cembre)\s+(?P<year>\d{4})",
    re.IGNORECASE,
)
_LAST_CHANGED_RE = re.compile(r"modifi[ée]e?\s+pour\s+la\s+derni[èe]re\s+fois\s+le\s+", re.IGNORECASE)
_AUTHORS_RE = re.compile(
    r"Compil[ée]e?\s+par\s+(?P<main>.+?)(?:,\s*avec\s+des\s+contributions\s+de\s+(?P<others>.+?))?"
    r"(?=\s+Document\b|\.\s|$)",
    re.IGNORECASE | re.DOTALL,
)


@dataclass(frozen=True, slots=True)
class ParsedFaq:
    """What :func:`parse_faq` returns."""

    info: FaqInfo | None
    sections: tuple[FaqSection, ...]
    cards: tuple[Card, ...]
    rulings: tuple[Ruling, ...]
    rules: tuple[Rule, ...]
    diagnostics: tuple[Diagnostic, ...]


@dataclass(slots=True)
class _State:
    text: str
    document: str
    edition: str
    lines: LineIndex
    diagnostics: list[Diagnostic] = field(default_factory=list)
    sections: list[FaqSection] = field(default_factory=list)
    cards: list[Card] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    in_cards: bool = False
    timeshifted: bool = False

    def span(self, start: int, end: int) -> SourceSpan:
        return self.lines.span(self.text, self.document, start, end)

    def warn(self, offset: int, code: str, message: str, severity: Severity = Severity.WARNING) -> None:
        self.diagnostics.append(Diagnostic(self.document, self.lines.line_of(offset), code, message, severity))


def clean(text: str) -> str:
    """Re-join a FAQ text and remove its emphasis underscores."""
    return rejoin(_STRAY_UNDERSCORE_RE.sub("", _EMPHASIS_RE.sub(r"\1", text)))


def _messages(text: str) -> list[tuple[int, int]]:
    """``[start, end)`` ranges of the forum messages: runs of lines between chrome lines."""
    ranges: list[tuple[int, int]] = []
    start = None
    position = 0
    for line in text.split("\n"):
        is_chrome = bool(
            _STATUS_RE.match(line)
            or _RANK_RE.match(line)
            or _SIGNATURE_RE.match(line)
            or _SEPARATOR_LINE_RE.match(line)
        )
        if is_chrome and start is not None:
            ranges.append((start, position))
            start = None
        elif not is_chrome and start is None and line.strip():
            start = position
        position += len(line) + 1
    if start is not None:
        ranges.append((start, len(text)))
    return ranges


def _entries(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """``[start, end)`` ranges of the ``-----`` separated entries of a message."""
    ranges = []
    for match in _ENTRY_SEPARATOR_RE.finditer(text, start, end):
        ranges.append((start, match.start()))
        start = match.end()
    ranges.append((start, end))
    return [(a, b) for a, b in ranges if text[a:b].strip()]


def parse_faq(text: str, document: str, edition: str) -> ParsedFaq:
    """Parse a FAQ: metadata, general sections, quoted rules, cards and rulings.

    ``text`` is the whole document, ``document`` its corpus id,
    ``edition`` the edition id of the rules it quotes. Never raises on odd
    input; what cannot be read becomes a diagnostic.
    """
    state = _State(text, document, edition, LineIndex(text))
    messages = _messages(text)
    info = None
    title = ""
    for number, (start, end) in enumerate(messages):
        if number == 0:
            first_line_end = text.find("\n", start, end)
            first_line = text[start : first_line_end if first_line_end != -1 else end]
            if not _ENTRY_SEPARATOR_RE.search(first_line) and "*" not in first_line and len(first_line) < 200:
                title = clean(first_line)
                start = first_line_end + 1 if first_line_end != -1 else end
        for position, (entry_start, entry_end) in enumerate(_entries(text, start, end)):
            if number == 0 and position == 0 and info is None:
                info = _info(state, title, entry_start, entry_end)
                continue
            _entry(state, entry_start, entry_end)
    if info is None and title:
        info = FaqInfo(document, title, (), "", (), "", state.span(0, len(title)))
    cards = _deduplicate(state)
    rulings = tuple(ruling for section in state.sections for ruling in section.rulings) + tuple(
        ruling for card in cards for ruling in card.rulings
    )
    rulings = tuple(sorted(rulings, key=lambda ruling: ruling.source.char_start))
    return ParsedFaq(info, tuple(state.sections), cards, rulings, _link_rules(state.rules), tuple(state.diagnostics))


def _iso(match: re.Match) -> str:
    month = _MONTHS.get(fold(match.group("month")))
    if month is None:
        return ""
    return f"{int(match.group('year')):04d}-{month:02d}-{int(match.group('day')):02d}"


def _info(state: _State, title: str, start: int, end: int) -> FaqInfo:
    raw = state.text[start:end]
    authors: list[str] = []
    found = _AUTHORS_RE.search(raw)
    if found:
        for group in ("main", "others"):
            if found.group(group):
                authors.extend(name for name in re.split(r"\s*,\s*|\s+et\s+", rejoin(found.group(group))) if name)
    last_changed = ""
    dates = []
    previous = 0
    changed = _LAST_CHANGED_RE.search(raw)
    for match in _DATE_RE.finditer(raw):
        if changed and match.start() == changed.end():
            last_changed = _iso(match)
        else:
            label = clean(raw[previous : match.start()])
            label = re.split(r"(?<=[.!?])\s+", label)[-1]
            label = re.sub(r"\s*(?::|\bà partir du|\ble|\bdu)\s*$", "", label).strip()
            dates.append(FaqDate(label, match.group(0), _iso(match)))
        previous = match.end()
    return FaqInfo(
        faq=state.document,
        title=title,
        authors=tuple(authors),
        last_changed=last_changed,
        dates=tuple(dates),
        introduction=clean(raw),
        source=state.span(start, end),
    )


def _entry(state: _State, start: int, end: int) -> None:
    """Parse one ``-----`` entry: a part heading, then a section or a card."""
    heading = _PART_HEADING_RE.match(state.text, start, end)
    if heading:
        folded = fold(heading.group("heading"))
        if "carte" in folded:
            state.in_cards = True
            state.timeshifted = "decale" in folded
        elif "notes generales" in folded:
            state.in_cards = False
        start = heading.end()
    if state.in_cards:
        card = _card(state, start, end)
        if card is not None:
            state.cards.append(card)
            return
    _section(state, start, end)


def _starts_ruling(text: str, star: int, start: int, end: int) -> bool:
    """Whether the star at ``text[star]`` (matched by :data:`_STAR_RE` in
    the entry ``text[start:end]``) starts a ruling.

    A star followed by a space does. A star glued to a capital ("engagée.
    *La capacité…") does when it follows the end of a sentence (of the
    card's text or of the previous ruling) and opens no emphasis closed in
    the same sentence ("*Tous* les" is emphasis, as is "*au moment où*",
    which the capital rule already leaves out).
    """
    if star + 1 >= end or text[star + 1].isspace():
        return True
    before = text[start:star].rstrip()
    if not before or before[-1] not in _SENTENCE_END:
        return False
    return _EMPHASIS_STAR_RE.match(text, star, end) is None


def _split_rulings(state: _State, start: int, end: int) -> tuple[int, list[tuple[int, int]]]:
    """End of the entry's main text, and the ``[start, end)`` ranges of its rulings."""
    marks = [m for m in _STAR_RE.finditer(state.text, start, end) if _starts_ruling(state.text, m.start(), start, end)]
    if not marks:
        return end, []
    ranges = []
    for index, mark in enumerate(marks):
        stop = marks[index + 1].start() if index + 1 < len(marks) else end
        ranges.append((mark.end(), stop))
    return marks[0].start(), ranges


def _rulings(state: _State, ranges: list[tuple[int, int]], card: str, section: str) -> tuple[Ruling, ...]:
    rulings = []
    for start, end in ranges:
        text = clean(state.text[start:end])
        if text:
            rulings.append(Ruling(text, card, section, state.document, rule_numbers_in(text), state.span(start, end)))
    return tuple(rulings)


def _section(state: _State, start: int, end: int) -> None:
    raw = state.text[start:end]
    titled = _STARS_TITLE_RE.match(raw)
    if titled:
        title = clean(titled.group("title"))
        body_start = start + titled.end()
    else:
        untitled = _UNTITLED_RE.match(raw) if not state.in_cards else None
        title = clean(untitled.group("title")) if untitled else ""
        body_start = start + (untitled.end("title") if untitled else 0)
        if untitled:
            state.warn(
                start,
                "faq-section-without-stars",
                f"La section « {title} » de la FAQ n'a pas de titre entre *** ; son titre est pris dans ses premiers mots.",
            )
    text_end, ruling_ranges = _split_rulings(state, body_start, end)
    quote_start = _quoted_rules(state, body_start, text_end, title)
    state.sections.append(
        FaqSection(
            title=title,
            text=clean(state.text[body_start:quote_start]),
            rulings=_rulings(state, ruling_ranges, "", title),
            faq=state.document,
            source=state.span(start, end),
        )
    )


def _card(state: _State, start: int, end: int) -> Card | None:
    text_end, ruling_ranges = _split_rulings(state, start, end)
    face = _CARD_RE.match(state.text, start, text_end)
    if face is None:
        if ruling_ranges:
            state.warn(
                start,
                "faq-unreadable-card",
                "Une fiche de carte de la FAQ n'a pas la forme « nom {coût} type … » : elle est gardée comme section.",
            )
        return None
    position = face.end()
    type_line = face.group("type")
    subtypes = _SUBTYPES_RE.match(state.text, position, text_end)
    if subtypes:
        type_line += state.text[position : subtypes.end()]
        position = subtypes.end()
    power = toughness = ""
    pt = _PT_RE.match(state.text, position, text_end) if "réature" in type_line else None
    if pt:
        power, toughness = pt.group("power"), pt.group("toughness")
        position = pt.end()
    name = clean(face.group("name"))
    return Card(
        name=name,
        mana_cost=face.group("cost") or "",
        type_line=clean(type_line),
        rules_text=clean(state.text[position:text_end]),
        power=power,
        toughness=toughness,
        rulings=_rulings(state, ruling_ranges, name, ""),
        faq=state.document,
        timeshifted=state.timeshifted,
        source=state.span(start, end),
    )


def _deduplicate(state: _State) -> tuple[Card, ...]:
    """Cards in order, a card cut at the end of a message and repeated later kept once (the longer)."""
    kept: list[Card] = []
    for card in state.cards:
        earlier = next((k for k in kept if k.name == card.name), None)
        if earlier is None:
            kept.append(card)
            continue
        first = re.sub(r"\s", "", clean(state.text[earlier.source.char_start : earlier.source.char_end]))
        second = re.sub(r"\s", "", clean(state.text[card.source.char_start : card.source.char_end]))
        if second.startswith(first) or first.startswith(second):
            longer = card if len(second) >= len(first) else earlier
            kept[kept.index(earlier)] = longer
            state.warn(
                card.source.char_start,
                "faq-card-repeated",
                f"La fiche « {card.name} » est coupée à la fin d'un message et reprise dans le suivant : "
                "seule la fiche complète est gardée.",
            )
        else:
            kept.append(card)
            state.warn(
                card.source.char_start,
                "faq-card-twice",
                f"La carte « {card.name} » a deux fiches différentes dans la FAQ : les deux sont gardées.",
            )
    return tuple(kept)


def _quoted_rules(state: _State, start: int, end: int, section: str) -> int:
    """Add the rules quoted in ``text[start:end]``; returns where the quote begins (or ``end``)."""
    text = state.text
    found: list[tuple[int, int, RuleNumber, str]] = []  # (offset, text offset, number, printed)
    current: RuleNumber | None = None
    for match in _QUOTED_NUMBER_RE.finditer(text, start, end):
        before = text[max(start, match.start() - 60) : match.start()].rstrip()
        after = text[match.end() : match.end() + 3].lstrip()
        if not after or not (after[0].isupper() or after[0] in '«"('):
            continue
        if _REFERENCE_BEFORE_RE.search(before):
            continue
        after_title = bool(found) and found[-1][2].level is Level.RULE and _is_title(text[found[-1][1] : match.start()])
        if not (before and before[-1] in _QUOTE_START) and not after_title:
            continue
        printed = match.group("number")
        try:
            number = RuleNumber.parse(printed.replace(",", "."))
        except ValueError:
            continue
        if "," in printed:
            state.warn(
                match.start(),
                "misprinted-number",
                f"Le numéro de règle « {printed} » est imprimé avec une virgule ; il est lu comme {number}.",
            )
        if current is not None and number <= current:
            expected = [n for n in current.successors() if n.level is Level.SUBRULE] or list(current.successors())
            if expected:
                state.warn(
                    match.start(),
                    "misnumbered-rule",
                    f"La règle citée « {printed} » se trouve à la place de {expected[0]} (après {current}) : "
                    f"elle est rangée sous le numéro {expected[0]}.",
                    Severity.ERROR,
                )
                number = expected[0]
        found.append((match.start(), match.end(), number, printed.rstrip(".")))
        current = number
    for index, (offset, text_offset, number, printed) in enumerate(found):
        stop = found[index + 1][0] if index + 1 < len(found) else end
        content = text[text_offset:stop]
        title = ""
        if number.level is Level.RULE and _is_title(content):
            title, content = clean(content), ""
        state.rules.append(
            Rule(
                number=str(number),
                edition=state.edition,
                title=title,
                text=clean(content),
                examples=(),
                parent=str(number.parent) if number.parent is not None else "",
                children=(),
                source=state.span(offset, stop),
                printed_number=printed,
                quoted_from=state.document,
            )
        )
    return found[0][0] if found else end


def _is_title(text: str) -> bool:
    stripped = clean(text)
    return bool(stripped) and len(stripped) <= _TITLE_MAX_CHARS and not any(c in stripped for c in ".:;!?«»")


def _link_rules(rules: list[Rule]) -> tuple[Rule, ...]:
    """The quoted rules with ``children`` filled among themselves."""
    numbers = {rule.number for rule in rules}
    children: dict[str, list[str]] = {}
    for rule in rules:
        if rule.parent in numbers:
            children.setdefault(rule.parent, []).append(rule.number)
    return tuple(
        Rule(
            number=rule.number,
            edition=rule.edition,
            title=rule.title,
            text=rule.text,
            examples=rule.examples,
            parent=rule.parent,
            children=tuple(children.get(rule.number, ())),
            source=rule.source,
            printed_number=rule.printed_number,
            quoted_from=rule.quoted_from,
        )
        for rule in rules
    )
