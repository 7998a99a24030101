"""Recognising the concepts of a question: glossary terms, keyword abilities,
rule titles (zones, steps, card types…), FAQ card names, rule numbers, and
the players' words of the lexicon (:mod:`rules_kb.lexicon`).

Phrases and questions are compared word by word through the index's
analysis (:func:`rules_kb.engines.analysis.analyze`: lowercase, elision,
accents folded, French stemming), so "blessure fatale", "Blessures
fatales" and "blessures fatales" are one phrase. A stop word inside a
phrase is optional ("brûlure mana" is "Brûlure de mana"); one at its start
is required ("en jeu" is not "jeu"); stop words of the question between
the phrase's words are skipped. A word the stemmer left whole (some verb
forms: "déclenchent") also matches a stem of five letters or more that
starts it, unless the word is itself a word of the phrases: "contrôle"
is not "Contrer". Where phrases overlap, the one with more words wins
(then the one further left), so a multi-word expression wins over its
words and over a shorter expression it overlaps ("jusqu'à la fin du
tour", a duration, is not the step "fin du tour"; "je passe mon étape" is
"passer son étape", not "je passe").

A word the rules never use and no phrase knows is taken for a typo of the
closest word of a phrase (one edit for up to seven letters, two from
eight; a transposition counts one): "pietinemnt" is "piétinement"; but
never a real French word (:mod:`rules_kb.engines.french`): "sauver" is not
"sauter".
"""

from __future__ import annotations

import enum
import marshal
import math
import sqlite3
from collections import Counter
from collections.abc import Callable, Container, Iterable, Mapping
from typing import NamedTuple

from rules_kb.core.model import Card, Corpus, Rule, card_node, descendants, glossary_node, rule_node
from rules_kb.core.numbers import Level
from rules_kb.core.text import fold, term_key
from rules_kb.engines.analysis import analyze
from rules_kb.engines.french import is_french_word
from rules_kb.engines.glossary import GlossaryIndex
from rules_kb.engines.lexicon import LexiconEntry, load_lexicon
from rules_kb.engines.store import Lookup, Store


class ConceptKind(enum.Enum):
    """What a recognised phrase points to; ``label`` is its French name."""

    def __new__(cls, value: str, label: str):
        member = object.__new__(cls)
        member._value_ = value
        member.label = label
        return member

    GLOSSARY = ("glossary", "terme du glossaire")
    """A glossary entry (headword or form)."""
    KEYWORD = ("keyword", "capacité à mot-clef")
    """A keyword ability: a titled rule of 502."""
    RULE = ("rule", "titre de règle")
    """Another titled rule (zones, steps, card types, sections)."""
    CARD = ("card", "carte de la FAQ")
    """A card of a FAQ, by its French name."""
    EXPRESSION = ("expression", "expression des règles")
    """Words of the documents that are no title (``points de vie``): they only widen the search."""
    NUMBER = ("number", "numéro de règle")
    """A rule number typed in the question."""
    NONE = ("none", "aucun concept")
    """Words that name nothing on their own (a lexicon entry of target
    :data:`NO_CONCEPT`): they hide the concepts of the same words and are
    never part of a recognition."""


#: The lexicon target of a word that names no concept on its own, in the
#: sense players use it ("mis" is not the ante, *Mise*; "la mise" is).
NO_CONCEPT = "—"
#: Elided words kept as stop words when reading questions: "jusqu'à la fin
#: du tour" (a duration, 314.2) is not "à la fin du tour" (the end step, 313);
#: "il m'a tapé" (attacked me) is not "il a tapé" (tapped).
KEPT_ELISIONS = frozenset({"jusqu", "m", "t"})
#: A question's word matches a phrase's stem it starts with, from stems of this length.
PREFIX_STEM = 5
#: A rule title shared by this many different rule numbers or more ("Généralités") names no concept.
SHARED_TITLE = 3


class Target(NamedTuple):
    """What a phrase names: its ``kind``, ``name`` in the documents' words
    (glossary headword, rule title, card name, expression, rule number) and
    ``nodes``, the graph node ids it stands for (see
    :func:`rules_kb.core.model.node_id`; empty for an expression)."""

    kind: ConceptKind
    name: str
    nodes: tuple[str, ...] = ()


class Concept(NamedTuple):
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


