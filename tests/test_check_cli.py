"""``rules-kb check``: what a judge sees, exit codes, ``--json`` and ``--example``."""

from __future__ import annotations

import io
import sys

BEAR_AND_AURA = """
[[player]]
name = "Alice"

[[player]]
name = "Bob"

[[permanent]]
id = "ours"
name = "Ours runegriffe"
controller = "Alice"
card_types = ["créature"]
power = 2
toughness = 2
damage = 2

[[permanent]]
id = "guide"
name = "Guide griffon"
controller = "Alice"
card_types = ["enchantement"]
subtypes = ["local"]
enchant = ["créature"]
attached_to = "ours"
"""


def flat(text: str) -> str:
    return " ".join(text.split())


def test_check_prints_each_round_with_the_rule_text_from_the_corpus(run_cli, tmp_path):
    path = tmp_path / "ours.toml"
    path.write_text(BEAR_AND_AURA, encoding="utf-8")
    result = run_cli("check", str(path))
    assert result.exit_code == 0, result.stderr
    text = flat(result.stdout)
    assert "État de départ" in text and "État final" in text
    first, second = text.index("Vérification 1"), text.index("Vérification 2")
    assert first < text.index("420.5c Une créature avec des blessures fatales") < second
    assert "Ours runegriffe (ours) : détruit" in text
    assert "La régénération peut remplacer cette destruction." in text
    assert second < text.index("420.5d Un enchantement local qui enchante un permanent illégal ou inexistant")
    assert "Guide griffon (guide) : mis au cimetière de son propriétaire" in text
    assert "Résultat : aucun joueur ne perd la partie." in text


def test_check_json_shape(run_cli, tmp_path):
    path = tmp_path / "ours.toml"
    path.write_text(BEAR_AND_AURA, encoding="utf-8")
    data = run_cli("check", str(path), "--json").json()
    assert data["edition"] == "2004"
    assert [[(e["rule"], e["action"], e["objects"]) for e in r["events"]] for r in data["rounds"]] == [
        [("420.5c", "destroy", ["ours"])],
        [("420.5d", "put_into_graveyard", ["guide"])],
    ]
    event = data["rounds"][0]["events"][0]
    assert set(event) >= {"rule", "action", "objects", "players", "text"}
    assert event["text"].startswith("Une créature avec des blessures fatales") and event["regeneration"] is True
    bear = next(p for p in data["final"]["permanents"] if p["id"] == "ours")
    assert set(bear) >= {"id", "zone", "power", "toughness", "damage", "counters", "attached_to"}
    assert (bear["zone"], bear["damage"]) == ("cimetière", 0)
    assert bear["card_types"] == ["créature"]
    assert (event["label"], event["names"]) == ("détruit", ["Ours runegriffe"])
    assert set(data["final"]["players"][0]) >= {"name", "life", "poison", "lost"}
    assert data["outcome"] == {"losers": [], "draw": False, "winners": [], "rule": None}


def test_two_players_at_zero_life_is_a_draw(run_cli, tmp_path):
    path = tmp_path / "nulle.toml"
    path.write_text('[[player]]\nname = "Alice"\nlife = 0\n\n[[player]]\nname = "Bob"\nlife = 0\n', encoding="utf-8")
    result = run_cli("check", str(path))
    assert result.exit_code == 0
    assert "partie nulle, Alice et Bob perdent en même temps (102.4)" in flat(result.stdout)
    data = run_cli("check", str(path), "--json").json()
    assert data["outcome"]["draw"] and data["outcome"]["losers"] == ["Alice", "Bob"]
    assert data["outcome"]["rule"] == "102.4"


def test_a_malformed_file_gives_a_french_error_with_the_key(run_cli, tmp_path):
    path = tmp_path / "faux.toml"
    path.write_text(BEAR_AND_AURA.replace("toughness = 2", 'toughness = "deux"'), encoding="utf-8")
    result = run_cli("check", str(path))
    assert result.exit_code == 1
    assert "Traceback" not in result.stderr
    message = flat(result.stderr)
    assert f"Erreur : Scénario « {path} », ligne 14, [[permanent]] n°1, clé « toughness »" in message
    assert "un nombre entier est attendu" in message
    data = run_cli("check", str(path), "--json").json()
    assert data["error"]["key"] == "toughness" and data["error"]["line"] == 14
    assert path.read_text(encoding="utf-8").count('"deux"') == 1  # the judge's file is untouched


