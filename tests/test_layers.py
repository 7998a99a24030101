"""Continuous effects in layers (418 of the 2004 rules; the 2006 FAQ's switching).

Each test cites the rule it verifies. The examples printed under 418.3-418.6
are reproduced from the bundled example files, so that what a judge copies
with ``check --example`` gives the printed result.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_kb.checker.editions import EDITIONS
from rules_kb.checker.effects import Layer, Operation
from rules_kb.checker.effects import TextChange as Change
from rules_kb.checker.layers import COUNTERS, StepKind, compute, replace_words
from rules_kb.checker.report import check_scenario, example, parse_scenario
from rules_kb.checker.scenario import OPERATION_KEYS, ScenarioError
from rules_kb.checker.state import CardType, Color
from rules_kb.checker.state_based import run
from tests.scenarios import table, toml_value


def layered(toml: str, edition: str = "2004"):
    """The layers applied to an inline scenario."""
    return compute(parse_scenario(toml).state, EDITIONS[edition])


def bundled(name: str, edition: str = "2004"):
    return compute(parse_scenario(example(name).text, name).state, EDITIONS[edition])


def creature(id_: str, power: int, toughness: int, **extra) -> str:
    fields = {
        "id": id_,
        "name": id_.capitalize(),
        "controller": "Alice",
        "card_types": ["créature"],
        "power": power,
        "toughness": toughness,
    }
    return table(**{**fields, **extra})


def static(**fields) -> str:
    """A ``[[permanent.static]]`` table for the permanent written just before."""
    return table("permanent.static", **fields)


def effect(id_: str, timestamp: int, affects: list[str], **operations) -> str:
    return table("effect", id=id_, timestamp=timestamp, affects=affects, **operations)


def enchantment(id_: str, timestamp: int, **extra) -> str:
    return table(
        id=id_, name=id_.capitalize(), controller="Alice", card_types=["enchantement"], timestamp=timestamp, **extra
    )


def pt(result, object_id: str) -> tuple[int, int]:
    seen = result.final[object_id]
    return seen.power, seen.toughness


def order(result, layer: Layer) -> list[str]:
    return [step.effect for step in result.layers[layer - 1].steps]


WHITE_BONUS = {
    "text": "Toutes les créatures blanches gagnent +1/+1.",
    "affects_all": {"card_types": ["créature"], "colors": ["blanc"]},
    "modify_power_toughness": [1, 1],
}


# -- the examples printed in the rules ------------------------------------------------------


def test_418_5a_crusade_white_creature_gets_the_bonus_then_loses_it_when_red():
    """418.5a: a black 2/2 made white is 3/3 with Croisade; made red afterwards, 2/2 again."""
    result = bundled("couches-croisade")
    assert pt(result, "zombie") == (3, 3)
    assert order(result, Layer.OTHER) == ["blanchiment"] and order(result, Layer.POWER_TOUGHNESS) == ["croisade-bonus"]
    text = example("couches-croisade").text + effect("rougeur", 4, ["zombie"], set_colors=["rouge"])
    red = layered(text)
    assert pt(red, "zombie") == (2, 2) and red.final["zombie"].colors == {Color.RED}
    assert [step.objects for step in red.layers[Layer.POWER_TOUGHNESS - 1].steps] == [()]  # applies to nothing
    assert not any(layer.layer is Layer.POWER_TOUGHNESS for layer, _ in red.history("zombie"))


def test_418_5b_chimeric_sphere_stays_0_2():
    """418.5b: a type-changing effect applies whole in layer 4, P/T included,
    so the later 0/2 (layer 6) wins even after the ability is played again."""
    result = bundled("couches-sphere-chimere")
    assert pt(result, "sphere") == (0, 2)
    assert result.final["sphere"].card_types == {CardType.ARTIFACT, CardType.CREATURE}
    assert order(result, Layer.TYPE) == ["sphere-animee", "sphere-encore"]
    assert order(result, Layer.POWER_TOUGHNESS) == ["zero-deux"]
    assert (
        result.layers[Layer.TYPE - 1].after["sphere"].power,
        result.layers[Layer.TYPE - 1].after["sphere"].toughness,
    ) == (3, 2)
    assert "418.5b" in result.layers[Layer.TYPE - 1].steps[0].rules


def test_418_5b_wild_mongrel_colour_in_layer_5_power_in_layer_6():
    """418.5b: each part of a non-type-changing effect applies in its own layer."""
    result = bundled("couches-batard-sauvage")
    assert order(result, Layer.OTHER) == ["defausse"] and order(result, Layer.POWER_TOUGHNESS) == ["defausse"]
    assert result.layers[Layer.OTHER - 1].after["batard"].colors == {Color.BLUE}
    assert result.layers[Layer.OTHER - 1].after["batard"].power == 2  # not yet: layer 6
    assert pt(result, "batard") == (3, 3)


def test_418_5b_seize_the_reins_control_in_layer_2_haste_in_layer_5():
    result = bundled("couches-saisie-des-renes")
    assert order(result, Layer.CONTROL) == ["saisie"] and order(result, Layer.OTHER) == ["saisie"]
    assert result.layers[Layer.CONTROL - 1].after["ours"].controller == "Alice"
    assert result.layers[Layer.CONTROL - 1].after["ours"].abilities == ()
    assert result.final["ours"].has_ability("célérité")


def test_418_5h_gains_then_loses_flying_the_latest_wins():
    """418.5h, first example: independent effects in timestamp order; the last one "wins"."""
    result = bundled("couches-vol")
    assert not result.final["ours"].has_ability("vol")
    last = result.layers[Layer.OTHER - 1].steps[-1]
    assert last.effect == "plomb-sans-vol" and last.kind is StepKind.TIMESTAMP
    assert last.overrides == ("ailes-vol",) and "418.5h" in last.rules
    swapped = example("couches-vol").text.replace("timestamp = 3", "timestamp = 9")
    swapped = swapped.replace("timestamp = 2", "timestamp = 3").replace("timestamp = 9", "timestamp = 2")
    assert layered(swapped).final["ours"].has_ability("vol")


@pytest.mark.parametrize("aura_timestamp", [2, 5])
def test_418_5h_white_creatures_get_the_bonus_whatever_their_colour(aura_timestamp):
    """418.5h, second example: the colour (layer 5) comes before the +1/+1 (layer 6), whatever the timestamps."""
    text = example("couches-creatures-blanches").text.replace("timestamp = 2", f"timestamp = {aura_timestamp}")
    result = layered(text)
    assert pt(result, "zombie") == (3, 3) and result.final["zombie"].colors == {Color.WHITE}


def test_418_5i_switch_in_timestamp_order_gives_9_1():
    """418.5i, first example: 1/3, +0/+1 (4/1 after the switch), then +5/+0: 9/1."""
    result = bundled("couches-echange")
    assert order(result, Layer.POWER_TOUGHNESS) == ["plus-zero-un", "echange", "plus-cinq-zero"]
    assert pt(result, "creature") == (9, 1)


def test_418_5i_when_the_bonus_ends_the_switched_creature_is_3_1():
    """418.5i, second example: without the +0/+1, the switched 1/3 is 3/1."""
    assert pt(bundled("couches-echange-fin"), "creature") == (3, 1)
    text = example("couches-echange-fin").text
    start = text.index("# [[effect]]")
    end = text.index("\n\n", start)
    restored = text[:start] + text[start:end].replace("# ", "") + text[end:]
    assert pt(layered(restored), "creature") == (4, 1)


def test_2006_faq_switching_applies_last(kb):
    """Time Spiral FAQ (Transmutateur crocheserre): switching is always applied last: 1/3, +0/+1, +5/+0, switch: 4/6."""
    result = bundled("couches-echange", "2006-faq")
    assert order(result, Layer.POWER_TOUGHNESS) == ["plus-zero-un", "plus-cinq-zero", "echange"]
    assert pt(result, "creature") == (4, 6)
    assert result.layers[Layer.POWER_TOUGHNESS - 1].steps[-1].kind is StepKind.SWITCH_LAST
    report = check_scenario(kb, parse_scenario(example("couches-echange").text), "2006-faq")
    assert "en dernier" in report.switch_ruling.text and report.switch_ruling.card == "Transmutateur crocheserre"
    assert check_scenario(kb, parse_scenario(example("couches-echange").text)).switch_ruling is None


def test_the_faq_ruling_on_switching_twice_holds():
    """Time Spiral FAQ: switching a creature's power and toughness a second time has no (net) effect."""
    text = (
        creature("c", 1, 3)
        + effect("e1", 5, ["c"], switch_power_toughness=True)
        + effect("e2", 6, ["c"], switch_power_toughness=True)
        + effect("plus", 7, ["c"], modify_power_toughness=[2, 0])
    )
    assert pt(layered(text, "2006-faq"), "c") == (3, 3)


