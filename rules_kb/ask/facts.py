"""Facts of a question for the checker: creatures, damage, counters, life, poison, legends.

A player's question often describes a board state: "ma 2/2 a pris 2
dégâts", "un marqueur +1/+1 et un -1/-1", "il est à 0 pv", "10 marqueurs
poison", "deux légendes du même nom". :func:`extract_facts` reads these
patterns (French number words or digits, accents and case ignored) and
:func:`board` builds the scenario the checker runs
(:class:`rules_kb.checker.scenario.Scenario`), the one ``ask --scenario``
writes as a file for the judge to refine and pass to ``check``.

What is read, by pattern:

- ``P/T`` (``2/2``, ``1/1``): a creature, the asking player's unless
  "sa", "son", "ses", "adverse" or "adversaire" comes just before — but not
  the alternatives of a question ("il arrive en 2/2 ou 5/5 ?"); after a
  verb of change ("devient", "passe à", "se retrouve en"…) and a creature
  already told, the same creature: an effect that sets its power and
  toughness ("ma 2/2 … devient 0/1", 418.5), or, when those are already
  its values after the counters and effects told before or a question mark
  follows, the result the player asks about ("un marqueur +1/+1 sur ma 2/2,
  elle devient 3/3 ?");
  "endurance de N" / "force de N" give a creature or its values;
- ``N blessures|dégâts|dommages`` (also "damage", "dmg"): damage marked on
  the creature told just before (else just after; "X inflige N blessures
  à Y": on Y; "ma 3/3 bloque son 2/2 et prend 2 blessures": on the 3/3),
  when the player says it
  was dealt ("a pris", "prend", "subi", "avec", "a", "lui inflige",
  "… marquées"); damage to come, assigned or asked about ("j'assigne mes
  3 blessures", "les 5 blessures vont au joueur ?", "qui inflige 1
  blessure", "les dégâts sont sur la pile" in 2004) is not marked;
- ``N marqueurs +X/+Y`` (or a signed P/T right after "marqueur",
  "counter", or listed after one with "et"): counters; another signed P/T
  ("prend -2/-2") is an effect until end of turn (on the player's creature
  when the opponent does it to "lui"), unless it is one of
  alternatives asked about ("-1/-1 ou -2/-2 ?");
- ``N points de vie|pv``: the life total of the player told (the asking
  player unless "il", "elle", "adversaire" comes first);
- ``N marqueurs poison``: poison counters;
- "deux légendes" / "même nom" with a legend: two legendary permanents
  with the same name;
- a token ("jeton", "token") and, after it in its sentence (or the next
  ones that go on about it with a pronoun), a zone ("cimetière", "main",
  "bibliothèque", "exil"…), or a verb of going told of it ("je sacrifie
  mon jeton"): a token in that zone;
- an aura or equipment and a creature that leaves play ("meurt",
  "exilée", "sacrifiée"…): the attachment on a creature gone to that zone
  (one phasing out phases out with it, 502.15i; one destroyed with it is
  not read);
- "pioche" with an empty library ("bibliothèque vide", "plus de cartes"):
  a player who drew from an empty library.
"""

from __future__ import annotations

import itertools
import re
from typing import TYPE_CHECKING, NamedTuple

from rules_kb.core.text import fold_aligned
from rules_kb.core.vocabulary import AURA, EQUIPMENT, CardType, Supertype, Zone

if TYPE_CHECKING:  # annotations only: the checker is imported for a board alone (:func:`board`)
    from rules_kb.checker.scenario import Scenario

#: French number words players write.
NUMBER_WORDS = {
    "zero": 0, "un": 1, "une": 1, "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "six": 6, "sept": 7,
    "huit": 8, "neuf": 9, "dix": 10, "onze": 11, "douze": 12, "vingt": 20,
}  # fmt: skip
#: A number a player writes: digits (at most :data:`MAX_DIGITS`, a longer one is no fact) or a French word.
MAX_DIGITS = 4
_DIGITS = rf"\d{{1,{MAX_DIGITS}}}"
_NUMBER = r"(-?(?<!\d)" + _DIGITS + r"(?!\d)|" + "|".join(NUMBER_WORDS) + r")"

