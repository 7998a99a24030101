"""Scenario files: defaults, French and English values, and every mistake a
judge can make giving a French error with the file, line and key."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli.app import message as cli_message
from rules_kb.checker.layers import characteristics
from rules_kb.checker.scenario import (
    MAX_BYTES,
    MAX_EFFECTS,
    MAX_OBJECTS,
    PERMANENT_KEYS,
    PLAYER_KEYS,
    SPELL_KEYS,
    TOP_KEYS,
    ScenarioError,
    load_scenario,
    parse_scenario,
)
from rules_kb.checker.state import CardType, Color, Supertype, Zone
from rules_kb.checker.state_based import run
from rules_kb.core.errors import Remedy
from tests.scenarios import toml_value

BEAR = """
[[player]]
name = "Alice"

[[player]]
name = "Bob"
life = 7
poison = 2

[[permanent]]
name = "Ours runegriffe"
controller = "Alice"
card_types = ["créature"]
power = 2
toughness = 2
"""


def test_defaults():
    state = parse_scenario(BEAR).state
    alice, bob = state.players
    assert (alice.life, alice.poison, alice.drew_from_empty_library) == (20, 0, False)
    assert (bob.life, bob.poison) == (7, 2)
    assert state.active_player == "Alice"  # the first player (103.4)
    bear = state.objects[0]
    assert bear.id == "ours-runegriffe"  # derived from the name
    assert bear.owner == "Alice" and bear.zone is Zone.BATTLEFIELD
    assert (bear.damage, bear.counters, bear.token, bear.attached_to, bear.timestamp) == (0, {}, False, "", 1)
    assert parse_scenario(BEAR).edition == ""  # the caller picks the newest complete edition


def test_default_ids_are_unique_and_timestamps_follow_the_file():
    text = (
        BEAR
        + BEAR.split("[[permanent]]")[1].join(["[[permanent]]", ""])
        + """
[[spell]]
name = "Éclair"
controller = "Bob"
card_types = ["éphémère"]
"""
    )
    state = parse_scenario(text).state
    assert [obj.id for obj in state.objects] == ["ours-runegriffe", "ours-runegriffe-2", "eclair"]
    assert [obj.timestamp for obj in state.objects] == [1, 2, 3]
    assert state.objects[2].zone is Zone.STACK and state.objects[2].source == "spell"


def test_an_explicit_timestamp_is_kept():
    state = parse_scenario(BEAR.replace("power = 2", "power = 2\ntimestamp = 40")).state
    assert state.objects[0].timestamp == 40


@pytest.mark.parametrize("spelling", ["créature", "creature", "Créatures", "CREATURE", "creatures"])
def test_card_types_in_french_or_english_with_or_without_accents(spelling):
    state = parse_scenario(BEAR.replace('"créature"', f'"{spelling}"')).state
    assert state.objects[0].card_types == frozenset({CardType.CREATURE})


def test_every_vocabulary_in_both_languages():
    french = parse_scenario("""
[[permanent]]
name = "A"
controller = "Alice"
card_types = ["artefact", "enchantement", "terrain"]
supertypes = ["légendaire", "monde", "de base", "enneigé"]
colors = ["blanc", "bleu", "noir", "rouge", "vert"]
subtypes = ["Équipement", "Légende", "local"]
zone = "retiré de la partie"
""").state.objects[0]
    english = parse_scenario("""
