"""Boards built by tapping (:mod:`rules_kb.checker.board`, issue 37): the ``/verifier`` forms
as a checker scenario and back, tested as a library; then the page without JavaScript
(Starlette's TestClient): its buttons round-trip the board in the form's fields, the
download route gives the TOML ``check`` reads, and the result says everything in French."""

from __future__ import annotations

import re
import tomllib
from dataclasses import replace
from pathlib import Path
from urllib.parse import urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import html as lxml_html

from rules_kb import serialize
from rules_kb.checker import board as boards
from rules_kb.checker.board import Board, BoardError, PermanentRow, PlayerRow
from rules_kb.checker.report import check_scenario, example, examples
from rules_kb.checker.scenario import Scenario, ScenarioError, parse_scenario
from rules_kb.checker.scenario_writer import scenario_to_toml
from rules_kb.core.errors import RulesKbError
from tests.scenarios import unplaced

STATIC = Path(__file__).parent.parent / "rules_kb" / "serve" / "static"
FORM = {"content-type": "application/x-www-form-urlencoded"}


def bear(damage: str = "2", **more) -> PermanentRow:
    """« ma 2/2 » : a 2/2 creature, as the form holds it."""
    row = PermanentRow(ref="p1", name="Ours runegriffe", controller="Alice", card_types=("créature",), power="2",
                       toughness="2", damage=damage, timestamp="1")  # fmt: skip
    return replace(row, **more)


def two_two_with_two_damage() -> Board:
    """« ma 2/2 avec 2 blessures » : one player, a 2/2 creature with 2 damage."""
    return Board(players=(PlayerRow("Alice"),), permanents=(bear(),))


def humility_and_opalescence(humility_first: bool, crusade: bool = True) -> Board:
    """« Humilité + Opalescence », entered in the order given (timestamps by order of entry),
    with the bundled example's Croisade and bear."""
    board = Board(players=(PlayerRow("Alice"),))
    for kind in ("humility", "opalescence") if humility_first else ("opalescence", "humility"):
        board = boards.add_effect(board)
        board = replace(board, effects=(*board.effects[:-1], replace(board.effects[-1], kind=kind)))
    if crusade:
        board = boards.add_effect(board)
        board = replace(board, effects=(*board.effects[:-1], replace(board.effects[-1], kind="crusade")))
    board = boards.add_permanent(board)
    row = replace(board.permanents[-1], name="Ours runegriffe", card_types=("créature",), subtypes="ours",
                  colors=("vert",), power="2", toughness="2", abilities="piétinement")  # fmt: skip
    return replace(board, permanents=(row,))


def checked(kb, scenario: Scenario) -> dict:
    return serialize.check_dict(check_scenario(kb, scenario))


def events(report: dict) -> list[list[tuple]]:
    """Each check's events: rule, action, objects' names, players."""
    return [
        [(event["rule"], event["action"], event["names"], event["players"]) for event in round_["events"]]
        for round_ in report["rounds"]
    ]


# -- the library: form → scenario --------------------------------------------------------------------


def test_a_2_2_with_2_damage_is_destroyed(kb):
    """420.5c (2004): 2 damage on a 2/2 is lethal damage; the creature is destroyed."""
    report = checked(kb, boards.board_scenario(two_two_with_two_damage()))
    (event,) = [event for round_ in report["rounds"] for event in round_["events"]]
    assert (event["rule"], event["action"], event["names"]) == ("420.5c", "destroy", ["Ours runegriffe"])
    assert report["final"]["permanents"][0]["zone"] == "cimetière"
    survivor = checked(kb, boards.board_scenario(Board(players=(PlayerRow("Alice"),), permanents=(bear("1"),))))
    assert survivor["rounds"] == [] or not any(round_["events"] for round_ in survivor["rounds"])