_PT_RE = re.compile(r"(?<![\d+\-/])(" + _DIGITS + r")\s*/\s*(" + _DIGITS + r")(?![\d/])")
#: A verb of change right before a P/T: the creature told before becomes it (not a new creature).
_BECOMES_RE = re.compile(
    r"(?:devient|deviennent|devenue?s?|devenir|passe\s+(?:a|en)|passee?\s+(?:a|en)|se\s+retrouve\s+(?:a|en)"
    r"|est\s+maintenant|transformee?\s+en|elle\s+fait|il\s+fait)\s+(?:une?\s+|en\s+)?$"
)
#: An effect switching a creature's power and toughness (418.5i of 2004; « Transmutateur crocheserre »'s text, the Time Spiral FAQ).
_SWITCH_RE = re.compile(
    r"\b(?:echang\w*|invers\w*|intervert\w*|switch\w*)\s+(?:(?:sa|la|leur|its|their)\s+)?"
    r"(?:force\s+et\s+(?:son\s+|l'|l\s)?endurance|endurance\s+et\s+(?:sa\s+|la\s+)?force|power\s+and\s+toughness|f(?:orce)?\s*/\s*e(?:ndurance)?)"
)
#: A creature's P/T said switched right after it ("ma 2/4 échangée").
_SWITCHED_AFTER_RE = re.compile(r"\s*(?:echangee?s?|inversee?s?|intervertie?s?|switched)\b")
#: Words right after a creature's P/T saying the opponent controls it ("une 1/4 adverse", "une 2/2 à lui").
_THEIRS_AFTER_RE = re.compile(
    r"\s*(?:adverses?\b|ennemie?s?\b|d'en\s+face\b|de\s+(?:mon\s+|l'|l\s)?adversaire\b|a\s+lui\b|qu'?\s?il\s+controle\b)"
)
#: Both players told together before a life total ("mon adversaire et moi", "les deux joueurs": 102.4, both lose at once).
_BOTH_PLAYERS_RE = re.compile(
    r"\b(?:les\s+deux\s+joueurs|tous\s+(?:les\s+)?deux|toutes\s+(?:les\s+)?deux|mon\s+adversaire\s+et\s+moi|moi\s+et\s+mon\s+adversaire"
    r"|lui\s+et\s+moi|moi\s+et\s+lui|nous\s+deux|both\s+players|both\s+of\s+us)\b"
)
_SIGNED_RE = re.compile(r"(?<!\d)([+-]" + _DIGITS + r")\s*/\s*([+-]" + _DIGITS + r")(?!\d)")
_COUNTER_WORD_RE = re.compile(r"marqueurs?|counters?")
_DAMAGE_RE = re.compile(_NUMBER + r"\s+(?:points?\s+de\s+)?(?:blessures?|degats?|dommages?|dmg|damages?)\b")
#: Words saying damage was dealt, in the same clause before its number ("a", "avait", "ont": within three words).
_DEALT_RE = re.compile(
    r"\b(?:pris|prend|prends|prenait|subi|subit|encaisse\w*|recu|recoit|avec|porte|deja|inflige|infligee?s?)\b"
    r"|\b(?:a|avait|ont)\s+(?:\S+\s+){0,2}$"
)
#: Words saying damage is to come, assigned, described or asked about, in the same clause before its number.
_NOT_DEALT_RE = re.compile(
    r"\b(?:assign\w*|vont|va|vais|peux|peut|pourr\w*|mettre|envoy\w*|qui|pour|si|restent?|infliger\w*|fera\w*|pile"
    r"|doit|devrait|devait)\b"
)
#: Words after damage's number saying it is marked.
_MARKED_AFTER_RE = re.compile(
    r"\s*(?:(?:points?\s+de\s+)?(?:blessures?|degats?|dommages?|dmg|damages?))\s+(?:marquee?s?|dessus)"
)
_LIFE_RE = re.compile(_NUMBER + r"\s*(?:points?\s+de\s+vie|pv|life)\b")
_POISON_RE = re.compile(_NUMBER + r"\s+(?:marqueurs?\s+|counters?\s+)?(?:de\s+)?poisons?\b")
_VALUE = r"\s+(?:de\s+|a\s+|=\s*|est\s+(?:de\s+|a\s+)?)?" + _NUMBER  # "endurance de 0", "force = 3"
_TOUGHNESS_RE = re.compile("endurance" + _VALUE)
_POWER_RE = re.compile("force" + _VALUE)
_LEGENDS_RE = re.compile(r"\b(?:deux|2|plusieurs|trois|3)\s+(?:\w+\s+){0,2}legend|meme\s+legende")
_SAME_NAME_RE = re.compile(r"meme\s+nom")
#: Words telling which of two legends came first (folded): one already there, then the other.
_ORDER_RE = re.compile(
    r"\b(?:puis|ensuite|apres|nouvelle|deuxieme|seconde|2e|2eme|autre|deja|depuis|vient|arrive\w*|joue\w*|pose\w*|lance\w*"
    r"|plus\s+ancienne|premiere)\b"
)
_EMPTY_LIBRARY_RE = re.compile(
    r"(?:biblio\w*|library|deck)\s+(?:est\s+|etait\s+)?vide|plus\s+de\s+cartes?\s+dans\s+(?:sa|ma|la|son|mon)\s+(?:biblio|deck)"
    r"|empty\s+library"
)
_DRAW_RE = re.compile(r"pioch\w*(?!\s+(?:jamais|pas|plus|rien))|draw")
_NO_DRAW_RE = re.compile(r"\b(?:ne|n)\s+(?:\w+\s+)?pioch|pioch\w*\s+(?:jamais|pas|plus|rien)\b")
_TOKEN_RE = re.compile(r"\b(?:jetons?|tokens?)\b")
#: Where an object is told to go: the zone, the nouns naming it, the verbs
#: saying the object went there (folded, as players write them). Tokens go
#: where either says; an aura's or equipment's creature leaves play by a verb.
_GONE_TO = (
    (Zone.GRAVEYARD, r"cimetiere|graveyard",
     r"meurt|meurent|mort|morte|detruite?|creve|dies?|sacrifiee?|va au cimetiere|quitte le jeu"),
    (Zone.HAND, r"main|hand", r"bounce|renvoyee?(?: dans la main)?"),
    (Zone.LIBRARY, r"bibliotheque|library|deck", r"meulee?"),
    (Zone.EXILE, r"exil", r"exilee?|exiler|retiree? de la partie|blink"),
    (Zone.PHASED_OUT, r"hors phase", r"phase out|phasee|dephasee?|pass\w* hors phase"),  # 502.15: "passe hors phase"
)  # fmt: skip
_TOKEN_ZONES = tuple((re.compile(rf"\b(?:{nouns}|{verbs})\b"), zone.label) for zone, nouns, verbs in _GONE_TO)
#: A verb of going whose object is the token ("je sacrifie le jeton").
_TOKEN_OBJECT_ZONES = tuple(
    (
        re.compile(rf"\b(?:{verbs})\s+(?:le|la|les|l'|mon|ma|mes|son|sa|ses|ce|cet|ces|un|une|des|leurs?)\s*$"),
        zone.label,
    )
    for zone, _nouns, verbs in _GONE_TO
)
_LEAVES_ZONES = tuple((re.compile(rf"\b(?:{verbs})\b"), zone.label) for zone, _nouns, verbs in _GONE_TO)
_ATTACHMENT_RE = re.compile(r"\b(?:aura|auras|enchantement local|enchantee?|equipements?|equipee?)\b")
#: The aura or equipment itself leaves too, or is a spell being cast: it is not in play to be put
#: into the graveyard by 420.5d/420.5k (an aura whose target left is countered: 413.2a).
_ATTACHMENT_GONE_RE = re.compile(
    r"\b(?:aura|equipement)\s+(?:\w+\s+){0,2}(?:part|partent|meurt|est detruite?|sont detruite?s|va au cimetiere|quitte le jeu|cible)"
    r"|\bdetrui\w*\s+(?:\w+\s+){0,7}(?:enchantements|auras|equipements|artefacts)\b"
    r"|\b(?:lance|lancer|joue|jouer|cast)\s+(?:\w+\s+){0,2}aura\b"
)
#: One destruction or sacrifice of the creature and of what is attached to it ("détruit ma créature
#: et le Guide griffon qui l'enchante", "il sacrifie sa créature et son équipement"): told even in
#: the question's sentence, before the alternatives it asks about.
_DESTROYED_WITH_RE = re.compile(
    r"\b(?:detrui\w*|sacrifi\w*)\s+[^.;?!]{0,60}\bet\s+(?:\w+\s+){0,4}"
    r"(?:(?:son|sa|mon|ma|l')\s*(?:aura|equipement)|qui\s+l'\s*(?:enchante|equipe))\b"
)
#: The creature left while the aura was a spell on the stack (in response to it): the aura never
#: got attached, and its spell is countered on resolution (413.2a), not put into the graveyard by 420.5d.
#: An aura being cast ("je mets une aura sur sa créature", "il lance une aura"), and a reply to it.
_AURA_CAST_RE = re.compile(r"\b(?:mets|met|mettre|pose|poser|lance|lancer|joue|jouer|cast)\s+(?:\w+\s+){0,2}aura\b")
_IN_RESPONSE_RE = re.compile(r"\ben reponse\b|\bin response\b|\bavant (?:que|qu')[^.?!]{0,60}resol")
_ON_STACK_RE = re.compile(r"\ben reponse\b|\bavant (?:que|qu'|la resolution)|\bsur la pile\b|\bin response\b")
#: Who a fact is about, in French or English ("mon adversaire", "my opponent", "il": the opponent).
_OPPONENT_RE = re.compile(
    r"\b(?:sa|son|ses|leur|adverse|adversaire|il|elle|lui|opponent'?s?|he|she|his|her|him|they|their)\b"
)
_THEIR_RE = re.compile(r"\b(?:sa|son|ses|leur|his|her|their|opponent'?s?)\b|adverse")
_MINE_RE = re.compile(r"\b(?:ma|mon|mes|je|j|i|my|me|mine)\b")

