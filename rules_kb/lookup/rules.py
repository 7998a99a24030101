"""``show``: a rule by its number, its context, and what the rule graph says of it.

:func:`show` finds a rule by its number, canonical or as misprinted in the
source, with its ancestors, subrules, other versions and notes on its
number; :func:`rule_links` gathers what the graph says of it: the rules it
cites, the records citing it, the glossary terms it uses, the FAQ rulings
and cards bearing on it, its counterparts in other editions and the word
diff of its versions. :func:`term_users` gives the rules using a glossary
entry, for ``define``.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from rules_kb.core.errors import UnknownRuleError
from rules_kb.core.model import (
    Card,
    Document,
    GlossaryEntry,
    RecordKind,
    Rule,
    Ruling,
    glossary_node,
    node_kind,
    rule_node,
)
from rules_kb.core.numbers import SUBRULE_LETTERS, RuleNumber, RuleNumberError
from rules_kb.core.text import first_sentence
from rules_kb.engines.graph import Relation
from rules_kb.loader import KnowledgeBase


class Link(NamedTuple):
    """One record at the other end of an edge: its node id, ``kind``, the
    record itself, ``text`` (the reference as printed, or the term as
    written) and ``score`` (similarity, for counterparts and versions)."""

    node: str
    kind: RecordKind
    record: Any
    text: str = ""
    score: float = 1.0


class Version(NamedTuple):
    """Another text of the same rule (a FAQ's revision) with the word diff
    from the older text to the newer: ``(op, words)`` pairs, ``op`` in
    ``"equal"``, ``"delete"``, ``"insert"``; ``subrules`` the direct
    subrules of this version, each with its diff from (or to) the subrule of
    the same number of the rule shown (all inserted or deleted where that
    edition has no such subrule); ``score`` the similarity of all these
    words, from 0 to 1 (:func:`similarity`): a title alone says nothing of
    how much the text under it changed; ``own_score`` the similarity of
    ``diff`` alone, the rule's own title and text, for a view that leaves
    its subrules out. :attr:`changed` and :attr:`own_changed` say whether
    the diffs hold a change at all."""

    rule: Rule
    diff: tuple[tuple[str, str], ...]
    score: float
    subrules: tuple[tuple[Rule, tuple[tuple[str, str], ...]], ...] = ()
    own_score: float = 1.0

    @property
    def own_changed(self) -> bool:
        """True when the rule's own title or text differ (words deleted or inserted in :attr:`diff`)."""
        return any(op != "equal" for op, _ in self.diff)

    @property
    def changed(self) -> bool:
        """True when the rule or one of its subrules differ."""
        return self.own_changed or any(op != "equal" for _, diff in self.subrules for op, _ in diff)


class RuleLinks(NamedTuple):
    """The neighbourhood of a rule in the graph, as ``show`` prints it.

    ``cites``: rules it cites (:class:`Link` to :class:`Rule`), in rule
    order; ``cited_by``: records citing it (rules first, in rule order, then
    glossary entries, rulings, FAQ and course sections); ``terms``: glossary
    entries its text uses; ``rulings``: FAQ rulings citing it or given in the
    FAQ section that quotes it (``text`` says which: ``"cite"`` or
    ``"section"``); ``cards``: FAQ cards with it as keyword;
    ``counterparts``: the same rule in other editions (``score``);
    ``versions``: other texts of the same number with their diff.
    """

    cites: tuple[Link, ...]
    cited_by: tuple[Link, ...]
    terms: tuple[Link, ...]
    rulings: tuple[Link, ...]
    cards: tuple[Link, ...]
    counterparts: tuple[Link, ...]
    versions: tuple[Version, ...]


class Note(NamedTuple):
    """A French sentence about a rule's number. ``see`` is the number of
    another rule the reader should look at (``""``: none); a front end may
    add how to show it."""

    text: str
    see: str = ""


class Lookup(NamedTuple):
    """The answer to ``show``: the rule, its context and what to say about its number.

    ``ancestors`` go from the chapter down to the parent (for a rule quoted
    by a FAQ, taken from the complete edition where the FAQ does not quote
    them); ``children`` are the rule's direct subrules; ``also_printed_on``
    lists the rules of the same edition that the source printed with this
    number by mistake; ``notes`` are :class:`Note` about misprinted numbers;
    ``versions`` are the other texts of the same rule: the revision a FAQ
    quotes of a rule of a complete edition, or the other way round, in
    edition order; ``version_subrules`` holds the direct subrules of each
    version, in the same order; ``documents`` the documents of the rule and
    of its versions, by id; ``links`` what the graph says of the rule, when
    asked for (None otherwise).
    """

    rule: Rule
    ancestors: tuple[Rule, ...]
    children: tuple[Rule, ...]
    also_printed_on: tuple[Rule, ...]
    notes: tuple[Note, ...]
    versions: tuple[Rule, ...] = ()
    version_subrules: tuple[tuple[Rule, ...], ...] = ()
    documents: Mapping[str, Document] = MappingProxyType({})
    links: RuleLinks | None = None


def show(kb: KnowledgeBase, number: str, edition: str | None = None, links: bool = True) -> Lookup:
    """Find a rule by its number, canonical or as misprinted in the source.

    ``number`` may have a trailing dot or capital letter (``"420.5C."``).
    Without ``edition``, the newest complete edition is searched first,
    then the others. Numbers match exactly: ``502.1`` is never ``502.10``.
    ``links`` adds what the rule graph says about the rule
    (:func:`rule_links`). Raises :class:`rules_kb.core.numbers.RuleNumberError`
    for something that is not a rule number,
    :class:`rules_kb.core.errors.UnknownEditionError` for an edition without
    rules and :class:`rules_kb.core.errors.UnknownRuleError` (with the
    nearest existing numbers) when no rule has the number.

    The errors help to find the rule: a number typed with look-alike
    characters (``42O.5``, letter O) names the existing rule it stands for
    (:attr:`~rules_kb.core.numbers.RuleNumberError.suggestion`); a number
    after the last rule of the edition names its last rules
    (:attr:`~rules_kb.core.errors.UnknownRuleError.beyond`).
    """
    editions = (kb.check_edition(edition),) if edition else kb.editions
    try:
        wanted = RuleNumber.parse(number)
    except RuleNumberError:
        raise RuleNumberError(number, _look_alike(kb, number, editions)) from None
    canonical = str(wanted)
    for candidate in editions:
        rule = kb.rule(canonical, candidate)
        misprinted = kb.printed_as(canonical, candidate)
        if rule is None and misprinted:
            rule, misprinted = misprinted[0], misprinted[1:]
        if rule is not None:
            found = _lookup(kb, rule, canonical, misprinted)
            return found._replace(links=rule_links(kb, rule)) if links else found
    ordered = kb.numbers(editions[0]) if editions else []
    if ordered and wanted > ordered[-1]:
        last = tuple(str(found) for found in ordered[-4:])
        raise UnknownRuleError(number.strip(), last, edition or "", beyond=editions[0])
    nearest = kb.nearest(wanted, editions[0]) if editions else ()
    raise UnknownRuleError(number.strip(), nearest, edition or "")


#: Characters typed for the digit or the dot they look like (``42O.5``, ``42l.5``, ``420,5``).
_LOOK_ALIKES = str.maketrans({"O": "0", "o": "0", "Q": "0", "l": "1", "I": "1", "|": "1", ",": "."})


def _look_alike(kb: KnowledgeBase, text: str, editions: tuple[str, ...]) -> str:
    """The existing rule number ``text`` stands for when typed with
    look-alike characters or inner spaces (``42O.5`` → ``420.5``), else ``""``.

    A last character that is a subrule letter stays a letter (``42O.5c``)."""
    body = "".join(text.split()).rstrip(".")
    head, tail = (body[:-1], body[-1]) if body and body[-1].lower() in SUBRULE_LETTERS else (body, "")
    try:
        repaired = str(RuleNumber.parse(head.translate(_LOOK_ALIKES) + tail))
    except RuleNumberError:
        return ""
    return repaired if any(kb.rule(repaired, edition) is not None for edition in editions) else ""


def _lookup(kb: KnowledgeBase, rule: Rule, canonical: str, misprinted: tuple[Rule, ...]) -> Lookup:
    edition = rule.edition
    notes: list[Note] = []
    if rule.is_misnumbered:
        notes.append(Note(
            f"La source imprime cette règle sous le numéro {rule.printed_number} ; "
            f"sa place dans la numérotation en fait la règle {rule.number}."
        ))  # fmt: skip
    if rule.quoted_from:
        faq = kb.document(rule.quoted_from)
        name = f"« {faq.title} » ({faq.date})" if faq else rule.quoted_from
        notes.append(Note(
            f"Règle citée par {name} : texte nouveau ou révisé après l'édition complète "
            f"{kb.default_edition}, tel que la FAQ le cite."
        ))  # fmt: skip
    for other in misprinted:
        notes.append(
            Note(f"Le numéro {canonical} est aussi imprimé par erreur sur la règle {other.number}.", other.number)
        )
    ancestors = []
    parent = rule.parent
    while parent:
        ancestor = kb.rule(parent, edition)
        if ancestor is None and rule.quoted_from:
            ancestor = kb.rule(parent, kb.default_edition)
        if ancestor is None:
            break
        ancestors.append(ancestor)
        parent = ancestor.parent
    children = tuple(kb.rule(child, edition) for child in rule.children)
    versions = tuple(
        other
        for other_edition in kb.editions
        if other_edition != edition
        and (other := kb.rule(rule.number, other_edition)) is not None
        and (other.quoted_from or rule.quoted_from)
    )
    version_subrules = tuple(
        tuple(kb.rule(child, version.edition) for child in version.children) for version in versions
    )
    documents = {
        document.id: document
        for record in (rule, *versions)
        if (document := kb.document(record.source.document)) is not None
    }
    return Lookup(
        rule, tuple(reversed(ancestors)), children, misprinted, tuple(notes), versions, version_subrules, documents
    )


_KIND_ORDER = {kind: position for position, kind in enumerate(
    (RecordKind.RULE, RecordKind.GLOSSARY, RecordKind.RULING, RecordKind.CARD, RecordKind.FAQ_SECTION, RecordKind.COURSE)
)}  # fmt: skip


def _order(link: Link) -> tuple:
    if isinstance(link.record, Rule):
        return (0, link.record.edition, RuleNumber.parse(link.record.number))
    return (_KIND_ORDER.get(link.kind, 9), "", RuleNumber(0))


def _links(kb: KnowledgeBase, edges, far_end) -> tuple[Link, ...]:
    found: dict[str, Link] = {}
    for edge in edges:
        node = far_end(edge)
        record = kb.record(node)
        if record is not None and node not in found:
            found[node] = Link(node, node_kind(node), record, edge.text, edge.score)
    return tuple(sorted(found.values(), key=_order))


def rule_links(kb: KnowledgeBase, rule: Rule) -> RuleLinks:
    """The :class:`RuleLinks` of ``rule`` in ``kb``'s graph."""
    graph = kb.graph
    node = rule_node(rule)
    target = lambda edge: edge.target
    source = lambda edge: edge.source
    incoming_cites = graph.incoming(node, Relation.CITES)
    cites = _links(kb, graph.outgoing(node, Relation.CITES), target)
    cited_by = _links(kb, incoming_cites, source)
    terms = tuple(
        sorted(
            _links(kb, graph.outgoing(node, Relation.USES_TERM), target), key=lambda link: link.record.term.casefold()
        )
    )
    # the texts of this number: this rule and its versions, for FAQ rulings and cards
    same = [node, *(e.target for e in graph.outgoing(node, Relation.VERSION_OF))]
    same += [e.source for e in graph.incoming(node, Relation.VERSION_OF)]
    rulings: dict[str, Link] = {}
    for edge in incoming_cites:
        if node_kind(edge.source) is RecordKind.RULING:
            rulings.setdefault(edge.source, Link(edge.source, RecordKind.RULING, kb.record(edge.source), "cite"))
    for text_node in same:
        for quote in graph.incoming(text_node, Relation.QUOTES):
            for has in graph.outgoing(quote.source, Relation.HAS_RULING):
                rulings.setdefault(has.target, Link(has.target, RecordKind.RULING, kb.record(has.target), "section"))
    cards = _links(kb, [e for n in same for e in graph.incoming(n, Relation.KEYWORD)], source)
    counterparts = _links(
        kb,
        [*graph.outgoing(node, Relation.COUNTERPART), *graph.incoming(node, Relation.COUNTERPART)],
        lambda edge: edge.target if edge.source == node else edge.source,
    )
    versions = []
    for other_node in same[1:]:
        other = kb.record(other_node)
        if other is None:
            continue
        revised = bool(other.quoted_from)
        diff = _diff(rule, other, revised)
        subrules = tuple(
            (child, _diff(kb.rule(child.number, rule.edition), child, revised))
            for child in (kb.rule(number, other.edition) for number in other.children)
            if child is not None
        )
        score = similarity((diff, *(part for _, part in subrules)))
        versions.append(Version(other, diff, score, subrules, similarity((diff,))))
    return RuleLinks(
        cites, cited_by, terms, tuple(link for link in rulings.values() if link.record is not None),
        cards, counterparts, tuple(versions),
    )  # fmt: skip


def word_diff(old: str, new: str) -> tuple[tuple[str, str], ...]:
    """A word-level diff of two texts: ``(op, text)`` pairs in order, ``op``
    one of ``"equal"``, ``"delete"`` (only in ``old``), ``"insert"`` (only in
    ``new``); the texts of the pairs, joined with spaces, give back each text."""
    before, after = old.split(), new.split()
    parts: list[tuple[str, str]] = []
    matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op in ("equal", "delete", "replace") and i2 > i1:
            parts.append(("equal" if op == "equal" else "delete", " ".join(before[i1:i2])))
        if op in ("insert", "replace") and j2 > j1:
            parts.append(("insert", " ".join(after[j1:j2])))
    return tuple(parts)


def similarity(diffs: Iterable[tuple[tuple[str, str], ...]]) -> float:
    """How alike two texts are, from their word diffs (:func:`word_diff`, one
    per part: a rule, its subrules): twice the words kept over the words of
    both texts, difflib's ratio; 1.0 for two empty texts."""
    kept = before = after = 0
    for diff in diffs:
        for op, words in diff:
            count = len(words.split())
            kept += count if op == "equal" else 0
            before += count if op != "insert" else 0
            after += count if op != "delete" else 0
    return 2 * kept / (before + after) if before + after else 1.0


def _full_text(rule: Rule | None) -> str:
    return " ".join(part for part in (rule.title, rule.text) if part) if rule is not None else ""


def _diff(shown: Rule | None, other: Rule, revised: bool) -> tuple[tuple[str, str], ...]:
    """Word diff from the older text to the newer: ``other`` is the newer
    when ``revised`` (a FAQ's revision of the rule shown)."""
    if revised:
        return word_diff(_full_text(shown), _full_text(other))
    return word_diff(_full_text(other), _full_text(shown))


def term_users(kb: KnowledgeBase, entry: GlossaryEntry) -> tuple[Link, ...]:
    """Rules whose text uses ``entry`` (``text``: the words as written), in
    rule order, editions of the entry first."""
    links = _links(kb, kb.graph.incoming(glossary_node(entry), Relation.USES_TERM), lambda edge: edge.source)
    return tuple(sorted(links, key=lambda link: (link.record.edition != entry.edition, _order(link))))


def describe(record: Any) -> str:
    """A short French label of a record: ``"420.5c (2004)"``, ``"glossaire : Couche"``…"""
    if isinstance(record, Rule):
        return f"{record.number} ({record.edition})"
    if isinstance(record, GlossaryEntry):
        return f"glossaire : {record.term}"
    if isinstance(record, Ruling):
        return f"décision FAQ : {record.card or record.section}"
    if isinstance(record, Card):
        return f"carte : {record.name}"
    title = getattr(record, "title", "")
    if hasattr(record, "course"):
        return f"cours : {title}"
    return f"section de FAQ : {title}"


__all__ = [
    "Link", "Lookup", "Note", "RuleLinks", "Version", "describe", "first_sentence", "rule_links", "show",
    "similarity", "term_users", "word_diff",
]  # fmt: skip