def test_switching_is_the_only_difference_between_the_editions_objects():
    assert (EDITIONS["2004"].switch_last, EDITIONS["2006-faq"].switch_last) == (False, True)
    assert (
        EDITIONS["2004"].switch_ruling is None and EDITIONS["2006-faq"].switch_ruling[0] == "Transmutateur crocheserre"
    )


def test_418_5d_text_change_on_crusade():
    """418.6a: Ploiement mental on Croisade: black creatures get +1/+1, white ones no longer do; no name changes."""
    result = bundled("couches-changement-de-texte")
    assert pt(result, "zombie") == (3, 3) and pt(result, "chevalier") == (2, 2)
    crusade = result.final["croisade"]
    assert crusade.statics[0].text == "Toutes les créatures noires gagnent +1/+1."
    assert crusade.colors == {Color.WHITE} and crusade.name == "Croisade"


def test_418_6a_a_name_is_never_changed():
    change = Change(Color.WHITE, Color.BLACK)
    assert replace_words("Le Chevalier blanc a la protection contre le blanc.", change, ("Chevalier blanc",)) == (
        "Le Chevalier blanc a la protection contre le noir."
    )
    assert replace_words("Les créatures blanches et le Blanc", change) == "Les créatures noires et le Noir"
    assert replace_words("traversée des forêts", Change("forêt", "marais")) == "traversée des marais"
    text = table(
        id="c",
        name="Chevalier blanc",
        controller="Alice",
        card_types=["créature"],
        power=2,
        toughness=2,
        abilities=["protection contre le blanc"],
    ) + effect("p", 5, ["c"], change_text={"from": "blanc", "to": "noir"})
    seen = layered(text).final["c"]
    assert seen.name == "Chevalier blanc" and seen.abilities == ("protection contre le noir",)


def test_418_6d_a_creature_type_is_changed_as_such():
    text = creature("gob", 1, 1, subtypes=["gobelin"], token=True) + effect(
        "hack", 5, ["gob"], change_text={"from": "gobelin", "to": "elfe"}
    )
    assert layered(text).final["gob"].subtypes == ("elfe",)


# -- timestamps, dependencies ----------------------------------------------------------


def test_418_5d_timestamp_order_within_a_layer():
    """418.5d-g: without dependencies, effects of one layer apply in timestamp order."""
    text = (
        creature("c", 2, 2)
        + effect("first", 5, ["c"], set_power_toughness=[0, 2])
        + effect("second", 6, ["c"], set_power_toughness=[4, 4])
    )
    assert pt(layered(text), "c") == (4, 4)
    assert pt(layered(text.replace("timestamp = 6", "timestamp = 4")), "c") == (0, 2)


def test_418_5f_a_static_ability_has_its_permanents_timestamp():
    text = creature("c", 2, 2, timestamp=1) + effect("set", 5, ["c"], set_power_toughness=[1, 1])
    text += enchantment("anthem", 7) + static(affects_all={"card_types": ["créature"]}, set_power_toughness=[5, 5])
    result = layered(text)
    assert pt(result, "c") == (5, 5)
    assert result.layers[Layer.POWER_TOUGHNESS - 1].steps[-1].timestamp == 7
    assert pt(layered(text.replace("timestamp = 7", "timestamp = 3")), "c") == (1, 1)


def test_an_effect_applies_because_an_earlier_layer_made_the_object_a_creature():
    """418.5a: the layer-6 bonus to creatures applies to a land made a creature in layer 4."""
    text = table(id="land", name="Forêt de Mishra", controller="Alice", card_types=["terrain"], timestamp=1)
    text += enchantment("anthem", 2) + static(affects_all={"card_types": ["créature"]}, modify_power_toughness=[1, 1])
    text += effect("animate", 3, ["land"], add_card_types=["créature"], set_power_toughness=[2, 2])
    assert pt(layered(text), "land") == (3, 3)
    without = text[: text.index("\n[[effect]]")]
    assert layered(without).final["land"].power is None


def test_418_5c_dependency_beats_timestamp_order():
    """418.5c-d: Conspiration depends on the effect that makes an artifact a creature, applied first though newer."""
    result = bundled("couches-dependance")
    assert order(result, Layer.TYPE) == ["animation", "conspiration-type"]
    first, second = result.layers[Layer.TYPE - 1].steps
    assert first.kind is StepKind.DEPENDED_ON and second.kind is StepKind.DEPENDENCY
    assert second.depends_on == ("animation",) and "418.5c" in second.rules
    assert result.final["statue"].subtypes == ("elfe",) and result.final["ours"].subtypes == ("elfe",)


def test_418_5d_a_dependency_loop_falls_back_on_timestamps():
    """418.5d: "white creatures are black" and "black creatures are white" each change what the other applies to."""
    text = creature("w", 1, 1, colors=["blanc"], timestamp=1) + creature("b", 1, 1, colors=["noir"], timestamp=2)
    text += enchantment("to-black", 3) + static(
        id="to-black-effect", set_colors=["noir"], affects_all={"card_types": ["créature"], "colors": ["blanc"]}
    )
    text += enchantment("to-white", 4) + static(
        id="to-white-effect", set_colors=["blanc"], affects_all={"card_types": ["créature"], "colors": ["noir"]}
    )
    result = layered(text)
    steps = result.layers[Layer.OTHER - 1].steps
    assert [step.effect for step in steps] == ["to-black-effect", "to-white-effect"]
    assert steps[0].kind is StepKind.LOOP and steps[0].depends_on == ("to-white-effect",)
    assert result.final["w"].colors == {Color.WHITE} and result.final["b"].colors == {Color.WHITE}
    flipped = layered(text.replace("timestamp = 3", "timestamp = 9"))
    assert flipped.final["w"].colors == {Color.BLACK} and flipped.final["b"].colors == {Color.BLACK}


