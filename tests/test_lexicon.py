"""The players' lexicon (rules_kb/data/lexicon.tsv): every entry resolves in
the corpus, the file format is checked, and the concept table reads
questions as players write them."""

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_kb.core.text import fold, rejoin
from rules_kb.engines.concepts import NO_CONCEPT, ConceptKind, ConceptSources, build_table
from rules_kb.engines.lexicon import LexiconError, load_lexicon, parse_lexicon

ENTRIES = load_lexicon()


@pytest.fixture(scope="module")
def corpus_text(kb):
    """Every text of the corpus, folded and on one line, to find expressions in."""
    parts = [f"{rule.title} {rule.text}" for rule in kb.corpus.rules]
    parts += [ruling.text for ruling in kb.corpus.rulings] + [section.text for section in kb.corpus.course]
    parts += [entry.text for entry in kb.corpus.glossary] + [card.rules_text for card in kb.corpus.cards]
    return fold(rejoin(" ".join(parts)))


@pytest.fixture(scope="module")
def sources(kb):
    return ConceptSources(kb.corpus)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: f"{e.line}:{e.form}")
def test_every_entry_resolves_to_the_corpus(sources, corpus_text, entry):
    """A target is a glossary term, a rule title, a FAQ card, words of the texts, or none (—)."""
    if entry.target != NO_CONCEPT and not sources.resolve(entry.target):
        assert fold(entry.target) in corpus_text, f"« {entry.target} » ne se trouve pas dans le corpus"
    assert entry.source


def test_lexicon_has_the_issue_words_and_every_502_keyword(kb):
    pairs = {(fold(entry.form), fold(entry.target)) for entry in ENTRIES}
    for form, target in [
        ("degats", "blessures"), ("dommages", "blessures"), ("meurt", "detruire"), ("tap", "engager"),
        ("trample", "pietinement"), ("flying", "vol"), ("first strike", "initiative"), ("haste", "celerite"),
        ("counter", "contrer, contrecarrer"), ("stack", "pile"), ("token", "jeton"), ("pv", "points de vie"),
        ("etb", "arriver en jeu"), ("mana burn", "brulure de mana"), ("blink", "retire de la partie"),
    ]:  # fmt: skip
        assert (form, target) in pairs, (form, target)
    keyword_titles = {
        fold(rule.title) for rule in kb.corpus.rules
        if re.fullmatch(r"502\.\d+", rule.number) and rule.title
    }  # fmt: skip
    english = {fold(entry.target) for entry in ENTRIES if entry.source.startswith("nom anglais du mot-clé")}
    assert keyword_titles <= english


def test_malformed_lines_are_reported_with_their_line():
    assert parse_lexicon("# commentaire\n\ntrample\tPiétinement\tsource\n")[0].line == 3
    with pytest.raises(LexiconError, match="ligne 2"):
        parse_lexicon("a\tb\tc\nseulement deux\tcolonnes\n")
    with pytest.raises(LexiconError, match="trois colonnes"):
        parse_lexicon("a\t\tc\n")


@given(st.text(max_size=80))
def test_any_text_parses_or_gives_a_clear_error(text):
    try:
        entries = parse_lexicon(text)
    except LexiconError as error:
        assert "ligne" in str(error)
    else:
        assert all(entry.form and entry.target and entry.source for entry in entries)


# --- reading questions ----------------------------------------------------------


@pytest.fixture(scope="module")
def table(kb):
    return build_table(kb.corpus)


def _names(recognition):
    return {(concept.text, concept.target.kind, concept.target.name) for concept in recognition.concepts}


def test_franglais_and_player_words(table):
    found = _names(table.recognise("il a trample et first strike, ma 2/2 prend des dégâts et meurt"))
    assert ("trample", ConceptKind.KEYWORD, "Piétinement") in found
    assert ("first strike", ConceptKind.GLOSSARY, "Initiative") in found
    assert ("dégâts", ConceptKind.GLOSSARY, "Blessures") in found
    assert ("meurt", ConceptKind.GLOSSARY, "Détruire") in found


