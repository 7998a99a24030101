"""Recognising the concepts of a question: glossary terms, keyword abilities,
rule titles (zones, steps, card types…), FAQ card names, rule numbers, and
the players' words of the lexicon (:mod:`rules_kb.lexicon`).

Phrases and questions are compared word by word through the index's
analyzer (:func:`rules_kb.analysis.french_analyzer`: lowercase, elision,
accents folded, French stemming), so "blessure fatale", "Blessures
fatales" and "blessures fatales" are one phrase. A stop word inside a
phrase is optional ("brûlure mana" is "Brûlure de mana"); one at its start
is required ("en jeu" is not "jeu"); stop words of the question between
the phrase's words are skipped. A word also matches a stem of five letters
or more that starts it (the stemmer leaves some verb forms whole:
"déclenchent"). The longest phrase wins at each place.

A word the rules never use and no phrase knows is taken for a typo of the
closest word of a phrase (one edit for up to seven letters, two from
eight; a transposition counts one): "pietinemnt" is "piétinement".
"""

from __future__ import annotations

import enum
import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from rules_kb.model import Rule
from rules_kb.text import fold, normalise_term


class ConceptKind(enum.Enum):
    """What a recognised phrase points to."""

    GLOSSARY = "glossary"
    """A glossary entry (headword or form)."""
    KEYWORD = "keyword"
    """A keyword ability: a titled rule of 502."""
    RULE = "rule"
    """Another titled rule (zones, steps, card types, sections)."""
    CARD = "card"
    """A card of a FAQ, by its French name."""
    EXPRESSION = "expression"
    """Words of the documents that are no title (``points de vie``): they only widen the search."""
    NUMBER = "number"
    """A rule number typed in the question."""

    @property
    def label(self) -> str:
        """The French name users read."""
        return _KIND_LABELS[self]


_KIND_LABELS = {
    ConceptKind.GLOSSARY: "terme du glossaire",
    ConceptKind.KEYWORD: "capacité à mot-clef",
    ConceptKind.RULE: "titre de règle",
    ConceptKind.CARD: "carte de la FAQ",
    ConceptKind.EXPRESSION: "expression des règles",
    ConceptKind.NUMBER: "numéro de règle",
}

#: A question's word matches a phrase's stem it starts with, from stems of this length.
PREFIX_STEM = 5
#: A rule title shared by this many different rule numbers or more ("Généralités") names no concept.
SHARED_TITLE = 3
#: Rule numbers typed in a question: 420, 420.5, 420.5c.
RULE_NUMBER_RE = re.compile(r"(?<![\d./])(\d{3}(?:\.\d+[a-z]?)?)(?![\d/]|\.\d)")


@dataclass(frozen=True, slots=True)
class Target:
    """What a phrase names: its ``kind``, ``name`` in the documents' words
    (glossary headword, rule title, card name, expression, rule number) and
    ``nodes``, the graph node ids it stands for (see :mod:`rules_kb.graph`;
    empty for an expression)."""

    kind: ConceptKind
    name: str
    nodes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Concept:
    """A concept found in a question.

    ``text`` is the question's words as typed, at ``[start, end)``;
    ``target`` what they name; ``via`` how they were recognised (``""``
    when the question uses the documents' own words, else the lexicon line
    and its source); ``corrected`` names the typos fixed on the way
    (``"pietinemnt → pietinement"``), ``""`` if none.
    """

    text: str
    start: int
    end: int
    target: Target
    via: str = ""
    corrected: str = ""


@dataclass(frozen=True, slots=True)
class Correction:
    """A word of a question taken for a typo: ``word`` as typed (folded),
    ``fixed`` the word of a phrase it was read as, ``stem`` its index term."""

    word: str
    fixed: str
    stem: str


@dataclass(frozen=True, slots=True)
class Recognition:
    """What :meth:`ConceptTable.recognise` found: ``concepts`` in the
    question's order and the typos ``corrections``."""

    concepts: tuple[Concept, ...]
    corrections: tuple[Correction, ...]


class _Token:
    __slots__ = ("stem", "stop", "start", "end", "surface")

    def __init__(self, stem: str, stop: bool, start: int, end: int, surface: str) -> None:
        self.stem = stem
        self.stop = stop
        self.start = start
        self.end = end
        self.surface = surface


def _tokens(text: str) -> list[_Token]:
    """The words of ``text`` through the index's analyzer, stop words kept
    (flagged), numbers and P/T left out."""
    from rules_kb.analysis import french_analyzer

    return [
        _Token(token.text, bool(token.stopped), token.startchar, token.endchar, fold(text[token.startchar : token.endchar]))
        for token in french_analyzer()(text, chars=True, removestops=False)
        if not any(char.isdigit() for char in token.text)
    ]


Key = tuple[tuple[str, bool], ...]


