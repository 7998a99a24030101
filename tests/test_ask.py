"""``ask``: the acceptance questions, the facts read for the checker, the
honest "je ne sais pas", and the evaluation sets' figures."""

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.evaluation import ask_system, baseline_system, load_questions, score, set_path
from rules_kb.ask import ask
from rules_kb.ask.answer import VerdictKind
from rules_kb.ask.facts import OPPONENT, SOURCE, YOU, board, extract_facts
from rules_kb.checker.report import check
from rules_kb.checker.scenario import parse_scenario
from rules_kb.checker.scenario_writer import scenario_to_toml
from rules_kb.core.errors import QueryError
from tests.scenarios import unplaced


def numbers(answer):
    return [rule.number for rule in answer.rules]


# --- acceptance -------------------------------------------------------------


def test_dead_2_2_is_420_5c_first_with_the_checker_outcome(kb):
    answer = ask(kb, "ma 2/2 a pris 2 dégâts elle meurt ?")
    assert numbers(answer)[0] == "420.5c"
    assert answer.rules[0].parts["checker"] > 0
    assert answer.rules[0].why.startswith("le vérificateur l'applique")
    assert answer.verification.applied == ("420.5c",)
    assert "détruit" in answer.verification.outcome[0] and "(420.5c)" in answer.verification.outcome[0]
    assert {"Blessures", "Détruire"} <= {entry.term for entry in answer.glossary}


def test_the_verdicts_rule_is_followed_by_the_rules_judges_cite_with_it(kb):
    """Issue 33, point 7: after 420.5c come the rules the players' stories cite with it (314.2:
    the damage goes away at the cleanup step), not the combat damage step's rules its words
    resemble (502.28b, 310.5: first strike)."""
    from rules_kb.ask.rank import VERDICT_COMPANIONS

    answer = ask(kb, "ma 2/2 a pris 2 dégâts elle meurt ?")
    following = numbers(answer)[1 : 1 + VERDICT_COMPANIONS]
    assert "314.2" in following
    assert not {"502.28b", "310.5"} & set(following)
    assert all("souvent citée avec 420.5c" in rule.why or rule.parts["companions"] > 0 for rule in answer.rules[1:3])


def test_trample_question_gives_the_trample_rules(kb):
    answer = ask(kb, "il a trample et je bloque avec une 1/1")
    assert all(number.startswith("502.9") for number in numbers(answer)[:3])
    trample = next(c for c in answer.concepts if c.text == "trample")
    assert trample.target.name == "Piétinement" and "lexique" in trample.via


def test_flash_question_gives_the_faq_rule_and_flash_rulings(kb):
    answer = ask(kb, "je peux répondre à un sort avec flash ?")
    assert answer.rules[0].number.startswith("502.57") and answer.rules[0].edition == "2006-faq"
    assert answer.rulings[0].section == "Nouvelle capacité mot-clé : Flash"
    # a card having flash is cited only for a ruling about flash (issue 19: not Pégase à plaques' prevention)
    for ruling in answer.rulings[1:]:
        assert "flash" in ruling.text.casefold() or ruling.section, ruling


def test_layer_of_a_colour_change_is_418_5a(kb):
    """418.5a lists the layers; 418.5b's example says where a colour change goes: both answer."""
    answer = ask(kb, "quelle couche pour un changement de couleur ?")
    assert set(numbers(answer)[:2]) == {"418.5a", "418.5b"}
    layers = next(rule for rule in answer.rules if rule.number == "418.5a")
    assert "le glossaire reprend ses mots" in layers.why


# --- ranking ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("un joueur a 10 marqueurs poison, il perd ?", "420.5h"),
        ("deux légendes avec le même nom en jeu", "420.5e"),
        ("ma créature a une endurance de 0", "420.5b"),
        ("ma créature a une endurance de 0, elle meurt ?", "420.5b"),  # the README's first command
        ("un joueur à 0 points de vie", "420.5a"),
        ("mon token 1/1 se fait bounce dans ma main", "420.5f"),
        ("ma créature équipée meurt, l'équipement va au cimetière aussi ?", "420.5k"),
    ],
)
def test_checker_situations_put_the_applied_rule_first(kb, question, expected):
    assert numbers(ask(kb, question))[0] == expected