def test_an_effect_stops_existing_when_an_independent_one_removes_its_ability():
    """418.5c: removing all abilities of a permanent changes the existence of its layer-5 effect, so goes first."""
    text = creature("lord", 1, 1, timestamp=1) + static(
        id="lord-flying", add_abilities=["vol"], affects_all={"card_types": ["créature"], "other": True}
    )
    text += creature("c", 2, 2, timestamp=2)
    text += table(
        id="aura",
        name="Humilité locale",
        controller="Alice",
        card_types=["enchantement"],
        subtypes=["local"],
        enchant=["créature"],
        attached_to="lord",
        timestamp=3,
    )
    text += static(id="aura-loses", affects="enchanted", remove_all_abilities=True)
    result = layered(text)
    steps = result.layers[Layer.OTHER - 1].steps
    assert [(step.effect, step.kind) for step in steps] == [
        ("aura-loses", StepKind.DEPENDED_ON),
        ("lord-flying", StepKind.ENDED),
    ]
    assert not result.final["c"].has_ability("vol")


# -- 418.3b and 418.4: locked and live sets ------------------------------------------------


def _white_and_recoloured():
    """a: white when the effect began, now red; b: black then, now white."""
    return (
        creature("a", 2, 2, colors=["blanc"], timestamp=1)
        + creature("b", 2, 2, colors=["noir"], timestamp=2)
        + effect("a-red", 10, ["a"], set_colors=["rouge"])
        + effect("b-white", 11, ["b"], set_colors=["blanc"])
    )


def test_418_3b_a_resolved_effect_keeps_the_objects_it_began_with():
    """418.3b: "white creatures get +1/+1 until end of turn" keeps affecting a creature
    that stopped being white and never affects one that became white."""
    text = _white_and_recoloured() + effect(
        "until-eot", 5, ["a"], text=WHITE_BONUS["text"], modify_power_toughness=[1, 1]
    )
    result = layered(text)
    assert pt(result, "a") == (3, 3) and pt(result, "b") == (2, 2)


def test_418_4b_a_static_ability_applies_to_what_matches_now():
    """418.4a-b: the same words as a static ability follow the creatures' current colour."""
    text = _white_and_recoloured() + enchantment("crusade", 5) + static(**WHITE_BONUS)
    result = layered(text)
    assert pt(result, "a") == (2, 2) and pt(result, "b") == (3, 3)


def test_418_4b_a_static_effect_ends_when_its_permanent_leaves():
    """418.4b and 420.3: the lord dies from its damage; then the goblin loses its bonus and its 1 damage is lethal."""
    text = creature("lord", 1, 1, subtypes=["gobelin"], damage=1, timestamp=1) + static(
        text="Les autres gobelins gagnent +1/+1.",
        affects_all={"subtypes": ["gobelin"], "other": True},
        modify_power_toughness=[1, 1],
    )
    text += creature("goblin", 1, 1, subtypes=["gobelin"], damage=1, timestamp=2)
    resolution = run(parse_scenario(text).state)
    assert [event.objects for event in resolution.events] == [("lord",), ("goblin",)]
    assert [event.rule for event in resolution.events] == ["420.5c", "420.5c"]
    in_graveyard = text.replace('"lord"\nname = "Lord"', '"lord"\nname = "Lord"\nzone = "cimetière"')
    assert pt(layered(in_graveyard), "goblin") == (1, 1)


# -- characteristic-defining abilities, counters -----------------------------------------


def test_418_5a_characteristic_defining_first_then_counters_then_the_rest():
    text = creature("c", 0, 0, counters={"+1/+1": 1}, timestamp=3) + static(
        id="cda", characteristic_defining=True, affects="self", set_power_toughness=[3, 3]
    )
    text += effect("older", 1, ["c"], modify_power_toughness=[1, 0])
    result = layered(text)
    steps = result.layers[Layer.POWER_TOUGHNESS - 1].steps
    assert [(s.effect, s.kind) for s in steps] == [
        ("cda", StepKind.CHARACTERISTIC_DEFINING),
        (COUNTERS, StepKind.COUNTERS),
        ("older", StepKind.TIMESTAMP),
    ]
    assert pt(result, "c") == (5, 4)
    overridden = text + effect("set", 2, ["c"], set_power_toughness=[0, 2])
    assert pt(layered(overridden), "c") == (0, 2)  # 2004: the counters come before other effects


# -- other layers ------------------------------------------------------------------------


def test_503_2_a_copy_takes_only_copiable_values():
    """503.2 example: a Clone copying an animated Bâton chimérique is only an artifact."""
    text = table(
        id="baton",
        name="Bâton chimérique",
        controller="Alice",
        card_types=["artefact"],
        mana_value=4,
        abilities=["{X} : le Bâton chimérique devient une créature-artefact X/X jusqu'à la fin du tour."],
        timestamp=1,
    )
    text += effect("x5", 2, ["baton"], add_card_types=["créature"], set_power_toughness=[5, 5])
    text += creature("clone", 0, 0, timestamp=3) + static(id="clone-copy", affects="self", copy_of="baton")
    result = layered(text)
    clone = result.final["clone"]
    assert clone.name == "Bâton chimérique" and clone.card_types == {CardType.ARTIFACT}
    assert clone.abilities == result.final["baton"].abilities and clone.power is None
    assert pt(result, "baton") == (5, 5)


def test_212_6e_a_land_given_a_basic_land_type_loses_its_other_abilities():
    text = table(
        id="land",
        name="Terrain étrange",
        controller="Alice",
        card_types=["terrain"],
        abilities=["{T} : Piochez une carte."],
        timestamp=1,
    )
    text += effect("forest", 2, ["land"], set_subtypes=["forêt"])
    seen = layered(text).final["land"]
    assert seen.subtypes == ("forêt",) and seen.abilities == ("{T} : Ajoutez {G} à votre réserve.",)
    added = layered(text.replace("set_subtypes", "add_subtypes")).final["land"]
    assert added.abilities == ("{T} : Piochez une carte.",)


def test_selector_by_controller_follows_a_control_change():
    """Layer 2 before layer 6: "creatures you control get +1/+1" follows the creature stolen in layer 2."""
    text = '[[player]]\nname = "Alice"\n[[player]]\nname = "Bob"\n'
    text += enchantment("anthem", 1) + static(
        affects_all={"card_types": ["créature"], "controller": "vous"}, modify_power_toughness=[1, 1]
    )
    text += creature("bear", 2, 2, controller="Bob", timestamp=2)
    assert pt(layered(text), "bear") == (2, 2)
    assert pt(layered(text + effect("steal", 3, ["bear"], set_controller="Alice")), "bear") == (3, 3)


def test_an_effect_makes_a_creature_0_1_and_its_damage_kills_it(kb):
    """418.5a then 420.5c: the event cites the layers and the effect applied."""
    report = check_scenario(kb, parse_scenario(example("couches-blessures-fatales").text))
    (event,) = report.resolution.events
    assert event.rule == "420.5c" and "418.5a" in event.see_also and "zero-un" in event.reason
    assert "418.5a" in report.texts and "420.5c" in report.texts


def test_a_type_changing_effect_puts_all_its_parts_in_layer_4():
    """418.5b."""
    text = creature("c", 1, 1) + effect(
        "e", 5, ["c"], add_subtypes=["mur"], set_colors=["bleu"], add_abilities=["défenseur"]
    )
    result = layered(text)
    assert order(result, Layer.TYPE) == ["e"] and order(result, Layer.OTHER) == []
    assert result.final["c"].colors == {Color.BLUE}


# -- scenario errors ------------------------------------------------------------------------


def _error(text: str) -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(text, "e.toml")
    return caught.value