#: The player names of the scenarios built from questions.
YOU = "Vous"
OPPONENT = "Adversaire"


def _number(word: str) -> int:
    return NUMBER_WORDS[word] if word in NUMBER_WORDS else int(word)


class Creature:
    """A creature told in a question: ``power``/``toughness`` (None when not
    told), ``damage`` marked, ``counters`` by kind (``"+1/+1"``),
    ``modifiers`` (signed P/T effects until end of turn), its ``controller``
    (:data:`YOU` or :data:`OPPONENT`) and ``[start, end)`` where it is told."""

    __slots__ = (
        "asked",
        "changes",
        "controller",
        "counters",
        "damage",
        "end",
        "modifiers",
        "power",
        "printed",
        "start",
        "toughness",
    )

    def __init__(
        self, start: int, end: int, controller: str, power: int | None = None, toughness: int | None = None
    ) -> None:
        self.start = start
        self.end = end
        self.controller = controller
        self.power = power
        self.toughness = toughness
        self.printed = power is not None and toughness is not None
        """Whether the question tells both its power and toughness ("ma 2/2"), not only one of them."""
        self.damage = 0
        self.counters: dict[str, int] = {}
        self.modifiers: list[tuple[int, int]] = []
        self.changes: list[tuple[int, str, int, int]] = []
        """The effects and counters told on it, in the question's order:
        ``(position, kind, power, toughness)``, ``kind`` one of ``"set"``
        (it becomes P/T), ``"modify"`` (±P/±T until end of turn),
        ``"counter"`` (one counter), ``"switch"`` (its power and toughness
        switched; 0, 0)."""
        self.asked: tuple[int, int] | None = None
        """The power and toughness the player says it has after them (the result asked about), if told."""

    def values_before(self, position: int) -> tuple[int, int]:
        """Its power and toughness with what is told before ``position``:
        the last value it was set to (else its own), plus the modifications
        and counters told after that."""
        power, toughness = self.power or 0, self.toughness or 0
        told = [change for change in self.changes if change[0] < position]
        sets = [i for i, change in enumerate(told) if change[1] == "set"]
        if sets:
            _, _, power, toughness = told[sets[-1]]
            told = told[sets[-1] + 1 :]
        for _, kind, more_power, more_toughness in told:
            if kind == "switch":
                power, toughness = toughness, power
            else:
                power, toughness = power + more_power, toughness + more_toughness
        return power, toughness

    @property
    def label(self) -> str:
        """How the question names it, from the asking player's side:
        ``"votre 2/2"``, ``"sa 3/3"``, ``"votre créature"`` (its power and
        toughness when both are told, never a value the question does not give)."""
        owner = "votre" if self.controller == YOU else "sa"
        return f"{owner} {self.power}/{self.toughness}" if self.printed else f"{owner} créature"