class Correction(NamedTuple):
    """A word of a question taken for a typo: ``word`` as typed (folded),
    ``fixed`` the word of a phrase it was read as, ``stem`` its index term."""

    word: str
    fixed: str
    stem: str


class Recognition(NamedTuple):
    """What :meth:`ConceptTable.recognise` found: ``concepts`` in the
    question's order and the typos ``corrections``."""

    concepts: tuple[Concept, ...]
    corrections: tuple[Correction, ...]


class _Token:
    __slots__ = ("end", "start", "stem", "stop", "surface")

    def __init__(self, stem: str, stop: bool, start: int, end: int, surface: str) -> None:
        self.stem = stem
        self.stop = stop
        self.start = start
        self.end = end
        self.surface = surface


def _tokens(text: str) -> list[_Token]:
    """The words of ``text`` through the index's analysis, stop words kept
    (flagged), numbers and P/T left out; an elided word of
    :data:`KEPT_ELISIONS` is a stop word of its own before its word."""
    found = []
    for token in analyze(text, removestops=False):
        if any(char.isdigit() for char in token.term):
            continue
        surface = fold(text[token.start : token.end]).replace("’", "'")
        head, apostrophe, tail = surface.partition("'")
        if apostrophe and head in KEPT_ELISIONS:
            split = token.start + len(head) + 1
            found.append(_Token(head, True, token.start, split, head))
            found.append(_Token(token.term, token.stopped, split, token.end, tail))
        else:
            found.append(_Token(token.term, token.stopped, token.start, token.end, surface))
    return found


#: A phrase's words: ``(stem, is a stop word)`` for each word.
Key = tuple[tuple[str, bool], ...]
#: A registered phrase: its words, what it names, how (``via``).
Phrase = tuple[Key, Target, str]