@pytest.mark.parametrize(
    ("extra", "key", "words"),
    [
        ({"boost": [1, 1]}, "boost", ["opération ou clé inconnue", "modify_power_toughness"]),
        ({"modify_power_toughnes": [1, 1]}, "modify_power_toughnes", ["Vouliez-vous dire « modify_power_toughness »"]),
        ({"modify_power_toughness": [1]}, "modify_power_toughness", ["deux nombres entiers"]),
        ({"set_power_toughness": "beaucoup"}, "set_power_toughness", ["mana_value"]),
        ({"set_colors": ["violet"]}, "set_colors", ["« violet » n'est pas une couleur connue"]),
        ({"change_text": {"from": "blanc", "to": "gobelin"}}, "change_text", ["418.6a"]),
        ({"change_text": {"from": "créature", "to": "terrain"}}, "change_text", ["type de carte", "418.6a"]),
        ({"set_controller": "Zoé"}, "set_controller", ["« Zoé » n'est pas un joueur"]),
        ({"copy_of": "fantome"}, "copy_of", ["« fantome » n'est pas un objet"]),
        ({"affects_all": {"card_types": ["créature"]}, "modify_power_toughness": [1, 1]}, "affects_all", ["418.3b"]),
    ],
)
def test_effect_mistakes_are_named_in_french(extra, key, words):
    base = creature("c", 2, 2)
    fields = dict(id="e", timestamp=5, affects=["c"], **extra)
    if "affects_all" in extra:
        fields.pop("affects")
    error = _error(base + table("effect", **fields))
    assert error.key.startswith(key.split(".")[0]) and error.line, str(error)
    for word in words:
        assert word in str(error), str(error)


@pytest.mark.parametrize(
    ("fields", "key", "words"),
    [
        (
            {"affects_all": {"card_types": ["planeswalker"]}, "modify_power_toughness": [1, 1]},
            "affects_all.card_types",
            ["« planeswalker » n'est pas un type de carte connu"],
        ),
        (
            {"affects_all": {"card_types": ["creture"]}, "modify_power_toughness": [1, 1]},
            "affects_all.card_types",
            ["Vouliez-vous dire « créature »"],
        ),
        (
            {"affects_all": {"colour": ["blanc"]}, "modify_power_toughness": [1, 1]},
            "affects_all.colour",
            ["clé inconnue", "colors"],
        ),
        ({"modify_power_toughness": [1, 1]}, "affects", ["affects_all"]),
        ({"affects": "tous", "modify_power_toughness": [1, 1]}, "affects", ["[[effect]]"]),
        ({"affects": "self", "characteristic_defining": True}, "", ["aucune opération"]),
        (
            {"affects": "enchanted", "characteristic_defining": True, "set_power_toughness": [1, 1]},
            "characteristic_defining",
            ["self"],
        ),
        (
            {"affects_all": {"controller": "Zoé"}, "modify_power_toughness": [1, 1]},
            "affects_all.controller",
            ["« Zoé »", "vous"],
        ),
    ],
)
def test_static_ability_mistakes_are_named_in_french(fields, key, words):
    error = _error(creature("c", 2, 2) + static(**fields))
    assert error.key == key and error.line, str(error)
    assert "[[permanent.static]] n°1" in str(error)
    for word in words:
        assert word in str(error), str(error)


def test_effect_needs_a_timestamp_and_ids_are_unique():
    assert "418.5g" in str(_error(creature("c", 2, 2) + table("effect", affects=["c"], set_colors=["bleu"])))
    duplicate = _error(creature("c", 2, 2) + effect("c", 5, ["c"], set_colors=["bleu"]))
    assert duplicate.key == "id" and "déjà pris" in str(duplicate)
    reserved = _error(creature("c", 2, 2) + effect(COUNTERS, 5, ["c"], set_colors=["bleu"]))
    assert reserved.key == "id"


def test_static_ability_ids_default_to_their_permanent():
    state = parse_scenario(
        creature("c", 2, 2)
        + static(affects="self", add_abilities=["vol"])
        + static(affects="self", add_abilities=["vigilance"])
    ).state
    assert [effect.id for effect in state.object("c").statics] == ["c#1", "c#2"]
    assert all(effect.origin == "c" for effect in state.object("c").statics)


def test_operations_are_listed_in_layer_order():
    assert [Operation(key).layer for key in OPERATION_KEYS] == sorted(Operation(key).layer for key in OPERATION_KEYS)


_OPERATION_VALUES = st.one_of(
    st.integers(-3, 5),
    st.booleans(),
    st.text(max_size=8),
    st.sampled_from(["mana_value", "c", "d", "Alice", "créature", "blanc", "forêt"]),
    st.lists(st.one_of(st.integers(-2, 6), st.sampled_from(["créature", "blanc", "vol", "forêt", "zzz"])), max_size=3),
    st.fixed_dictionaries(
        {
            "from": st.sampled_from(["blanc", "noir", "forêt", "marais", "créature", ""]),
            "to": st.sampled_from(["blanc", "rouge", "île", "elfe", "local"]),
        }
    ),
    st.dictionaries(
        st.sampled_from(["card_types", "colors", "controller", "subtypes", "other", "bogus"]),
        st.one_of(
            st.booleans(),
            st.sampled_from(["vous", "Alice", "créature"]),
            st.lists(st.sampled_from(["créature", "blanc", "gobelin", "zzz"]), max_size=2),
        ),
        max_size=3,
    ),
)
_EFFECT_KEYS = st.sampled_from(
    (*OPERATION_KEYS, "affects", "affects_all", "characteristic_defining", "timestamp", "id", "text", "bogus")
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.dictionaries(_EFFECT_KEYS, _OPERATION_VALUES, max_size=5), max_size=3),
    st.lists(st.dictionaries(_EFFECT_KEYS, _OPERATION_VALUES, max_size=5), max_size=3),
    st.sampled_from(["2004", "2006-faq"]),
)
def test_generated_effects_parse_or_fail_cleanly_and_always_compute(statics, effects, edition):
    """Any mix of operations and values: characteristics for every permanent, or a ScenarioError."""
    text = creature("c", 2, 2, subtypes=["gobelin"], colors=["blanc"]) + table(
        id="d", name="D", controller="Alice", card_types=["terrain"]
    )
    text += "".join(
        "\n[[permanent.static]]\n" + "".join(f"{k} = {toml_value(v)}\n" for k, v in item.items()) for item in statics
    )
    text += "".join("\n[[effect]]\n" + "".join(f"{k} = {toml_value(v)}\n" for k, v in item.items()) for item in effects)
    try:
        scenario = parse_scenario(text, "g.toml")
    except ScenarioError as error:
        assert str(error).startswith("Scénario « g.toml »")
        return
    result = compute(scenario.state, EDITIONS[edition])
    assert set(result.final) == {"c", "d"}
    run(scenario.state, EDITIONS[edition])


def test_every_operation_has_a_function_citing_its_rule():
    from rules_kb.checker.layers import OPERATIONS

    assert set(OPERATIONS) == set(Operation)
    for function in OPERATIONS.values():
        assert function.__doc__ and ("Implements" in function.__doc__ or "418.5a" in function.__doc__), function