def test_a_rule_the_checker_examined_without_effect_still_comes_first(kb):
    answer = ask(kb, "ma 3/3 a pris 2 dommages, elle survit ?")
    assert numbers(answer)[0] == "420.5c"
    assert not answer.verification.applied
    assert any(v.kind is VerdictKind.DOES_NOT_APPLY and v.rules == ("420.5c",) for v in answer.verification.verdicts)


def test_a_creature_that_becomes_other_values_is_the_same_creature(kb):
    """One creature whose values change: "devient 0/1" is an effect setting its power and
    toughness (418.5: in the layers, after its damage), not a second creature."""
    facts = extract_facts("ma 2/2 a pris 1 blessure puis devient 0/1")
    assert len(facts.creatures) == 1 and facts.creatures[0].changes == [(38, "set", 0, 1)]
    answer = ask(kb, "ma 2/2 a pris 1 blessure puis devient 0/1")
    assert answer.verification.applied == ("420.5c",) and numbers(answer)[0] == "420.5c"


def test_effects_whose_order_decides_the_values_give_the_layer_rules(kb):
    """418.5d, 418.5g (2004): timestamp order; the 0/1 first, then +2/+2: 2/3, not 6/7 nor 0/1."""
    answer = ask(kb, "ma 4/4 devient 0/1 avec un sort puis je lui file +2/+2")
    assert len(answer.facts.creatures) == 1
    assert answer.verification.outcome[0].startswith("Votre 4/4 : 2/3")
    assert numbers(answer)[0].startswith("418.5")
    # changes that only add up need no order: no layer verdict
    answer = ask(kb, "ma 3/3 prend -1/-1 puis +2/+2")
    assert not any(number.startswith("418.5") for number in answer.verification.applied)


def test_the_values_a_player_asks_about_are_checked_not_added(kb):
    """200.10 (2004): a +1/+1 counter on a 2/2 makes it 3/3; "elle devient 3/3 ?" is the question."""
    answer = ask(kb, "si je mets un marqueur +1/+1 sur ma 2/2 elle devient 3/3 ?")
    assert len(answer.facts.creatures) == 1 and answer.facts.creatures[0].asked == (3, 3)
    assert answer.verification.outcome[0].startswith("Votre 2/2 : 3/3")
    assert numbers(answer)[0] in {"200.10", "418.5a"}
    wrong = ask(kb, "si je mets un marqueur +1/+1 sur ma 2/2 elle devient 4/4 ?")
    assert wrong.verification.outcome[0].startswith("Votre 2/2 : 3/3")
    assert wrong.verification.outcome[0].endswith("Pas 4/4.")


def test_rules_the_checker_examined_without_effect_weigh_nothing(kb):
    answer = ask(kb, "ma 3/3 a 2 blessures et prend +1/+1")
    assert "420.5c" in answer.verification.examined and not answer.verification.applied
    assert all(rule.parts["checker"] == 0 for rule in answer.rules)


def test_typed_rule_numbers_count(kb):
    assert numbers(ask(kb, "que dit la règle 420.5c ?"))[0] == "420.5c"


def test_edition_restricts_rules_and_the_checker(kb):
    answer = ask(kb, "effets continus de capacités statiques, ma 2/2 a 2 blessures", edition="2011")
    assert answer.rules and all(rule.edition == "2011" for rule in answer.rules)
    assert answer.verification.report is None and "2011" in answer.verification.note


def test_score_parts_add_up(kb):
    for rule in ask(kb, "il a trample et je bloque avec une 1/1").rules:
        assert abs(sum(rule.parts.values()) - rule.score) < 1e-3


# --- unknown and errors -------------------------------------------------------


def test_nothing_recognisable_is_an_honest_unknown(kb):
    answer = ask(kb, "blabla truc machin bidule")
    assert answer.unknown and answer.rules == () and answer.nearest
    assert ask(kb, "2/2 ?").unknown  # a bare creature is no situation to judge


