"""The mechanisms a story implies (issue 19): the data file, and small stories of our own
that raise each mechanism, or must not."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_kb.ask import ask
from rules_kb.ask.facts import extract_facts
from rules_kb.ask.mechanisms import MechanismsFileError, bundled_mechanisms, detect, read_mechanisms


def test_every_mechanism_names_real_rules_and_its_source(kb):
    mechanisms = bundled_mechanisms()
    assert len(mechanisms) >= 12
    for mechanism in mechanisms:
        assert all(kb.rule(number, mechanism.edition) is not None for number in mechanism.rules), mechanism.name
        assert any(number.split(".")[0] in mechanism.source for number in mechanism.rules), mechanism.name


def _raised(question: str) -> set[str]:
    return {number for mechanism in detect(question, extract_facts(question)) for number in mechanism.rules}


@pytest.mark.parametrize(
    ("story", "rule"),
    [
        ("ma 3/3 devient 1/1 avec son sort, puis je lui donne +2/+2, elle fait combien ?", "418.5d"),
        ("il prévient 2 blessures et mon autre bouclier les empêche à la place, ça fait quoi ?", "419.9a"),
        ("je vise sa créature avec mon éclair, en réponse il la renvoie dans sa main", "413.2a"),
        ("au début de mon entretien, si j'ai 10 cartes en main, je gagne ; j'en défausse une en réponse", "404.3"),
        ("il me fait sacrifier deux créatures alors que je n'en ai qu'une", "416.3"),
        ("les dégâts sur ma créature restent jusqu'au tour suivant ?", "314.2"),
        ("il prend +3/+3 jusqu'à la fin du tour, ça s'arrête quand exactement ?", "314.2"),
        ("j'ai 3 manas dans ma réserve à la fin de ma phase principale, je les garde ?", "300.3"),
        ("il lance un éclair, je peux répondre avant que ça se résolve ?", "408.1b"),
        ("je l'exile et elle revient en jeu aussitôt, elle garde son aura ?", "217.1c"),
        ("quand mon golem quitte le jeu, je pioche une carte ; il est détruit avec le reste", "410.10d"),
        ("deux capacités se déclenchent en même temps, laquelle va en premier ?", "410.3"),
        ("je joue une aura sur son ours, il le sacrifie en réponse : et mon aura ?", "413.2a"),
    ],
)
def test_a_story_raises_its_mechanism(story, rule):
    assert rule in _raised(story)


@pytest.mark.parametrize(
    "story",
    ["ma 2/2 a le vol, elle peut bloquer ?", "combien de cartes dans mon deck ?", "il attaque avec un 5/5 trample"],
)
def test_a_plain_story_raises_none(story):
    assert _raised(story) == set()


def test_the_answer_says_the_mechanism_in_a_judges_words(kb):
    answer = ask(kb, "je vise sa créature avec mon éclair, en réponse il la renvoie dans sa main, mon sort fait quoi ?")
    rule = next(rule for rule in answer.rules if rule.number == "413.2a")
    assert "la question parle d'une cible qui change ou s'en va avant la résolution" in rule.why


def test_a_bad_line_is_reported_with_its_number(tmp_path):
    good = {"mechanism": "m", "rules": ["413.2a"], "edition": "2004", "any": ["x"], "source": "413.2a"}
    for bad, message in (
        ({**good, "rules": []}, "rules"),
        ({**good, "any": ["("]}, "expression régulière invalide"),
        ({**good, "facts": "inconnu"}, "condition"),
        ({k: v for k, v in good.items() if k != "any"}, "au moins une condition"),
        ({k: v for k, v in good.items() if k != "source"}, "attendu"),
    ):
        path = tmp_path / "mechanisms.jsonl"
        path.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n", encoding="utf-8")
        with pytest.raises(MechanismsFileError, match="ligne 2") as caught:
            read_mechanisms(path)
        assert message in str(caught.value)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=200))
def test_any_text_is_read_without_error(text):
    detect(text, extract_facts(text))