_VALID_OPERATIONS = st.sampled_from(
    [
        {"set_controller": "Bob"},
        {"change_text": {"from": "blanc", "to": "noir"}},
        {"change_text": {"from": "gobelin", "to": "elfe"}},
        {"add_card_types": ["créature"], "set_power_toughness": [3, 3]},
        {"set_card_types": ["artefact"]},
        {"set_subtypes": ["forêt"]},
        {"add_subtypes": ["gobelin"]},
        {"remove_subtypes": ["gobelin"]},
        {"add_supertypes": ["légendaire"]},
        {"set_colors": ["blanc"]},
        {"set_colors": ["noir"]},
        {"add_colors": ["rouge"]},
        {"add_abilities": ["vol"]},
        {"remove_abilities": ["vol"]},
        {"remove_all_abilities": True},
        {"set_power_toughness": [0, 2]},
        {"set_power_toughness": "mana_value"},
        {"modify_power_toughness": [1, -1]},
        {"switch_power_toughness": True},
        {"copy_of": "c2"},
    ]
)
_SELECTORS = st.sampled_from(
    [
        {"affects": "self"},
        {"affects_all": {"card_types": ["créature"], "colors": ["blanc"]}},
        {"affects_all": {"subtypes": ["gobelin"], "other": True}},
        {"affects_all": {"card_types": ["créature"], "controller": "vous"}},
        {"affects_all": {"colors": ["noir"]}},
    ]
)
_IDS = ["c1", "c2", "land"]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(_IDS), _SELECTORS, _VALID_OPERATIONS), max_size=4),
    st.lists(st.tuples(st.lists(st.sampled_from(_IDS), min_size=1, max_size=2), _VALID_OPERATIONS), max_size=4),
    st.randoms(use_true_random=False),
    st.sampled_from(["2004", "2006-faq"]),
)
def test_valid_effects_always_compute_and_file_order_does_not_matter(statics, effects, random, edition):
    """418.5d-g: only timestamps and dependencies order effects, never the order of the tables in the file."""
    head = '[[player]]\nname = "Alice"\n[[player]]\nname = "Bob"\n'
    permanents = {
        "c1": creature("c1", 2, 2, colors=["blanc"], subtypes=["gobelin"], mana_value=3, timestamp=1),
        "c2": creature("c2", 1, 3, colors=["noir"], controller="Bob", abilities=["vol"], timestamp=2),
        "land": table(id="land", name="Terrain", controller="Alice", card_types=["terrain"], timestamp=3),
    }
    for number, (holder, target, operations) in enumerate(statics):
        if holder == "c2" and "copy_of" in operations:
            continue  # c2 copying itself is refused (tested above)
        permanents[holder] += static(id=f"s{number}", **target, **operations)
    tables = [
        effect(f"e{number}", 10 + number, [i for i in ids if not ("copy_of" in ops and i == "c2")] or ["c1"], **ops)
        for number, (ids, ops) in enumerate(effects)
    ]
    shuffled = list(tables)
    random.shuffle(shuffled)
    first = layered(head + "".join(permanents.values()) + "".join(tables), edition)
    second = layered(head + "".join(permanents.values()) + "".join(shuffled), edition)
    assert first.final == second.final
    for object_id, seen in first.final.items():
        assert (seen.power is None) == (not seen.is_creature), object_id
        for result in first.layers:
            assert all(target in first.final for step in result.steps for target in step.objects)


# -- issue 21: an effect that started keeps its later parts (418.5b) ------------------------

HUMILITY = {
    "id": "humilite-effet",
    "text": "Toutes les créatures perdent toutes leurs capacités et sont 1/1.",
    "affects_all": {"card_types": ["créature"]},
    "remove_all_abilities": True,
    "set_power_toughness": [1, 1],
}
OPALESCENCE = {
    "id": "opalescence-effet",
    "text": "Chaque autre enchantement non-Aura est une créature en plus de ses autres types et a une "
    "force et une endurance égales chacune à son coût converti de mana.",
    "affects_all": {"card_types": ["enchantement"], "not_subtypes": ["local"], "other": True},
    "add_card_types": ["créature"],
    "set_power_toughness": "mana_value",
}


def _humility_and_opalescence(humility: int, opalescence: int) -> str:
    text = enchantment("humilite", humility, mana_value=4) + static(**HUMILITY)
    text += enchantment("opalescence", opalescence, mana_value=4) + static(**OPALESCENCE)
    text += enchantment("croisade", 3, mana_value=2) + static(**WHITE_BONUS)
    text += creature("ours", 2, 2, colors=["blanc"], abilities=["vol"], timestamp=4)
    return text


@pytest.mark.parametrize("humility, opalescence", [(2, 1), (1, 2)])
def test_humility_made_a_creature_by_opalescence_still_makes_every_creature_1_1(humility, opalescence):
    """The issue's acceptance, Humilité and Opalescence in both timestamp orders.
    418.5b (2004): Humility's effect starts in layer 5, where Humility (a
    4/4 creature from Opalescence in layer 4) loses its own ability with
    every creature; an effect that has started keeps applying its later
    parts, so its 1/1 still applies in layer 6 — 418.4b only asks that its
    permanent be in play. The famous ruling (Opalescence earlier: Humility
    is 4/4 then 1/1 by its own effect; Humility earlier: each enchantment
    keeps its mana value) needs both P/T parts in one layer with a
    dependency (418.5c-d). The 2004 text does not allow it: Opalescence
    changes a type, so all its parts, P/T included, apply in layer 4
    (418.5b), and 418.5c only relates effects of the same layer. The
    checker follows the printed 2004 text: every creature and every other
    enchantment is 1/1 with no abilities, whatever the order."""
    result = layered(_humility_and_opalescence(humility, opalescence))
    for object_id in ("humilite", "croisade", "ours"):
        seen = result.final[object_id]
        assert (seen.power, seen.toughness, seen.abilities, seen.statics) == (1, 1, (), ()), object_id
    assert not result.final["opalescence"].is_creature and result.final["opalescence"].statics
    step = next(s for s in result.layers[Layer.POWER_TOUGHNESS - 1].steps if s.effect == "humilite-effet")
    assert step.kind is not StepKind.ENDED and "418.5b" in step.rules and "perdu la capacité" in step.reason
    assert set(step.objects) == {"humilite", "croisade", "ours"}
    assert all(
        s.effect != "humilite-effet" or s.kind is not StepKind.ENDED for layer in result.layers for s in layer.steps
    )


def test_humility_keeps_three_lands_turned_0_0_creatures_alive(kb):
    """The issue's second case: Treillage de mycosynthèse makes every permanent an artifact, Marche des
    machines makes each non-creature artifact a creature with P/T equal to its mana value (lands: 0/0),
    Humilité (now a creature too) loses its ability in layer 5 but its 1/1 applies in layer 6 (418.5b):
    the lands are 1/1 and stay (no 420.5b)."""
    text = enchantment("humilite", 1, mana_value=4) + static(**HUMILITY)
    text += table(
        id="treillage",
        name="Treillage de mycosynthèse",
        controller="Alice",
        card_types=["artefact"],
        mana_value=6,
        timestamp=2,
    )
    text += static(
        text="Tous les permanents sont des artefacts en plus de leurs autres types.",
        affects_all={},
        add_card_types=["artefact"],
    )
    text += enchantment("marche", 3, mana_value=4) + static(
        text="Chaque artefact non-créature est une créature-artefact avec une force et une endurance égales "
        "chacune à son coût converti de mana.",
        affects_all={"card_types": ["artefact"], "not_card_types": ["créature"]},
        add_card_types=["créature"],
        set_power_toughness="mana_value",
    )
    for number in range(3):
        text += table(
            id=f"terrain-{number}",
            name="Forêt",
            controller="Alice",
            card_types=["terrain"],
            supertypes=["de base"],
            subtypes=["forêt"],
            timestamp=4 + number,
        )
    result = layered(text)
    assert {object_id: pt(result, object_id) for object_id in result.final} == dict.fromkeys(
        ["humilite", "treillage", "marche", "terrain-0", "terrain-1", "terrain-2"], (1, 1)
    )
    report = check_scenario(kb, parse_scenario(text))
    assert report.resolution.events == ()