@pytest.mark.parametrize("humility_first", [True, False])
def test_humility_and_opalescence_give_the_bundled_example_in_either_order(kb, humility_first):
    """418.5b (2004), and its examples: Opalescence changes a type, so all of it applies in
    layer 4 (Humilité becomes a 4/4 creature); Humilité's effect starts in layer 5 and keeps its
    later part (418.5b), so every creature is 1/1 with no abilities in layer 6 — as the bundled
    example couches-humilite-opalescence and tests/test_layers.py have it, in both orders.
    Opalescence, which does not apply to itself, stays a non-creature enchantment."""
    board = humility_and_opalescence(humility_first)
    stamps = {boards.CATALOGUE[row.kind].card.name: int(row.timestamp) for row in board.effects}
    assert (stamps["Humilité"] < stamps["Opalescence"]) == humility_first  # the order of entry
    report = checked(kb, boards.board_scenario(board))
    seen = {entry["name"]: entry for entry in report["characteristics"].values()}
    for name in ("Humilité", "Croisade", "Ours runegriffe"):
        assert (seen[name]["power"], seen[name]["toughness"], seen[name]["abilities"]) == (1, 1, []), name
    assert "créature" not in seen["Opalescence"]["card_types"] and seen["Opalescence"]["power"] is None
    assert not any(round_["events"] for round_ in report["rounds"])
    bundled = checked(kb, parse_scenario(example("couches-humilite-opalescence").text))
    wanted = {entry["name"]: (entry["power"], entry["toughness"], entry["card_types"])
              for entry in bundled["characteristics"].values()}  # fmt: skip
    assert {name: (entry["power"], entry["toughness"], entry["card_types"]) for name, entry in seen.items()} == wanted


@pytest.mark.parametrize(
    "board",
    [
        two_two_with_two_damage(),
        humility_and_opalescence(True),
        humility_and_opalescence(False, crusade=False),
    ],
    ids=["ours", "humilite-opalescence", "opalescence-humilite"],
)
def test_form_to_scenario_to_toml_to_check_gives_the_same_report(kb, board):
    """The TOML the page shows and downloads is the scenario checked: parsed again, the same report."""
    scenario = boards.scenario_from_form(boards.form_fields(board))
    again = parse_scenario(scenario_to_toml(scenario, "commentaire"))
    assert checked(kb, again) == checked(kb, scenario)


def every_kind() -> Board:
    """A board using every item of the catalogue, each where it fits."""
    board = Board(players=(PlayerRow("Alice"), PlayerRow("Bob")))
    board = boards.add_permanent(boards.add_permanent(board))
    ours = replace(board.permanents[0], name="Ours runegriffe", card_types=("créature",), power="2", toughness="2")
    aura = replace(board.permanents[1], name="Guide griffon", role="aura", attached_to=ours.ref, enchant="créature")
    board = replace(board, permanents=(ours, aura))
    params = {
        "bonus": {"power": "3", "toughness": "3"}, "set-pt": {"power": "0", "toughness": "2"},
        "animate": {"power": "4", "toughness": "4", "subtype": "golem"}, "lose-all": {}, "gain": {"ability": "vol"},
        "lose": {"ability": "vol"}, "color": {"color": "bleu"}, "type": {"card_type": "artefact"},
        "add-type": {"subtype": "elfe"}, "control": {"player": "Bob"}, "switch": {},
        "text": {"old_word": "blanc", "new_word": "noir"},
    }  # fmt: skip
    for kind in boards.CATALOGUE.values():
        board = boards.add_effect(board)
        if kind.card is not None:
            row = replace(board.effects[-1], kind=kind.key)
        else:
            row = replace(board.effects[-1], kind=kind.key, target=ours.ref, **params[kind.key])
        board = replace(board, effects=(*board.effects[:-1], row))
    board = boards.add_effect(board)  # a static ability of the aura: « la créature enchantée gagne +2/+2 »
    static = replace(board.effects[-1], kind="bonus", source=aura.ref, target="enchanted", power="2", toughness="2")
    board = boards.add_effect(board)  # « Contrôle magique »
    control = replace(board.effects[-1], kind="control", source=aura.ref, target="enchanted", player=boards.YOU)
    board = boards.add_effect(board)  # Humilité's ability, printed on the aura
    humility = replace(board.effects[-1], kind="humility", source=aura.ref)
    return replace(board, effects=(*board.effects, static, control, humility))