class ConceptTable:
    """Every phrase that names a concept, by its first word.

    Built by :func:`build_table` from a knowledge base; :meth:`recognise`
    reads a question.
    """

    def __init__(self) -> None:
        self._phrases: dict[str, list[tuple[Key, Target, str]]] = {}
        self._stems: set[str] = set()
        self._surfaces: dict[str, str] = {}
        self.phrases = 0
        self.closeness: dict[str, dict[str, float]] = {}
        """Glossary node → {rule node: :func:`closeness` of the definition to
        each subrule of the rules the entry cites}, computed once."""

    def add(self, phrase: str, target: Target, via: str = "") -> bool:
        """Register ``phrase`` for ``target``; False if it has no word to match."""
        tokens = _tokens(phrase)
        key = tuple((token.stem, token.stop) for token in tokens)
        if not key or all(stop for _, stop in key):
            return False
        bucket = self._phrases.setdefault(key[0][0], [])
        if any(known == key and same == target for known, same, _ in bucket):
            return True
        bucket.append((key, target, via))
        self.phrases += 1
        for token in tokens:
            if not token.stop:
                self._stems.add(token.stem)
                if len(token.surface) >= 4 and token.surface.isalpha():
                    self._surfaces.setdefault(token.surface, token.stem)
        return True

    @property
    def words(self) -> tuple[str, ...]:
        """The words of every phrase (folded), for suggestions."""
        return tuple(self._surfaces)

    def _correct(self, tokens: list[_Token], known: Callable[[str], bool]) -> list[Correction]:
        corrections = []
        for token in tokens:
            word = token.surface
            if token.stop or len(word) < 5 or not word.isalpha() or token.stem in self._stems or known(token.stem):
                continue
            from rapidfuzz.distance import OSA  # only when a word is unknown
            from rapidfuzz.process import extractOne

            allowed = 1 if len(word) < 8 else 2
            found = extractOne(word, list(self._surfaces), scorer=OSA.distance, score_cutoff=allowed)
            if found is not None:
                best = found[0]
                corrections.append(Correction(word, best, self._surfaces[best]))
                token.stem = self._surfaces[best]
                token.surface = best
        return corrections

    @staticmethod
    def _same(word: str, stem: str) -> bool:
        """A question's word matches a phrase's stem: equal, or (stems of
        five letters or more) the stem starts it — the stemmer leaves some
        verb forms whole ("déclenchent" is "déclench")."""
        return word == stem or (len(stem) >= PREFIX_STEM and word.startswith(stem))

    @classmethod
    def _match(cls, key: Key, tokens: list[_Token], position: int) -> int:
        """The index after ``key`` matched from ``tokens[position]``, or -1."""
        j = position
        for k, (stem, stop) in enumerate(key):
            while k and j < len(tokens) and tokens[j].stop and not cls._same(tokens[j].stem, stem):
                j += 1
            if j < len(tokens) and cls._same(tokens[j].stem, stem):
                j += 1
            elif not (stop and k):
                return -1
        return j

    def _candidates(self, stem: str) -> list[tuple[Key, Target, str]]:
        found = list(self._phrases.get(stem, ()))
        for length in range(len(stem) - 1, PREFIX_STEM - 1, -1):
            found.extend(self._phrases.get(stem[:length], ()))
        return found

    def recognise(self, question: str, known: Callable[[str], bool] = lambda stem: True) -> Recognition:
        """The concepts of ``question``, in the question's order, and the typos corrected.

        ``known(stem)`` says whether the rules use a word (stemmed); a word
        neither they nor a phrase know is corrected to the nearest word of a
        phrase (see the module docstring). Rule numbers are not looked for
        here (see :data:`RULE_NUMBER_RE`).
        """
        tokens = _tokens(question)
        corrections = self._correct(tokens, known)
        found: list[Concept] = []
        position = 0
        while position < len(tokens):
            token = tokens[position]
            best_end, best = -1, []
            if not token.stop or token.stem in self._phrases:  # a phrase may start with a stop word
                for key, target, via in self._candidates(token.stem):
                    end = self._match(key, tokens, position)
                    if end > best_end:
                        best_end, best = end, [(target, via)]
                    elif end == best_end and end > 0:
                        best.append((target, via))
            if best_end <= position:
                position += 1
                continue
            start, stop = token.start, tokens[best_end - 1].end
            words = {fold(question[t.start : t.end]) for t in tokens[position:best_end]}
            fixed = "; ".join(f"{c.word} → {c.fixed}" for c in corrections if c.word in words)
            seen = set()
            for target, via in best:
                if target in seen:
                    continue
                seen.add(target)
                found.append(Concept(question[start:stop], start, stop, target, via, fixed))
            position = best_end
        return Recognition(tuple(found), tuple(corrections))


def descendants(kb, rule: Rule, depth: int = 2) -> list[Rule]:
    """The subrules of ``rule`` down to ``depth`` levels; none for a chapter
    (a glossary entry citing a whole chapter names no rule of it)."""
    from rules_kb.numbers import Level

    if depth <= 0 or rule.level is Level.CHAPTER:
        return []
    found = []
    for child in rule.children:
        sub = kb.rule(child, rule.edition)
        if sub is not None:
            found.append(sub)
            found.extend(descendants(kb, sub, depth - 1))
    return found