def test_an_ability_removed_before_its_effect_starts_never_applies_its_later_parts():
    """418.4b, kept: the aura removes the lord's abilities in layer 5 before the lord's
    effect (flying in layer 5, +1/+1 in layer 6) starts, so neither part ever applies."""
    text = creature("lord", 1, 1, timestamp=1) + static(
        id="lord-effect",
        add_abilities=["vol"],
        modify_power_toughness=[1, 1],
        affects_all={"card_types": ["créature"], "other": True},
    )
    text += creature("c", 2, 2, timestamp=2)
    text += table(
        id="aura",
        name="Humilité locale",
        controller="Alice",
        card_types=["enchantement"],
        subtypes=["local"],
        enchant=["créature"],
        attached_to="lord",
        timestamp=3,
    )
    text += static(id="aura-loses", affects="enchanted", remove_all_abilities=True)
    result = layered(text)
    assert pt(result, "c") == (2, 2) and not result.final["c"].has_ability("vol")
    kinds = [(s.effect, s.kind) for s in result.layers[Layer.POWER_TOUGHNESS - 1].steps]
    assert kinds == [("lord-effect", StepKind.ENDED)]


# -- issue 21: setting a basic land type replaces land types only (212.6e) -------------------

BLOOD_MOON = {
    "id": "lune-effet",
    "text": "Les terrains non-de base sont des montagnes.",
    "affects_all": {"card_types": ["terrain"], "not_supertypes": ["de base"]},
    "set_subtypes": ["montagne"],
}


@pytest.mark.parametrize("moon, animation", [(3, 2), (1, 2)])
def test_212_6e_blood_moon_keeps_the_creature_type_of_an_animated_mishras_factory(moon, animation):
    """212.6e (2004): a land that becomes a basic land type "n'est plus de son ancien type" and
    "changer le type d'un terrain n'ajoute ni ne retire d'autres types (comme le type de
    créature)": under Lune de sang an animated Usine de Mishra stays an Assembleur, in
    both timestamp orders, and keeps only the Mountain's mana ability of its text."""
    text = table(
        id="usine",
        name="Usine de Mishra",
        controller="Alice",
        card_types=["terrain"],
        abilities=[
            (
                "{1} : L'Usine de Mishra devient une créature-artefact 2/2 Assembleur jusqu'à la fin "
                "du tour. C'est toujours un terrain."
            )
        ],
        timestamp=1,
    )
    text += enchantment("lune", moon) + static(**BLOOD_MOON)
    text += effect(
        "animation",
        animation,
        ["usine"],
        add_card_types=["artefact", "créature"],
        add_subtypes=["assembleur"],
        set_power_toughness=[2, 2],
    )
    result = layered(text)
    seen = result.final["usine"]
    assert seen.has_subtype("assembleur") and seen.has_subtype("montagne")
    assert seen.card_types == {CardType.LAND, CardType.ARTIFACT, CardType.CREATURE}
    assert (seen.power, seen.toughness) == (2, 2)
    assert seen.abilities == ("{T} : Ajoutez {R} à votre réserve.",)
    moon_step = next(s for s in result.layers[Layer.TYPE - 1].steps if s.effect == "lune-effet")
    assert moon_step.overrides == ()  # nothing the animation wrote is undone


def test_212_6e_a_printed_land_type_is_replaced():
    """212.6e (2004): a land's printed subtypes are land types (205.3b): under Lune de sang a
    Tour d'Urza is a Mountain only; a basic land is untouched."""
    text = table(
        id="tour",
        name="Tour d'Urza",
        controller="Alice",
        card_types=["terrain"],
        subtypes=["urza", "tour"],
        timestamp=1,
    )
    text += table(
        id="foret",
        name="Forêt",
        controller="Alice",
        card_types=["terrain"],
        supertypes=["de base"],
        subtypes=["forêt"],
        timestamp=2,
    )
    text += enchantment("lune", 3) + static(**BLOOD_MOON)
    result = layered(text)
    assert result.final["tour"].subtypes == ("montagne",)
    assert result.final["foret"].subtypes == ("forêt",)


# -- issue 21: what the 2006-faq edition follows ---------------------------------------------


def test_the_2006_faq_edition_says_it_is_2004_plus_the_time_spiral_faq_everywhere():
    """The 2006-faq edition applies switching last (the FAQ's ruling on the Transmutateur
    crocheserre) but keeps the 2004 order of layer 6 — counters after characteristic-defining
    abilities, before every other effect, P/T-setting ones included (418.5a, 2004) — not the
    Time Spiral rulebook's sublayers, which the corpus does not print. Its name, description
    and every trace of the orders it changes say so."""
    faq = EDITIONS["2006-faq"]
    assert faq.name == "2004 + FAQ Spirale temporelle"
    assert "2004" in faq.description and "n'imprime pas" in faq.description
    text = creature("c", 1, 3, counters={"+1/+1": 1}) + effect("sw", 5, ["c"], switch_power_toughness=True)
    text += effect("set", 6, ["c"], set_power_toughness=[0, 2])
    result = layered(text, "2006-faq")
    steps = result.layers[Layer.POWER_TOUGHNESS - 1].steps
    assert [s.effect for s in steps] == [COUNTERS, "set", "sw"]
    assert pt(result, "c") == (2, 0)  # counters 2/4, set 0/2, switch last: 2/0 (2004 + FAQ order)
    for step in (steps[0], steps[2]):
        assert faq.name in step.reason, step.reason
    assert EDITIONS["2004"].name not in steps[0].reason  # only the edition followed is named
    assert EDITIONS["2004"].name in layered(text).layers[Layer.POWER_TOUGHNESS - 1].steps[0].reason


# -- issue 21: the printed examples of 418.3b, 418.4b, 418.6a and 418.6b -----------------------


def test_418_3b_example_a_resolved_effect_keeps_the_creatures_white_when_it_resolved():
    """418.3b's example: the knight, white at resolution then red, keeps +1/+1; the zombie, black then white, not."""
    result = bundled("couches-effet-resolu")
    assert pt(result, "chevalier") == (3, 3) and pt(result, "zombie") == (2, 2)


def test_418_4b_example_a_static_ability_follows_the_current_colour():
    """418.4b's example: a creature that becomes white gets the bonus, one that stops being white loses it."""
    result = bundled("couches-capacite-statique")
    assert pt(result, "chevalier") == (2, 2) and pt(result, "zombie") == (3, 3)


def test_418_6a_example_a_land_type_word_changes_never_a_name():
    """418.6a: the land type in "traversée des marais" changes; the name "Fantôme des
    marais", and the basic land named Marais, do not."""
    result = bundled("couches-nom-propre")
    assert result.final["fantome"].abilities == ("traversée des îles",)
    assert result.final["fantome"].name == "Fantôme des marais"
    assert result.final["marais"].subtypes == ("marais",) and result.final["marais"].name == "Marais"


def test_418_6b_example_an_added_ability_is_not_text():
    """418.6b: the printed protection changes colour word, the added one does not."""
    result = bundled("couches-capacite-ajoutee")
    assert result.final["chevalier"].abilities == (
        "initiative",
        "protection contre le bleu",
        "protection contre le rouge",
    )