def test_ask_refuses_an_oversized_question_before_reading_it(kb, monkeypatch):
    """A 1 MB question took 32 s and 1 GB: it is refused before any step reads it."""
    import rules_kb.ask as module
    from rules_kb.ask import MAX_QUESTION

    def never(*args, **kwargs):
        raise AssertionError("an oversized question was read")

    with monkeypatch.context() as patched:
        patched.setattr(module, "normalise", never)
        patched.setattr(module, "Reading", never)
        for size in (MAX_QUESTION + 1, 1_000_000, 10_000_000):
            with pytest.raises(QueryError, match="caractères ; 2\u202f000 au plus") as caught:
                ask(kb, "ma 2/2 meurt ? " * (size // 15 + 1))
            assert "quelques phrases" in str(caught.value)
    assert ask(kb, "a" * (MAX_QUESTION - 30) + " ma 2/2 a pris 2 blessures").question  # at the limit: read


def test_empty_question_is_refused(kb):
    with pytest.raises(QueryError, match="vide"):
        ask(kb, "")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(alphabet=st.sampled_from("ab2/+-1 0éèàpvmarqueurlgndtokjs"), max_size=50))
def test_any_question_answers_or_refuses_clearly(kb, text):
    try:
        answer = ask(kb, text, limit=3)
    except QueryError as error:
        assert str(error)
    else:
        assert len(answer.rules) <= 3
        assert not (answer.unknown and answer.rules)


# --- facts and scenarios ------------------------------------------------------


def test_facts_of_a_question():
    facts = extract_facts("sa 4/4 avec trois marqueurs -1/-1 et 1 blessure, et ma 2/2 prend -2/-2")
    theirs, mine = facts.creatures
    assert (theirs.controller, theirs.power, theirs.toughness, theirs.damage) == (OPPONENT, 4, 4, 1)
    assert theirs.counters == {"-1/-1": 3}
    assert (mine.controller, mine.modifiers) == (YOU, [(-2, -2)])
    facts = extract_facts("un marqueur +1/+1 et un -1/-1 sur ma 1/1, il est à 0 pv avec dix marqueurs poison")
    assert facts.creatures[0].counters == {"+1/+1": 1, "-1/-1": 1}
    assert facts.life == ((OPPONENT, 0),) and facts.poison == ((OPPONENT, 10),)


def test_a_switch_an_opponents_creature_and_both_players_are_read():
    """A switch of power and toughness is a switch (418.5i), not a "becomes"; « une 1/4 adverse » is
    the opponent's; « mon adversaire et moi » at 0 life are both players (102.4); « 4/5, pas 7/2 ? »
    are the values asked about."""
    facts = extract_facts(
        "Un effet échange la force et l'endurance d'une 1/4 adverse, elle devient 4/1. Puis elle gagne +3/+3"
    )
    (creature,) = facts.creatures
    assert creature.controller == OPPONENT
    assert [kind for _, kind, _, _ in creature.changes] == ["switch", "modify"]
    facts = extract_facts("ma 2/4 échangée puis qui reçoit +3/+0 devient 4/5, pas 7/2 ?")
    (creature,) = facts.creatures
    assert [kind for _, kind, _, _ in creature.changes] == ["switch", "modify"]
    facts = extract_facts("un sort nous fait tomber à 0 points de vie, mon adversaire et moi. Qui gagne ?")
    assert dict(facts.life) == {YOU: 0, OPPONENT: 0}


@pytest.mark.parametrize(
    ("question", "damaged"),
    [
        ("Ma créature 2/3 bloque son 2/2. Elle prend 2 blessures. Elle meurt ?", "votre 2/3"),
        ("Mon 3/3 bloque sa 2/2. Il prend 2 blessures, il meurt ?", "votre 3/3"),
        ("Sa 4/4 attaque, je bloque avec ma 2/2. Elle prend 4 blessures. Elle meurt ?", "votre 2/2"),
    ],
)
def test_a_subject_pronoun_takes_the_damage_for_the_creature_of_its_gender(question, damaged):
    facts = extract_facts(question)
    assert [creature.label for creature in facts.creatures if creature.damage] == [damaged]


def test_a_switch_applies_in_timestamp_order_in_2004_and_last_under_the_faq(kb):
    """418.5i's own example (2004): 1/3, +0/+1, switched, then +5/+0 is 9/1; under the Time Spiral
    FAQ's ruling on Transmutateur crocheserre the switch applies last: 4/6."""
    question = "ma 1/3 reçoit +0/+1, puis un effet échange sa force et son endurance, puis elle gagne +5/+0. Elle fait combien ?"
    assert "9/1" in ask(kb, question, edition="2004").verification.outcome[0]
    assert "4/6" in ask(kb, question, edition="2006-faq").verification.outcome[0]


def test_players_at_zero_together_is_a_draw_and_leads(kb):
    answer = ask(kb, "on tombe à 0 points de vie tous les deux en même temps, qui gagne ?")
    assert answer.verification.asked[0] == "102.4"
    assert set(numbers(answer)[:2]) == {"102.4", "420.5a"}


@pytest.mark.parametrize(
    ("question", "damage"),
    [
        ("ma 3/3 a pris 2 dégâts", 2),
        ("ma 3/3 avec 2 blessures marquées", 2),
        ("il lui inflige 3 blessures, à ma 4/4", 3),
        ("ma 5/5 est bloquée par sa 2/2, j'assigne mes 5 blessures à son bloqueur", 0),
        ("ma 2/2 bloque sa 3/3, les blessures sont sur la pile, 3 dégâts pour moi", 0),
        ("son sorcier qui inflige 1 blessure à ma 1/1", 0),
        ("ma 4/4 est bloquée par une 1/1 : les 4 dégâts vont au joueur ?", 0),
        ("mon 2/2 prend 3 blessures en combat. Il meurt avec ses 3 blessures dessus ?", 3),  # told twice, dealt once
        ("ma 3/3 bloque son 2/2 et prend 2 blessures", 2),
    ],
)
def test_only_damage_dealt_is_marked(question, damage):
    """Damage is marked on a creature when it was dealt (420.5c judges it), not when it is assigned,
    on the stack (2004), described on a card or asked about."""
    facts = extract_facts(question)
    assert sum(creature.damage for creature in facts.creatures) == damage


def test_alternatives_asked_about_are_not_effects():
    facts = extract_facts("son cavalier donne -1/-1 à mon bloqueur 2/2 : il prend -1/-1 ou -2/-2 ?")
    assert facts.creatures[0].modifiers == [(-1, -1)]
    facts = extract_facts("son bloqueur 2/2, il prend -2/-2 et meurt avant les dégâts, ou juste -1/-1 ?")
    assert facts.creatures[0].modifiers == []
    assert extract_facts("son clone arrive en quoi, 2/2 ou 5/5 ?").creatures == ()


def test_the_subject_takes_the_damage_and_lui_is_the_players_creature():
    facts = extract_facts("ma 3/3 bloque son 2/2 et prend 2 blessures. Ensuite il lui met -1/-1 jusqu'en fin de tour.")
    mine, theirs = facts.creatures
    assert (mine.damage, mine.modifiers, theirs.damage, theirs.modifiers) == (2, [(-1, -1)], 0, [])


def test_an_aura_being_cast_or_leaving_is_not_left_in_play():
    assert extract_facts("je lance mon aura sur sa créature, en réponse il la sacrifie").attachment == ""
    assert extract_facts("il détruit toutes les créatures et tous les enchantements, mon aura aussi").attachment == ""
    assert extract_facts("ma créature équipée meurt, l'équipement va au cimetière aussi ?").attachment == "équipement"
    # a list of alternatives asked about, its first item included
    listed = "Ma créature enchantée quitte le jeu. Mon aura va au cimetière, reste en jeu, ou part avec elle ?"
    assert extract_facts(listed).attachment == "aura"  # what happened before the question is kept
    assert extract_facts("Quand elle s'en va, mon aura va au cimetière, reste en jeu, ou part avec ?").attachment == ""


def test_words_of_the_turn_are_not_zones_and_a_draw_denied_is_no_draw():
    assert extract_facts("en phase principale, l'aura de ma créature…").attachment == ""
    assert extract_facts("ma bibliothèque est vide mais je ne pioche jamais").empty_library == ""
    assert extract_facts("ma bibliothèque est vide et je pioche").empty_library == YOU


def test_the_verdict_leads_only_when_the_question_asks_about_it(kb):
    """The checker destroys the 1/1 (420.5c), but the question asks where the rest of the damage goes."""
    story = ask(kb, "ma 6/6 inflige 5 blessures à sa créature 1/1 ciblée. Les 4 qui restent vont au joueur ?")
    assert story.verification.applied == ("420.5c",) and story.verification.asked == ()
    asked = ask(kb, "ma 2/2 a pris 2 dégâts, elle meurt ?")
    assert asked.verification.asked == ("420.5c",) and numbers(asked)[0] == "420.5c"


def test_a_verdict_on_values_does_not_lead_when_a_copy_changes_them(kb):
    """A copy (503) takes values the facts do not follow: the 0/0 the checker destroys (420.5b) is
    not the story's board. A legend copied twice is still two legends: 420.5e leads."""
    copied = ask(kb, "mon clone copie sa créature 0/0 qui arrive avec deux marqueurs +1/+1, il meurt en 0/0 ?")
    assert "420.5b" in copied.verification.applied and copied.verification.asked == ()
    legends = ask(kb, "j'ai deux copies de la même légende, laquelle reste en jeu ?")
    assert legends.verification.asked == ("420.5e",)


def test_damage_without_power_and_toughness_asks_for_them(kb):
    facts = extract_facts("ma créature a pris 3 dégâts")
    assert not facts.checkable and "force et l'endurance" in facts.incomplete
    assert "ma 2/2" in ask(kb, "ma créature a pris 3 dégâts").verification.note


def test_built_scenario_is_what_check_runs(kb):
    question = "ma 2/2 a pris 2 dégâts elle meurt ?"
    answer = ask(kb, question)
    report = check(kb, parse_scenario(scenario_to_toml(answer.scenario()), "situation.toml"))
    assert [event.rule for round_ in report.resolution.rounds for event in round_.events] == ["420.5c"]
    assert answer.scenario() is answer.verification.scenario and answer.scenario().title == question
    from cli.app import scenario_file

    assert f"# {question}" in scenario_file(answer)


@given(
    st.lists(
        st.sampled_from([
            "ma 2/2", "sa 3/3", "2 dégâts", "trois blessures", "un marqueur +1/+1", "un -1/-1", "prend -1/-1",
            "à 0 pv", "10 marqueurs poison", "deux légendes", "même nom", "un token au cimetière",
            "l'aura de la créature exilée", "je pioche, ma bibliothèque est vide", "endurance de 0", "et", ",",
            "devient 0/1", "elle devient 3/3", "puis passe à 1/1",
        ]),
        max_size=6,
    )
)  # fmt: skip
def test_facts_always_make_a_scenario_its_file_reads_back(parts):
    """The board is built as the reader would read it: the file ``ask --scenario`` writes gives it back."""
    question = " ".join(parts)
    facts = extract_facts(question)
    if facts.checkable:
        built = board(facts, question, "2004")
        assert unplaced(parse_scenario(scenario_to_toml(built.scenario), SOURCE)) == unplaced(built.scenario)
        assert [obj.id for obj in built.scenario.state.objects[: len(facts.creatures)]] == list(built.creature_ids)


# --- the evaluation sets -----------------------------------------------------

#: The validation set's figures at the end of issue 19 (bench/eval_ask.py: 0.856 / 0.963), less a
#: margin of about five questions: a change to ask that loses more fails here.
VALIDATION_FLOOR = {1: 0.825, 3: 0.93}


def test_tuning_questions_are_many_varied_and_cite_real_rules(kb):
    questions = load_questions(set_path("tuning"))
    assert len(questions) >= 100
    kinds = {question.kind for question in questions}
    assert {f"chapitre-{n}" for n in range(1, 6)} | {"glossaire", "carte FAQ", "vérification"} <= kinds
    assert {"faute de frappe", "franglais"} <= kinds
    known = {rule.number for rule in kb.corpus.rules}
    for question in questions:
        assert set(question.expected) <= known, question
    stories = [question for question in questions if question.kind == "récit"]
    assert len(stories) >= 1950 and len({question.id for question in questions}) == len(questions)
    assert all(20 <= len(question.question.split()) <= 55 for question in stories if not question.register)
    assert {int(question.expected[0][0]) for question in stories if not question.edition} == {1, 2, 3, 4, 5}
    # issue 33: stories in every register, each in its register's lengths (tests/eval/README.md)
    lengths = {"terse": (5, 25), "rambling": (40, 95), "franglais": (10, 55), "sms": (6, 45), "vocabulary": (12, 60),
               "premise": (12, 60), "cards": (8, 60), "edition": (10, 60)}  # fmt: skip
    registers = {question.register for question in stories if question.register}
    assert registers == set(lengths)
    for question in stories:
        if question.register:
            low, high = lengths[question.register]
            assert low <= len(question.question.split()) <= high, question.id


def test_calibration_stories_are_unseen_by_the_adapter_and_copy_no_evaluation_question(kb):
    """tests/eval/README.md: the calibration set trains the fusion only, as questions nobody
    saw; its stories share no run of eight words with a validation or test question or a
    situation, and are not tuning questions (which the adapter and the profiles learn from)."""
    import re

    from rules_kb.engines.situations import corpus_situations

    def runs(text):
        words = re.findall(r"\w+", text.casefold())
        return {tuple(words[i : i + 8]) for i in range(len(words) - 7)}

    questions = load_questions(set_path("calibration"))
    tuning = load_questions(set_path("tuning"))
    assert len(questions) >= 550 and len({q.id for q in questions}) == len(questions)
    assert not {q.id for q in questions} & {q.id for q in tuning}
    assert not {q.question for q in questions} & {q.question for q in tuning}
    assert all(20 <= len(q.question.split()) <= 55 for q in questions)
    known = {rule.number for rule in kb.corpus.rules}
    assert all(q.answers <= known for q in questions)
    forbidden = set()
    for name in ("validation", "test", "registers-validation", "registers-test", "registers-test2", "registers-test3"):
        for question in load_questions(set_path(name)):
            forbidden |= runs(question.question)
    for situation in corpus_situations(kb.corpus):
        forbidden |= runs(situation.text)
    assert [q.id for q in questions if runs(q.question) & forbidden] == []
    # the tuning set's questions in registers (issue 33) copy no evaluation question either
    assert [q.id for q in tuning if q.register and runs(q.question) & forbidden] == []


@pytest.mark.parametrize(("name", "size"), [("validation", 150), ("test", 60)])
def test_held_out_sets_follow_their_specification(kb, name, size):
    """tests/eval/README.md: 20–55 words, half naming no concept, several rules per question
    for about half, the chapter mix, the sections that must be present, real 2004 numbers."""
    questions = load_questions(set_path(name))
    assert len(questions) >= size and len({q.id for q in questions}) == len(questions)
    assert all(20 <= len(q.question.split()) <= 55 for q in questions)
    assert sum(q.names_concept is False for q in questions) >= len(questions) / 2
    assert sum(len(q.expected) > 1 for q in questions) >= 0.4 * len(questions)
    known = {rule.number for rule in kb.rules("2004")}
    for question in questions:
        assert question.answers <= known, question.id
        assert question.chapter == int(question.expected[0][0]), question.id
    shares = {chapter: sum(q.chapter == chapter for q in questions) / len(questions) for chapter in range(1, 6)}
    for chapter, wanted in {1: 0.05, 2: 0.10, 3: 0.15, 4: 0.35, 5: 0.35}.items():
        assert abs(shares[chapter] - wanted) <= 0.05, (chapter, shares[chapter])
    firsts = [q.expected[0].split(".")[0] for q in questions]
    for section in ("418", "419", "413", "409", "410", "404", "420", "502"):
        assert firsts.count(section) >= 2, section
    assert sum(300 <= int(first) <= 314 for first in firsts) >= 2


def test_ask_keeps_its_figures_on_the_validation_set_and_beats_bm25(kb):
    """The validation set's recall (never the tuning set's: ask was tuned on it),
    and at least +0.20 recall@1 over plain BM25."""
    questions = load_questions(set_path("validation"))
    found = score(questions, ask_system(kb))
    baseline = score(questions, baseline_system(kb))
    assert found.recall[1] >= VALIDATION_FLOOR[1]
    assert found.recall[3] >= VALIDATION_FLOOR[3]
    assert found.recall[1] >= baseline.recall[1] + 0.20


def test_the_register_sets_cover_every_register_and_every_procedure_point(kb):
    """tests/eval/README.md (issue 33): eight registers of at least 30 questions, in the validation
    and the test set, every procedure point of the rules (103, 404–405, 408–413, 500–503) the
    first expected rule of a question of each set, the numbers real rules of the edition named."""
    import re

    procedure = ("103", "404", "405", "408", "409", "410", "411", "412", "413", "500", "501", "502", "503")
    points = {rule.number for rule in kb.rules("2004") if re.fullmatch(r"\d{3}\.\d+", rule.number)
              and rule.number.split(".")[0] in procedure}  # fmt: skip
    for name in ("registers-validation", "registers-test", "registers-test2", "registers-test3"):
        questions = load_questions(set_path(name))
        counts = Counter(question.register for question in questions)
        assert set(counts) == {"terse", "rambling", "franglais", "sms", "vocabulary", "premise", "cards", "edition"}
        assert min(counts.values()) >= 30, counts
        firsts = {".".join(re.sub(r"[a-z]$", "", q.expected[0]).split(".")[:2]) for q in questions}
        assert points <= firsts, sorted(points - firsts)
        for question in questions:
            editions = (question.edition,) if question.edition else ("2004", "2006-faq")
            known = {rule.number for edition in editions for rule in kb.rules(edition)}
            if question.edition == "2006-faq":
                known |= {rule.number for rule in kb.rules("2004")}
            assert question.answers <= known, question.id


#: The register validation set's figures at issue 33's third session (bench/eval_ask.py, training
#: wave 5: 0.806 / 0.938, the worst register 0.917 at 3), less a margin of about six questions overall
#: and two a register: a change to ask that loses more fails here.
REGISTERS_FLOOR = {1: 0.78, 3: 0.915, "worst@3": 0.86}


def test_ask_keeps_its_figures_on_the_register_validation_set(kb):
    """Every register (the worst is the headline), never the tuning set's figures."""
    questions = load_questions(set_path("registers-validation"))
    found = score(questions, ask_system(kb))
    assert found.recall[1] >= REGISTERS_FLOOR[1]
    assert found.recall[3] >= REGISTERS_FLOOR[3]
    for register in {question.register for question in questions}:
        mine = [question for question in questions if question.register == register]
        at3 = sum(0 < found.ranks[question.id] <= 3 for question in mine) / len(mine)
        assert at3 >= REGISTERS_FLOOR["worst@3"], register


def test_rulings_of_one_section_do_not_hide_the_others():
    """At most RULINGS_PER_GROUP rulings of one FAQ section or card before the others."""
    from types import SimpleNamespace

    from rules_kb.ask.related import RULINGS_PER_GROUP, diversified

    rulings = [SimpleNamespace(section="A", card="", text=str(i)) for i in range(6)]
    rulings.append(SimpleNamespace(section="B", card="Téfeiri", text="b"))
    kept = diversified(rulings, limit=5)
    assert len(kept) == 5 and kept[RULINGS_PER_GROUP] is rulings[-1]
    assert [r.text for r in kept if r.section == "A"] == ["0", "1", "2", "3"]
    assert diversified(rulings[:3], limit=5) == tuple(rulings[:3])


def test_rulings_share_the_questions_card_or_mechanism(kb):
    """A keyword card's ruling answers a question that names the keyword, not one that ranks its rule."""
    trample = ask(kb, "g une 5/5 avec trample bloquée par une 2/2, combien passe ?")
    assert any("piétinement" in ruling.text for ruling in trample.rulings)
    attack = ask(kb, "il m'a tapé avec sa 3/3, je bloque avec ma 2/2")
    assert not any("piétinement" in ruling.text for ruling in attack.rulings)