class ConceptTable:
    """Every phrase that names a concept, by its first word, and what
    :meth:`recognise` needs to read a question.

    ``phrases`` maps a first stem to its :data:`Phrase` list; ``stems`` holds
    every stem of a phrase (stop words aside); ``surfaces()`` returns the
    words of the phrases as written (folded) with their stems, in the order
    they were registered (called only when a word looks misspelt);
    ``closeness`` maps a glossary node to ``{rule node: closeness}``
    (:func:`closeness` of its definition to each subrule of the rules it
    cites). Built by :func:`build_table`; read back from the cache by
    :mod:`rules_kb.engines.store` with the same mappings, loaded lazily.
    """

    def __init__(
        self,
        phrases: Mapping[str, list[Phrase]],
        stems: Container[str],
        surfaces: Callable[[], dict[str, str]],
        closeness: Mapping[str, dict[str, float]],
    ) -> None:
        self.phrases = phrases
        self.stems = stems
        self.surfaces = surfaces
        self.closeness = closeness

    def _correct(
        self,
        tokens: list[_Token],
        known: Callable[[str], bool],
        vocabulary: Callable[[], Mapping[str, str]] | None = None,
    ) -> list[Correction]:
        corrections = []
        surfaces: dict[str, str] | None = None
        for token in tokens:
            word = token.surface
            if token.stop or len(word) < 5 or not word.isalpha() or token.stem in self.stems or known(token.stem):
                continue
            if is_french_word(word):
                continue  # a real word the rules do not use, not a typo
            # deferred: rapidfuzz (8 ms) only when a word is unknown: search and ask rarely need it
            from rapidfuzz.distance import OSA
            from rapidfuzz.process import extractOne

            if surfaces is None:
                surfaces = self.surfaces()
            allowed = 1 if len(word) < 8 else 2
            found = extractOne(word, list(surfaces), scorer=OSA.distance, score_cutoff=allowed)
            words = surfaces
            if found is None and vocabulary is not None:
                words = vocabulary()
                found = extractOne(word, list(words), scorer=OSA.distance, score_cutoff=allowed)
            if found is not None:
                best = found[0]
                corrections.append(Correction(word, best, words[best]))
                token.stem = words[best]
                token.surface = best
        return corrections

    def _prefixed(self, token: _Token) -> bool:
        """Whether ``token`` may match a phrase's stem that only starts it:
        the stemmer left it whole (some verb forms: "déclenchent" is
        "déclench…"), and it is not itself a word of the phrases (never
        across two different words: "contrôle" is not "Contrer")."""
        return token.stem == token.surface and token.stem not in self.stems

    def _same(self, token: _Token, stem: str) -> bool:
        """A question's word matches a phrase's stem: equal, or (stems of
        five letters or more, :meth:`_prefixed` words) the stem starts it."""
        return token.stem == stem or (
            len(stem) >= PREFIX_STEM and token.stem.startswith(stem) and self._prefixed(token)
        )

    def _match(self, phrase: Key, tokens: list[_Token], position: int) -> int:
        """The index after ``phrase`` matched from ``tokens[position]``, or -1."""
        j = position
        for k, (stem, stop) in enumerate(phrase):
            while k and j < len(tokens) and tokens[j].stop and not self._same(tokens[j], stem):
                j += 1
            if j < len(tokens) and self._same(tokens[j], stem):
                j += 1
            elif not (stop and k):
                return -1
        return j

    def _candidates(self, token: _Token) -> list[Phrase]:
        found = list(self.phrases.get(token.stem, ()))
        if self._prefixed(token):
            for length in range(len(token.stem) - 1, PREFIX_STEM - 1, -1):
                found.extend(self.phrases.get(token.stem[:length], ()))
        return found

    def recognise(
        self, question: str, known: Callable[[str], bool] = lambda stem: True,
        vocabulary: Callable[[], Mapping[str, str]] | None = None,
    ) -> Recognition:  # fmt: skip
        """The concepts of ``question``, in the question's order, and the typos corrected.

        ``known(stem)`` says whether the rules use a word (stemmed); a word
        neither they nor a phrase know is corrected to the nearest word of a
        phrase (see the module docstring), else, when ``vocabulary()`` (folded
        word → stem, the most frequent first) is given, to the nearest of its
        words. Rule numbers are not looked for here (``ask`` reads them).
        """
        tokens = _tokens(question)
        corrections = self._correct(tokens, known, vocabulary)
        matches = []  # (words, tokens, position, end, [(target, via)]): the longest phrase from each word
        for position, token in enumerate(tokens):
            best_end, best = -1, []
            if not token.stop or self.phrases.get(token.stem):  # a phrase may start with a stop word
                for phrase, target, via in self._candidates(token):
                    end = self._match(phrase, tokens, position)
                    if end > best_end:
                        best_end, best = end, [(target, via)]
                    elif end == best_end and end > 0:
                        best.append((target, via))
            if best_end > position:
                words = sum(not t.stop for t in tokens[position:best_end])
                matches.append((words, best_end - position, position, best_end, best))
        # the longest phrases first, then from the left: "je passe mon étape" is "passer son
        # étape" (Sauter), not "je passe" (Passer) then "étape"
        taken = [False] * len(tokens)
        chosen = []
        for words, length, position, end, best in sorted(matches, key=lambda m: (-m[0], -m[1], m[2])):
            if any(taken[position:end]):
                continue
            taken[position:end] = [True] * (end - position)
            if not any(target.kind is ConceptKind.NONE for target, _ in best):  # else words that name nothing here
                chosen.append((position, end, best))
        found: list[Concept] = []
        for position, end, best in sorted(chosen, key=lambda m: m[0]):
            start, stop = tokens[position].start, tokens[end - 1].end
            words = {fold(question[t.start : t.end]) for t in tokens[position:end]}
            fixed = "; ".join(f"{c.word} → {c.fixed}" for c in corrections if c.word in words)
            seen = set()
            for target, via in best:
                if target in seen:
                    continue
                seen.add(target)
                found.append(Concept(question[start:stop], start, stop, target, via, fixed))
        return Recognition(tuple(found), tuple(corrections))


class _TableBuilder:
    """Collects the phrases of a :class:`ConceptTable` (see :func:`build_table`)."""

    def __init__(self) -> None:
        self.phrases: dict[str, list[Phrase]] = {}
        self._added: set[tuple[Key, Target]] = set()
        self.stems: set[str] = set()
        self.surfaces: dict[str, str] = {}
        self.closeness: dict[str, dict[str, float]] = {}

    def add(self, phrase: str, target: Target, via: str = "") -> bool:
        """Register ``phrase`` for ``target``; False if it has no word to match."""
        tokens = _tokens(phrase)
        words = tuple((token.stem, token.stop) for token in tokens)
        if not words or all(stop for _, stop in words):
            return False
        if (words, target) in self._added:
            return True
        self._added.add((words, target))
        self.phrases.setdefault(words[0][0], []).append((words, target, via))
        for token in tokens:
            if not token.stop:
                self.stems.add(token.stem)
                if len(token.surface) >= 4 and token.surface.isalpha():
                    self.surfaces.setdefault(token.surface, token.stem)
        return True

    def table(self) -> ConceptTable:
        surfaces = self.surfaces
        return ConceptTable(self.phrases, self.stems, lambda: surfaces, self.closeness)