@pytest.mark.parametrize("swap", [False, True])
def test_the_bundled_humility_and_opalescence_example_checks_1_1_in_both_orders(kb, swap):
    """The issue's acceptance through ``check``: every other enchantment and every creature
    is 1/1 with no abilities, whichever of Humilité and Opalescence is older (418.5b, 2004)."""
    text = example("couches-humilite-opalescence").text
    if swap:
        text = text.replace("timestamp = 1\n", "timestamp = 9\n")
    report = check_scenario(kb, parse_scenario(text))
    seen = report.resolution.final_layering.final
    for object_id in ("humilite", "croisade", "ours"):
        assert (seen[object_id].power, seen[object_id].toughness, seen[object_id].abilities) == (1, 1, ()), object_id
    assert not seen["opalescence"].is_creature
    assert report.resolution.events == ()


@pytest.mark.parametrize("moon", [3, 1])
def test_the_bundled_blood_moon_example_keeps_the_assembly_worker(kb, moon):
    """The issue's acceptance through ``check``: 212.6e (2004), Lune de sang and an animated Usine de Mishra."""
    text = example("couches-lune-de-sang").text.replace("timestamp = 3\n", f"timestamp = {moon}\n")
    seen = check_scenario(kb, parse_scenario(text)).resolution.final_layering.final["usine"]
    assert (
        set(seen.subtypes) == {"assembleur", "montagne"} and seen.is_creature and (seen.power, seen.toughness) == (2, 2)
    )


# -- the dependency ordering's cost (418.5c: pairs detected, not orders tried) ----------------


def crusades(count: int) -> str:
    """``count`` white creatures, each with a Crusade: every one gets +count/+count."""
    return "".join(
        creature(f"c{i}", 1, 1, colors=["blanc"], timestamp=i + 1) + static(id=f"croisade{i}", **WHITE_BONUS)
        for i in range(count)
    )


def chain(count: int) -> str:
    """``count`` effects where each makes the next one apply: « les T0 sont des T1 », « les T1 sont
    des T2 »…, the later timestamps first, so every one waits for the one before (418.5c)."""
    return "".join(
        creature(f"c{i}", 1, 1, subtypes=[f"T{i}"], timestamp=count - i)
        + static(
            id=f"s{i}",
            text=f"Les T{i} sont aussi des T{i + 1}.",
            affects_all={"subtypes": [f"T{i}"]},
            add_subtypes=[f"T{i + 1}"],
        )
        for i in range(count)
    )


def test_eighty_crusades_apply_without_testing_pairs(monkeypatch):
    """418.5c: a +1/+1 never changes who another Crusade applies to, so no pair is applied
    (the time of 80 is measured by ``bench/run.py``: « check (80 croisades) »)."""
    from rules_kb.checker import layers

    calls = []
    signature = layers._signature
    monkeypatch.setattr(layers, "_signature", lambda *args: calls.append(1) or signature(*args))
    result = layered(crusades(80))
    assert all(pt(result, f"c{i}") == (81, 81) for i in range(80))
    assert order(result, Layer.POWER_TOUGHNESS) == [f"croisade{i}" for i in range(80)]
    assert not calls


def test_a_scenario_of_eighty_crusades_checks(kb):
    report = check_scenario(kb, parse_scenario(crusades(80)))
    seen = report.resolution.final_layering.final
    assert all((seen[f"c{i}"].power, seen[f"c{i}"].toughness) == (81, 81) for i in range(80))


def _pair_tests(monkeypatch, count: int) -> int:
    """How many pairs of effects :func:`layers.dependencies` compares to order ``chain(count)``."""
    from rules_kb.checker import layers

    calls = []

    def counted(real):
        return lambda *args: calls.append(1) or real(*args)

    for name in ("_selection_changed", "_signature"):
        monkeypatch.setattr(layers, name, counted(getattr(layers, name)))
    layered(chain(count))
    monkeypatch.undo()
    return len(calls)


def test_a_dependency_chain_is_ordered_by_dependencies_in_polynomial_time(monkeypatch):
    """418.5c–e: dependencies detected pairwise, then ordered: at most N³ pair tests (a
    doubling of the chain multiplies them by 8), where trying orders grew factorially
    (N=80 took over 5 minutes). Timed by ``bench/run.py``: « check (chaîne de 80) »."""
    small, large = _pair_tests(monkeypatch, 15), _pair_tests(monkeypatch, 30)
    assert large <= 8.5 * small and large <= 30**3
    result = layered(chain(30))
    steps = result.layers[Layer.TYPE - 1].steps
    assert [step.effect for step in steps] == [f"s{i}" for i in range(30)]  # not timestamp order (s29 first)
    assert steps[0].kind is StepKind.DEPENDED_ON and steps[1].kind is StepKind.DEPENDENCY
    assert result.final["c0"].subtypes == tuple(f"t{i}" for i in range(31))


def _graphs_agree(state) -> int:
    """Check :func:`dependencies` against :func:`depends_on` on every pair of every layer of ``state``."""
    from rules_kb.checker import layers
    from rules_kb.checker.characteristics import printed

    values = {obj.id: printed(obj) for obj in state.permanents}
    layering = layers.compute(state)
    pairs = 0
    for layer in Layer:
        instances = layers._instances(layer, state, values)
        keys = list(instances)
        fast = layers.dependencies(keys, instances, layer, state, values)
        slow = {
            a: {b for b in keys if b != a and layers.depends_on(a, b, instances, layer, state, values)} for a in keys
        }
        assert fast == slow, layer
        pairs += sum(map(len, slow.values()))
        values = dict(layering.layers[layer - 1].after)
    return pairs


def test_the_fast_dependency_graph_equals_the_pairwise_test_on_every_bundled_example():
    from rules_kb.checker.report import examples

    found = sum(_graphs_agree(parse_scenario(item.text, item.name).state) for item in examples())
    assert found > 0  # some examples have dependencies, and they are found


_KINDS = st.sampled_from(
    [
        {"add_subtypes": ["Zombie"]},
        {"set_subtypes": ["Forêt"]},
        {"remove_subtypes": ["Zombie"]},
        {"set_colors": ["noir"]},
        {"add_colors": ["blanc"]},
        {"set_card_types": ["terrain"]},
        {"add_card_types": ["créature"]},
        {"remove_all_abilities": True},
        {"modify_power_toughness": [1, 1]},
        {"set_power_toughness": [0, 1]},
        {"switch_power_toughness": True},
        {"set_controller": "Bob"},
    ]
)
_SELECTORS = st.sampled_from(
    [
        {"card_types": ["créature"]},
        {"colors": ["blanc"]},
        {"subtypes": ["Zombie"]},
        {"card_types": ["terrain"]},
        {"controller": "Bob"},
        {"not_colors": ["noir"]},
        {"subtypes": ["Forêt"]},
    ]
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_KINDS, _SELECTORS, st.booleans()), min_size=1, max_size=6))
def test_the_fast_dependency_graph_equals_the_pairwise_test_on_generated_effects(effects):
    text = table("player", name="Alice") + table("player", name="Bob")
    for i, (kind, selector, white) in enumerate(effects):
        text += creature(
            f"c{i}",
            2,
            2,
            colors=["blanc" if white else "vert"],
            subtypes=["Zombie"] if white else [],
            timestamp=len(effects) - i,
        )
        text += static(id=f"e{i}", text=f"Effet {i}.", affects_all=selector, **kind)
    _graphs_agree(parse_scenario(text).state)  # every generated scenario is valid


# -- issue 36: subtypes follow their card type (212.1b, 205.3b, 215.2) -------------------------