def test_edition_option_overrides_the_file(run_cli, tmp_path):
    path = tmp_path / "marqueurs.toml"
    path.write_text(
        'edition = "2004"\n[[permanent]]\nname = "Bulot"\ncontroller = "Alice"\ncard_types = ["créature"]\n'
        'power = 1\ntoughness = 1\ncounters = { "+1/+1" = 2, "-1/-1" = 1 }\n',
        encoding="utf-8",
    )
    assert run_cli("check", str(path), "--json").json()["rounds"] == []
    data = run_cli("check", str(path), "--edition", "2006-faq", "--json").json()
    assert data["edition"] == "2006-faq" and data["rounds"][0]["events"][0]["rule"] == "420.5n"
    assert data["rounds"][0]["events"][0]["text"].startswith("Si un permanent a à la fois un marqueur +1/+1")
    bad = run_cli("check", str(path), "--edition", "2011")
    assert bad.exit_code == 1 and "2004, 2006-faq" in flat(bad.stderr)


def test_missing_file_and_missing_argument(run_cli, tmp_path):
    result = run_cli("check", str(tmp_path / "absent.toml"))
    assert result.exit_code == 1 and "introuvable" in result.stderr and "Traceback" not in result.stderr
    result = run_cli("check")
    assert result.exit_code == 2 and "rules-kb check --example" in flat(result.stderr)


def test_check_reads_standard_input(run_cli, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(BEAR_AND_AURA.encode("utf-8"))))
    data = run_cli("check", "-", "--json").json()
    assert data["scenario"] == "<entrée standard>" and len(data["rounds"]) == 2


def test_example_lists_then_prints_a_scenario_that_runs(run_cli, tmp_path):
    listing = run_cli("check", "--example")
    assert listing.exit_code == 0
    assert "blessures-fatales" in listing.stdout and "regle-des-legendes" in listing.stdout
    names = [e["name"] for e in run_cli("check", "--example", "--json").json()["examples"]]
    assert "partie-nulle" in names and len(names) >= 12
    for name in names:
        printed = run_cli("check", "--example", name)
        assert printed.exit_code == 0 and printed.stdout.startswith("# ")
        path = tmp_path / f"{name}.toml"
        path.write_text(printed.stdout, encoding="utf-8")
        ran = run_cli("check", str(path), "--json")
        assert ran.exit_code == 0, name
        document = ran.json()
        layered = any(entry["layers"] for entry in document["characteristics"].values())
        assert document["rounds"] or layered, f"{name} does nothing"


def test_unknown_example(run_cli):
    result = run_cli("check", "--example", "inconnu")
    assert result.exit_code == 1 and "blessures-fatales" in result.stderr


# -- continuous effects in layers (418) ---------------------------------------------


def test_check_shows_the_layers_and_their_rules(run_cli, tmp_path):
    path = tmp_path / "dependance.toml"
    path.write_text(run_cli("check", "--example", "couches-dependance").stdout, encoding="utf-8")
    result = run_cli("check", str(path))
    assert result.exit_code == 0
    text = flat(result.stdout)
    assert "Effets continus" in text and "4 type" in text
    assert text.index("1. animation") < text.index("2. conspiration-type")
    assert "dépend de animation" in text and "418.5c" in text and "418.5d" in text
    assert 'Un effet est dit "dépendre"' in text  # 418.5c quoted from the corpus


def test_check_json_gives_final_characteristics_and_the_order_in_each_layer(run_cli, tmp_path):
    path = tmp_path / "echange.toml"
    path.write_text(run_cli("check", "--example", "couches-echange").stdout, encoding="utf-8")
    document = run_cli("check", str(path), "--json").json()
    creature = document["characteristics"]["creature"]
    assert (creature["power"], creature["toughness"]) == (9, 1)
    assert (creature["printed"]["power"], creature["printed"]["toughness"]) == (1, 3)
    (layer,) = creature["layers"]
    assert layer["layer"] == 6 and [e["id"] for e in layer["effects"]] == ["plus-zero-un", "echange", "plus-cinq-zero"]
    assert all(effect["reason"] for effect in layer["effects"]) and layer["after"]["power"] == 9
    assert document["switch_ruling"] is None
    faq = run_cli("check", str(path), "--json", "--edition", "2006-faq").json()
    assert [e["id"] for e in faq["characteristics"]["creature"]["layers"][0]["effects"]][-1] == "echange"
    assert (
        faq["characteristics"]["creature"]["power"] == 4 and faq["switch_ruling"]["card"] == "Transmutateur crocheserre"
    )
    assert faq["initial"]["permanents"][0]["power"] == 4  # the state shows the characteristics after the layers


