"""What an export holds: rule numbers, sections, ranges, glossary terms,
cards, searches and questions, turned into rules in rule order.

>>> request = SelectionRequest(items=("420.5", "418.5a-i"), terms=("Couche",))
>>> selection = select(kb, request)                       # doctest: +SKIP
>>> [rule.number for rule in selection.rules][:3]         # doctest: +SKIP
['418.5a', '418.5b', '418.5c']

A number selects its rule and every subrule under it (``420`` is the
section and all its rules); a range (``418.5a-i``, ``418.5b-418.5g``,
``409.1a à 409.1h``, ``306-311``) selects every rule printed from its first
number to its last, with the subrules of the last. A term selects its
glossary entry and the rules it cites; a card its FAQ entry, the rules of
its keywords and those its rulings cite; a search or a question the rules
it finds, as they are (without subrules).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules_kb.ask import ask
from rules_kb.core.errors import ExportError, Remedy, RulesKbError, UnknownRuleError
from rules_kb.core.model import Card, GlossaryEntry, RecordKind, Rule, card_node
from rules_kb.core.numbers import RuleNumber, RuleNumberError
from rules_kb.core.text import fold, shortened
from rules_kb.engines.graph import Relation
from rules_kb.loader import KnowledgeBase
from rules_kb.lookup.glossary import cited_rules, define
from rules_kb.lookup.rules import show
from rules_kb.search import search


class SelectionError(ExportError):
    """A selection cannot be read or selects nothing; ``text`` is the part at fault."""

    def __init__(self, message: str, text: str = "") -> None:
        self.text = text
        super().__init__(message)


class UnknownCardError(RulesKbError):
    """No FAQ card has this name; ``close`` are the nearest names."""

    def __init__(self, name: str, close: tuple[str, ...]) -> None:
        self.name = name
        self.close = close
        hint = "Cartes proches : " + ", ".join(f"« {c} »" for c in close) + "." if close else "Aucune carte proche."
        super().__init__(f"Aucune carte de la FAQ ne s'appelle « {shortened(name, 80)} ». {hint}")
        self.remedy = Remedy.SEARCH_CARD


@dataclass(frozen=True, slots=True)
class SelectionRequest:
    """What the judge asked for, as typed.

    ``items`` are rule numbers, sections and ranges (several per string
    allowed, separated by spaces or commas; ``"409.1a à 409.1h"`` may come
    as one string or three); ``terms`` glossary terms; ``cards`` FAQ card
    names; ``searches`` full-text queries; ``questions`` questions in a
    player's words; ``edition`` the edition to read numbers in (None: the
    newest complete edition, then the others); ``limit`` the number of
    rules kept per search and per question (None: 10 and 5).
    """

    items: tuple[str, ...] = ()
    terms: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    searches: tuple[str, ...] = ()
    questions: tuple[str, ...] = ()
    edition: str | None = None
    limit: int | None = None

    @property
    def is_empty(self) -> bool:
        """True when nothing at all was asked for."""
        return not (
            any(item.strip() for item in self.items) or self.terms or self.cards or self.searches or self.questions
        )


@dataclass(frozen=True, slots=True)
class Selected:
    """One part of a selection and what it gave.

    ``kind`` is ``"rule"``, ``"range"``, ``"term"``, ``"card"``,
    ``"search"`` or ``"question"``; ``text`` the part as typed (canonical
    for numbers and ranges: ``"418.5a-418.5i"``); ``label`` a French
    description (``"règle 420.5 et ses sous-règles"``); ``rules`` the keys
    (``"2004:420.5c"``) of the rules it selected, in rule order;
    ``outcome`` for a question: what the checker said of its board.
    """

    kind: str
    text: str
    label: str
    rules: tuple[str, ...]
    outcome: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Selection:
    """The records an export holds.

    ``items`` one :class:`Selected` per part asked for, in the order asked;
    ``rules`` the selected rules without duplicates, by edition (newest
    complete first, as :attr:`rules_kb.kb.KnowledgeBase.editions`) then
    rule order — but for a question alone, in the order ``ask`` ranked them; ``glossary`` the entries selected by term; ``cards`` the FAQ
    cards selected by name; ``warnings`` French sentences about parts that
    selected less than asked (a range end that does not exist).
    """

    items: tuple[Selected, ...]
    rules: tuple[Rule, ...]
    glossary: tuple[GlossaryEntry, ...] = ()
    cards: tuple[Card, ...] = ()
    warnings: tuple[str, ...] = ()

    @property
    def editions(self) -> tuple[str, ...]:
        """The editions of the selected rules and entries, in the order of :attr:`rules`."""
        found = [rule.edition for rule in self.rules] + [entry.edition for entry in self.glossary]
        return tuple(dict.fromkeys(found))

    @property
    def description(self) -> str:
        """The parts as typed, for a header: ``"420.5, terme « Couche »"``."""
        return ", ".join(_SHORT[item.kind](item.text) for item in self.items)


_SHORT = {
    "rule": lambda text: text,
    "range": lambda text: text,
    "term": lambda text: f"terme « {text} »",
    "card": lambda text: f"carte « {text} »",
    "search": lambda text: f"recherche « {text} »",
    "question": lambda text: f"question « {text} »",
}

#: A rule number as typed: chapter, section, rule or subrule, trailing dot allowed.
_NUMBER = r"\d{3}(?:\.\d+[a-zA-Z]?)?|\d(?!\d)"
_ITEM_RE = re.compile(
    rf"(?P<first>{_NUMBER})\.?"
    rf"(?:\s*(?:-|–|—|\.\.|\bà\b)\s*(?:(?P<last>{_NUMBER})|(?P<letter>[a-zA-Z]))(?![\w.]\w)\.?)?"
    r"(?=[\s,;]|$)"
)
_GAP_RE = re.compile(r"[\s,;]+")
_SEARCH_LIMIT = 10
_QUESTION_LIMIT = 5
#: A card name is taken when its similarity (0–100, rapidfuzz ratio of the folded names) reaches this.
CARD_THRESHOLD = 85


@dataclass(frozen=True, slots=True)
class NumberItem:
    """One number or range read from the selection: ``first`` and ``last``
    canonical (equal for one number), ``text`` as typed."""

    text: str
    first: str
    last: str

    @property
    def is_range(self) -> bool:
        """True for a range."""
        return self.first != self.last


def parse_items(items: tuple[str, ...] | list[str]) -> tuple[NumberItem, ...]:
    """Read rule numbers and ranges from ``items`` (strings as typed).

    ``"418.5a-i"`` → ``NumberItem("418.5a-i", "418.5a", "418.5i")``.
    Raises :class:`SelectionError` naming the first part that is neither a
    number nor a range, or a range that goes backwards.
    """
    text = " ".join(items)
    found: list[NumberItem] = []
    position = 0
    while True:
        gap = _GAP_RE.match(text, position)
        if gap:
            position = gap.end()
        if position >= len(text):
            return tuple(found)
        match = _ITEM_RE.match(text, position)
        if match is None:
            bad = _GAP_RE.split(text[position:], maxsplit=1)[0]
            raise SelectionError(
                f"« {bad} » n'est ni un numéro de règle ni une plage de règles. "
                "Exemples : 420.5c (une règle), 420 (une section et ses règles), "
                "418.5a-i, 418.5b-418.5g ou « 409.1a à 409.1h » (des plages).",
                bad,
            )
        found.append(_number_item(match))
        position = match.end()


def _number_item(match: re.Match) -> NumberItem:
    typed = match.group(0).strip()
    try:
        first = RuleNumber.parse(match["first"])
        if match["letter"]:
            if not first.letter:
                raise SelectionError(
                    f"La plage « {typed} » finit par une lettre mais ne commence pas par une sous-règle ; "
                    "écrivez par exemple 418.5a-i.",
                    typed,
                )
            last = RuleNumber(first.chapter, first.section, first.rule, match["letter"].lower())
            RuleNumber.parse(str(last))  # the letter must be one the rules use
        elif match["last"]:
            last = RuleNumber.parse(match["last"])
        else:
            last = first
    except RuleNumberError as error:
        raise SelectionError(f"Dans « {typed} » : {error}", typed) from None
    if last < first:
        raise SelectionError(
            f"La plage « {typed} » va à l'envers : écrivez le plus petit numéro d'abord ({last}-{first}).", typed
        )
    return NumberItem(typed, str(first), str(last))


class _Collector:
    """Gathers the rules, entries and cards of a selection (see :func:`select`)."""

    def __init__(self, kb: KnowledgeBase, edition: str | None) -> None:
        self.kb = kb
        self.edition = kb.check_edition(edition)
        self.items: list[Selected] = []
        self.rules: dict[str, Rule] = {}
        self.glossary: dict[str, GlossaryEntry] = {}
        self.cards: dict[str, Card] = {}
        self.warnings: list[str] = []

    def add(self, kind: str, text: str, label: str, rules, outcome: tuple[str, ...] = (), ranked: bool = False) -> None:
        rules = list(dict.fromkeys(rules))
        for rule in rules:
            self.rules.setdefault(rule.key, rule)
        keys = tuple(rule.key for rule in (rules if ranked else sorted(rules, key=self.order)))
        self.items.append(Selected(kind, text, label, keys, outcome))

    def order(self, rule: Rule) -> tuple:
        editions = self.kb.editions
        rank = editions.index(rule.edition) if rule.edition in editions else len(editions)
        return (rank, RuleNumber.parse(rule.number))

    def subtree(self, rule: Rule) -> list[Rule]:
        """``rule`` and every rule under it, in rule order."""
        found = [rule]
        for number in rule.children:
            child = self.kb.rule(number, rule.edition)
            if child is not None:
                found.extend(self.subtree(child))
        return found

    def cited(self, numbers, edition: str) -> list[Rule]:
        """The rules ``numbers`` of ``edition`` (else of the newest complete
        edition), each with its subrules."""
        found: list[Rule] = []
        for number in numbers:
            rule = self.kb.rule(number, edition) or self.kb.rule(number, self.kb.default_edition)
            if rule is not None:
                found.extend(self.subtree(rule))
        return found

    # parts ------------------------------------------------------------------

    def number(self, item: NumberItem) -> None:
        found = show(self.kb, item.first, self.edition, links=False)
        rule = found.rule
        rules = self.subtree(rule)
        below = len(rules) - 1
        label = f"règle {rule.number}" + (
            f" et ses {below} sous-règles" if below > 1 else " et sa sous-règle" if below else ""
        )
        self.add("rule", rule.number, label, rules)

    def range(self, item: NumberItem) -> None:
        low, high = RuleNumber.parse(item.first), RuleNumber.parse(item.last)
        text = f"{item.first}-{item.last}"
        editions = (self.edition,) if self.edition else self.kb.editions
        for edition in editions:
            rules = [
                rule
                for rule in self.kb.rules(edition)
                if low <= (number := RuleNumber.parse(rule.number)) <= high or _is_under(number, high)
            ]
            if rules:
                break
        else:
            nearest = self.kb.nearest(low, editions[0]) if editions else ()
            raise UnknownRuleError(text, nearest, self.edition or "")
        numbers = {rule.number for rule in rules}
        for end in (item.first, item.last):
            if end not in numbers:
                self.warnings.append(
                    f"Plage {text} : la règle {end} n'existe pas dans l'édition {edition} ; "
                    f"la plage va de {rules[0].number} à {max(rules, key=lambda r: RuleNumber.parse(r.number)).number}."
                )
        rules.sort(key=self.order)
        self.add("range", text, f"règles {rules[0].number} à {rules[-1].number}", rules)

    def term(self, text: str) -> None:
        definition = define(self.kb, text)
        entries = [definition.entry]
        if definition.entry.is_pointer:
            entries.extend(definition.followed)
        rules: list[Rule] = []
        for entry in entries:
            self.glossary.setdefault(f"{entry.edition}:{entry.term}", entry)
            numbers = [rule.number for rule in cited_rules(self.kb, entry)]  # a range's rules within too
            rules.extend(
                self.cited(numbers + [number for number in entry.cites if number not in numbers], entry.edition)
            )
        shown = entries[-1].term
        label = f"terme « {shown} » et les règles qu'il cite" if rules else f"terme « {shown} »"
        self.add("term", text.strip(), label, rules)

    def card(self, name: str) -> None:
        card = find_card(self.kb, name)
        self.cards.setdefault(f"{card.faq}:{card.name}", card)
        graph = self.kb.graph
        node = card_node(card)
        rules: list[Rule] = []
        for edge in graph.outgoing(node, Relation.KEYWORD):
            keyword = self.kb.record(edge.target)
            if keyword is not None:
                rules.extend(self.subtree(keyword))
        for has in graph.outgoing(node, Relation.HAS_RULING):
            for edge in graph.outgoing(has.target, Relation.CITES):
                cited = self.kb.record(edge.target)
                if isinstance(cited, Rule):
                    rules.extend(self.subtree(cited))
        self.add("card", card.name, f"carte « {card.name} » et les règles de ses mots-clés et décisions", rules)

    def search(self, query: str, limit: int) -> None:
        result = search(self.kb, query, limit=limit, edition=self.edition, kinds=(RecordKind.RULE.value,))
        rules = [rule for hit in result.hits if (rule := self.kb.rule(hit.id, hit.edition)) is not None]
        if not rules:
            self.warnings.append(f"La recherche « {query} » ne trouve aucune règle.")
        self.add("search", query.strip(), f"recherche « {query.strip()} » ({len(rules)} règles)", rules)

    def question(self, question: str, limit: int) -> None:
        answer = ask(self.kb, question, limit=limit, edition=self.edition)
        rules = [rule for found in answer.rules if (rule := self.kb.rule(found.number, found.edition)) is not None]
        if not rules:
            self.warnings.append(f"La question « {question} » ne mène à aucune règle.")
        outcome = answer.verification.outcome if answer.verification else ()
        self.add("question", question.strip(), f"réponse à « {question.strip()} » ({len(rules)} règles)", rules, outcome,
                 ranked=True)  # fmt: skip

    def selection(self) -> Selection:
        items = tuple(self.items)
        if len(items) == 1 and items[0].kind == "question":  # the answer's order: the rule that decides first
            rules = tuple(self.rules[key] for key in items[0].rules)
        else:
            rules = tuple(sorted(self.rules.values(), key=self.order))
        return Selection(
            items,
            rules,
            tuple(self.glossary.values()),
            tuple(self.cards.values()),
            tuple(dict.fromkeys(self.warnings)),
        )


def _is_under(number: RuleNumber, ancestor: RuleNumber) -> bool:
    parent = number.parent
    while parent is not None:
        if parent == ancestor:
            return True
        parent = parent.parent
    return False


def find_card(kb: KnowledgeBase, name: str):
    """The FAQ card named ``name`` (accents, case and small typos tolerated).

    Raises :class:`SelectionError` for an empty name and
    :class:`UnknownCardError` (with the nearest names) when no card is close
    enough (:data:`CARD_THRESHOLD`).
    """
    wanted = " ".join(fold(name).split())
    if not wanted:
        raise SelectionError("Le nom de carte est vide : donnez un nom de la FAQ, par exemple « Guide griffon ».")
    cards = kb.records(RecordKind.CARD)
    for card in cards:
        if " ".join(fold(card.name).split()) == wanted:
            return card
    from rapidfuzz import fuzz, process  # deferred: rapidfuzz (8 ms), only for a name not found as written

    ranked = process.extract(wanted, [fold(card.name) for card in cards], scorer=fuzz.ratio, limit=5)
    if ranked and ranked[0][1] >= CARD_THRESHOLD:
        return cards[ranked[0][2]]
    raise UnknownCardError(name.strip(), tuple(cards[index].name for _, score, index in ranked if score >= 60))


def select(kb: KnowledgeBase, request: SelectionRequest) -> Selection:
    """The :class:`Selection` of ``request`` in ``kb``.

    Raises :class:`SelectionError` for an empty request, one that selects
    nothing (a search or question finding no rule), or an unreadable
    number or range, :class:`rules_kb.core.errors.UnknownRuleError` for a number
    no rule has (with the nearest ones), and the errors of
    :meth:`~rules_kb.kb.KnowledgeBase.define` (unknown term),
    :func:`find_card`, :meth:`~rules_kb.kb.KnowledgeBase.search` and
    :meth:`~rules_kb.kb.KnowledgeBase.ask` (empty query),
    :class:`rules_kb.core.errors.UnknownEditionError`.
    """
    if request.is_empty:
        raise SelectionError("Rien à exporter : donnez des numéros de règles (420.5, 418.5a-i).").with_remedy(
            Remedy.SELECT
        )
    collector = _Collector(kb, request.edition)
    for item in parse_items(request.items):
        (collector.range if item.is_range else collector.number)(item)
    for term in request.terms:
        collector.term(term)
    for name in request.cards:
        collector.card(name)
    for query in request.searches:
        collector.search(query, request.limit or _SEARCH_LIMIT)
    for question in request.questions:
        collector.question(question, request.limit or _QUESTION_LIMIT)
    selection = collector.selection()
    if not (selection.rules or selection.glossary or selection.cards):
        raise SelectionError(
            " ".join(selection.warnings) + " Rien à exporter : essayez d'autres mots, ou des numéros de règles."
        )
    return selection