class Fact(NamedTuple):
    """One fact read: the question's ``text`` at ``[start, end)`` and what it
    means in French (``"créature 2/2"``, ``"2 blessures"``)."""

    text: str
    start: int
    end: int
    meaning: str


class Facts(NamedTuple):
    """What a question says of the board: ``creatures``, the players'
    ``life`` and ``poison`` (by player name), ``legends`` (two legendary
    permanents with the same name), ``empty_library`` (the player who drew
    from an empty library, ``""`` if none) and the ``read`` facts in the
    question's order."""

    creatures: tuple[Creature, ...] = ()
    life: tuple[tuple[str, int], ...] = ()
    poison: tuple[tuple[str, int], ...] = ()
    legends: bool = False
    legends_ordered: bool = False
    """Whether the question tells which legend came first ("j'en ai une, je joue la deuxième"):
    without it, which one stays (420.5e) is a fact the question does not give."""
    attachment: str = ""
    """``"aura"`` or ``"équipement"`` when the question tells one attached to
    a creature that leaves play, ``""`` otherwise."""
    attachment_zone: str = ""
    """Where that creature went (a zone of the scenario format)."""
    token_zone: str = ""
    """The zone a token is told to go to (``"cimetière"``…), ``""`` if none."""
    aura_spell_target_gone: bool = False
    """An aura cast on a creature that leaves in response, while the aura is a
    spell on the stack: it never gets attached; its spell is countered on
    resolution (413.2a, an aura spell always targets: 415.3)."""
    empty_library: str = ""
    read: tuple[Fact, ...] = ()
    incomplete: str = ""
    """Why the board cannot be built although the question tells facts
    (damage or counters on a creature whose power and toughness are not
    told), in French; ``""`` otherwise."""

    @property
    def checkable(self) -> bool:
        """True when the facts make a state the checker can judge: more than
        bare creatures (damage, counters, an effect, toughness 0 or less, a
        life or poison total, legends, an empty library)."""
        return bool(
            self.life or self.poison or self.legends or self.empty_library or self.token_zone or self.attachment
            or self.aura_spell_target_gone
            or any(
                c.damage or c.counters or c.changes or (c.toughness is not None and c.toughness <= 0)
                for c in self.creatures
            )
        )  # fmt: skip


#: A sentence that goes on about the object the sentence before named: it
#: opens on a subject pronoun ("Il est renvoyé…", "it dies").
#: A short opening clause may come first ("À mon dégagement, il part hors phase");
#: the impersonal "il" of French grammar ("il y a", "il reste", "il faut") names nothing.
_PRONOUN_OPENING_RE = re.compile(
    r"\s*(?:[^.;?!,]{0,30},\s*)?(?:il(?!\s+(?:y|faut|fallait|reste|restait|restera)\b)|elle|ils|elles|it|they)\b"
)


_SENTENCE_END_RE = re.compile(r"[.;?!]")


def _token_sentences(folded: str, start: int) -> int:
    """End of what is told about a token named just before ``start``.

    Shape: an offset into ``folded``. The token's own sentence, and the
    sentences after it that open on a subject pronoun: a zone named in another
    sentence ("j'ai quatre cartes en main") is not where the token went.
    """
    end = start
    while True:
        stop = _SENTENCE_END_RE.search(folded, end)
        if not stop:
            return len(folded)
        end = stop.end()
        if not _PRONOUN_OPENING_RE.match(folded, end):
            return stop.start()


def _asking_start(folded: str) -> int:
    """Where the last sentence with a question mark begins (the text's length when none)."""
    end = folded.rfind("?")
    return len(folded) if end < 0 else max(folded.rfind(mark, 0, end) for mark in ".!;") + 1


def _alternatives_start(folded: str, listed: bool = False) -> int:
    """Where the alternatives of the last question begin ("…, part avec elle,
    ou va au cimetière ?": what the player asks, not what happened), or the
    text's length when it asks none. ``listed``: a list of three or more
    ("va au cimetière, reste en jeu, ou part avec ?") begins at its first item."""
    end = folded.rfind("?")
    if end < 0:
        return len(folded)
    start = max(folded.rfind(mark, 0, end) for mark in ".!;") + 1
    choice = re.search(r"\bou\b", folded[start:end])
    if not choice:
        return len(folded)
    at = start + choice.start()
    if listed and folded[start:at].rstrip().endswith(","):
        # "A, B, ou C ?": A and B are alternatives too; A begins after the comma before B's
        comma = folded.rfind(",", start, at)
        for _ in range(2):
            if comma >= 0:
                comma = folded.rfind(",", start, comma)
        return comma + 1 if comma >= 0 else start
    return at