def closeness(definition: str, rules: list[Rule]) -> list[float]:
    """How close each rule's text is to a glossary ``definition``, in [0, 1]:
    the cosine of their word stems. All 1.0 without a definition."""
    if not definition or not rules:
        return [1.0] * len(rules)
    from collections import Counter

    from rules_kb.analysis import analyze

    def vector(text: str) -> Counter:
        return Counter(term for term, _ in analyze(text) if not any(char.isdigit() for char in term))

    wanted = vector(definition)
    norm = math.sqrt(sum(v * v for v in wanted.values())) or 1.0
    values = []
    for rule in rules:
        have = vector(rule.text)
        dot = sum(count * have[term] for term, count in wanted.items())
        values.append(dot / (norm * (math.sqrt(sum(v * v for v in have.values())) or 1.0)))
    return values


def _rule_titles(kb) -> dict[str, list]:
    """Titled rules by folded title, without the chapters' titles (too broad:
    "Cartes") and the titles shared by :data:`SHARED_TITLE` numbers or more."""
    from rules_kb.numbers import Level

    by_title: dict[str, list] = {}
    for rule in kb.corpus.rules:
        if rule.title.strip() and rule.level is not Level.CHAPTER:
            by_title.setdefault(normalise_term(rule.title), []).append(rule)
    return {
        title: rules for title, rules in by_title.items() if len({rule.number for rule in rules}) < SHARED_TITLE
    }


def _is_keyword(rule) -> bool:
    return rule.number.startswith("502.") and rule.number.count(".") == 1 and rule.number[-1].isdigit()


def resolve(kb, name: str) -> list[Target]:
    """What the documents call ``name``: glossary entries, titled rules and
    FAQ cards of that name (accents, case and plurals ignored), or an
    empty list. Used for the lexicon's targets."""
    from rules_kb.graph import glossary_node, node_id, rule_node

    wanted = normalise_term(name)
    targets = []
    entry = kb.glossary.find(name)
    if entry is not None:
        nodes = [glossary_node(entry), *(glossary_node(other) for other in kb.glossary.follow(entry))]
        targets.append(Target(ConceptKind.GLOSSARY, entry.term, tuple(dict.fromkeys(nodes))))
    rules = _titles(kb).get(wanted)
    if rules:
        kind = ConceptKind.KEYWORD if any(_is_keyword(rule) for rule in rules) else ConceptKind.RULE
        targets.append(Target(kind, rules[0].title.strip(), tuple(rule_node(rule) for rule in rules)))
    for card in kb.corpus.cards:
        if normalise_term(card.name) == wanted:
            targets.append(Target(ConceptKind.CARD, card.name, (node_id("card", card.faq, card.name),)))
            break
    return targets


def _titles(kb) -> dict[str, list]:
    cached = getattr(kb, "_concept_titles", None)
    if cached is None:
        cached = _rule_titles(kb)
        kb._concept_titles = cached
    return cached


def build_table(kb, lexicon=None) -> ConceptTable:
    """The concept table of a knowledge base: every glossary headword and
    form, every rule title (:data:`SHARED_TITLE` aside), every FAQ card
    name, and every lexicon entry (``lexicon``: entries of
    :mod:`rules_kb.lexicon`, the bundled ones by default) whose target is
    one of them — else an expression of the texts."""
    from rules_kb.graph import glossary_node, node_id, rule_node
    from rules_kb.lexicon import load_lexicon

    table = ConceptTable()
    for entry in kb.corpus.glossary:
        subs = [sub for number in entry.cites if (cited := kb.rule(number, entry.edition)) for sub in descendants(kb, cited)]
        if subs:
            table.closeness[glossary_node(entry)] = dict(
                zip((rule_node(sub) for sub in subs), closeness(entry.text, subs))
            )
        nodes = [glossary_node(entry), *(glossary_node(other) for other in kb.glossary.follow(entry))]
        target = Target(ConceptKind.GLOSSARY, entry.term, tuple(dict.fromkeys(nodes)))
        for form in dict.fromkeys((entry.term, *entry.forms)):
            table.add(form, target)
    for rules in _titles(kb).values():
        kind = ConceptKind.KEYWORD if any(_is_keyword(rule) for rule in rules) else ConceptKind.RULE
        table.add(rules[0].title, Target(kind, rules[0].title.strip(), tuple(rule_node(rule) for rule in rules)))
    for card in kb.corpus.cards:
        table.add(card.name, Target(ConceptKind.CARD, card.name, (node_id("card", card.faq, card.name),)))
    for item in load_lexicon() if lexicon is None else lexicon:
        via = f"lexique, ligne {item.line} : {item.form} → {item.target} ({item.source})"
        targets = resolve(kb, item.target) or [Target(ConceptKind.EXPRESSION, item.target)]
        for target in targets:
            table.add(item.form, target, via)
    return table