def test_every_item_of_the_catalogue_makes_a_scenario_that_reads_back(kb):
    board = every_kind()
    scenario = boards.board_scenario(board)
    assert len(scenario.state.effects) == len([k for k in boards.CATALOGUE.values() if k.card is None])
    aura = scenario.state.object("guide-griffon")
    assert [effect.text for effect in aura.statics] == [
        "La créature enchantée gagne +2/+2.",
        "Vous contrôlez la créature enchantée.",
        "Toutes les créatures perdent toutes leurs capacités et sont 1/1.",
    ]
    assert aura.subtypes == ("local",) and aura.enchant == ("créature",) and aura.attached_to == "ours-runegriffe"
    texts = [effect.text for effect in scenario.state.effects]
    assert "Ours runegriffe gagne +3/+3." in texts and "Bob acquiert le contrôle d'Ours runegriffe." in texts
    assert checked(kb, parse_scenario(scenario_to_toml(scenario))) == checked(kb, scenario)
    reading = boards.board_from_scenario(scenario)
    assert reading.complete and boards.same_scenario(reading.board, scenario)


# -- the library: mistakes ------------------------------------------------------------------------------


def problems(board: Board) -> dict[str, str]:
    with pytest.raises(BoardError) as raised:
        boards.board_scenario(board)
    return {problem.field: str(problem) for problem in raised.value.problems}


def test_bad_values_give_french_errors_on_their_fields():
    """The reader's own French messages (« un nombre entier est attendu »), placed on the form's field."""
    board = Board(players=(PlayerRow("Alice"),), permanents=(bear(power="abc"),))
    found = problems(replace(board, permanents=(replace(board.permanents[0], power="abc", damage="-1"),)))
    assert found["permanent-0-power"] == (
        'Permanent n°1 (Ours runegriffe), force : un nombre entier est attendu, ou "*" quand une capacité le '
        "définit (208.2), pas « abc »."
    )
    assert "au moins 0" in found["permanent-0-damage"]
    unnamed = problems(replace(board, permanents=(replace(board.permanents[0], name="", power="2"),)))
    assert "permanent-0-name" in unnamed and "vide" in unnamed["permanent-0-name"]
    stranger = problems(replace(board, permanents=(replace(board.permanents[0], controller="Zoé", power="2"),)))
    assert "« Zoé » n'est pas un joueur du scénario" in stranger["permanent-0-controller"]
    not_a_creature = problems(
        replace(board, permanents=(replace(board.permanents[0], card_types=("enchantement",), power="2"),))
    )
    assert "seule une créature a une force" in not_a_creature["permanent-0-power"]


def test_an_effect_aimed_where_it_cannot_go_says_which_rule():
    board = boards.add_effect(two_two_with_two_damage())
    grouped = replace(board.effects[0], kind="bonus", target="creatures", power="1", toughness="1")
    found = problems(replace(board, effects=(grouped,)))
    assert "418.3b" in found["effect-0-target"]  # a resolved effect: the objects fixed when it began
    static = replace(grouped, source="p1", target="p1")
    assert "418.4a" in problems(replace(board, effects=(static,)))["effect-0-target"]
    missing = replace(grouped, kind="set-pt", target="p1", power="")
    assert problems(replace(board, effects=(missing,)))["effect-0-power"].endswith("indiquez la force.")
    unknown = replace(grouped, kind="boum")
    assert "n'est pas un effet de la liste" in problems(replace(board, effects=(unknown,)))["effect-0-kind"]
    gone = replace(grouped, source="p9", target="self")
    assert "plus un permanent du plateau" in problems(replace(board, effects=(gone,)))["effect-0-source"]
    yours = replace(grouped, kind="control", target="p1", player=boards.YOU)
    assert "212.4i" in problems(replace(board, effects=(yours,)))["effect-0-player"]