def test_documents_words_cards_and_phrases(table):
    found = _names(table.recognise("le Guide griffon et les blessures fatales, brulure mana"))
    assert ("Guide griffon", ConceptKind.CARD, "Guide griffon") in found
    assert ("blessures fatales", ConceptKind.GLOSSARY, "Blessures fatales") in found
    # the longest phrase wins: "blessures fatales" is not also "blessures"
    assert not any(text == "blessures" for text, _, _ in found)
    # a stop word inside a phrase is optional
    assert ("brulure mana", ConceptKind.GLOSSARY, "Brûlure de mana") in found


def test_a_phrase_starting_with_a_stop_word_needs_it(table):
    assert any(c.target.name == "En jeu" for c in table.recognise("il est en jeu").concepts)
    assert not any(c.target.name == "En jeu" for c in table.recognise("un jeu de cartes").concepts)


def test_verb_forms_the_stemmer_leaves_whole(table):
    found = _names(table.recognise("deux capacités se déclenchent"))
    assert any(name == "Capacité déclenchée" for _, _, name in found)


def test_typos_are_corrected_only_for_unknown_words(table):
    recognition = table.recognise("pietinemnt et contrecarer", known=lambda stem: False)
    assert {(c.word, c.fixed) for c in recognition.corrections} == {
        ("pietinemnt", "pietinement"), ("contrecarer", "contrecarrer"),
    }  # fmt: skip
    assert {c.target.name for c in recognition.concepts} >= {"Piétinement", "Contrer, contrecarrer"}
    # a word the rules use is never "corrected"
    assert not table.recognise("attaquant", known=lambda stem: True).corrections


# --- words in their sense -------------------------------------------------------


def _targets(table, question):
    return {concept.target.name for concept in table.recognise(question).concepts}


def test_a_duration_is_not_the_end_step(table):
    """314.2: effects "jusqu'à la fin du tour" end at cleanup; "à la fin du tour" is the end step (313)."""
    assert "Etape de fin du tour" not in _targets(table, "elle prend -1/-1 jusqu'à la fin du tour")
    assert "jusqu'à la fin du tour" in _targets(table, "elle prend -1/-1 jusqu'à la fin du tour")
    assert "Etape de fin du tour" in _targets(table, "à la fin du tour, sacrifiez-la")


def test_a_word_of_everyday_french_names_nothing_alone(table):
    """ "mis" (put) is not the ante (217.9); "la mise" is."""
    assert "Mise" not in _targets(table, "il a mis un marqueur -1/-1 sur ma créature")
    assert "Mise" in _targets(table, "on joue avec la mise")
    assert "Mettre en jeu" in _targets(table, "elle est mise en jeu")


def test_polysemous_verbs_are_read_by_their_context(table):
    assert "Contrôle, contrôleur" in _targets(table, "il vole ma créature")
    assert "Vol" in _targets(table, "ma créature a le vol")
    assert "Attaquer" in _targets(table, "il m'a tapé avec sa 3/3")
    assert "Attaquer" not in _targets(table, "il a tapé sa créature")
    assert "Engager" in _targets(table, "il a tapé sa créature")
    assert "Modal / Mode" not in _targets(table, "il choisit une cible")
    assert "Sauter" in _targets(table, "je passe mon étape de pioche")
    assert _targets(table, "je passe, il peut encore jouer ?") >= {"Passer", "Jouer"}
    assert "Passer" not in _targets(table, "sa vie passe de 20 à 17")
    assert "Quitter le jeu" in _targets(table, "ma créature sort du jeu")


def test_the_phrase_with_more_words_wins_where_phrases_overlap(table):
    """ "je passe" (Passer) and "passe mon étape" (Sauter) overlap: the longer one is read."""
    recognition = table.recognise("je passe mon étape de pioche")
    assert next((c.text, c.target.name) for c in recognition.concepts) == ("passe mon étape", "Sauter")
    assert "Passer" not in {c.target.name for c in recognition.concepts}


@given(st.text(alphabet=st.sampled_from(list("mis la jusqu'à fin du tour vole m'a tapé ")), max_size=60))
def test_words_that_name_nothing_never_come_out(table, text):
    assert all(concept.target.kind is not ConceptKind.NONE for concept in table.recognise(text).concepts)
