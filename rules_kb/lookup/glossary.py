"""``define``: a glossary term typed the way a judge types it in a hurry.

A query is matched, in this order, the first way that finds an entry
winning (a fuzzy match never outranks a lexicon or a word match):

1. ``exact``: a headword or any of its forms after normalisation (case,
   accents, plural ``s``/``x``: :func:`rules_kb.core.text.term_key`);
2. ``lexicon``: the players' words ``ask`` understands, the forms of the
   lexicon (:mod:`rules_kb.engines.lexicon`) whose target is a glossary
   entry: "trample" → *Piétinement*, "untap" → *Dégager*, "first strike"
   → *Initiative* — as written; as ``ask``'s concept table reads the
   whole query (``kb.concepts``: stems, typos of a form's words) only
   after step 4, the table costing 15 ms to open;
3. ``words``: the words of headwords and forms, in any order, small words
   optional, a word typed shortened standing for the word it starts
   ("capa activee" → *Capacité activée*, "prevention effet" → *Effet de
   prévention*, "taille max main" → *Taille maximale de la main*); among
   entries the words fit as well, the one most alike the query as typed
   ("miser" → *Misère*, not *Mise*);
4. ``approx``: the closest headword within a typing error or two
   (:data:`THRESHOLD`: "pietinemnt" → *Piétinement*), unless the query is real French words ("phrase" is
   no typo of *Phase*) — or, when nothing else reads it (after the lexicon
   as ``ask`` reads it), within one or two typing errors of a single
   headword as ``ask`` corrects a word, a transposition counting one
   (:func:`_typo_of`: "joeuur" → *Joueur*); a weaker likeness (down to :data:`SUGGESTED`), or
   one to real words, is only offered, as "vouliez-vous dire", in the
   :class:`UnknownTermError`;
5. ``description``: a phrase that describes an entry in other words
   ("créature qu'on ne peut pas bloquer" → *Imblocable*, "la pile vidée dans
   l'ordre inverse" → *LIFO*) is compared with every definition
   (:func:`describe`: the words of the definitions, through the search
   index's analysis, and their meaning, through the embedding model) and
   answered when one entry leads the next by :data:`MARGIN`, unless each of
   its words is a headword's ("créature engagée") or one is a typo;
   otherwise the entries it fits within :data:`OFFER_SPAN` of the best are
   offered, and only those sharing a word with it (``define xyzzy`` offers
   nothing).

Pointer entries ("APNAP — Voir Règle du joueur actif, joueur inactif") are
followed. :attr:`Definition.understood` says how the query was read.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from rules_kb.core.errors import LaterKeywordError, QueryError, UnknownTermError
from rules_kb.core.model import Document, GlossaryEntry, Rule, glossary_node
from rules_kb.core.text import fold, singular, term_key
from rules_kb.engines.glossary import GlossaryIndex
from rules_kb.engines.graph import Relation
from rules_kb.loader import KnowledgeBase
from rules_kb.lookup.rules import Link, term_users

if TYPE_CHECKING:  # annotations only: the engine is opened by the KnowledgeBase (kb.definitions)
    from rules_kb.engines.definitions import DefinitionTable

#: Lowest similarity (0–100) for an approximate match that is answered: one
#: typing error in a word of nine letters ("contrecarer"); below it, down to
#: :data:`SUGGESTED`, the entries are only suggested ("haste" is 80 % like
#: "Phase", and no typo of it).
THRESHOLD = 85.0
#: Typing errors a typed term may hold, as ``ask``'s concept table corrects a
#: word (:meth:`rules_kb.engines.concepts.ConceptTable.recognise`): one under
#: eight letters, two from eight, a transposition counting one (OSA distance).
TYPO_EDITS = (1, 8, 2)
#: Shortest typed term corrected by its typing errors: the concept table's own (five letters).
TYPO_LENGTH = 5
#: Lowest similarity (0–100) of a suggested entry: three random French
#: words in four are less like their closest headword (the 75th percentile
#: of 2 000 draws of one or two words of ``kb.french_words``: 63.2; the median, 57,
#: let "xyzzy" offer *Y, Z* at 50). ``bench/define_descriptions.py`` measures it.
SUGGESTED = 63.0
#: Words a query may leave out or add: the articles and prepositions of headwords
#: ("Etape de dégagement" is typed "etape degagement").
SMALL_WORDS = frozenset(
    [
        "a",
        "au",
        "aux",
        "d",
        "de",
        "des",
        "du",
        "en",
        "et",
        "l",
        "la",
        "le",
        "les",
        "un",
        "une",
        "ou",
        "par",
        "pour",
        "sur",
    ]
)
#: Shortest shortened word standing for the word it starts ("max" for "maximale").
SHORTENED = 3
#: Lowest share of an entry's words a word match must cover ("tampon" is half of "Tampon horaire").
COVERAGE = 0.5
#: Weight of a match on some words of a longer headword ("tampon" in "Tampon horaire").
_PART_WEIGHT = 0.9
_MAX_ALTERNATIVES = 8
#: How many entries alike an unknown term offers at most.
_MAX_SUGGESTED = 5

# The description's signals (:func:`describe`) and when it is answered, chosen
# by bench/define_descriptions.py, never for one description: the weights by
# the first answer's accuracy over 101 development descriptions written for it
# (bench/descriptions.tsv; 68 right first, 84 among the first three), the
# margin on the glossary itself (each definition's sentences, its headword's
# words removed, taken as descriptions).

#: Weight of the meaning: the e5 cosine of the description with the closest
#: sentence of the entry's definition, as a z-score over the entries (the
#: words, the BM25 of the definition over the best entry's, weigh 1). Right
#: first, with :data:`NAMED_WEIGHT`: 0 (the words alone) 46, 0.1: 55, 0.2: 63, 0.3: 68, 0.5: 65.
MEANING_WEIGHT = 0.3
#: Weight of an entry one of whose names is wholly among the description's
#: words, which has more: a word the description uses, not what it describes
#: ("une créature qui ne peut pas attaquer…" names *Créature*). Right first,
#: with :data:`MEANING_WEIGHT`: 0: 67, −0.5: 68, −1: 59 (on the first 73: 46, 53, 49).
NAMED_WEIGHT = -0.5
#: How far the best entry must lead the next for a description to be answered
#: rather than offered: the smallest lead (by tenths) whose answers are right
#: at least 19 times in 20 both on the development descriptions (0.3: 36 of
#: 40 answered right, 0.5: 27 of 29, 0.6: 23 of 24, 0.7: 19 of 19) and on the
#: glossary's own sentences (0.3 already 99.3 %): the glossary's sentences,
#: its own words, are easier to place than a judge's paraphrase.
MARGIN = 0.6
#: How far behind the best entry a described entry is still offered (at most
#: ``_MAX_ALTERNATIVES``, as an answer's other entries): the entry meant is
#: within 0.6 of the best for 97 of the 101 development descriptions (the
#: others 0.6 to 1.3 behind).
OFFER_SPAN = 0.6
#: Fewest significant words of a description: one word is a term (a typo, a
#: real word such as "phrase"), never compared with the definitions.
DESCRIPTION_WORDS = 2


class Definition(NamedTuple):
    """The answer to ``define``.

    ``entry`` is the best match; ``match`` says how it matched (``"exact"``
    on its headword or a form, ``"lexicon"`` through the players' words,
    ``"later"`` the nearest notion of a keyword of later rules,
    ``"words"`` on the words of its headword, ``"approx"`` by likeness, a
    typo, ``"description"`` by its definition; see the module docstring) and ``score`` its
    similarity, 0–100 (100 for ``exact`` and ``lexicon``; for ``words``
    the share of the headword's words the query covers; for ``description``
    the share of the description's words its definition holds); ``understood`` how the query was
    read, in French (``"trample → Piétinement"``; ``""`` for an exact match). ``followed`` are the entries its "Voir"
    pointers lead to, in order (a pointer entry's target first, then its
    own target…); ``cited_rules`` the rules it cites that exist in its
    edition; ``alternatives`` other entries that fit, best first;
    ``used_by`` the rules whose text uses the term (of the entry, or for a
    pointer of the entry it leads to), as :class:`rules_kb.lookup.rules.Link`;
    ``document`` the document the entry was read from.
    """

    query: str
    entry: GlossaryEntry
    match: str
    score: float
    followed: tuple[GlossaryEntry, ...]
    cited_rules: tuple[Rule, ...]
    alternatives: tuple[GlossaryEntry, ...]
    used_by: tuple[Link, ...] = ()
    document: Document | None = None
    understood: str = ""


def scores(glossary: GlossaryIndex, query: str) -> list[tuple[float, int]]:
    """``(similarity 0–100, entry position)`` of every entry of ``glossary``
    for ``query``, best first: the best of the similarity to a headword or
    form, and (:data:`_PART_WEIGHT` of) the similarity to as many of its
    words as the query has."""
    from rapidfuzz import fuzz  # deferred: rapidfuzz (8 ms), for define alone; graph and export load this module

    wanted = term_key(query)
    size = len(wanted.split())
    best: dict[int, float] = {}
    for name_key, position in glossary.keys:
        score = fuzz.ratio(wanted, name_key)
        words = name_key.split()
        if len(wanted) >= 4 and len(words) > size:
            for start in range(len(words) - size + 1):
                part = " ".join(words[start : start + size])
                score = max(score, _PART_WEIGHT * fuzz.ratio(wanted, part))
        if score > best.get(position, -1.0):
            best[position] = score
    return sorted(((score, position) for position, score in best.items()), key=lambda item: (-item[0], item[1]))


_DIGIT_RE = re.compile(r"\d")
#: The vowels of a folded word, which an abbreviation by contraction drops (:func:`_stands_for`).
_VOWELS = frozenset("aeiouy")

#: What splits a name's key (:func:`rules_kb.core.text.term_key`) into words: its hyphens and apostrophes too.
_KEY_SPLIT_RE = re.compile(r"[\s'’-]+")


def _significant(text: str) -> list[str]:
    """The folded words of ``text`` in the singular, :data:`SMALL_WORDS` left out."""
    return [singular(word) for word in re.findall(r"[^\W_]+", fold(text)) if word not in SMALL_WORDS]


def _stands_for(typed: str, word: str) -> int:
    """How well a typed word stands for a headword's word: 2 the same, 1
    shortened (the word starts with it, :data:`SHORTENED` letters or more;
    or it is the word with up to two more letters: "seul" and "seule"; or it
    is abbreviated by contraction, the French way of shortening a word that
    keeps its first and last letters and some consonants between, in order:
    "pts" ("pt" and the plural's "s") for "points", "qqn" for "quelqu'un" — Lexique des règles typographiques en
    usage à l'Imprimerie nationale, « abréviations »), 0 not."""
    if typed == word:
        return 2
    if len(typed) >= SHORTENED and word.startswith(typed):
        return 1
    if len(word) >= 4 and typed.startswith(word) and len(typed) - len(word) <= 2:
        return 1
    return int(any(_contracts(form, word) for form in {typed, typed[:-1] if typed[-1:] in "sx" else typed}))


def _contracts(typed: str, word: str) -> bool:
    """Whether ``typed`` abbreviates ``word`` by contraction (:func:`_stands_for`): two
    letters or more, no vowel, the word's first and last letters and others of it in order."""
    if not 2 <= len(typed) < len(word) or typed[0] != word[0] or typed[-1] != word[-1] or _VOWELS & set(typed):
        return False
    letters = iter(word)
    return all(letter in letters for letter in typed)


def word_matches(glossary: GlossaryIndex, query: str) -> list[tuple[float, int]]:
    """``(score, entry position)`` of the entries whose headword or a form
    holds every significant word of ``query``, in any order (each typed
    word standing for a different word, :func:`_stands_for`), best first.
    The score (0–100) is the share of the name's words the query covers
    (at least :data:`COVERAGE`), a shortened word counting a quarter less;
    among equal scores, a name whose words the query covers side by side
    comes first ("terrain de base" is *Type de terrain de base* before
    *Terrain non-base*)."""
    typed = _significant(query)
    if not typed:
        return []
    best: dict[int, tuple[float, bool]] = {}
    for name_key, position in glossary.keys:  # the headwords and forms, folded and singular
        words = [word for word in _KEY_SPLIT_RE.split(name_key) if word and word not in SMALL_WORDS]
        if len(words) < len(typed):
            continue
        taken: dict[int, float] = {}
        for word in sorted(typed, key=lambda w: -max(_stands_for(w, x) for x in words)):
            value, k = max(((_stands_for(word, x), k) for k, x in enumerate(words) if k not in taken), default=(0, -1))
            if value == 0:
                break
            taken[k] = 1.0 if value == 2 else 0.75
        else:
            score = 100.0 * sum(taken.values()) / len(words)
            side_by_side = max(taken) - min(taken) + 1 == len(taken)
            if score >= 100.0 * COVERAGE * 0.75 and (score, side_by_side) > best.get(position, (-1.0, False)):
                best[position] = (score, side_by_side)
    ranked = sorted(best.items(), key=lambda item: (-item[1][0], not item[1][1], item[0]))
    return [(score, position) for position, (score, _) in ranked]


def _understood(kb: KnowledgeBase, query: str) -> tuple[GlossaryEntry, str] | None:
    """The entry the players' lexicon (:mod:`rules_kb.engines.lexicon`, the
    one ``ask`` reads) reads ``query`` as, when the significant words of
    one of its forms whose target is a glossary entry are the query's
    ("trample", "le trample" → *Piétinement*), and how (``"trample →
    Piétinement"``); else None. Its typos are left to the likeness of the
    last step."""
    wanted = _significant(query)
    for line in kb.lexicon.text.splitlines():  # read as parse_lexicon reads it, the forms only
        form, tab, rest = line.partition("\t")
        if not tab or form.startswith("#") or _significant(form) != wanted:
            continue
        target = rest.partition("\t")[0].strip()
        if (entry := kb.glossary.find(target)) is not None:
            return entry, f"{query.strip()} → {entry.term}"
    return None


def _recognised(kb: KnowledgeBase, query: str) -> tuple[GlossaryEntry, str] | None:
    """The entry the concept table of ``ask`` and ``search`` (``kb.concepts``)
    reads the whole of ``query`` as through the players' lexicon, matched as
    they match it (stems, stop words between the words, a typo of a form's
    word), and how; else None: what :func:`_understood`'s exact forms miss."""
    index = kb.index
    recognition = kb.concepts.recognise(query, lambda stem: index.holds("text", stem))
    words = [(token.start, token.end) for token in index.analyze(query)]
    for concept in recognition.concepts:
        if not concept.via or not words:
            continue
        if all(concept.start <= start and end <= concept.end for start, end in words):
            entry = kb.glossary.find(concept.target.name)
            if entry is not None:
                return entry, f"{query.strip()} → {entry.term}"
    return None


def _typo_of(glossary: GlossaryIndex, query: str) -> int | None:
    """The position of the one entry a headword or form of which is within
    typing errors of ``query`` as ``ask`` corrects a word (:data:`TYPO_EDITS`:
    one error under eight letters, two from eight, a transposition counting
    one: "joeuur" and "nomber" are only 83 % like "joueur" and "nombre",
    under :data:`THRESHOLD`); None when there is none, or several."""
    wanted = term_key(query)
    if len(wanted) < TYPO_LENGTH:
        return None
    from rapidfuzz.distance import OSA  # deferred: see scores()

    allowed = TYPO_EDITS[0] if len(wanted) < TYPO_EDITS[1] else TYPO_EDITS[2]
    found: dict[int, set[int]] = {}
    for name_key, position in glossary.keys:
        distance = OSA.distance(wanted, name_key, score_cutoff=allowed)
        if distance <= allowed:
            found.setdefault(distance, set()).add(position)
    nearest = found[min(found)] if found else set()
    return next(iter(nearest)) if len(nearest) == 1 else None


def _real_words(kb: KnowledgeBase, query: str) -> bool:
    """Whether every word of ``query`` is a real French word
    (``kb.french_words``): no typo to correct, so a
    headword merely like it ("phrase" and *Phase*) is only suggested."""
    words = re.findall(r"[^\W\d_]+", query)
    return bool(words) and all(word in kb.french_words for word in words)


class Described(NamedTuple):
    """An entry a description fits (:func:`describe`): its ``position`` in the
    glossary, its ``score`` (the signals' weighted sum) and ``share``, the
    share of the description's words its definition, examples or names hold (0–1)."""

    position: int
    score: float
    share: float


class Description(NamedTuple):
    """What :func:`describe` makes of a query: the entries it fits, best first
    (``fits``), and whether each of its words is a word of some headword or
    form (``of_names``: "créature engagée" puts terms side by side, which may
    mean *Engagé* as well as what they describe, and is never answered)."""

    fits: tuple[Described, ...] = ()
    of_names: bool = False


def description_parts(
    definitions: DefinitionTable, wanted: list[str], vector: Sequence[float] | None
) -> tuple[list[float], list[float], list[float]]:
    """The signals of every entry for a description of terms ``wanted`` (the
    index's analysis) and e5 vector ``vector`` (None without the model):
    ``(words, named, meaning)`` — the BM25 of its definition over the best
    entry's; 1 when one of its names is wholly among ``wanted`` and shorter;
    the cosine of ``vector`` with its closest sentence as a z-score over the
    entries that have one (0 for the others, and for all without a vector)."""
    return (*_word_parts(definitions, wanted), _meaning_part(definitions, vector))


def _word_parts(definitions: DefinitionTable, wanted: list[str]) -> tuple[list[float], list[float]]:
    """The ``words`` and ``named`` signals of :func:`description_parts`."""
    words = definitions.words(wanted)
    top = max(words, default=0.0) or 1.0
    given = set(wanted)
    named = [
        1.0 if any(set(name) <= given and len(name) < len(given) for name in names) else 0.0
        for names in definitions.names
    ]
    return [value / top for value in words], named


def _meaning_part(definitions: DefinitionTable, vector: Sequence[float] | None) -> list[float]:
    """The ``meaning`` signal of :func:`description_parts`."""
    if vector is None:
        return [0.0] * definitions.size
    cosines = definitions.closeness(vector)
    known = [value for value in cosines if value is not None]
    if not known:
        return [0.0] * definitions.size
    mean = sum(known) / len(known)
    spread = math.sqrt(sum((value - mean) ** 2 for value in known) / len(known)) or 1.0
    return [0.0 if value is None else (value - mean) / spread for value in cosines]


def describe(
    kb: KnowledgeBase, query: str, weights: tuple[float, float] = (NAMED_WEIGHT, MEANING_WEIGHT)
) -> Description:
    """The entries ``query`` may describe (:class:`Description`): those whose
    definition, examples or names share one of its significant words (the
    search index's analysis, ``kb.index.analyze``), scored by the words of
    their definition plus ``weights`` (named, meaning) times the other
    signals of :func:`description_parts` — the named one only when some word
    of the query is of no headword; the meaning is the embedding model's
    (``kb.embedder``), started first and waited for after the words are
    scored. Nothing for a query of fewer than :data:`DESCRIPTION_WORDS` words."""
    wanted = list(dict.fromkeys(token.term for token in kb.index.analyze(query) if not _DIGIT_RE.search(token.term)))
    if len(wanted) < DESCRIPTION_WORDS:
        return Description()
    definitions = kb.definitions
    holding = [definitions.holding((term,)) for term in wanted]
    sharing = set().union(*holding)
    if not sharing:
        return Description()
    pending = kb.embedder.description_vector(query) if definitions.has_vectors else None
    of_names = all(definitions.names_hold(term) for term in wanted)
    held = {position: sum(position in found for found in holding) for position in sharing}
    words, named = _word_parts(definitions, wanted)  # while the model embeds the description
    meaning = _meaning_part(definitions, pending.result() if pending is not None else None)
    named_weight, meaning_weight = weights
    if of_names:
        named_weight = 0.0
    found = [
        Described(p, words[p] + named_weight * named[p] + meaning_weight * meaning[p], held[p] / len(wanted))
        for p in sharing
    ]
    return Description(tuple(sorted(found, key=lambda item: (-item.score, item.position))), of_names)


def _mistyped(kb: KnowledgeBase, query: str) -> bool:
    """Whether a word of ``query`` is neither a word of the corpus (the search
    index holds its term in no field) nor a real French word
    (``kb.french_words``): a typo, which a description is not answered through
    ("bloqueurz multiples" is no description of *Evénement*, whose definition says "multiples")."""
    index = kb.index
    return any(
        not any(index.holds(field, term) for field in ("title", "text", "examples"))
        and fold(word) not in kb.french_words
        for term, word in index.pairs(query)
        if not _DIGIT_RE.search(term)
    )


def cited_rules(kb: KnowledgeBase, entry: GlossaryEntry) -> tuple[Rule, ...]:
    """The rules ``entry`` cites that exist, in the order its text cites them: the
    rule graph's citations of its node, a range standing for every rule within
    it ("Voir règles 306-311" cites 306, 307 … 311; ``entry.cites`` keeps the
    range's ends, as :func:`rules_kb.core.references.rule_numbers_in` reads it)."""
    targets = dict.fromkeys(edge.target for edge in kb.graph.outgoing(glossary_node(entry), Relation.CITES))
    return tuple(rule for target in targets if isinstance(rule := kb.record(target), Rule))


def define(kb: KnowledgeBase, query: str) -> Definition:
    """Look ``query`` up in the glossary of ``kb`` (the ways of the module
    docstring, in order), with the rules it cites and the rules whose text
    uses the term.

    A keyword of later rules (:mod:`rules_kb.engines.later_keywords`:
    "lifelink") is said absent from the corpus's editions, and the entry of
    its nearest notion answers (``match`` ``"later"``).

    Raises :class:`QueryError` for an empty query,
    :class:`LaterKeywordError` for a later keyword without a nearest
    notion, and :class:`UnknownTermError` (with the closest headwords,
    offered as "vouliez-vous dire") when nothing fits well enough.
    """
    glossary = kb.glossary
    if not term_key(query):
        raise QueryError("Le terme est vide : donnez un mot du glossaire, par exemple « piétinement ».")
    exact = glossary.exact(query)
    ranked = scores(glossary, query)
    understood = ""
    by_words: list[tuple[float, int]] = []
    later = None if exact else kb.later_keywords.named(query)
    if exact:
        best, match, score = exact[0], "exact", 100.0
    elif later is not None:
        nearest = glossary.exact(later.nearest) if later.nearest else ()
        if not nearest:
            raise LaterKeywordError(query.strip(), later.meaning)
        best, match, score = nearest[0], "later", 100.0
        understood = f"{query.strip()} : {later.meaning}"
    elif (read := _understood(kb, query)) is not None:
        (best, understood), match, score = read, "lexicon", 100.0
    elif by_words := word_matches(glossary, query):
        likeness = {position: entry_score for entry_score, position in reversed(ranked)}
        top_score, top = min(  # among equal word matches, the most alike the query as typed ("miser": Misère, not Mise)
            (item for item in by_words if item[0] == by_words[0][0]), key=lambda item: -likeness.get(item[1], 0.0)
        )
        best, match, score = glossary.entries[top], "words", round(top_score, 1)
        understood = f"{query.strip()} → {best.term}"
    elif ranked and ranked[0][0] >= THRESHOLD and not _real_words(kb, query):
        top_score, top = ranked[0]
        best, match, score = glossary.entries[top], "approx", round(top_score, 1)
        understood = f"{query.strip()} → {best.term} (faute de frappe ? similarité {score:.0f} %)"
    elif (read := _recognised(kb, query)) is not None:  # after the typos: the concept table costs 15 ms to open
        (best, understood), match, score = read, "lexicon", 100.0
    elif (top := _typo_of(glossary, query)) is not None and not _real_words(kb, query):
        best, match, score = glossary.entries[top], "approx", round(next(s for s, p in ranked if p == top), 1)
        understood = f"{query.strip()} → {best.term} (faute de frappe ? similarité {score:.0f} %)"
    else:
        description = describe(kb, query)
        described = description.fits
        leads = len(described) == 1 or (len(described) > 1 and described[0].score - described[1].score >= MARGIN)
        if not described or not leads or description.of_names or _mistyped(kb, query):
            near = [item.position for item in described if described[0].score - item.score <= OFFER_SPAN]
            typos = [position for entry_score, position in ranked[:_MAX_SUGGESTED] if entry_score >= SUGGESTED]
            close = dict.fromkeys(glossary.entries[position].term for position in near[:_MAX_ALTERNATIVES] + typos)
            raise UnknownTermError(query.strip(), tuple(close)[:_MAX_ALTERNATIVES])
        best, match = glossary.entries[described[0].position], "description"
        score = round(100 * described[0].share, 1)
        understood = f"{query.strip()} → {best.term} (d'après les définitions)"
        by_words = [(item.score, item.position) for item in described[1:]]
    others = [position for _, position in by_words] + [
        position for entry_score, position in ranked if entry_score >= THRESHOLD
    ]
    alternatives = tuple(
        entry for entry in dict.fromkeys(glossary.entries[position] for position in others) if entry != best
    )[:_MAX_ALTERNATIVES]
    cited = cited_rules(kb, best)
    followed = glossary.follow(best)
    used = followed[-1] if best.is_pointer and followed else best
    return Definition(
        query=query,
        entry=best,
        match=match,
        score=score,
        followed=followed,
        cited_rules=cited,
        alternatives=alternatives,
        used_by=term_users(kb, used),
        document=kb.document(best.source.document),
        understood=understood,
    )