[[permanent]]
name = "A"
controller = "Alice"
card_types = ["artifact", "enchantment", "land"]
supertypes = ["legendary", "world", "basic", "snow"]
colors = ["white", "blue", "black", "red", "green"]
subtypes = ["equipment", "legend", "aura"]
zone = "exile"
""").state.objects[0]
    assert french.card_types == english.card_types == {CardType.ARTIFACT, CardType.ENCHANTMENT, CardType.LAND}
    assert french.supertypes == english.supertypes == set(Supertype)
    assert french.colors == english.colors == set(Color)
    assert french.subtypes == english.subtypes == ("équipement", "légende", "local")
    assert french.zone is english.zone is Zone.EXILE


@pytest.mark.parametrize(
    "spelling",
    [
        "en jeu",
        "battlefield",
        "champ de bataille",
        "cimetiere",
        "graveyard",
        "main",
        "pile",
        "bibliotheque",
        "hors phase",
    ],
)
def test_zones(spelling):
    state = parse_scenario(BEAR.replace("power = 2", f'zone = "{spelling}"\npower = 2')).state
    assert state.objects[0].zone.label in ("en jeu", "cimetière", "main", "pile", "bibliothèque", "hors phase")


def test_counter_names_are_normalised_and_zero_counts_dropped():
    state = parse_scenario(
        BEAR.replace("power = 2", 'counters = { "+1 / +1" = 2, "-1/-1" = 0, "temps" = 3 }\npower = 2')
    ).state
    assert state.objects[0].counters == {"+1/+1": 2, "temps": 3}


def test_players_are_inferred_when_none_is_declared():
    state = parse_scenario(
        '[[permanent]]\nname = "A"\ncontroller = "Alice"\nowner = "Bob"\ncard_types = ["artefact"]\n'
    ).state
    assert [player.name for player in state.players] == ["Alice", "Bob"]


def test_an_aura_may_enchant_a_player_by_name():
    state = parse_scenario(
        BEAR
        + '[[permanent]]\nname = "Malédiction"\ncontroller = "Alice"\ncard_types = ["enchantement"]\nsubtypes = ["local"]\nenchant = ["joueur"]\nattached_to = "Bob"\n'
    ).state
    assert state.objects[1].attached_to == "Bob" and state.objects[1].enchant == ("joueur",)


# -- errors -----------------------------------------------------------------------


def error_of(text: str, path: str = "s.toml") -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(text, path)
    return caught.value


ERRORS = [
    # (what is wrong, the text, key, line, words the message must hold)
    ("unknown key", BEAR.replace("power = 2", "powr = 2"), "powr", 14, ["clé inconnue", "« power »"]),
    ("unknown top key", 'editon = "2004"\n' + BEAR, "editon", 1, ["clé inconnue", "edition"]),
    (
        "misspelt type",
        BEAR.replace('"créature"', '"creture"'),
        "card_types",
        13,
        ["« creture »", "« créature »", "artefact"],
    ),
    ("wrong type", BEAR.replace("power = 2", 'power = "deux"'), "power", 14, ["nombre entier", "« deux »"]),
    ("bool not int", BEAR.replace("power = 2", "power = true"), "power", 14, ["nombre entier"]),
    ("negative damage", BEAR.replace("power = 2", "damage = -1\npower = 2"), "damage", 14, ["au moins 0"]),
    (
        "unknown player",
        BEAR.replace('controller = "Alice"', 'controller = "Carole"'),
        "controller",
        12,
        ["« Carole »", "Alice, Bob"],
    ),
    ("missing controller", BEAR.replace('controller = "Alice"\n', ""), "controller", 10, ["obligatoire"]),
    ("missing toughness", BEAR.replace("toughness = 2\n", ""), "toughness", 10, ["endurance"]),
    ("power on a land", BEAR.replace('"créature"', '"terrain"'), "power", 14, ["créature"]),
    (
        "instant in play",
        BEAR.replace('"créature"', '"éphémère"').replace("power = 2\ntoughness = 2\n", ""),
        "card_types",
        13,
        ["ne peut pas être en jeu"],
    ),
    (
        "unknown zone",
        BEAR.replace("power = 2", 'zone = "paradis"\npower = 2'),
        "zone",
        14,
        ["« paradis »", "cimetière"],
    ),
    (
        "unknown colour",
        BEAR.replace("power = 2", 'colors = ["violet"]\npower = 2'),
        "colors",
        14,
        ["« violet »", "blanc"],
    ),
    (
        "unknown attachment",
        BEAR.replace("power = 2", 'attached_to = "personne"\npower = 2'),
        "attached_to",
        14,
        ["« personne »"],
    ),
    (
        "duplicate id",
        BEAR.replace('name = "Ours', 'id = "x"\nname = "Ours')
        + BEAR.split('[[player]]\nname = "Bob"\nlife = 7\npoison = 2\n')[1].replace(
            'name = "Ours', 'id = "x"\nname = "Ours'
        ),
        "id",
        19,
        ["« x »", "déjà pris"],
    ),
    ("duplicate player", BEAR.replace('name = "Bob"', 'name = "Alice"'), "name", 6, ["deux joueurs"]),
    ("unknown active player", 'active_player = "Zoé"\n' + BEAR, "active_player", 1, ["« Zoé »"]),
    ("unsupported edition", 'edition = "2011"\n' + BEAR, "edition", 1, ["2004, 2006-faq"]),
    ("counters not a table", BEAR.replace("power = 2", "counters = 3\npower = 2"), "counters", 14, ["table"]),
    (
        "negative counters",
        BEAR.replace("power = 2", 'counters = { "-1/-1" = -2 }\npower = 2'),
        "counters",
        14,
        ["positif"],
    ),
    (
        "misspelt enchant",
        BEAR.replace("power = 2", 'enchant = ["creture"]\npower = 2'),
        "enchant",
        14,
        ["« créature »"],
    ),
    ("list expected", BEAR.replace("power = 2", "abilities = 3\npower = 2"), "abilities", 14, ["liste"]),
    ("empty name", BEAR.replace('name = "Ours runegriffe"', 'name = ""'), "name", 11, ["vide"]),
    ("player is a value", 'player = "Alice"\n', "player", 1, ["[[player]]"]),
]


@pytest.mark.parametrize(("text", "key", "line", "words"), [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS])
def test_errors_name_the_file_line_and_key_in_french(text, key, line, words):
    error = error_of(text)
    assert (error.path, error.key, error.line) == ("s.toml", key, line)
    message = str(error)
    assert message.startswith(f"Scénario « s.toml », ligne {line}")
    assert f"clé « {key} »" in message
    for word in words:
        assert word in message


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("[[permanent]]\nname = Ours\n", 2, ["guillemets"]),
        ('[[permanent]]\nname = "Ours\n', 2, ["texte non terminé"]),
        ('abilities = ["vol"\n', 1, ["non fermée"]),
        ("[[permanent]\n", 1, ["]]"]),
        ("life = 3\nlife = 4\n", 2, ["déjà une valeur"]),
    ],
)
def test_toml_syntax_errors_are_french_with_their_line(text, line, words):
    error = error_of(text)
    assert error.line == line and "TOML invalide" in str(error)
    for word in words:
        assert word in str(error)


@pytest.mark.parametrize(
    ("text", "start"),
    [("", "le texte est vide"), ("  \n\n", "le texte est vide"), ("# rien\n", "le texte est vide"),
     ('title = "Ours"\nedition = "2004"\n', "aucun joueur ni objet")],
)  # fmt: skip
def test_an_empty_scenario_is_an_error(text, start):
    """The issue: an empty file was checked as a game where nothing happens."""
    error = error_of(text)
    assert error.detail.startswith(start)
    assert "[[player]], [[permanent]] ou [[spell]]" in error.detail
    assert error.remedy is Remedy.START_FROM_EXAMPLE
    assert "rules-kb check --example" in cli_message(error)


def test_a_scenario_of_players_alone_is_not_empty():
    scenario = parse_scenario('[[player]]\nname = "Alice"\nlife = 0\n')
    assert [player.name for player in scenario.state.players] == ["Alice"]


def test_unreadable_files(tmp_path):
    with pytest.raises(ScenarioError, match="introuvable") as missing:
        load_scenario(str(tmp_path / "absent.toml"))
    assert missing.value.remedy is Remedy.START_FROM_EXAMPLE
    assert "rules-kb check --example" in cli_message(missing.value)
    with pytest.raises(ScenarioError, match="dossier"):
        load_scenario(str(tmp_path))
    latin = tmp_path / "latin.toml"
    latin.write_bytes('title = "créature"\n'.encode("latin-1"))
    with pytest.raises(ScenarioError, match="UTF-8") as caught:
        load_scenario(str(latin))
    assert caught.value.line == 1


def test_a_file_with_a_bom_is_read(tmp_path):
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + BEAR.encode("utf-8"))
    assert load_scenario(str(path)).state.objects[0].name == "Ours runegriffe"


# -- sizes: refused before parsing -------------------------------------------------


def test_dev_zero_and_an_endless_standard_input_stop_at_the_size_limit(tmp_path, endless_stdin):
    import io

    with pytest.raises(ScenarioError, match="fichier trop grand") as caught:
        load_scenario("/dev/zero")
    assert "/dev/zero" in str(caught.value)
    with pytest.raises(ScenarioError, match="fichier trop grand"):
        load_scenario("-")
    assert (
        MAX_BYTES < sum(endless_stdin) <= MAX_BYTES + 1 + io.DEFAULT_BUFFER_SIZE
    )  # read up to the limit, not to the end
    big = tmp_path / "big.toml"
    big.write_bytes(b"# " + b"x" * MAX_BYTES)
    with pytest.raises(ScenarioError, match="fichier trop grand"):
        load_scenario(str(big))


@pytest.mark.parametrize(
    ("text", "words", "line", "before"),
    [
        ("x = " + "[" * 100_000, "ligne de 100\u202f004 caractères", 1, True),
        ("x = " + "[\n" * 100_000, "imbriquées sur plus de 32 niveaux", 33, True),
        ("x = " + "{a = " * 50 + "1" + "}" * 50, "imbriquées sur plus de 32 niveaux", 1, True),
        ("a" + ".a" * 50_000 + " = 1", "au plus 10\u202f000 par ligne", 1, True),
        ('title = "' + "é" * 20_000 + '"', "raccourcissez-la", 1, True),
        ("# " + "x" * (MAX_BYTES + 1), "scénario trop grand", 0, True),
        ("[[permanent]]\n" * (MAX_OBJECTS + 1), "501 objets décrits ; au plus 500", 0, True),
        ("permanent = [" + "{}, " * (MAX_OBJECTS + 1) + "]", "501 objets décrits", 0, False),
        (
            "[[permanent]]\n" + "[[permanent.static]]\n" * (MAX_EFFECTS + 1),
            "101 effets continus décrits ; au plus 100",
            0,
            True,
        ),
        ("[[ effect ]]\n" * (MAX_EFFECTS + 1), "101 effets continus", 0, True),
        ("[[permanent]]\nstatic = [" + "{}, " * 60 + "]\n" + "[[effect]]\n" * 41, "101 effets continus", 0, False),
    ],
)
def test_oversized_scenarios_are_refused_in_french_before_parsing(text, words, line, before, monkeypatch):
    """Refused before tomllib reads them (a 100 KB dotted key took it 118 s); objects
    in an inline array are counted once read, their line being at most 10 000 characters."""
    import tomllib

    def never(*args, **kwargs):
        raise AssertionError("tomllib read an oversized scenario")

    if before:
        monkeypatch.setattr(tomllib, "loads", never)
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(text, "s.toml")
    assert words in str(caught.value) and str(caught.value).startswith("Scénario « s.toml »")
    assert caught.value.line == line


def test_brackets_in_strings_and_comments_do_not_count_as_nesting():
    text = 'title = "' + "[" * 40 + '" # ' + "{" * 40 + "\n" + BEAR
    assert parse_scenario(text).state.objects[0].name == "Ours runegriffe"
    quoted = "'''" + "[" * 40 + "'''"
    assert parse_scenario(f"title = {quoted}\n" + BEAR).title == "[" * 40


# -- property tests ---------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_any_text_gives_a_scenario_or_a_scenario_error(text):
    try:
        parse_scenario(text, "x.toml")
    except ScenarioError as error:
        assert str(error).startswith("Scénario « x.toml »")


_VALUES = st.one_of(
    st.integers(-30, 30),
    st.booleans(),
    st.sampled_from(
        [
            "créature",
            "creature",
            "terrain",
            "local",
            "équipement",
            "vert",
            "cimetière",
            "Alice",
            "Bob",
            "a",
            "b",
            "légendaire",
            "monde",
            "+1/+1",
            "-1/-1",
            "pile",
            "main",
            "zzz",
            "",
        ]
    ),
    st.lists(
        st.sampled_from(
            [
                "créature",
                "artefact",
                "enchantement",
                "local",
                "équipement",
                "légende",
                "légendaire",
                "monde",
                "noir",
                "joueur",
                "protection contre le noir",
                "indestructible",
                "zzz",
            ]
        ),
        max_size=3,
    ),
    st.dictionaries(st.sampled_from(["+1/+1", "-1/-1", "+1/+0", "temps"]), st.integers(-1, 4), max_size=3),
)


def _tables(kind: str, keys: tuple[str, ...]):
    return st.lists(st.dictionaries(st.sampled_from((*keys, "bogus")), _VALUES, max_size=8), max_size=4).map(
        lambda items: "".join(
            f"\n[[{kind}]]\n" + "".join(f"{key} = {toml_value(value)}\n" for key, value in item.items())
            for item in items
        )
    )


@settings(max_examples=300, deadline=None)
@given(
    _tables("player", PLAYER_KEYS),
    _tables("permanent", PERMANENT_KEYS),
    _tables("spell", SPELL_KEYS),
    st.sampled_from(["", 'edition = "2004"\n', 'edition = "2006-faq"\n', "edition = 4\n"]),
)
def test_generated_scenarios_parse_or_fail_cleanly_and_always_run_to_the_end(players, permanents, spells, head):
    """Any mix of known and unknown keys and values: a scenario whose
    state-based effects run to completion, or a ScenarioError."""
    assert set(TOP_KEYS) >= {"player", "permanent", "spell"}
    try:
        scenario = parse_scenario(head + players + permanents + spells, "g.toml")
    except ScenarioError as error:
        assert str(error).startswith("Scénario « g.toml »")
        return
    resolution = run(scenario.state)
    assert len(resolution.rounds) < 10
    for obj in resolution.final.permanents:  # nothing the checker should have removed is left
        assert not obj.token or obj.zone is Zone.BATTLEFIELD


def test_the_documented_scenario_is_valid_and_quiet():
    """The commented scenario of the format's reference (docs/reference/scenarios.md) parses, and
    nothing in it triggers a state-based effect."""
    import re
    from pathlib import Path

    page = (Path(__file__).parent.parent / "docs" / "reference" / "scenarios.md").read_text(encoding="utf-8")
    block = re.search(r"```toml\n(title = .*?)```", page, re.DOTALL).group(1)
    scenario = parse_scenario(block, "scenarios.md")
    assert [obj.id for obj in scenario.state.objects] == ["ours", "guide", "copie"]
    assert [effect.id for effect in scenario.state.object("guide").statics] == ["guide-bonus"]
    assert [effect.id for effect in scenario.state.effects] == ["croissance"]
    resolution = run(scenario.state)
    assert resolution.rounds == ()
    seen = characteristics(scenario.state)["ours"]
    assert (seen.power, seen.toughness) == (7, 7) and seen.has_ability("vol")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("[]{}\"'#\\\n =ax,."), max_size=400).map(lambda text: "x = " + text))
def test_any_bracketed_text_is_refused_or_parsed_without_recursion_error(text):
    """Strings, comments and escapes in any mix: refused before parsing, or parsed with no crash."""
    try:
        parse_scenario(text, "x.toml")
    except ScenarioError as error:
        assert str(error).startswith("Scénario « x.toml »")


@pytest.mark.parametrize("quote", ['"""', "'''"])
def test_a_multi_line_string_ending_in_extra_quotes_hides_no_nesting(quote):
    # « a" » then a real array: the scan must not take the extra quote for the start of a string.
    text = f"x = [{quote} a {quote}{quote[0]} , " + "[" * 2000 + "]" * 2000 + "]"
    with pytest.raises(ScenarioError, match="imbriquées sur plus de 32 niveaux"):
        parse_scenario(text, "s.toml")
