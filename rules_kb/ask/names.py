"""Names a question holds that the corpus does not know: keywords of later
rules, and card names.

Players name what they play today and the cards they hold, from any era;
the corpus knows the rules of 2004 (with the 2006 FAQ and two 2011 pages)
and the cards of one FAQ. What it does not know is said once in « Compris »,
never silently dropped, and weighs nothing in the word signals:

- **Later keywords** (:func:`later_keywords`, :mod:`rules_kb.engines.later_keywords`):
  a keyword players use that appeared after the corpus's editions
  (*deathtouch*/contact mortel, *lifelink*/lien de vie, *hexproof*…), with
  the year and set it appeared in and the nearest notion of the corpus when
  there is one.
- **Unknown card names** (:func:`unknown_card_names`): a run of capitalised
  words inside a sentence ("Phyrexian Metamorph", "Colère de Dieu",
  "Ange de Serra"), or a thing named "un ange de platine" — a noun and its
  complement the rules' texts never use — that is none of the concepts
  recognised (a FAQ card, a glossary term, a rule title). A lone
  capitalised word that is a first name (« Marc bloque avec… ») names a
  player, not a card: :func:`first_name`.
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Callable, Iterable
from typing import NamedTuple

from rules_kb.core.text import fold
from rules_kb.engines.later_keywords import LaterKeyword, LaterKeywords

#: Words joining the words of a card's name ("Colère de Dieu", "Wrath of God").
CONNECTORS = frozenset({"de", "du", "des", "d", "of", "the", "la", "le", "l", "à", "a", "au", "aux"})
#: Small words a card's name never starts with (determiners, pronouns, question words), folded.
_NOT_FIRST = frozenset(
    [
        "le",
        "la",
        "les",
        "l",
        "un",
        "une",
        "des",
        "du",
        "de",
        "d",
        "mon",
        "ma",
        "mes",
        "ton",
        "ta",
        "tes",
        "son",
        "sa",
        "ses",
        "notre",
        "nos",
        "votre",
        "vos",
        "leur",
        "leurs",
        "ce",
        "cet",
        "cette",
        "ces",
        "il",
        "elle",
        "ils",
        "elles",
        "je",
        "j",
        "tu",
        "nous",
        "vous",
        "on",
        "moi",
        "lui",
        "qui",
        "que",
        "quoi",
        "quand",
        "si",
        "est",
        "et",
        "ou",
        "mais",
        "donc",
        "or",
        "ni",
        "car",
        "a",
        "au",
        "aux",
        "en",
        "y",
        "the",
        "a",
        "an",
        "my",
        "his",
        "her",
        "their",
        "your",
        "its",
    ]
)
#: Words that are written with a capital but name no card (the game and its bodies), folded.
_NOT_CARDS = frozenset({"magic", "mtg", "dci", "oracle", "faq", "regles", "regle", "joueur", "adversaire"})
_WORD_RE = re.compile(r"[^\W\d_]+")


class Named(NamedTuple):
    """A name found in a question: its ``text`` at ``[start, end)``, and the
    later ``keyword`` it is (None for a card name)."""

    text: str
    start: int
    end: int
    keyword: LaterKeyword | None = None

    @property
    def meaning(self) -> str:
        """What is said of it in « Compris », in French."""
        keyword = self.keyword
        if keyword is None:
            return f"Carte inconnue du corpus : {self.text} — son texte n'est pas pris en compte"
        return f"« {self.text} » : {keyword.meaning}"


def later_keywords(table: LaterKeywords, question: str) -> list[Named]:
    """The later keywords of ``table`` (``kb.later_keywords``) ``question`` names, each once, in the question's order."""
    return [Named(question[start:end], start, end, keyword) for start, end, keyword in table.find(question)]


#: The locales whose first names the players of a story may bear (Faker's person providers).
FIRST_NAME_LOCALES = ("fr_FR", "fr_CH", "fr_CA", "en_US", "en_GB")