CONSPIRACY = {
    "id": "conspiration-type",
    "text": "Les créatures que vous contrôlez sont du type choisi (elfe).",
    "affects_all": {"card_types": ["créature"], "controller": "vous"},
    "set_subtypes": ["elfe"],
}
ANIMATED_LANDS = {
    "text": "Tous les terrains sont des créatures 1/1 qui sont toujours des terrains.",
    "add_card_types": ["créature"],
    "set_power_toughness": [1, 1],
}


def forest(id_: str = "foret", timestamp: int = 2) -> str:
    return table(
        id=id_,
        name="Forêt",
        controller="Alice",
        card_types=["terrain"],
        supertypes=["de base"],
        subtypes=["forêt"],
        timestamp=timestamp,
    )


def step_of(result, effect_id: str, layer: Layer = Layer.TYPE):
    return next(step for step in result.layers[layer - 1].steps if step.effect == effect_id)


def test_215_2_a_legend_creature_made_an_enchantment_loses_its_creature_types():
    """215.2 (2004): « Si une créature avec le type de créature légende devient un permanent
    non-créature, il perd le type de créature légende mais ne devient pas légendaire » — and
    212.1b: « Si le type d'un objet lui est retiré, les sous-types liés à son ancien type
    n'existent plus ». An effect like the Soul Sculptor's (« La créature ciblée devient un
    enchantement ») leaves an « Ours : légende et ours » with no subtype; « Les ours sont
    noirs » no longer sees it. The layer-4 step cites 212.1b, 205.3b and 215.2."""
    text = creature("ours", 2, 2, subtypes=["légende", "ours"], timestamp=1)
    text += enchantment("teinture", 2) + static(
        id="ours-noirs", text="Les ours sont noirs.", affects_all={"subtypes": ["ours"]}, set_colors=["noir"]
    )
    text += effect("sculpteur", 3, ["ours"], set_card_types=["enchantement"])
    result = layered(text)
    seen = result.final["ours"]
    assert seen.card_types == {CardType.ENCHANTMENT} and seen.subtypes == ()
    assert not seen.is_legendary and not seen.supertypes
    assert Color.BLACK not in seen.colors
    step = step_of(result, "sculpteur")
    assert {"212.1b", "205.3b", "215.2"} <= set(step.rules)
    assert "ours n'est plus une créature : ses types de créature (légende, ours) n'existent plus" in step.reason


def test_215_2_a_legendary_non_creature_made_a_creature_stays_legendary_without_the_type_legend():
    """215.2 (2004): « Si un permanent non-créature légendaire devient une créature, il est
    toujours légendaire mais n'acquiert pas le type de créature légende » (212.1d: the
    supertype is independent of the type)."""
    text = table(
        id="totem", name="Totem", controller="Alice", card_types=["artefact"], supertypes=["légendaire"], timestamp=1
    )
    text += effect("animation", 2, ["totem"], add_card_types=["créature"], set_power_toughness=[4, 4])
    seen = layered(text).final["totem"]
    assert seen.is_creature and seen.is_legendary and seen.subtypes == ()


def test_212_1b_creature_types_exist_again_while_the_creature_type_is_back():
    """212.1b (2004): « Le sous-type disparaît aussi longtemps que le type auquel il est lié
    est perdu. » A creature made an artifact (timestamp 2), then a creature again « en plus
    de ses autres types » (timestamp 3, 212.1c): its creature type is back."""
    text = creature("ours", 2, 2, subtypes=["ours"], timestamp=1)
    text += effect("artefact", 2, ["ours"], set_card_types=["artefact"])
    text += effect("animation", 3, ["ours"], add_card_types=["créature"])
    result = layered(text)
    assert result.layers[Layer.TYPE - 1].after["ours"].subtypes == ("ours",)
    assert "ours est de nouveau une créature : ses types de créature (ours) existent de nouveau" in (
        step_of(result, "animation").reason
    )
    assert "212.1b" in step_of(result, "animation").rules


def test_212_1b_a_creature_type_effect_leaves_the_land_types_of_an_animated_forest():
    """212.1b (2004): « si les sous-types d'un des types de l'objet changent, le nouveau
    sous-type remplace le ou les types existants » — only those of that type (205.3b: creature
    types and land types are distinct). The lands of 212.1c's example (« Tous les terrains
    sont des créatures 1/1 qui sont toujours des terrains ») under Conspiracy (elfe): a forest
    is a forest and an elf; the step cites 212.1b and 205.3b."""
    text = enchantment("conspiration", 1) + static(**CONSPIRACY)
    text += forest() + effect("revolte", 3, ["foret"], **ANIMATED_LANDS)
    result = layered(text)
    seen = result.final["foret"]
    assert seen.subtypes == ("forêt", "elfe") and seen.card_types == {CardType.LAND, CardType.CREATURE}
    step = step_of(result, "conspiration-type")
    assert {"212.1b", "205.3b"} <= set(step.rules) and "212.6e" not in step.rules
    assert "ses types de terrain (forêt) restent" in step.reason


def test_212_6e_a_land_type_effect_leaves_the_creature_types_of_an_animated_forest():
    """212.6e (2004): « Changer le type d'un terrain n'ajoute ni ne retire d'autres types
    (comme le type de créature) » — the animated forest made an elf by Conspiracy, then a
    swamp by an aura (« Le terrain enchanté est un marais », timestamp 4): a swamp and an elf,
    with a swamp's mana ability only (212.6e); the step cites 212.1b, 205.3b and 212.6e."""
    text = enchantment("conspiration", 1) + static(**CONSPIRACY)
    text += forest() + effect("revolte", 3, ["foret"], **ANIMATED_LANDS)
    text += table(
        id="presence",
        name="Présence maléfique",
        controller="Alice",
        card_types=["enchantement"],
        subtypes=["local"],
        enchant=["terrain"],
        attached_to="foret",
        timestamp=4,
    ) + static(id="marais", text="Le terrain enchanté est un marais.", affects="enchanted", set_subtypes=["marais"])
    result = layered(text)
    seen = result.final["foret"]
    assert seen.subtypes == ("elfe", "marais")
    assert seen.abilities == ("{T} : Ajoutez {B} à votre réserve.",)
    step = step_of(result, "marais")
    assert {"212.1b", "205.3b", "212.6e"} <= set(step.rules)
    assert "ses types de créature (elfe) restent" in step.reason


def test_205_3b_subtypes_given_with_a_card_type_belong_to_it_whatever_the_order_of_the_keys():
    """205.3b (2004): « devient une créature-artefact 2/2 assembleur » gives a creature type,
    even when the scenario writes the subtypes before the card types; Lune de sang then
    leaves it (212.6e)."""
    text = table(id="usine", name="Usine de Mishra", controller="Alice", card_types=["terrain"], timestamp=1)
    text += (
        effect("animation", 2, ["usine"], add_subtypes=["assembleur"], add_card_types=["artefact", "créature"])
        + enchantment("lune", 3)
        + static(**BLOOD_MOON)
    )
    seen = layered(text).final["usine"]
    assert seen.subtypes == ("assembleur", "montagne")
    assert seen.linked_subtypes == (("assembleur", CardType.CREATURE), ("montagne", CardType.LAND))


def test_212_1b_a_subtype_of_a_type_the_object_lacks_does_not_exist():
    """212.1b (2004): a subtype exists with the type it belongs to. A land type given to a
    creature that is not a land (205.3b) is no subtype it has; its creature type stays."""
    text = creature("ours", 2, 2, subtypes=["ours"], timestamp=1)
    text += effect("foret", 2, ["ours"], set_subtypes=["forêt"])
    seen = layered(text).final["ours"]
    assert seen.subtypes == ("ours",) and not seen.has_subtype("forêt")