def _alternatives(text: str, matches: list[re.Match], between: str) -> set[int]:
    """The ids of the ``matches`` that are alternatives of a question: two
    in a row with only ``between`` (a pattern ending in "ou …") between
    them, the second followed by a question mark in its sentence."""
    return {
        id(match) for first, second in itertools.pairwise(matches)
        if re.fullmatch(between, text[first.end() : second.start()]) and re.match(r"[^.;!]*\?", text[second.end() :])
        for match in (first, second)
    }  # fmt: skip


def _player_before(folded: str, start: int) -> str:
    before = folded[max(0, start - 40) : start]
    clause = re.split(r"[,.;?!]|\bet\b", before)[-1]
    opponent = list(_OPPONENT_RE.finditer(clause))
    mine = list(_MINE_RE.finditer(clause))
    if opponent and (not mine or opponent[-1].start() > mine[-1].start()):
        return OPPONENT
    return YOU


def _creature_owner(folded: str, start: int, end: int | None = None) -> str:
    before = folded[max(0, start - 14) : start]
    if end is not None and _THEIRS_AFTER_RE.match(folded, end):
        return OPPONENT
    return OPPONENT if _THEIR_RE.search(before) and not re.search(r"\b(?:ma|mon|mes|my)\b", before) else YOU


#: Words before a creature's P/T that say its grammatical gender (folded): "ma 2/3", "une créature 2/3" are feminine.
_FEMININE_RE = re.compile(r"\b(?:ma|ta|sa|une|la|cette|creature)\s+(?:\w+\s+)?$")
_MASCULINE_RE = re.compile(r"\b(?:mon|ton|son|un|le|ce|cet)\s+(?:\w+\s+)?$")


def _antecedent(folded: str, creatures: list[Creature], sentence: int, pronoun: str) -> Creature | None:
    """The creature a sentence's subject pronoun (``"elle"``, ``"il"``)
    stands for: the first creature of the sentence before that agrees with
    it in gender, the nearest first ("je bloque avec ma 2/2. Elle prend…"),
    else None (the caller keeps the nearest creature)."""
    start = max([folded.rfind(mark, 0, sentence - 1) for mark in ".!?;"] + [-1]) + 1
    before = [c for c in creatures if start <= c.start < sentence]
    gender = _FEMININE_RE if pronoun == "elle" else _MASCULINE_RE
    agreeing = [c for c in before if gender.search(folded[max(0, c.start - 20) : c.start])]
    return agreeing[-1] if agreeing else None


def _nearest(creatures: list[Creature], position: int) -> Creature | None:
    before = [c for c in creatures if c.start <= position]
    if before:
        return before[-1]
    after = [c for c in creatures if c.start > position]
    return after[0] if after else None