def closeness(definition: str, rules: list[Rule], vectors: dict[str, Counter] | None = None) -> list[float]:
    """How close each rule's text is to a glossary ``definition``, in [0, 1]:
    the cosine of their word stems. All 1.0 without a definition.
    ``vectors`` keeps the stems of the texts already read (text → counts), across calls."""
    if not definition or not rules:
        return [1.0] * len(rules)
    vectors = {} if vectors is None else vectors

    def vector(text: str) -> Counter:
        found = vectors.get(text)
        if found is None:
            found = vectors[text] = Counter(
                token.term for token in analyze(text) if not any(char.isdigit() for char in token.term)
            )
        return found

    wanted = vector(definition)
    norm = math.sqrt(sum(v * v for v in wanted.values())) or 1.0
    values = []
    for rule in rules:
        have = vector(rule.text)
        dot = sum(count * have[term] for term, count in wanted.items())
        values.append(dot / (norm * (math.sqrt(sum(v * v for v in have.values())) or 1.0)))
    return values


def is_keyword(rule: Rule) -> bool:
    """A keyword ability's rule: a rule of 502 (``502.9``, not a subrule)."""
    return rule.number.startswith("502.") and rule.number.count(".") == 1 and rule.number[-1].isdigit()


class ConceptSources:
    """What the concepts are read from: the corpus's rules, glossary, titled
    rules and cards, with lookups by name (:meth:`resolve`)."""

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
        self.rules = {(rule.edition, rule.number): rule for rule in corpus.rules}
        self.glossary = GlossaryIndex(corpus.glossary)
        by_title: dict[str, list[Rule]] = {}
        for rule in corpus.rules:
            if rule.title.strip() and rule.level is not Level.CHAPTER:
                by_title.setdefault(term_key(rule.title), []).append(rule)
        #: Titled rules by title key, without the chapters' titles (too broad:
        #: "Cartes") and the titles shared by :data:`SHARED_TITLE` numbers or more.
        self.titles = {
            title: rules for title, rules in by_title.items() if len({rule.number for rule in rules}) < SHARED_TITLE
        }
        self.cards: dict[str, Card] = {}
        for card in corpus.cards:
            self.cards.setdefault(term_key(card.name), card)

    def rule(self, number: str, edition: str) -> Rule | None:
        """The rule ``number`` of ``edition``, or None."""
        return self.rules.get((edition, number))

    def resolve(self, name: str) -> list[Target]:
        """What the documents call ``name``: glossary entries, titled rules and
        FAQ cards of that name (accents, case and plurals ignored), or an
        empty list. Used for the lexicon's targets."""
        wanted = term_key(name)
        targets = []
        entry = self.glossary.find(name)
        if entry is not None:
            targets.append(self.glossary_target(entry))
        rules = self.titles.get(wanted)
        if rules:
            targets.append(self.title_target(rules))
        card = self.cards.get(wanted)
        if card is not None:
            targets.append(Target(ConceptKind.CARD, card.name, (card_node(card),)))
        return targets

    def glossary_target(self, entry) -> Target:
        """The target of a glossary entry: its node and those its pointers lead to."""
        nodes = [glossary_node(entry), *(glossary_node(other) for other in self.glossary.follow(entry))]
        return Target(ConceptKind.GLOSSARY, entry.term, tuple(dict.fromkeys(nodes)))

    @staticmethod
    def title_target(rules: list[Rule]) -> Target:
        """The target of a rule title: a keyword ability (502) or another title."""
        kind = ConceptKind.KEYWORD if any(is_keyword(rule) for rule in rules) else ConceptKind.RULE
        return Target(kind, rules[0].title.strip(), tuple(rule_node(rule) for rule in rules))