def test_an_empty_board_and_too_many_rows_are_french_errors():
    with pytest.raises(BoardError, match="Le plateau est vide"):
        boards.board_scenario(Board(players=(PlayerRow(""),), permanents=(PermanentRow(ref="p1"),)))
    with pytest.raises(BoardError, match="au plus 20"):
        boards.read_form({f"player-{number}-name": [f"J{number}"] for number in range(21)})


def test_every_mistake_is_reported_at_once_in_the_order_of_the_page():
    board = Board(players=(PlayerRow("Alice", life="vingt"),), permanents=(bear(power="x", toughness="y"),))
    with pytest.raises(BoardError) as raised:
        boards.board_scenario(board)
    assert [problem.field for problem in raised.value.problems] == [
        "player-0-life", "permanent-0-power", "permanent-0-toughness",
    ]  # fmt: skip
    assert str(raised.value).startswith("3 erreurs.")


_FIELD_NAMES = [
    boards.field_name(section, index, name)
    for section, names in (("player", boards.PLAYER_FIELDS), ("permanent", boards.PERMANENT_FIELDS),
                           ("effect", boards.EFFECT_FIELDS))
    for index in range(3)
    for name in names
] + ["title", "edition", "action", "permanent-9999-name", "effect-x-kind"]  # fmt: skip
_VALUES = st.one_of(
    st.text(max_size=12),
    st.sampled_from(
        ["", "0", "2", "-3", "+1", "abc", "*", "Alice", "Bob", "p1", "p2", "e1", "@Alice", "@Zoé", "créature",
         "enchantement", "terrain", "blanc", "incolore", "aura", "equipment", "cimetière", "pile", "2004", "2006-faq",
         "vous", "on", "vol, piétinement", "temps : 3", "créature que vous contrôlez", "légendaire",
         *boards.CATALOGUE, *boards.TARGETS]
    ),
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(form=st.dictionaries(st.sampled_from(_FIELD_NAMES), st.lists(_VALUES, min_size=1, max_size=3), max_size=30))
def test_any_form_gives_a_scenario_or_a_french_error(form):
    """Never a crash: a scenario (which reads back from its TOML), or a :class:`BoardError`
    whose every problem is French and names a field of the form (or the board as a whole)."""
    try:
        scenario = boards.scenario_from_form(form)
    except BoardError as error:
        fields = set(boards.form_fields(boards.read_form(form))) if "au plus" not in str(error) else set()
        for problem in error.problems:
            assert problem.detail and problem.detail == problem.detail.strip()
            assert not problem.field or problem.field in fields, problem.field
            assert not re.search(r"Traceback|Error\b|None\b", str(problem)), str(problem)
        return
    assert isinstance(scenario, Scenario)
    assert unplaced(parse_scenario(scenario_to_toml(scenario))) == unplaced(scenario)


_VALID = boards.form_fields(every_kind())


@settings(max_examples=200, deadline=None)
@given(name=st.sampled_from(sorted(_VALID)), value=_VALUES)
def test_one_field_changed_in_a_valid_board_gives_a_scenario_or_its_error(name, value):
    """From a board that checks, one field typed anew: a scenario, or an error on that very field
    (or on what names the row changed, for a name or a reference)."""
    form = {**_VALID, name: [value]}
    try:
        scenario = boards.scenario_from_form(form)
    except BoardError as error:
        row = "-".join(name.split("-")[:2])
        placed = [p.field for p in error.problems if not p.field or p.field == name or p.field.startswith(row + "-")]
        named = name in ("title", "edition") or name.endswith(("-ref", "-name", "-kind", "-source", "-role"))
        assert all(problem.detail for problem in error.problems)
        assert placed or named, (name, value, [str(problem) for problem in error.problems])
        return
    assert unplaced(parse_scenario(scenario_to_toml(scenario))) == unplaced(scenario)


# -- the library: scenario → form, and the buttons -------------------------------------------------------


def test_read_form_reads_form_fields_back():
    for board in (two_two_with_two_damage(), humility_and_opalescence(True), every_kind(), boards.new_board()):
        assert boards.read_form(boards.form_fields(board)) == board


@pytest.mark.parametrize("bundled", examples(), ids=lambda found: found.name)
def test_a_bundled_example_reads_as_a_board_when_the_forms_describe_it(kb, bundled):
    """Loaded as forms, an example gives the same report when the forms describe it all;
    else the page keeps it in TOML and says what the forms miss (in French)."""
    scenario = parse_scenario(bundled.text)
    reading = boards.board_from_scenario(scenario)
    if not reading.complete:
        assert bundled.name in {"copies", "couches-armoiries", "couches-batard-sauvage", "couches-lune-de-sang",
                                "couches-saisie-des-renes"}, reading.missing  # fmt: skip
        assert all(isinstance(what, str) and what for what in reading.missing)
        return
    built = boards.board_scenario(reading.board)
    mine, theirs = checked(kb, built), checked(kb, scenario)
    assert mine["outcome"] == theirs["outcome"]
    assert events(mine) == events(theirs)  # their reasons may quote the ids of effects, which the forms do not keep
    assert [stopped["label"] for stopped in mine["stopped"]] == [stopped["label"] for stopped in theirs["stopped"]]
    for part in ("permanents", "spells", "players"):
        key = "name" if part == "players" else "id"
        assert sorted(mine["final"][part], key=lambda entry: entry[key]) == sorted(
            theirs["final"][part], key=lambda entry: entry[key]
        )
    assert boards.read_form(boards.form_fields(reading.board)) == reading.board


def test_the_buttons_give_timestamps_by_order_of_entry_and_remove_what_depends():
    board = boards.new_board()
    assert [player.name for player in board.players] == ["Alice", "Bob"] and len(board.permanents) == 1
    board = boards.add_effect(boards.add_permanent(board))
    assert [row.timestamp for row in (*board.permanents, *board.effects)] == ["1", "2", "3"]
    first, second = board.permanents
    static = replace(board.effects[0], kind="bonus", source=first.ref, target="self", power="1", toughness="1")
    aimed = replace(board.effects[0], ref="e9", kind="bonus", target=first.ref, power="1", toughness="1")
    board = replace(board, effects=(static, aimed), permanents=(first, replace(second, attached_to=first.ref)))
    smaller = boards.remove_permanent(board, 0)
    assert smaller.permanents == (replace(second, attached_to=""),)  # nothing names the permanent removed
    assert smaller.effects == (replace(aimed, target=""),)  # its static ability left with it (418.4b)
    assert boards.remove_player(board, 5) == board and len(boards.remove_player(board, 1).players) == 1
    assert boards.remove_effect(board, 0).effects == (aimed,)
    assert boards.add_player(boards.add_player(board)).players[-1].name == "David"


def test_abilities_split_on_lines_and_keyword_commas():
    assert boards.split_abilities("vol, piétinement\nAu début de votre entretien, piochez une carte.\n\n") == [
        "vol", "piétinement", "Au début de votre entretien, piochez une carte.",
    ]  # fmt: skip


# -- the page, without JavaScript --------------------------------------------------------------------------


def submitted(page: str, action: str) -> list[tuple[str, str]]:
    """What a browser without JavaScript sends when the button ``action`` of the page's form is pressed."""
    form = lxml_html.fromstring(page).get_element_by_id("plateau")
    return [*form.form_values(), ("action", action)]


def press(client, page: str, action: str, edit=None, url: str = "/verifier"):
    values = submitted(page, action)
    if edit:
        values = edit(values)
    return client.post(url, content=urlencode(values), headers=FORM)


def typed(values: list[tuple[str, str]], **fields: str | list[str]) -> list[tuple[str, str]]:
    """``values`` with the fields typed (``permanent_0_power="2"``; a list: the boxes ticked)."""
    names = {name.replace("_", "-", 2): value for name, value in fields.items()}
    kept = [(name, value) for name, value in values if name not in names]
    for name, value in names.items():
        kept += [(name, item) for item in ([value] if isinstance(value, str) else value)]
    return kept


def test_the_buttons_round_trip_the_board_without_javascript(client):
    page = client.get("/verifier").text
    assert 'name="player-1-name"' in page and 'name="permanent-0-name"' in page
    added = press(client, page, "add-permanent")
    assert added.status_code == 200 and 'name="permanent-1-name"' in added.text
    assert 'id="permanent-1-timestamp"' in added.text and re.search(
        r'id="permanent-1-timestamp"[^>]*value="2"', added.text
    )
    removed = press(client, added.text, "remove-player-1")
    assert 'name="player-1-name"' not in removed.text and 'name="permanent-1-name"' in removed.text
    effect = press(client, removed.text, "add-effect")
    assert 'name="effect-0-kind"' in effect.text and "Humilité" in effect.text
    gone = press(client, effect.text, "remove-effect-0")
    assert 'name="effect-0-kind"' not in gone.text


def test_a_board_built_without_javascript_checks_and_downloads(client, kb):
    """« ma 2/2 avec 2 blessures », typed in the page's fields and checked; then downloaded."""
    page = press(client, client.get("/verifier").text, "remove-player-1").text
    values = lambda found: typed(found, permanent_0_name="Ours runegriffe", permanent_0_card_types=["créature"],
                                 permanent_0_power="2", permanent_0_toughness="2", permanent_0_damage="2")  # fmt: skip
    result = press(client, page, "check", values)
    assert result.status_code == 200
    verdict = lxml_html.fromstring(result.text).get_element_by_id("resultat").text_content()
    assert "420.5c" in verdict and "Ours runegriffe : détruit" in " ".join(verdict.split())
    shown = lxml_html.fromstring(result.text).get_element_by_id("toml-resultat").text_content()
    download = press(client, page, "download", values, url="/verifier/scenario.toml")
    assert download.status_code == 200 and download.headers["content-type"].startswith("application/toml")
    assert download.headers["content-disposition"] == 'attachment; filename="scenario.toml"'
    assert download.text == shown and shown.startswith("# Scénario construit")
    report = checked(kb, parse_scenario(download.text))
    assert [event["names"] for round_ in report["rounds"] for event in round_["events"]] == [["Ours runegriffe"]]
    again = press(client, result.text, "check")  # the board travelled in the page's fields
    assert again.status_code == 200 and "détruit" in again.text


def test_a_mistake_is_shown_on_its_field(client):
    page = client.get("/verifier").text
    answer = press(client, page, "check", lambda values: typed(values, permanent_0_name="Ours",
                                                               permanent_0_card_types=["créature"]))  # fmt: skip
    assert answer.status_code == 400
    tree = lxml_html.fromstring(answer.text)
    power = tree.get_element_by_id("permanent-0-power")
    assert power.get("aria-invalid") == "true"
    assert (
        "une créature en jeu doit avoir une force" in tree.get_element_by_id("permanent-0-power-erreur").text_content()
    )
    assert tree.xpath('//div[@id="erreurs"]//a[@href="#permanent-0-power"]')


def test_the_download_route(client):
    bundled = client.get("/verifier/scenario.toml", params={"exemple": "blessures-fatales"})
    assert bundled.status_code == 200 and bundled.text == example("blessures-fatales").text
    assert bundled.headers["content-disposition"] == 'attachment; filename="blessures-fatales.toml"'
    assert client.get("/verifier/scenario.toml", params={"exemple": "nulle-part"}).status_code == 404
    assert client.get("/verifier/scenario.toml").status_code == 400
    text = example("couches-armoiries").text
    expert = client.post("/verifier/scenario.toml", content=urlencode({"scenario": text, "action": "download-toml"}),
                         headers=FORM)  # fmt: skip
    assert expert.status_code == 200 and expert.text == text
    broken = client.post("/verifier/scenario.toml", content=urlencode({"scenario": "[[x", "action": "download-toml"}),
                         headers=FORM)  # fmt: skip
    assert broken.status_code == 400 and "TOML invalide" in broken.text


def test_an_example_the_forms_cannot_describe_stays_in_toml(client):
    page = client.get("/verifier", params={"exemple": "couches-armoiries"}).text
    tree = lxml_html.fromstring(page)
    assert tree.get_element_by_id("expert").get("open") == "open" and not tree.xpath('//*[@name="player-0-name"]')
    assert "Les formulaires ne savent pas décrire tout ce scénario" in page
    result = press(client, page, "check")  # « Vérifier » checks the TOML, the page's source
    assert result.status_code == 200 and "Armoiries" in result.text and 'id="resultat"' in result.text
    loaded = client.get("/verifier", params={"exemple": "couches-humilite-opalescence"}).text
    assert not lxml_html.fromstring(loaded).get_element_by_id("expert").get("open")
    kinds = lxml_html.fromstring(loaded).xpath(
        '//form[@id="plateau"]//select[contains(@name, "-kind")]//option[@selected]/@value'
    )
    assert kinds == ["opalescence", "humility", "crusade"]  # in order of timestamp


def test_a_file_sent_is_checked_and_shown_as_forms(client):
    text = example("blessures-fatales").text.encode("utf-8")
    answer = client.post("/verifier/fichier", files={"fichier": ("ours.toml", text, "application/toml")})
    assert answer.status_code == 200 and "420.5d" in answer.text and 'value="Ours runegriffe"' in answer.text
    nothing = client.post("/verifier/fichier", files={"fichier": ("", b"", "application/toml")})
    assert nothing.status_code == 400 and "Choisissez un fichier" in nothing.text
    latin = client.post("/verifier/fichier", files={"fichier": ("x.toml", "é".encode("latin-1"), "text/plain")})
    assert latin.status_code == 400 and "UTF-8" in latin.text


#: The English ids of zones, card types, supertypes, colours, actions and step kinds (serialize's ``value``s).
ENGLISH = re.compile(
    r"\b(graveyard|battlefield|creature|artifact|enchantment|land|instant|sorcery|destroy|put_into_graveyard|"
    r"cease_to_exist|unattach|remove_counters|regenerate|lose|legendary|world|basic|snow|white|blue|black|red|green|"
    r"hand|library|stack|exile|phased_out|timestamp|depended_on|dependency|switch_last|characteristic_defining|"
    r"counters|ended|loop|self|enchanted|equipped|none|null|true|false)\b",
    re.IGNORECASE,
)


@pytest.mark.parametrize("bundled", examples(), ids=lambda found: found.name)
def test_the_result_of_every_bundled_example_is_in_french(client, bundled):
    """Issue 37, point 2: events, stopped events, layers and final state name the objects by their
    names and say zones, types and actions in French; no English id of the JSON shapes shows."""
    answer = client.post("/verifier", content=urlencode({"scenario": bundled.text, "action": "check-toml"}),
                         headers=FORM)  # fmt: skip
    assert answer.status_code == 200
    tree = lxml_html.fromstring(answer.text)
    parts = tree.xpath('//section[@id="resultat" or contains(@class, "stopped") or contains(@class, "layers")'
                       ' or contains(@class, "final")]')  # fmt: skip
    assert len(parts) >= 3
    text = " ".join(" ".join(part.text_content().split()) for part in parts)
    assert not ENGLISH.findall(text), ENGLISH.findall(text)
    scenario = parse_scenario(bundled.text)
    words = " ".join([scenario.title, *(obj.name for obj in scenario.state.objects)]).lower()
    for obj in scenario.state.objects:  # an id is shown only where it is also a word of a name or the title
        if not re.search(rf"(?<![\w-]){re.escape(obj.id)}(?![\w-])", words):
            assert not re.search(rf"(?<![\w-]){re.escape(obj.id)}(?![\w-])", text), obj.id


def test_each_parameter_of_the_catalogue_is_shown_by_the_css():
    """Without JavaScript, verifier.css shows the parameters of the effect chosen (:has): one rule
    for each parameter the catalogue reads."""
    css = (STATIC / "verifier.css").read_text(encoding="utf-8")
    params = {param for kind in boards.CATALOGUE.values() for param in kind.params} | {"source", "target"}
    for param in params:
        assert f"option.uses-{param}:checked" in css and f".p-{param}" in css, param


def test_the_page_loads_its_own_script_and_styles_only(client):
    page = client.get("/verifier").text
    assert '<script src="/static/verifier.js" defer></script>' in page.replace('defer="defer"', "defer")
    assert 'href="/static/verifier.css"' in page and " style=" not in page and "<style" not in page
    assert client.get("/static/verifier.js").status_code == 200
    assert client.get("/static/verifier.css").status_code == 200
    assert "verifier.js" not in client.get("/").text


def test_the_old_form_still_checks_its_scenario_field(client):
    """No action: the ``scenario`` field's TOML, as before the forms."""
    answer = client.post("/verifier", content=urlencode({"scenario": example("partie-nulle").text}), headers=FORM)
    assert answer.status_code == 200 and "Partie nulle" in answer.text
    empty = client.post("/verifier", content="", headers=FORM)
    assert empty.status_code == 400


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    form=st.dictionaries(st.sampled_from(_FIELD_NAMES), _VALUES, max_size=20),
    action=st.sampled_from(["", "check", "check-toml", "add-player", "add-permanent", "add-effect", "clear",
                            "remove-player-0", "remove-permanent-1", "remove-effect-0", "remove-effect-99", "boum"]),
)  # fmt: skip
def test_no_board_form_gives_a_500(client, form, action):
    body = urlencode({**form, "action": action})
    assert client.post("/verifier", content=body, headers=FORM).status_code < 500
    assert client.post("/verifier/scenario.toml", content=body, headers=FORM).status_code < 500


def test_a_form_that_is_not_utf8_is_a_400(client):
    assert client.post("/verifier", content=b"player-0-name=%FF%FE", headers=FORM).status_code < 500
    assert client.post("/verifier", content=b"\xff\xfe", headers=FORM).status_code == 400


def test_scenario_errors_stay_scenario_errors():
    assert issubclass(BoardError, ScenarioError) and issubclass(BoardError, RulesKbError)
    assert (
        tomllib.loads(scenario_to_toml(boards.board_scenario(two_two_with_two_damage())))["permanent"][0]["damage"] == 2
    )


def test_what_a_rule_changing_effect_stopped_names_its_permanent(client):
    """103.1: the stopped events name who stopped them by name (« Ange de platine »), not by id."""
    answer = client.post("/verifier", content=urlencode({"scenario": example("regles-changees").text}), headers=FORM)
    text = " ".join(lxml_html.fromstring(answer.text).text_content().split())
    assert answer.status_code == 200 and "Alice : ne perd pas la partie" in text
    assert "empêché par Ange de platine : « vous ne pouvez pas perdre la partie »" in text
    assert "empêché par ange" not in text