def extract_facts(question: str) -> Facts:
    """The facts of ``question`` (see the module docstring); never raises:
    a question without facts gives an empty :class:`Facts`."""
    text = fold_aligned(question)
    read: list[Fact] = []
    creatures: list[Creature] = []
    unplaced: list[str] = []

    def note(match: re.Match, meaning: str) -> None:
        read.append(Fact(question[match.start() : match.end()], match.start(), match.end(), meaning))

    becomes: list[tuple[re.Match, Creature]] = []
    found_pt = list(_PT_RE.finditer(text))
    asked = _alternatives(
        text, found_pt,
        r"[^.;!?]{0,30}(?:\bou|,\s*(?:et\s+)?(?:pas|non|plutot\s+que|au\s+lieu\s+de))\s+(?:(?:bien|un|une|en|juste|seulement|simple)\s+){0,3}",
    )  # fmt: skip
    for match in found_pt:
        power, toughness = int(match.group(1)), int(match.group(2))
        if id(match) in asked:
            note(match, f"{power}/{toughness} (une des valeurs demandées)")
            continue
        if creatures and _BECOMES_RE.search(text[max(0, match.start() - 30) : match.start()]):
            becomes.append((match, creatures[-1]))
            continue
        creatures.append(
            Creature(match.start(), match.end(), _creature_owner(text, match.start(), match.end()), power, toughness)
        )
        note(match, f"créature {power}/{toughness}")
    for pattern, attribute in ((_TOUGHNESS_RE, "toughness"), (_POWER_RE, "power")):
        for match in pattern.finditer(text):
            value = _number(match.group(1))
            creature = _nearest(creatures, match.start())
            if creature is None:
                creature = Creature(match.start(), match.end(), _creature_owner(text, match.start()))
                creatures.append(creature)
                creatures.sort(key=lambda c: c.start)
            setattr(creature, attribute, value)
            note(match, f"{'endurance' if attribute == 'toughness' else 'force'} {value}")
    for creature in creatures:
        if creature.toughness is None:
            creature.toughness = creature.power if creature.power is not None else 1
        if creature.power is None:
            creature.power = max(creature.toughness, 0)
    for match in _DAMAGE_RE.finditer(text):
        clause = re.split(r"[,.;:?!«»]", text[max(0, match.start() - 60) : match.start()])[-1]
        marked = _MARKED_AFTER_RE.match(text, match.start(1) + len(match.group(1)))
        if not marked and (not _DEALT_RE.search(clause) or _NOT_DEALT_RE.search(clause)):
            continue  # damage to come, assigned or asked about: not on the creature
        creature = _nearest(creatures, match.start())
        if (
            creature is not None
            and creature.damage
            and re.search(r"\b(?:les|ses|ces|mes|tes|leurs)\s+$", text[: match.start()])
        ):
            continue  # "ses 3 blessures": the damage already told, not more
        after = [c for c in creatures if c.start > match.end()]
        sentence = max(text.rfind(mark, 0, match.start()) for mark in ".!?;") + 1
        if re.search(r"\binflig\w*\s+$", text[: match.start()]) and after and re.match(r"\s*a\b", text[match.end() :]):
            creature = after[0]  # "X inflige N blessures à Y": on Y
        elif pronoun := re.match(
            r"\s*(elle|il)\s+(?:a\s+)?(?:pris|prend|subi|subit|encaisse\w*|recu|recoit)\s+$",
            text[sentence : match.start()],
        ):
            # "Ma 2/3 bloque son 2/2. Elle prend 2 blessures.": the creature of the sentence before of the pronoun's gender
            creature = _antecedent(text, creatures, sentence, pronoun.group(1)) or creature
        elif re.search(
            r"\bet\s+(?:a\s+)?(?:pris|prend|subi|subit|encaisse\w*|recu|recoit)\s+$", text[sentence : match.start()]
        ):
            # "ma 3/3 bloque son 2/2 et prend 2 blessures": the subject, the sentence's first creature
            subject = [c for c in creatures if sentence <= c.start < match.start()]
            creature = subject[0] if subject else creature
        amount = _number(match.group(1))
        if creature is not None and amount > 0:
            creature.damage += amount
            note(match, f"{amount} blessure{'s' if amount > 1 else ''} sur {creature.label}")
        elif amount > 0:
            note(match, f"{amount} blessure{'s' if amount > 1 else ''}")
            unplaced.append(question[match.start() : match.end()])
    counter_end = -1
    signed = list(_SIGNED_RE.finditer(text))
    alternatives = _alternatives(text, signed, r"[^.;!?]{0,40}\bou\s+(?:(?:bien|juste|seulement|un|une|que)\s+){0,2}")
    for match in signed:
        if id(match) in alternatives:
            continue  # "-1/-1 ou -2/-2 ?": what the player asks, not two effects
        kind = f"{int(match.group(1)):+d}/{int(match.group(2)):+d}"
        before = text[max(0, match.start() - 25) : match.start()]
        after = text[match.end() : match.end() + 10]
        joined = counter_end >= 0 and re.fullmatch(
            r"\s*(?:et|,)\s*(?:(?:un|une|\d+|deux|trois)\s+)?", text[counter_end : match.start()]
        )
        is_counter = bool(_COUNTER_WORD_RE.search(before) or re.match(r"\s*counters?", after) or joined)
        creature = _nearest(creatures, match.start())
        mine = [c for c in creatures if c.controller == YOU and c.start < match.start()]
        if creature is not None and creature.controller != YOU and mine and re.search(r"\blui\s+\w+\s+$", before):
            creature = mine[0]  # "(il) lui met -1/-1": done to the player's creature, not the opponent's
        if creature is None:
            if is_counter:
                counter_end = match.end()
                note(match, f"marqueur {kind}")
                unplaced.append(f"marqueur {kind}")
            continue
        if is_counter:
            count = re.search(_NUMBER + r"\s+(?:marqueurs?\s+)?$", before)
            amount = _number(count.group(1)) if count else 1
            if amount < 1:
                continue  # "-1 marqueurs +1/+1": no counters to put (the scenario loader refuses them)
            creature.counters[kind] = creature.counters.get(kind, 0) + amount
            creature.changes += [(match.start(), "counter", int(match.group(1)), int(match.group(2)))] * amount
            counter_end = match.end()
            note(match, f"{amount} marqueur{'s' if amount > 1 else ''} {kind} sur {creature.label}")
        else:
            creature.modifiers.append((int(match.group(1)), int(match.group(2))))
            creature.changes.append((match.start(), "modify", int(match.group(1)), int(match.group(2))))
            note(match, f"effet {kind} jusqu'à la fin du tour sur {creature.label}")
    switched = [(match, None) for match in _SWITCH_RE.finditer(text)]
    switched += [(match, c) for c in creatures if (match := _SWITCHED_AFTER_RE.match(text, c.end))]
    for match, creature in sorted(switched, key=lambda found: found[0].start()):
        after = [c for c in creatures if match.end() <= c.start <= match.end() + 30]
        creature = creature or (after[0] if after else _nearest(creatures, match.start()))
        if creature is None:
            continue
        creature.changes.append((match.start(), "switch", 0, 0))
        creature.changes.sort()
        note(match, f"effet : force et endurance de {creature.label} échangées")
    for match, creature in becomes:
        power, toughness = int(match.group(1)), int(match.group(2))
        told = [change for change in creature.changes if change[0] < match.start()]
        if told and told[-1][1] == "switch" and creature.values_before(match.start()) == (power, toughness):
            note(match, f"{creature.label} devient {power}/{toughness} (ce que l'échange donne)")
            continue
        if creature.values_before(match.start()) == (power, toughness) or re.match(r"\s*\?", text[match.end() :]):
            creature.asked = (power, toughness)
            note(match, f"{creature.label} devient {power}/{toughness} (le résultat demandé)")
            continue
        creature.changes.append((match.start(), "set", power, toughness))
        creature.changes.sort()
        note(match, f"effet : {creature.label} devient {power}/{toughness}")
    life: dict[str, int] = {}
    for match in _LIFE_RE.finditer(text):
        sentence = re.split(r"[.;?!]", text[: match.start()])[-1] + re.split(r"[.;?!]", text[match.end() :])[0]
        both = _BOTH_PLAYERS_RE.search(sentence)
        players = (YOU, OPPONENT) if both else (_player_before(text, match.start()),)
        for player in players:
            life[player] = _number(match.group(1))
        note(match, f"{' et '.join(players)} : {life[players[0]]} points de vie")
    poison: dict[str, int] = {}
    for match in _POISON_RE.finditer(text):
        player = _player_before(text, match.start())
        if _number(match.group(1)) < 0:
            continue  # "-1 marqueurs poison": not a count (the scenario loader refuses it)
        poison[player] = _number(match.group(1))
        note(match, f"{player} : {poison[player]} marqueurs poison")
    legends = False
    found = _LEGENDS_RE.search(text) or (_SAME_NAME_RE.search(text) if "legend" in text else None)
    if found:
        legends = True
        note(found, "deux permanents légendaires du même nom")
    legends_ordered = legends and bool(_ORDER_RE.search(text))
    token_zone = ""
    asking = _asking_start(text)
    for token in _TOKEN_RE.finditer(text):
        told_of = _token_sentences(text, token.end())
        found = [
            (where, zone) for pattern, zone in _TOKEN_ZONES if (where := pattern.search(text, token.end(), told_of))
        ]
        if token.start() < asking:  # "ça détruit ses jetons ?" asks whether it does
            found += [
                (where, zone)
                for pattern, zone in _TOKEN_OBJECT_ZONES
                if (where := pattern.search(text, 0, token.start()))
            ]
        if found:
            where, token_zone = min(found, key=lambda item: item[0].start())
            read.append(
                Fact(question[token.start() : where.end()], token.start(), where.end(), f"un jeton va : {token_zone}")
            )
            break
    attachment, attachment_zone = "", ""
    attached = _ATTACHMENT_RE.search(text)
    hypothetical = _alternatives_start(text, listed=True)
    gone = [
        (found, zone)
        for pattern, zone in _LEAVES_ZONES
        if (found := pattern.search(text)) and found.start() < hypothetical
    ]
    told = text[: _asking_start(text)]  # what happened, not what the player asks
    on_stack = _ON_STACK_RE.search(text)
    aura_spell_target_gone = bool(
        attached and gone and not token_zone and on_stack and not attached.group(0).startswith("equip")
        and _AURA_CAST_RE.search(text) and _IN_RESPONSE_RE.search(text)
    )  # fmt: skip
    if aura_spell_target_gone:
        leaves = min(gone, key=lambda pair: pair[0].start())[0]
        start, end = (
            min(attached.start(), leaves.start(), on_stack.start()),
            max(attached.end(), leaves.end(), on_stack.end()),
        )
        read.append(
            Fact(question[start:end], start, end, "une aura encore sur la pile dont la créature ciblée s'en va")
        )
    with_it = _DESTROYED_WITH_RE.search(text, 0, hypothetical)
    if attached and gone and not token_zone and not _ATTACHMENT_GONE_RE.search(told) and not with_it and not on_stack:
        leaves, attachment_zone = min(gone, key=lambda pair: pair[0].start())
        attachment = "équipement" if attached.group(0).startswith("equip") else "aura"
        start, end = min(attached.start(), leaves.start()), max(attached.end(), leaves.end())
        attached_word, pronoun = ("attachée", "elle") if attachment == "aura" else ("attaché", "il")
        meaning = (
            f"{attachment} {attached_word} à une créature qui passe hors phase : {pronoun} y passe avec elle (502.15i)"
            if attachment_zone == Zone.PHASED_OUT.label
            else f"{attachment} {attached_word} à une créature qui quitte le jeu ({attachment_zone})"
        )
        read.append(Fact(question[start:end], start, end, meaning))
    empty = ""
    library = _EMPTY_LIBRARY_RE.search(text)
    if library and _DRAW_RE.search(text) and not _NO_DRAW_RE.search(text):
        empty = _player_before(text, library.start())
        note(library, f"{empty} : a dû piocher dans une bibliothèque vide")
    return Facts(
        creatures=tuple(creatures),
        life=tuple(life.items()),
        poison=tuple(poison.items()),
        legends=legends,
        legends_ordered=legends_ordered,
        attachment=attachment,
        attachment_zone=attachment_zone,
        token_zone=token_zone,
        aura_spell_target_gone=aura_spell_target_gone,
        empty_library=empty,
        read=tuple(sorted(read, key=lambda fact: fact.start)),
        incomplete=(
            f"la force et l'endurance de la créature ne sont pas dites ({', '.join(unplaced)}) : "
            "écrivez-les comme « ma 2/2 … » pour que le vérificateur juge la situation"
            if unplaced
            else ""
        ),
    )


