"""The game's closed vocabularies, one enum each, with their French words.

Each member's ``value`` is the English term of the comprehensive rules (an
identifier: ``"graveyard"``, ``"creature"``), ``label`` the French term of
the 2004 rules (``"cimetière"``, ``"créature"``) and ``forms`` every word a
user may write for it: the French term first, the English one last
(``("en jeu", "jeu", "champ de bataille", "in play", "play",
"battlefield")``). Colours and supertypes also carry ``inflections``: the
forms a card's text prints (masculine, feminine, plurals), which a
text-changing effect replaces one for one (418.6a) and the FAQ parser
reads on type lines.

The checker (:mod:`rules_kb.checker`), the FAQ parser and the players'
facts read these tables; no other module lists these words.
"""

from __future__ import annotations

import enum


class Term(enum.Enum):
    """An enum whose value is the English id, with the French ``label``,
    every accepted ``forms`` (French first, English last) and the printed
    ``inflections``."""

    def __new__(cls, value: str, label: str, others: tuple[str, ...] = (), inflections: tuple[str, ...] = ()):
        member = object.__new__(cls)
        member._value_ = value
        member.label = label
        member.forms = (label, *others)
        member.inflections = inflections or (label,)
        return member


class Zone(Term):
    """Where an object is (rule 217, "Zones", of the 2004 rules)."""

    BATTLEFIELD = ("battlefield", "en jeu", ("jeu", "champ de bataille", "in play", "play", "battlefield"))
    """In play: the object is a permanent (217.6)."""
    GRAVEYARD = ("graveyard", "cimetière", ("graveyard",))
    HAND = ("hand", "main", ("hand",))
    LIBRARY = ("library", "bibliothèque", ("library",))
    STACK = ("stack", "pile", ("stack",))
    EXILE = ("exile", "retiré de la partie", ("exil", "exile", "exiled", "removed from the game"))
    """The removed-from-the-game zone (217.7)."""
    PHASED_OUT = ("phased_out", "hors phase", ("phased out",))
    """The phased-out zone of the 2004 rules (217.8)."""


class CardType(Term):
    """Card types: those of the 2004 rules (212) and the later ones a FAQ may print."""

    ARTIFACT = ("artifact", "artefact", ("artéfact", "artifact"))
    CREATURE = ("creature", "créature", ("creature",))
    ENCHANTMENT = ("enchantment", "enchantement", ("enchantment",))
    LAND = ("land", "terrain", ("land",))
    INSTANT = ("instant", "éphémère", ("instant",))
    SORCERY = ("sorcery", "rituel", ("sorcery",))
    TRIBAL = ("tribal", "tribal")
    """Introduced after 2004 (Lorwyn, 2007): printed on FAQ type lines, unknown to the 2004 rules."""
    PLANESWALKER = ("planeswalker", "planeswalker")
    """Introduced after 2004 (Lorwyn, 2007): printed on FAQ type lines, unknown to the 2004 rules."""


#: The card types of the 2004 rules (212): the ones the checker knows.
CARD_TYPES_2004 = (
    CardType.ARTIFACT, CardType.CREATURE, CardType.ENCHANTMENT, CardType.LAND, CardType.INSTANT, CardType.SORCERY,
)  # fmt: skip

#: Card types that can never be on the battlefield (212.5, 212.6 of 2004).
NON_PERMANENT_TYPES = frozenset({CardType.INSTANT, CardType.SORCERY})


class Supertype(Term):
    """Supertypes (205.4)."""

    LEGENDARY = ("legendary", "légendaire", ("legendary",))
    """Subject to the legend rule (420.5e)."""
    WORLD = ("world", "monde", ("du monde", "world"), ("du monde",))
    """A world enchantment, subject to the world rule (420.5i)."""
    BASIC = ("basic", "de base", ("base", "basic"))
    SNOW = ("snow", "enneigé", ("snow",), ("enneigé", "enneigée"))


class Color(Term):
    """The five colours (203); ``inflections`` in the order masculine,
    feminine, masculine plural, feminine plural."""

    WHITE = ("white", "blanc", ("blanche", "white"), ("blanc", "blanche", "blancs", "blanches"))
    BLUE = ("blue", "bleu", ("bleue", "blue"), ("bleu", "bleue", "bleus", "bleues"))
    BLACK = ("black", "noir", ("noire", "black"), ("noir", "noire", "noirs", "noires"))
    RED = ("red", "rouge", ("red",), ("rouge", "rouge", "rouges", "rouges"))
    GREEN = ("green", "vert", ("verte", "green"), ("vert", "verte", "verts", "vertes"))


#: Subtypes the rules give a meaning to, by their canonical (French) spelling.
LEGEND = "légende"
"""Subtype of a legend (215.1, 420.5e)."""
AURA = "local"
"""Subtype of a local enchantment, an aura ("enchantement local", 212.4c)."""
EQUIPMENT = "équipement"
"""Artifact subtype of an equipment (212.2g)."""

#: Every form of each special subtype; the first is the canonical spelling.
SPECIAL_SUBTYPES = {
    LEGEND: ("légende", "legend"),
    AURA: ("local", "aura", "enchantement local"),
    EQUIPMENT: ("équipement", "equipment"),
}
