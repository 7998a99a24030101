"""Continuous effects as a scenario describes them (418 of the 2004 rules).

A :class:`ContinuousEffect` is either a static ability printed on a
permanent (its effect exists while the permanent is in play and still has
the ability, 418.4b; its timestamp is the permanent's, 418.5f) or the effect
of a resolved spell or ability (its own timestamp, 418.5g; the objects it
affects were fixed when it began, 418.3b). Each effect is a list of
:class:`Operation`; each operation belongs to one :class:`Layer` (418.5a),
except that every part of a type-changing effect applies in layer 4
(418.5b). :mod:`rules_kb.checker.layers` applies them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from rules_kb.core.vocabulary import CardType, Color, Supertype, Zone


class Layer(enum.IntEnum):
    """The six layers of 418.5a (2004), in the order they apply."""

    COPY = 1
    CONTROL = 2
    TEXT = 3
    TYPE = 4
    OTHER = 5
    POWER_TOUGHNESS = 6

    @property
    def label(self) -> str:
        """The French name of the layer, as 418.5a words it."""
        return _LAYER_LABELS[self]

    @property
    def short_label(self) -> str:
        """A one-word French name of the layer, for narrow displays."""
        return _SHORT_LABELS[self]


_LAYER_LABELS = {
    Layer.COPY: "effets de copie",
    Layer.CONTROL: "changement de contrôle",
    Layer.TEXT: "changement de texte",
    Layer.TYPE: "changement de type, sous-type ou sur-type",
    Layer.OTHER: "autres effets",
    Layer.POWER_TOUGHNESS: "force et endurance",
}
_SHORT_LABELS = {
    Layer.COPY: "copie",
    Layer.CONTROL: "contrôle",
    Layer.TEXT: "texte",
    Layer.TYPE: "type",
    Layer.OTHER: "autres",
    Layer.POWER_TOUGHNESS: "F/E",
}


class Operation(enum.Enum):
    """What one part of a continuous effect does; ``value`` is its scenario
    key and ``layer`` the layer it applies in (418.5a)."""

    def __new__(cls, key: str, layer: Layer):
        member = object.__new__(cls)
        member._value_ = key
        member.layer = layer
        return member

    COPY_OF = ("copy_of", Layer.COPY)
    """Become a copy of an object: its copiable values (503.2). Value: an object id."""
    COPY_EXCEPT = ("copy_except", Layer.COPY)
    """The exceptions of a copy effect ("… sauf pour sa couleur", "… et
    acquiert …"), applied right after its ``copy_of`` and so part of the
    copiable values (503.3). Value: ``(Operation, value)`` pairs."""
    SET_CONTROLLER = ("set_controller", Layer.CONTROL)
    """Value: a player's name, or :data:`YOU`: the controller of the
    permanent with the ability, whoever that is (212.4i)."""
    CHANGE_TEXT = ("change_text", Layer.TEXT)
    """Replace a word of the text (418.6). Value: a :class:`TextChange`."""
    SET_CARD_TYPES = ("set_card_types", Layer.TYPE)
    ADD_CARD_TYPES = ("add_card_types", Layer.TYPE)
    SET_SUBTYPES = ("set_subtypes", Layer.TYPE)
    """A land given a basic land type loses its other abilities (212.6e)."""
    ADD_SUBTYPES = ("add_subtypes", Layer.TYPE)
    REMOVE_SUBTYPES = ("remove_subtypes", Layer.TYPE)
    SET_SUPERTYPES = ("set_supertypes", Layer.TYPE)
    ADD_SUPERTYPES = ("add_supertypes", Layer.TYPE)
    SET_COLORS = ("set_colors", Layer.OTHER)
    ADD_COLORS = ("add_colors", Layer.OTHER)
    ADD_ABILITIES = ("add_abilities", Layer.OTHER)
    ADD_STATICS = ("add_statics", Layer.OTHER)
    """Grant static abilities that create continuous effects (418.4), not
    only keywords. Value: :class:`ContinuousEffect` records, acting from
    the permanent that has them."""
    REMOVE_ABILITIES = ("remove_abilities", Layer.OTHER)
    REMOVE_ALL_ABILITIES = ("remove_all_abilities", Layer.OTHER)
    SET_POWER_TOUGHNESS = ("set_power_toughness", Layer.POWER_TOUGHNESS)
    """Value: ``(power, toughness)``, :data:`MANA_VALUE` or a :class:`Count`."""
    MODIFY_POWER_TOUGHNESS = ("modify_power_toughness", Layer.POWER_TOUGHNESS)
    """Value: ``(power change, toughness change)`` or a :class:`Count`."""
    SWITCH_POWER_TOUGHNESS = ("switch_power_toughness", Layer.POWER_TOUGHNESS)
    """Exchange power and toughness (418.5i). Value: True."""


#: The value of ``set_power_toughness`` meaning "each equal to its mana value".
MANA_VALUE = "mana_value"


@dataclass(frozen=True, slots=True)
class TextChange:
    """One word replaced by another in an object's text (418.6a): two
    :class:`Color` (colour words) or two subtypes (land or creature types,
    lowercase strings)."""

    old: Color | str
    new: Color | str

    @property
    def is_color(self) -> bool:
        return isinstance(self.old, Color)


class Scope(enum.Enum):
    """What a continuous effect applies to."""

    SELF = "self"
    """The permanent with the ability."""
    ENCHANTED = "enchanted"
    """The permanent the aura with the ability enchants."""
    EQUIPPED = "equipped"
    """The creature the equipment with the ability equips."""
    ALL = "all"
    """Every permanent matching a :class:`Selector`, re-evaluated each time (418.4a)."""
    OBJECTS = "objects"
    """The objects fixed when a resolved effect began (418.3b)."""


#: ``Selector.controller`` values that depend on the ability's controller.
YOU = "vous"
OPPONENT = "adversaire"


@dataclass(frozen=True, slots=True)
class Selector:
    """Which permanents an ``affects_all`` effect applies to. Each given key
    restricts (all must hold); within one list, any value suffices
    (``colors = ["blanc", "noir"]``: white or black). ``not_*`` lists
    exclude. ``controller`` is ``""`` (anyone), :data:`YOU` (the
    controller of the ability's permanent), :data:`OPPONENT` (anyone else)
    or a player's name; ``other`` excludes the reference object and
    ``shares_subtype`` keeps the permanents sharing a subtype with it (the
    reference is the ability's own permanent for ``affects_all``, the
    permanent being modified for a :class:`Count`)."""

    card_types: frozenset[CardType] = frozenset()
    colors: frozenset[Color] = frozenset()
    subtypes: tuple[str, ...] = ()
    supertypes: frozenset[Supertype] = frozenset()
    not_card_types: frozenset[CardType] = frozenset()
    not_supertypes: frozenset[Supertype] = frozenset()
    not_subtypes: tuple[str, ...] = ()
    not_colors: frozenset[Color] = frozenset()
    controller: str = ""
    other: bool = False
    shares_subtype: bool = False


@dataclass(frozen=True, slots=True)
class Count:
    """A power and toughness value that varies: ``n × each + plus``, where
    ``n`` is the number of objects in ``zone`` that ``selector`` matches,
    counted again each time the layer applies (418.4a), so again at each
    check of the state-based effects (420.3). ``"+1/+1 pour chaque autre
    créature"`` is ``Count(Selector(card_types=…, other=True))`` in
    ``modify_power_toughness``; ``"force et endurance égales au nombre de
    cartes dans votre main"`` is ``Count(Selector(controller=YOU),
    Zone.HAND)`` in ``set_power_toughness``. Both values are
    ``(power, toughness)`` pairs."""

    selector: Selector
    zone: Zone = Zone.BATTLEFIELD
    each: tuple[int, int] = (1, 1)
    plus: tuple[int, int] = (0, 0)


@dataclass(frozen=True, slots=True)
class Affects:
    """What an effect applies to: a :class:`Scope`, with the ``ids`` of
    :attr:`Scope.OBJECTS` or the ``selector`` of :attr:`Scope.ALL`."""

    scope: Scope
    ids: tuple[str, ...] = ()
    selector: Selector | None = None


@dataclass(frozen=True, slots=True)
class ContinuousEffect:
    """A static ability of a permanent or the effect of a resolved spell or ability.

    ``operations`` are ``(Operation, value)`` pairs in the order the scenario
    gives them; ``affects`` what it applies to; ``characteristic_defining``
    marks a characteristic-defining ability (applied first in its layers,
    418.5a). ``origin`` is the id of the permanent a static ability is
    printed on (``""`` for a resolved effect, whose ``timestamp`` is its
    own, 418.5g). ``text`` is the ability's wording, ``line`` where it is in
    the scenario file (0: unknown).
    """

    id: str
    operations: tuple[tuple[Operation, object], ...]
    affects: Affects
    text: str = ""
    characteristic_defining: bool = False
    origin: str = ""
    timestamp: int = 0
    line: int = 0

    @property
    def is_static(self) -> bool:
        """Whether this is a static ability of a permanent (418.4)."""
        return bool(self.origin)

    @property
    def is_type_changing(self) -> bool:
        """Whether the effect changes a type, subtype or supertype: then all its
        parts apply in layer 4 (418.5b)."""
        return any(operation.layer is Layer.TYPE for operation, _ in self.operations)

    @property
    def layers(self) -> tuple[Layer, ...]:
        """The layers the effect applies in, in order (418.5a–b)."""
        if self.is_type_changing:
            return (Layer.TYPE,)
        return tuple(sorted({operation.layer for operation, _ in self.operations}))

    def operations_in(self, layer: Layer) -> tuple[tuple[Operation, object], ...]:
        """The parts of the effect that apply in ``layer`` (418.5b)."""
        if self.is_type_changing:
            return self.operations if layer is Layer.TYPE else ()
        return tuple((op, value) for op, value in self.operations if op.layer is layer)
