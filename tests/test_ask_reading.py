"""What ``ask`` reads beyond concepts and facts (issue 33): the edition a
question names, names the corpus does not know (later keywords, unknown
cards), and verdicts from the facts read only, objects named as the
question names them."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_kb.ask import RemarkKind, ask
from rules_kb.ask.named_edition import named_edition
from rules_kb.ask.names import (
    Named,
    later_keywords,
    unknown_card_names,
)
from rules_kb.engines.french import FRENCH_WORDS
from rules_kb.engines.later_keywords import LATER_KEYWORDS, read_later_keywords
from rules_kb.serialize import answer_dict

INTERNAL_ID_RE = re.compile(r"\b(?:creature-\d+|legende-\d|creature-partie|effet-\d+)\b")


def remarks(answer, kind: RemarkKind) -> list[str]:
    return [remark.meaning for remark in answer.remarks if remark.kind is kind]


# -- the edition named ---------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "edition", "restricts"),
    [
        ("Règles 2011 : un effet donne +1/+1 aux créatures blanches, laquelle l'a ?", "2011", True),
        ("selon les règles de 2011, un effet qui change le nom s'applique quand ?", "2011", True),
        ("avec les règles actuelles (2011), un effet continu dure combien ?", "2011", True),
        ("en 2004, les blessures de combat vont sur la pile ?", "2004", True),
        ("d'après les règles complètes de 2004, la brûlure de mana existe ?", "2004", True),
        ("avec la FAQ Spirale temporelle, la suspension marche comment ?", "2006-faq", False),
        ("avec la faq spirale temporelle, un sort avec fraction de seconde", "2006-faq", False),
    ],
)
def test_an_edition_named_in_the_question_is_read(kb, question, edition, restricts):
    named = named_edition(kb, question)
    assert named is not None and named.edition == edition and named.restricts is restricts


@pytest.mark.parametrize(
    "question",
    ["ma 2/2 a pris 2 blessures, elle meurt ?", "j'ai 2004 points de vie", "il a 20 pv et moi 11"],
)
def test_no_edition_is_read_where_none_is_named(kb, question):
    assert named_edition(kb, question) is None


def test_the_edition_named_is_the_edition_asked_and_said_in_understood(kb):
    answer = ask(kb, "Règles 2011 : un effet qui donne +1/+1 aux créatures blanches jusqu'à la fin du tour, "
                     "une créature devient blanche ensuite, elle a le bonus ?")  # fmt: skip
    assert answer.rules and {rule.edition for rule in answer.rules} == {"2011"}
    assert any("2011" in meaning for meaning in remarks(answer, RemarkKind.EDITION))


def test_the_edition_chosen_wins_over_the_one_named(kb):
    answer = ask(kb, "Règles 2011 : un effet continu dure combien de temps ?", edition="2004")
    assert {rule.edition for rule in answer.rules} == {"2004"}
    assert any("l'emporte" in meaning for meaning in remarks(answer, RemarkKind.EDITION))


# -- names the corpus does not know ---------------------------------------------


def test_every_later_keyword_names_its_year_and_a_real_nearest_notion(kb):
    """Each entry of later-keywords.tsv cites its source (players' usage, the set it appeared in)
    and points, when it has one, to a glossary term of the corpus."""
    terms = {entry.term for entry in kb.glossary.entries}
    keywords = read_later_keywords()
    assert len(keywords) >= 10
    for keyword in keywords:
        assert 2004 <= keyword.year <= 2026 and str(keyword.year) in keyword.source, keyword
        assert not keyword.nearest or keyword.nearest in terms, keyword


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("sa créature a deathtouch et trample, je bloque avec ma 2/2", "contact mortel"),
        ("ma 3/3 a le lien de vie, je gagne combien ?", "lien de vie"),
        ("il a une 2/2 avec menace, je peux la bloquer avec une seule ?", "menace"),
        ("my creature has lifelink, do I gain life?", "lien de vie"),
    ],
)
def test_a_later_keyword_is_reported_never_dropped(kb, question, name):
    answer = ask(kb, question)
    said = remarks(answer, RemarkKind.LATER_KEYWORD)
    assert any(name in meaning and "absent des éditions du corpus" in meaning for meaning in said), said


@pytest.mark.parametrize(
    "question", ["c'est une menace pour mon board", "il est à portée de main", "le joueur défenseur bloque"]
)
def test_a_french_word_is_no_keyword_outside_an_ability(question):
    assert later_keywords(LATER_KEYWORDS, question) == []


def _known(word: str) -> bool:
    return word in {
        "creature",
        "joue",
        "jouer",
        "ange",
        "plaine",
        "carte",
        "terrain",
        "jeton",
        "soldat",
        "main",
        "copie",
        "attaque",
        "bloque",
        "reponse",
    }


@pytest.mark.parametrize(
    ("question", "names"),
    [
        ("Je joue Wrath of God, il répond avec Foudre sur ma créature", ["Wrath of God", "Foudre"]),
        ("Mon Phyrexian Metamorph copie son artefact", ["Phyrexian Metamorph"]),
        ("il controle un ange de platine, il a perdu ?", ["ange de platine"]),
        ("Quand l'Ange de Serra attaque, elle s'engage ?", ["Ange de Serra"]),
        ("Mon adversaire joue une carte de terrain", []),
        ("Il met un jeton de soldat en jeu", []),
        # a first name (Faker's lists) is a player, not a card
        ("Julien attaque avec son Ange de Serra, Marc bloque avec Grizzly Bears", ["Ange de Serra", "Grizzly Bears"]),
        ("Après ça, Kevin joue Foudre", ["Foudre"]),
        # a lowercase word the rules never use ends a name
        ("il lui lance Croissance gigantesque en réponse", ["Croissance gigantesque"]),
    ],
)
def test_unknown_card_names_are_read(question, names):
    assert [named.text for named in unknown_card_names(question, _known)] == names


def test_a_name_recognised_as_a_concept_is_not_unknown():
    question = "j'ai une Huitre Geante en jeu"
    assert unknown_card_names(question, _known, [(question.index("Huitre"), question.index(" en jeu"))]) == []


def test_a_faq_card_is_found_whatever_its_case_or_accents(kb):
    for question in ("j'ai une huitre geante en jeu, elle se dégage ?", "J'AI UNE HUÎTRE GÉANTE EN JEU"):
        answer = ask(kb, question)
        assert any(concept.target.kind.value == "card" for concept in answer.concepts), question
        assert not remarks(answer, RemarkKind.UNKNOWN_CARD)
        assert answer.rulings and answer.rulings[0].card == "Huître géante"


def test_an_unknown_card_weighs_nothing_in_the_words_and_is_said_once(kb):
    answer = ask(kb, "Je joue Wrath of God puis encore Wrath of God, ses créatures sont détruites ?")
    said = remarks(answer, RemarkKind.UNKNOWN_CARD)
    assert said == ["Carte inconnue du corpus : Wrath of God — son texte n'est pas pris en compte"]
    assert not {"wrath", "god"} & {term.casefold() for term in answer.terms}


@given(st.text(max_size=200))
@settings(max_examples=200, deadline=None)
def test_names_are_read_from_any_text(text):
    found = later_keywords(LATER_KEYWORDS, text) + unknown_card_names(text, lambda word: False)
    assert all(isinstance(named, Named) and text[named.start : named.end] == named.text for named in found)


# -- verdicts from the facts read -------------------------------------------------


def test_a_card_whose_text_is_unknown_is_said_in_the_verdict(kb):
    """420.5a (2004) decides 0 life; the card named may change that rule, which the corpus cannot tell."""
    answer = ask(kb, "mon adversaire est a 0 pv mais il controle un ange de platine, il a perdu ?")
    outcome = " ".join(answer.verification.outcome)
    assert "Adversaire : perd la partie" in outcome and "420.5a" in outcome
    assert (
        "« ange de platine » n'est pas dans le corpus : ce verdict suppose que cette carte ne change aucune règle"
        in outcome
    )


def test_the_opponent_is_the_opponent_in_english_too(kb):
    """420.5h (2004): ten poison counters; "my opponent" is the opponent."""
    answer = ask(kb, "my opponent has 10 poison counters, does he lose?")
    assert answer.verification.outcome[0].startswith("Adversaire : perd la partie")


def test_which_legend_stays_is_a_fact_the_question_must_give(kb):
    """420.5e (2004): all but the one that has been a legend the longest; the question does not say which."""
    answer = ask(kb, "j'ai 2 légendes avec le même nom en jeu")
    verification = answer.verification
    assert verification.missing and "ne dit pas laquelle" in verification.missing[0]
    assert verification.undecided == ("420.5e",) and not verification.applied
    assert answer.rules[0].number == "420.5e"
    told = ask(kb, "j'ai une légende en jeu et je joue une deuxième légende du même nom, laquelle reste ?")
    assert "420.5e" in told.verification.applied and not told.verification.missing


def test_a_value_never_given_is_never_shown(kb):
    """420.5b (2004): toughness 0; the question gives no power, the verdict shows none."""
    answer = ask(kb, "ma créature a une endurance de 0, elle meurt ?")
    outcome = " ".join(answer.verification.outcome)
    assert outcome.startswith("Votre créature : mis au cimetière") and "0/0" not in outcome


def test_an_aura_whose_creature_left_in_response_was_never_attached(kb):
    """413.2a (2004): the aura spell's target left before it resolved; 420.5d would need an attached aura."""
    answer = ask(kb, "je mets une aura sur sa creature, il la sacrifie en réponse, mon aura va où ?")
    assert not answer.facts.attachment and "420.5d" not in answer.verification.applied
    assert answer.facts.aura_spell_target_gone and "contrecarrée" in " ".join(answer.verification.outcome)
    assert answer.rules[0].number == "413.2a"
    # attached before the creature left: 420.5d, as before
    attached = ask(kb, "mon aura est sur ma créature qui meurt, elle va où ?")
    assert attached.facts.attachment == "aura" and "420.5d" in attached.verification.applied


@pytest.mark.parametrize(
    "question",
    [
        "ma 2/2 a pris 2 dégâts elle meurt ?",
        "ma 4/4 devient 0/1 avec un sort puis je lui file +2/+2",
        "j'ai 2 légendes avec le même nom en jeu",
        "ma 3/3 bloque sa 2/2 et prend 2 blessures, et sa 2/2 prend 3 blessures",
        "mon aura est sur ma créature qui meurt, elle va où ?",
        "mon jeton va au cimetière, il y reste ?",
        # the legend kept, quoted by the checker's reason
        "Il a un artefact légendaire en jeu depuis trois tours. Moi je pose le même, même nom. Il se passe quoi ?",
    ],
)
def test_no_internal_id_in_what_a_judge_reads(kb, question):
    data = answer_dict(ask(kb, question))
    shown = json.dumps({key: data[key] for key in ("verification", "facts", "remarks")}, ensure_ascii=False)
    shown += json.dumps([rule["why"] for rule in data["rules"]], ensure_ascii=False)
    assert not INTERNAL_ID_RE.search(json.dumps(data["verification"]["outcome"], ensure_ascii=False)), shown
    assert not INTERNAL_ID_RE.search(json.dumps(data["facts"], ensure_ascii=False))


@pytest.mark.parametrize(
    ("question", "zone"),
    [
        ("mon jeton va au cimetière, il y reste ?", "cimetière"),
        ("J'ai un jeton soldat. Il se fait bounce. Il reste en main ?", "main"),
        ("Mon jeton a le déphasage. À mon dégagement, il part hors phase. Il revient ?", "hors phase"),
        ("Je sacrifie mon jeton soldat. Il revient ?", "cimetière"),
        # a zone told in another sentence is not where the token went (420.5f needs the token there)
        ("Il a un jeton gobelin. Moi j'ai quatre cartes en main. Mon sort le tue ?", ""),
        ("Je mets en jeu un jeton copie. Il restait deux cartes dans ma bibliothèque. Il copie quoi ?", ""),
        ("Mon sort détruit toutes les créatures. Il a deux jetons serpent, ils meurent ?", "cimetière"),
        # what the player asks about is not what happened
        ("Ça détruit ses jetons ?", ""),
    ],
)
def test_a_token_goes_to_the_zone_its_own_sentences_tell(question, zone):
    """Implements 420.5f's reading: the zone is the one told of the token, in its sentence or the next ones about it."""
    from rules_kb.ask.facts import extract_facts

    assert extract_facts(question).token_zone == zone


def test_an_aura_phases_out_with_its_creature(kb):
    """502.15i (2004): what is attached to a permanent phasing out phases out with it; 420.5d does not apply."""
    answer = ask(kb, "mon aura est sur ma créature qui passe hors phase, l'aura va au cimetière ?")
    assert answer.facts.attachment_zone == "hors phase" and "420.5d" not in answer.verification.applied
    assert any("passe hors phase : elle y passe avec elle (502.15i)" in fact.meaning for fact in answer.facts.read)
    dies = ask(kb, "mon aura est sur ma créature qui meurt, elle va où ?")
    assert "420.5d" in dies.verification.applied


@pytest.mark.parametrize(
    "question",
    [
        "Un sort détruit ma créature et le Guide griffon qui l'enchante. Mon aura va où ?",
        "Il sacrifie sa créature et son équipement, l'équipement reste en jeu ?",
        "Ma créature et son aura sont détruites, l'aura part par effet d'état ?",
    ],
)
def test_an_attachment_destroyed_with_its_creature_is_not_left_attached(question):
    """420.5d/420.5k judge an aura or equipment still in play; one the same effect destroyed is not."""
    from rules_kb.ask.facts import extract_facts

    assert extract_facts(question).attachment == ""


# -- the SMS spellings -------------------------------------------------------------


def test_every_sms_spelling_cites_its_source_and_is_no_lexicon_form():
    """The table rewrites what players text; a form the players' lexicon reads already is not rewritten twice."""
    from rules_kb.ask.normalise import sms_table
    from rules_kb.engines.lexicon import load_lexicon

    table = sms_table()
    assert len(table) >= 40
    lexicon = {entry.form for entry in load_lexicon()}
    for form, (meaning, source) in table.items():
        assert source.startswith(("usage SMS", "abrégé des joueurs")), form
        assert form not in lexicon, form


@pytest.mark.parametrize(
    ("question", "text"),
    [
        ("jpeu repondre qd il attaque ?", "je peux repondre quand il attaque ?"),
        ("ki a la priorite ds l'etape de fin", "qui a la priorite dans l'etape de fin"),
        ("jbloque sa crea", "je bloque sa créature"),
        ("c'est ma créature, j'ai la priorité", "c'est ma créature, j'ai la priorité"),
    ],
)
def test_sms_spellings_are_rewritten_and_said(question, text):
    from rules_kb.ask.normalise import normalise

    rewritten, rewrites = normalise(question, FRENCH_WORDS)
    assert rewritten == text
    assert all(question[r.start : r.end] == r.original for r in rewrites)


def test_rewrites_are_said_in_understood_and_the_dense_model_reads_the_original(kb):
    answer = ask(kb, "jpeu repondre qd il joue un sort ?")
    assert answer.question == "jpeu repondre qd il joue un sort ?"
    assert {"« jpeu » → je peux", "« qd » → quand"} <= set(remarks(answer, RemarkKind.REWRITE))


def test_a_typo_of_any_word_of_the_rules_is_corrected(kb):
    answer = ask(kb, "sa creature a 3 blesures, elle va au cimetierre ?")
    assert {("blesures", "blessures"), ("cimetierre", "cimetiere")} <= {(c.word, c.fixed) for c in answer.corrections}


@given(st.text(max_size=300))
@settings(max_examples=300, deadline=None)
def test_normalise_reads_any_text(text):
    from rules_kb.ask.normalise import normalise

    rewritten, rewrites = normalise(text, FRENCH_WORDS)
    assert isinstance(rewritten, str)
    assert all(text[r.start : r.end] == r.original for r in rewrites)


# -- the rules cited together ---------------------------------------------------------


def test_companions_are_the_rules_the_stories_cite_together(kb):
    """A rule B is a companion of A in the share of A's stories that B decides too (add-one smoothed)."""

    index = kb.dense
    companions = index.companions()
    number, nodes = next(
        (n, list(dict.fromkeys(nodes))) for n, nodes in enumerate(index.story_nodes) if len(set(nodes)) >= 2
    )
    first, second = nodes[0], nodes[1]
    told = sum(first in story for story in index.story_nodes)
    together = sum(first in story and second in story for story in index.story_nodes)
    assert companions[first][second] == pytest.approx(together / (told + 1))
    without = index.companions(frozenset({number}))
    assert without.get(first, {}).get(second, 0.0) == pytest.approx((together - 1) / told)
    assert 0 < max(share for shares in companions.values() for share in shares.values()) < 1


def test_a_word_typed_as_the_table_writes_it_is_no_rewrite():
    from rules_kb.ask.normalise import normalise

    assert normalise("deux légendes du même nom", FRENCH_WORDS) == ("deux légendes du même nom", ())
    assert normalise("deux légendes du meme nom", FRENCH_WORDS)[0] == "deux légendes du même nom"