def build_table(corpus: Corpus, lexicon: Iterable[LexiconEntry] | None = None) -> ConceptTable:
    """The concept table of a corpus: every glossary headword and form,
    every rule title (:data:`SHARED_TITLE` aside), every FAQ card name, and
    every lexicon entry (``lexicon``: entries of
    :mod:`rules_kb.engines.lexicon`, the bundled ones by default) whose target
    is one of them — else an expression of the texts."""
    sources = ConceptSources(corpus)
    builder = _TableBuilder()
    vectors: dict[str, Counter] = {}
    for entry in corpus.glossary:
        subs = [
            sub
            for number in entry.cites
            if (cited := sources.rule(number, entry.edition))
            for sub in descendants(sources.rule, cited)
        ]
        if subs:
            builder.closeness[glossary_node(entry)] = dict(
                zip((rule_node(sub) for sub in subs), closeness(entry.text, subs, vectors))
            )
        target = sources.glossary_target(entry)
        for form in dict.fromkeys((entry.term, *entry.forms)):
            builder.add(form, target)
    for rules in sources.titles.values():
        builder.add(rules[0].title, sources.title_target(rules))
    for card in corpus.cards:
        builder.add(card.name, Target(ConceptKind.CARD, card.name, (card_node(card),)))
    for item in load_lexicon() if lexicon is None else lexicon:
        via = f"lexique, ligne {item.line} : {item.form} → {item.target} ({item.source})"
        if item.target == NO_CONCEPT:
            builder.add(item.form, Target(ConceptKind.NONE, NO_CONCEPT), via)
            continue
        targets = sources.resolve(item.target) or [Target(ConceptKind.EXPRESSION, item.target)]
        for target in targets:
            builder.add(item.form, target, via)
    return builder.table()


# -- in the cache database ---------------------------------------------------------

_SCHEMA = """
CREATE TABLE phrases (stem TEXT PRIMARY KEY, data BLOB) WITHOUT ROWID;
CREATE TABLE phrase_stems (stem TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE phrase_surfaces (ord INTEGER PRIMARY KEY, surface TEXT, stem TEXT);
CREATE TABLE closeness (node TEXT PRIMARY KEY, data BLOB) WITHOUT ROWID;
"""


def write_table(connection: sqlite3.Connection, table: ConceptTable) -> None:
    """Write ``table`` in the cache database (:mod:`rules_kb.engines.store`):
    ``phrases(stem, data)`` (the phrases by first stem, marshal), ``phrase_stems(stem)``,
    ``phrase_surfaces(ord, surface, stem)``, ``closeness(node, data)``."""
    connection.executescript(_SCHEMA)
    dumps = marshal.dumps
    connection.executemany(
        "INSERT INTO phrases VALUES (?, ?)",
        (
            (stem, dumps([(phrase, (t.kind.value, t.name, t.nodes), via) for phrase, t, via in found]))
            for stem, found in table.phrases.items()
        ),
    )
    connection.executemany("INSERT INTO phrase_stems VALUES (?)", ((stem,) for stem in sorted(table.stems)))
    connection.executemany(
        "INSERT INTO phrase_surfaces VALUES (?, ?, ?)",
        ((position, surface, stem) for position, (surface, stem) in enumerate(table.surfaces().items())),
    )
    connection.executemany(
        "INSERT INTO closeness VALUES (?, ?)", ((node, dumps(found)) for node, found in table.closeness.items())
    )


def read_table(store: Store) -> ConceptTable:
    """The concept table of a cache database, read phrase by phrase as a question needs them."""
    connection = store.connection

    def phrases(stem: str):
        row = connection.execute("SELECT data FROM phrases WHERE stem = ?", (stem,)).fetchone()
        if not row:
            return ()
        return [
            (tuple(map(tuple, phrase)), Target(ConceptKind(kind), name, tuple(nodes)), via)
            for phrase, (kind, name, nodes), via in marshal.loads(row[0])
        ]

    def stems(stem: str) -> bool:
        return connection.execute("SELECT 1 FROM phrase_stems WHERE stem = ?", (stem,)).fetchone() is not None

    def surfaces() -> dict[str, str]:
        return dict(connection.execute("SELECT surface, stem FROM phrase_surfaces ORDER BY ord"))

    def closeness(node: str):
        row = connection.execute("SELECT data FROM closeness WHERE node = ?", (node,)).fetchone()
        return marshal.loads(row[0]) if row else None

    return ConceptTable(Lookup(phrases), Lookup(stems), surfaces, Lookup(closeness))
