"""What the checker does differently from one edition of the rules to another.

Everything that differs between editions lives here, as data: which
state-based actions exist and under which rule numbers, where the rule texts
are read, and how continuous effects are ordered. The checker code asks
the edition; it never tests an edition's name.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from rules_kb.core.errors import RulesKbError


class StateBasedAction(enum.Enum):
    """The state-based effects the checker knows, by what they check (420.5)."""

    ZERO_LIFE = "zero_life"
    """A player with 0 or less life loses."""
    ZERO_TOUGHNESS = "zero_toughness"
    """A creature with 0 or less toughness is put into its owner's graveyard."""
    LETHAL_DAMAGE = "lethal_damage"
    """A creature with lethal damage and toughness above 0 is destroyed."""
    ILLEGAL_AURA = "illegal_aura"
    """An aura attached illegally or to nothing is put into the graveyard."""
    LEGEND_RULE = "legend_rule"
    """Two or more legends with the same name: all but the oldest go (ties: all)."""
    TOKEN_OUT_OF_PLAY = "token_out_of_play"
    """A token anywhere but in play ceases to exist."""
    DRAW_FROM_EMPTY_LIBRARY = "draw_from_empty_library"
    """A player who had to draw from an empty library loses."""
    POISON = "poison"
    """A player with ten or more poison counters loses."""
    WORLD_RULE = "world_rule"
    """Two or more world enchantments: all but the newest go (ties: all)."""
    COPY_OUT_OF_ZONE = "copy_out_of_zone"
    """A copy of a spell off the stack, or of a card off the stack and play, ceases to exist."""
    ILLEGAL_EQUIPMENT = "illegal_equipment"
    """An equipment attached illegally or to nothing becomes unattached."""
    COUNTERS_CANCEL = "counters_cancel"
    """+1/+1 and -1/-1 counters on one permanent are removed in pairs."""

    @property
    def absent(self) -> str:
        """What the checker saw when the effect did not apply, in French
        (``"aucun joueur n'a 0 point de vie ou moins"``)."""
        return _ABSENT[self]


_ABSENT = {
    StateBasedAction.ZERO_LIFE: "aucun joueur n'a 0 point de vie ou moins",
    StateBasedAction.ZERO_TOUGHNESS: "aucune créature n'a une endurance de 0 ou moins",
    StateBasedAction.LETHAL_DAMAGE: "aucune créature n'a de blessures fatales (blessures au moins égales à son endurance)",
    StateBasedAction.ILLEGAL_AURA: "aucune aura n'enchante un permanent illégal ou inexistant",
    StateBasedAction.LEGEND_RULE: "pas deux légendes du même nom",
    StateBasedAction.TOKEN_OUT_OF_PLAY: "aucun jeton n'est hors du jeu",
    StateBasedAction.DRAW_FROM_EMPTY_LIBRARY: "aucun joueur n'a dû piocher dans une bibliothèque vide",
    StateBasedAction.POISON: "aucun joueur n'a dix marqueurs poison ou plus",
    StateBasedAction.WORLD_RULE: "pas deux enchantements du monde",
    StateBasedAction.COPY_OUT_OF_ZONE: "aucune copie n'est hors de sa zone",
    StateBasedAction.ILLEGAL_EQUIPMENT: "aucun équipement n'équipe un permanent illégal ou inexistant",
    StateBasedAction.COUNTERS_CANCEL: "aucun permanent n'a à la fois des marqueurs +1/+1 et -1/-1",
}