def test_check_names_an_unknown_operation_and_an_unknown_type_in_french(run_cli, tmp_path):
    path = tmp_path / "faute.toml"
    base = BEAR_AND_AURA.replace("damage = 2", "damage = 0")
    path.write_text(
        base + '\n[[effect]]\nid = "e"\ntimestamp = 3\naffects = ["ours"]\nboost = [1, 1]\n', encoding="utf-8"
    )
    result = run_cli("check", str(path))
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert "« boost »" in result.stderr and "modify_power_toughness" in result.stderr and "ligne" in result.stderr
    path.write_text(
        base + '\n  [[permanent.static]]\n  affects_all = { card_types = ["planeswalker"] }\n'
        "  modify_power_toughness = [1, 1]\n",
        encoding="utf-8",
    )
    result = run_cli("check", str(path), "--json")
    assert result.exit_code == 1
    error = result.json()["error"]
    assert "« planeswalker » n'est pas un type de carte connu" in error["message"]
    assert error["key"] == "affects_all.card_types" and error["line"] == 27


def test_json_says_what_the_edition_follows_and_since_when_each_permanent_is_as_it_is(run_cli, tmp_path):
    """Issue 21: the 2006-faq edition is "2004 + FAQ Spirale temporelle" (name and header);
    each object carries its ``since`` (502.15k: timestamp 1 kept, in play as it is since 5)."""
    path = tmp_path / "phase.toml"
    path.write_text(run_cli("check", "--example", "legendes-en-phase").stdout, encoding="utf-8")
    data = run_cli("check", str(path), "--edition", "2006-faq", "--json").json()
    assert data["edition"] == "2006-faq" and data["edition_name"] == "2004 + FAQ Spirale temporelle"
    assert [(o["timestamp"], o["since"]) for o in data["initial"]["permanents"]] == [(1, 5), (3, 5)]
    shown = run_cli("check", str(path), "--edition", "2006-faq")
    assert "2004 + FAQ Spirale temporelle" in flat(shown.stdout)


def test_check_of_dev_zero_stops_at_the_size_limit_with_a_french_message(run_cli):
    result = run_cli("check", "/dev/zero")
    assert result.exit_code == 1 and not result.stdout
    assert "fichier trop grand (plus de 1\u202f000\u202f000 octets)" in result.stderr
    assert "Traceback" not in result.stderr


# -- what an effect that changes the rules stops (103.1, issue 36) --------------------------

ANGEL_AT_ZERO = """
[[player]]
name = "Alice"
life = 0

[[player]]
name = "Bob"

[[permanent]]
id = "ange"
name = "Ange de platine"
controller = "Alice"
card_types = ["artefact", "créature"]
power = 4
toughness = 4
abilities = ["Vous ne pouvez pas perdre la partie."]
"""


def test_check_says_which_loss_the_platinum_angel_stopped_and_why(run_cli, tmp_path):
    """103.1 (2004): the card wins over 420.5a. Instead of « rien ne change », check shows
    the loss it stopped, who stopped it and the rules: 103.1, 420.5a (and 102.1)."""
    path = tmp_path / "ange.toml"
    path.write_text(ANGEL_AT_ZERO, encoding="utf-8")
    result = run_cli("check", str(path))
    assert result.exit_code == 0, result.stderr
    text = flat(result.stdout)
    assert "rien ne change" not in text
    assert "Vérification 1" in text and "la carte l'emporte sur la règle (103.1)" in text
    assert "420.5a Un joueur avec 0 points de vie ou moins perd la partie." in text
    assert "Alice : ne perd pas la partie — 0 point de vie ; empêché par Ange de platine (ange)" in text
    assert "voir 103.1 A chaque fois que le texte d'une carte contredit ces règles" in text
    assert "Résultat : aucun joueur ne perd la partie." in text


def test_check_json_lists_what_rule_changing_effects_stopped(run_cli, tmp_path):
    """``stopped`` (issue 36): each event an effect that changes the rules stopped, with its
    check, the ability, the permanents that have it and the rules; the rules' texts are in
    ``rules``. ``rounds`` stays empty: nothing happened."""
    path = tmp_path / "ange.toml"
    path.write_text(ANGEL_AT_ZERO, encoding="utf-8")
    data = run_cli("check", str(path), "--json").json()
    assert data["rounds"] == []
    (stopped,) = data["stopped"]
    assert stopped["check"] == 1 and stopped["by"] == ["ange"]
    assert stopped["ability"] == "vous ne pouvez pas perdre la partie"
    assert stopped["rules"] == ["103.1", "420.5a", "102.1"]
    event = stopped["event"]
    assert (event["rule"], event["action"], event["players"]) == ("420.5a", "lose", ["Alice"])
    assert event["text"].startswith("Un joueur avec 0 points de vie")
    assert {"103.1", "420.5a", "102.1"} <= {rule["number"] for rule in data["rules"]}


def test_check_json_stopped_is_empty_when_nothing_was_stopped(run_cli, tmp_path):
    path = tmp_path / "ours.toml"
    path.write_text(BEAR_AND_AURA, encoding="utf-8")
    assert run_cli("check", str(path), "--json").json()["stopped"] == []