@functools.cache
def _first_names() -> frozenset[str]:
    names: set[str] = set()
    for locale in FIRST_NAME_LOCALES:
        provider = importlib.import_module(f"faker.providers.person.{locale}").Provider
        for attribute in ("first_names", "first_names_male", "first_names_female"):
            value = getattr(provider, attribute, ())
            names.update(fold(name) for name in value)
    return frozenset(names)


def first_name(word: str) -> bool:
    """Whether ``word`` (any case or accents) is a first name of
    :data:`FIRST_NAME_LOCALES`, from Faker's lists (imported only when a
    lone capitalised word needs it)."""
    return fold(word) in _first_names()


def _sentence_start(question: str, position: int) -> bool:
    before = question[:position].rstrip(" \t«\"'“(")
    return not before or before[-1] in ".!?:;\n"


def unknown_card_names(
    question: str, known_word: Callable[[str], bool], concepts: Iterable[tuple[int, int]] = ()
) -> list[Named]:
    """The card names of ``question`` the corpus does not know (module
    docstring). ``known_word(word)`` says whether the rules' texts use a
    (folded) word; ``concepts`` are the ``[start, end)`` spans of the
    concepts recognised, which are not unknown names."""
    words = [(match.group(), match.start(), match.end()) for match in _WORD_RE.finditer(question)]
    spans = list(concepts)
    found: list[Named] = []

    def covered(start: int, end: int) -> bool:
        return any(s <= start and end <= e or (s < end and start < e and e - s >= (end - start) / 2) for s, e in spans)

    def add(start: int, end: int) -> None:
        text = question[start:end]
        if covered(start, end) or any(named.start < end and start < named.end for named in found):
            return
        found.append(Named(text, start, end))

    index = 0
    while index < len(words):
        word, start, _ = words[index]
        capital = word[0].isupper() and not (word.isupper() and len(word) <= 4)
        if not capital or fold(word) in _NOT_FIRST or fold(word) in _NOT_CARDS:
            index += 1
            continue
        last, count, capitals = index, 1, 1
        probe = index + 1
        while probe < len(words):
            nxt, nstart, _ = words[probe]
            gap = question[words[probe - 1][2] : nstart]
            if gap.strip(" -’'") or "\n" in gap:
                break
            if nxt[0].isupper() and fold(nxt) not in _NOT_CARDS:
                last, count, capitals = probe, count + 1, capitals + 1
                probe += 1
                continue
            # "Ange de Serra", "Colère de Dieu", "Wrath of God", "Ange de platine": a connector, then a word
            if fold(nxt) in CONNECTORS and probe + 1 < len(words):
                after, _, _ = words[probe + 1]
                if fold(after) not in _NOT_FIRST and (after[0].isupper() or not known_word(fold(after))):
                    last, count = probe + 1, count + 2
                    capitals += after[0].isupper()
                    probe += 2
                    continue
            # "Croissance gigantesque": a lowercase word the rules never use ends the name
            if not nxt[0].isupper() and fold(nxt) not in _NOT_FIRST and not known_word(fold(nxt)) and len(nxt) > 3:
                last, count = probe, count + 1
            break
        at_start = _sentence_start(question, start)
        # "Quand", "Créature": a word, not a name; "Marc": a player
        lone = count == 1 and (at_start or known_word(fold(word)) or first_name(word))
        if not lone and not (at_start and capitals < 2 and count < 3):
            add(start, words[last][2])
        index = last + 1
    # "il contrôle un ange de platine": a noun and its complement the rules never use
    for match in re.finditer(
        r"\b(?:un|une|mon|ma|son|sa|ton|ta|leur|le|la|l'|ce|cet|cette)\s+([^\W\d_]{3,})\s+(de|d'|du)\s*([^\W\d_]{3,})\b",
        question, flags=re.IGNORECASE,
    ):  # fmt: skip
        noun, complement = fold(match.group(1)), fold(match.group(3))
        if complement in _NOT_FIRST or noun in _NOT_FIRST or known_word(complement):
            continue
        add(match.start(1), match.end(3))
    return sorted(found, key=lambda named: named.start)