#: The longest title a scenario gets from its question (the loader bounds line lengths).
MAX_TITLE = 200
#: The name a scenario built from a question goes by (its ``path``, in the checker's messages and JSON).
SOURCE = "question"
#: Lone surrogates (a question read from undecodable bytes): no TOML text holds them.
_SURROGATE_RE = re.compile("[\ud800-\udfff]")


def _title(question: str) -> str:
    """The scenario's title: the question's first line, cut at :data:`MAX_TITLE` characters."""
    first = question.strip().splitlines()[0] if question.strip() else "Question"
    title = first if len(first) <= MAX_TITLE else first[: MAX_TITLE - 1] + "…"
    return _SURROGATE_RE.sub("\ufffd", title).strip()


def permanent_names(facts: Facts) -> list[str]:
    """The name of each creature of ``facts`` in the scenario, as the
    question names it, capitalised ("Votre 2/2", "Sa créature"), with its
    rank when two are named alike ("Votre 2/2, la deuxième")."""
    labels = [creature.label[0].upper() + creature.label[1:] for creature in facts.creatures]
    ranks = ("première", "deuxième", "troisième", "quatrième", "cinquième")
    names, seen = [], {}
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        count = seen[label]
        if labels.count(label) > 1:
            names.append(f"{label}, la {ranks[count - 1]}" if count <= len(ranks) else f"{label}, n° {count}")
        else:
            names.append(label)
    return names