@dataclass(frozen=True, slots=True)
class Edition:
    """The rules one edition makes the checker follow.

    ``id`` is the corpus edition (``"2004"``); ``text_editions`` are the
    editions whose rule texts are cited, first found first (a FAQ quotes only
    what changed). ``state_based_actions`` maps each state-based action of
    the edition to its rule number, in the order the rules list them.
    ``draw_rule`` is the rule saying that players losing at once is a draw.
    ``name`` says in a few French words which rule sets it follows
    (``"2004 + FAQ Spirale temporelle"``: every trace of an order the FAQ
    changes names it), ``description`` says it in a sentence.

    ``switch_last`` says whether effects that switch power and toughness
    apply after every other layer-6 effect (else in timestamp order with
    them, as 418.5i of 2004 says); ``switch_ruling`` is where the edition
    says so: ``(card, n)``, the n-th ruling (from 0) of that card in the
    edition's FAQ, or None when the rules say it (``switch_rule``).
    """

    id: str
    text_editions: tuple[str, ...]
    state_based_actions: dict[StateBasedAction, str]
    draw_rule: str
    description: str
    name: str = ""
    switch_last: bool = False
    switch_rule: str = "418.5i"
    switch_ruling: tuple[str, int] | None = None

    def rule_of(self, action: StateBasedAction) -> str | None:
        """The rule number of ``action`` in this edition, None if it has no such rule."""
        return self.state_based_actions.get(action)


_2004 = Edition(
    id="2004",
    text_editions=("2004",),
    state_based_actions={
        StateBasedAction.ZERO_LIFE: "420.5a",
        StateBasedAction.ZERO_TOUGHNESS: "420.5b",
        StateBasedAction.LETHAL_DAMAGE: "420.5c",
        StateBasedAction.ILLEGAL_AURA: "420.5d",
        StateBasedAction.LEGEND_RULE: "420.5e",
        StateBasedAction.TOKEN_OUT_OF_PLAY: "420.5f",
        StateBasedAction.DRAW_FROM_EMPTY_LIBRARY: "420.5g",
        StateBasedAction.POISON: "420.5h",
        StateBasedAction.WORLD_RULE: "420.5i",
        StateBasedAction.COPY_OUT_OF_ZONE: "420.5j",
        StateBasedAction.ILLEGAL_EQUIPMENT: "420.5k",
    },
    draw_rule="102.4",
    description="Règles complètes du 1er juin 2004 (v3.05).",
    name="règles complètes 2004",
)

_2006_FAQ = replace(
    _2004,
    id="2006-faq",
    text_editions=("2006-faq", "2004"),
    state_based_actions={**_2004.state_based_actions, StateBasedAction.COUNTERS_CANCEL: "420.5n"},
    description=(
        "Les règles complètes de 2004, plus ce que la FAQ de "
        "Spirale temporelle (août 2006) change — l'effet basé sur un état 420.5n (marqueurs +1/+1 "
        "et -1/-1) et l'échange de la force et de l'endurance appliqué en dernier (décision sur le "
        "Transmutateur crocheserre). Tout le reste suit 2004, dont l'ordre de la couche 6 : "
        "marqueurs après les capacités de définition de caractéristique et avant les autres effets, "
        "y compris ceux qui fixent la force et l'endurance (418.5a de 2004). Ce n'est pas l'ordre "
        "des règles de Spirale temporelle (sous-couches), que le corpus n'imprime pas."
    ),
    name="2004 + FAQ Spirale temporelle",
    switch_last=True,
    switch_ruling=("Transmutateur crocheserre", 0),
)

#: Every edition the checker can follow, by corpus edition id.
EDITIONS: dict[str, Edition] = {edition.id: edition for edition in (_2004, _2006_FAQ)}


class UnsupportedEditionError(RulesKbError):
    """The checker has no rules for this edition. ``edition`` is what was
    asked; ``supported`` the editions it can follow."""

    def __init__(self, edition: str, supported: tuple[str, ...], where: str = "") -> None:
        self.edition = edition
        self.supported = supported
        super().__init__(
            f"{where}Le vérificateur ne sait pas appliquer l'édition « {edition} ». "
            f"Éditions possibles : {', '.join(supported)}."
        )


def edition(edition_id: str) -> Edition:
    """The :class:`Edition` called ``edition_id``; raises :class:`UnsupportedEditionError`."""
    try:
        return EDITIONS[edition_id.strip()]
    except KeyError:
        raise UnsupportedEditionError(edition_id, tuple(EDITIONS)) from None