class Board(NamedTuple):
    """The board of a question for the checker: the ``scenario``
    (:class:`rules_kb.checker.scenario.Scenario`) and ``creature_ids``, the
    id of the permanent of each creature of the facts, in their order."""

    scenario: Scenario
    creature_ids: tuple[str, ...]


#: The zones of the scenario format, by their French term (the facts name them so).
_ZONES = {zone.label: zone for zone in Zone}


def board(facts: Facts, question: str, edition: str) -> Board:
    """The checker's scenario of ``facts``, for its ``edition``: two
    players (:data:`YOU`, the active player, and :data:`OPPONENT`) with the
    life, poison and empty library told; one creature per creature told
    (ids ``creature-1``…, timestamps in the question's order); for legends,
    two legendary creatures named « Légende » when the question tells
    which came first (else their order is a fact it does not give); a 1/1
    token in the zone told; a creature gone to the zone told with the aura
    or equipment attached to it; then the effects told, in the question's
    order (418.5e: later timestamps). Titled with the question's first
    line; its ``path`` is :data:`SOURCE`. Built as the checker's reader
    (:mod:`rules_kb.checker.scenario`) would read its file, which
    ``rules-kb ask --scenario`` writes; never raises."""
    # deferred: the checker, only for a board (as in :mod:`rules_kb.ask.verify`)
    from rules_kb.checker.effects import Affects, ContinuousEffect, Operation, Scope
    from rules_kb.checker.scenario import Scenario
    from rules_kb.checker.state import GameObject, GameState, Player

    life, poison = dict(facts.life), dict(facts.poison)
    players = tuple(
        Player(name, life=life.get(name, 20), poison=poison.get(name, 0),
               drew_from_empty_library=facts.empty_library == name)
        for name in (YOU, OPPONENT)
    )  # fmt: skip
    creature = frozenset({CardType.CREATURE})
    objects: list[GameObject] = []

    def add(ident: str, name: str, controller: str = YOU, **values) -> None:
        objects.append(GameObject(ident, name, controller, controller, timestamp=len(objects) + 1, **values))

    names = permanent_names(facts)
    idents = tuple(f"creature-{number}" for number in range(1, len(facts.creatures) + 1))
    for ident, name, told in zip(idents, names, facts.creatures):
        add(ident, name, told.controller, card_types=creature, power=told.power, toughness=told.toughness,
            damage=told.damage, counters=dict(told.counters))  # fmt: skip
    if facts.legends and facts.legends_ordered:
        for rank in (1, 2):
            add(f"legende-{rank}", "Légende", card_types=creature, supertypes=frozenset({Supertype.LEGENDARY}),
                power=2, toughness=2)  # fmt: skip
    if facts.token_zone:
        add("jeton", "Jeton", card_types=creature, power=1, toughness=1, token=True, zone=_ZONES[facts.token_zone])
    if facts.attachment:
        add("creature-partie", "Créature", card_types=creature, power=2, toughness=2,
            zone=_ZONES[facts.attachment_zone])  # fmt: skip
        phased = {"zone": Zone.PHASED_OUT} if facts.attachment_zone == Zone.PHASED_OUT.label else {}  # 502.15i
        if facts.attachment == "aura":
            add("aura", "Aura", card_types=frozenset({CardType.ENCHANTMENT}), subtypes=(AURA,),
                enchant=(CardType.CREATURE.label,), attached_to="creature-partie", **phased)  # fmt: skip
        else:
            add("equipement", "Équipement", card_types=frozenset({CardType.ARTIFACT}), subtypes=(EQUIPMENT,),
                attached_to="creature-partie", **phased)  # fmt: skip
    told = sorted(
        (position, ident, name, kind, values)
        for ident, name, creature_told in zip(idents, names, facts.creatures)
        for position, kind, *values in creature_told.changes
        if kind != "counter"
    )
    effects = []
    for rank, (_, ident, name, kind, (power, toughness)) in enumerate(told, start=1):
        if kind == "set":
            text, operation = (
                f"{name} devient {power}/{toughness}.",
                (Operation.SET_POWER_TOUGHNESS, (power, toughness)),
            )
        elif kind == "switch":
            text, operation = f"{name} : force et endurance échangées.", (Operation.SWITCH_POWER_TOUGHNESS, True)
        else:
            text = f"{name} gagne {power:+d}/{toughness:+d} jusqu’à la fin du tour."
            operation = (Operation.MODIFY_POWER_TOUGHNESS, (power, toughness))
        effects.append(ContinuousEffect(f"effet-{rank}", (operation,), Affects(Scope.OBJECTS, (ident,)), text,
                                        timestamp=len(objects) + rank))  # fmt: skip
    state = GameState(edition, players, tuple(objects), active_player=YOU, path=SOURCE, effects=tuple(effects))
    return Board(Scenario(state, edition, _title(question), SOURCE), idents)
