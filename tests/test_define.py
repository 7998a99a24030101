"""``define``: glossary lookup as a judge types it, in the library and on the command line."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_kb.core.errors import QueryError, UnknownTermError
from rules_kb.lookup.glossary import define


@pytest.mark.parametrize(
    ("query", "term"),
    [
        ("blessure fatale", "Blessures fatales"),
        ("Blessures fatales", "Blessures fatales"),
        ("pietinement", "Piétinement"),
        ("PIÉTINEMENT", "Piétinement"),
        ("contrecarer", "Contrer, contrecarrer"),
        ("contrecarrer", "Contrer, contrecarrer"),
        ("remplacment", "Effet de remplacement"),
        ("votre", "Vous / votre"),
        ("couches", "Couche"),
        ("tampon", "Tampon horaire"),
    ],
)
def test_terms_as_typed(kb, query, term):
    assert define(kb, query).entry.term == term


def test_exact_and_approximate(kb):
    assert define(kb, "piétinement").match == "exact"
    found = define(kb, "contrecarer")
    assert found.match == "approx" and 80 <= found.score < 100


def test_pointer_is_followed(kb):
    found = define(kb, "APNAP")
    assert found.entry.term == "APNAP"
    assert found.followed[0].term == "Règle du joueur actif, joueur inactif"
    assert define(kb, "Y").followed[0].term == "X"


def test_cited_rules_and_alternatives(kb):
    found = define(kb, "blessures")
    assert found.entry.term == "Blessures"
    assert [rule.number for rule in found.cited_rules] == ["420"]
    assert "Blessures fatales" in [entry.term for entry in found.alternatives]
    assert define(kb, "piétinement").cited_rules[0].title == "Piétinement"


def test_unknown_term(kb):
    with pytest.raises(UnknownTermError) as caught:
        define(kb, "zzzzzz")
    assert "Aucune entrée du glossaire" in str(caught.value)
    with pytest.raises(UnknownTermError) as caught:
        define(kb, "bloqueurz multiples")
    assert caught.value.close  # close headwords are proposed
    with pytest.raises(QueryError):
        define(kb, "  ")


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=40))
def test_any_query_gives_an_entry_or_a_clear_error(kb, query):
    try:
        found = define(kb, query)
    except (UnknownTermError, QueryError) as error:
        assert str(error)
    else:
        assert found.entry.term


def test_define_cli(run_cli):
    result = run_cli("define", "pietinement")
    assert result.exit_code == 0
    assert "Piétinement" in result.stdout and "502.9" in result.stdout
    result = run_cli("define", "APNAP")
    assert "Voir" in result.stdout and "le joueur actif fait ses choix en premier" in " ".join(result.stdout.split())


def test_define_cli_json(run_cli):
    data = run_cli("define", "contrecarer", "--json").json()
    assert set(data) >= {"query", "entry", "alternatives"}
    assert set(data["entry"]) >= {"term", "forms", "definition", "examples", "cites", "see", "obsolete"}
    assert data["entry"]["term"] == "Contrer, contrecarrer" and data["entry"]["cites"] == ["414"]
    assert data["query"] == "contrecarer" and data["match"] == "approx"


def test_define_cli_unknown(run_cli):
    result = run_cli("define", "xyzzy")
    assert result.exit_code == 1
    assert "Aucune entrée du glossaire" in result.stderr and "Traceback" not in result.stderr
    data = run_cli("define", "xyzzy", "--json").json()
    assert data["error"]["type"] == "UnknownTermError"


@pytest.mark.parametrize(
    ("query", "term", "understood"),
    [
        # the English names of the keywords and the players' words of the lexicon (rules_kb/data/lexicon.tsv)
        ("trample", "Piétinement", "trample → Piétinement"),
        ("haste", "Célérité", "haste → Célérité"),
        ("first strike", "Initiative", "first strike → Initiative"),
        ("untap", "Dégager", "untap → Dégager"),
        ("stack", "Pile", "stack → Pile"),
        ("upkeep", "Etape d'entretien", "upkeep → Etape d'entretien"),
        ("ETB", "Arriver en jeu", "ETB → Arriver en jeu"),
    ],
)
def test_players_words_find_the_french_entry_and_say_so(kb, query, term, understood):
    found = define(kb, query)
    assert (found.entry.term, found.match, found.understood) == (term, "lexicon", understood)


@pytest.mark.parametrize(
    ("query", "term"),
    [
        ("prevention effet", "Effet de prévention"),  # any order
        ("etape degagement", "Etape de dégagement"),  # small words left out, no accents
        ("attaquer seul", "Attaquer seule"),  # a word two letters short
        ("taille max main", "Taille maximale de main"),  # a word shortened
        ("phase combat", "Phase de combat"),
        ("terrain de base", "Type de terrain de base"),  # side by side before "Terrain non-base"
    ],
)
def test_words_of_headwords_in_any_order_shortened_small_words_optional(kb, query, term):
    found = define(kb, query)
    assert found.entry.term == term and found.match == "words"
    assert found.understood == f"{query} → {term}"


def test_a_fuzzy_likeness_never_answers_a_player_word_or_a_real_word(kb):
    """``haste`` is 80 % like *Phase*: the lexicon answers first; ``phrase``, a
    real French word, is only offered *Phase*, never answered with it."""
    assert define(kb, "haste").entry.term == "Célérité"
    with pytest.raises(UnknownTermError) as caught:
        define(kb, "phrase")
    assert "Vouliez-vous dire" in str(caught.value) and "« Phase »" in str(caught.value)


def test_a_typo_is_corrected_and_said(kb):
    found = define(kb, "pietinemnt")
    assert found.entry.term == "Piétinement" and found.match == "approx" and 80 <= found.score < 100
    assert found.understood.startswith("pietinemnt → Piétinement (faute de frappe ?")


@pytest.mark.parametrize(("query", "term"), [("joeuur", "Joueur"), ("nomber", "Nombre"), ("Oracel", "Oracle")])
def test_a_transposition_is_one_typing_error(kb, query, term):
    """Two letters swapped are 83 % like the word, under the likeness answered; ask's
    concept table counts them one typing error, and so does define when nothing else fits."""
    found = define(kb, query)
    assert (found.entry.term, found.match) == (term, "approx")


def test_define_cli_says_what_it_understood(run_cli):
    result = run_cli("define", "trample")
    assert result.exit_code == 0
    assert result.stdout.startswith("Compris : trample → Piétinement")
    data = run_cli("define", "trample", "--json").json()
    assert data["understood"] == "trample → Piétinement" and data["match"] == "lexicon"


def test_the_held_out_look_ups_are_found(kb):
    """tests/eval/lookups.jsonl (tests/eval/README.md): 55 of 60 found when first scored, 56
    since issue 36 (the lexicon read as ask's concept table reads it), 57 with abbreviations
    by contraction; a change that loses more than three fails here. Never add a lexicon
    line for one of them."""
    import json
    from pathlib import Path

    lines = Path(__file__).parent.joinpath("eval", "lookups.jsonl").read_text(encoding="utf-8").splitlines()
    lookups = [json.loads(line) for line in lines if line.strip()]
    assert len(lookups) == 60 and len({item["kind"] for item in lookups}) == 7
    found = 0
    for item in lookups:
        try:
            found += define(kb, item["query"]).entry.term == item["expected"]
        except UnknownTermError:
            pass
    assert found >= 54


# -- issue 36, point 4: a term found by its description ------------------------------------


@pytest.mark.parametrize(
    ("query", "terms"),
    [
        ("ne pas pouvoir piocher faute de cartes", {"Piocher", "Perdre la partie"}),
        ("créature qu'on ne peut pas bloquer", {"Imblocable"}),
        ("valeur que copie un clone", {"Valeurs copiables"}),
    ],
)
def test_a_term_found_by_its_description(kb, query, terms):
    """The issue's examples: answered when one entry clearly leads, else offered first."""
    try:
        found = define(kb, query)
    except UnknownTermError as error:
        assert error.close and error.close[0] in terms, error.close
    else:
        assert found.entry.term in terms and found.match == "description"


def test_a_description_answered_says_how(kb):
    found = define(kb, "valeur que copie un clone")
    assert (found.entry.term, found.match) == ("Valeurs copiables", "description")
    assert found.understood == "valeur que copie un clone → Valeurs copiables (d'après les définitions)"
    assert 0 < found.score <= 100
    assert "Copie" in [entry.term for entry in found.alternatives]


def test_two_close_entries_are_offered_not_answered(kb):
    """The number after the slash is the toughness, but Force's definition says the same words: both offered."""
    with pytest.raises(UnknownTermError) as caught:
        define(kb, "le nombre à droite de la barre oblique")
    assert set(caught.value.close[:2]) == {"Force", "Endurance"}
    assert "Vouliez-vous dire : « Force », « Endurance »" in str(caught.value)


def test_nonsense_suggests_nothing(kb):
    """No entry shares a word with "xyzzy", and its likeness to *Y, Z* (50 %) is one most random words reach."""
    for query in ("xyzzy", "qsdf qsdf", "le chat mange la souris"):
        with pytest.raises(UnknownTermError) as caught:
            define(kb, query)
        assert caught.value.close == () and "Aucun terme proche" in str(caught.value)


def test_a_mistyped_description_is_only_offered(kb):
    """ "bloqueurz" is no word: the entry whose definition says "multiples" is offered, not answered."""
    with pytest.raises(UnknownTermError) as caught:
        define(kb, "bloqueurz multiples")
    assert "Evénement" in caught.value.close


def test_terms_side_by_side_are_only_offered(kb):
    """« créature engagée » puts two headwords' words side by side: it may mean *Engagé*
    as well as what it describes (*Déclarer des attaquants*), so it is offered, not answered."""
    with pytest.raises(UnknownTermError) as caught:
        define(kb, "créature engagée")
    assert "Créature" in caught.value.close


_WORDS = ["créature", "bloquer", "pile", "ordre", "carte", "piocher", "joueur", "xyzzy", "le", "de", "ne", "pas",
          "qu'on", "valeur", "clone", "mana", "zzz", "2/2", "420.5c", "«", "é", "tour"]  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(_WORDS), min_size=2, max_size=7))
def test_any_description_gives_an_entry_or_a_clear_error(kb, words):
    """A phrase of the glossary's words and others: an entry, or a French error
    whose offers are headwords."""
    query = " ".join(words)
    try:
        found = define(kb, query)
    except (UnknownTermError, QueryError) as error:
        assert str(error).startswith(("Aucune entrée", "Le terme"))
        assert all(kb.glossary.find(term) for term in getattr(error, "close", ()))
    else:
        assert found.entry.term and found.match in {"exact", "lexicon", "later", "words", "approx", "description"}


def test_define_cli_description(run_cli):
    result = run_cli("define", "valeur que copie un clone")
    assert result.exit_code == 0
    assert result.stdout.startswith("Compris : valeur que copie un clone → Valeurs copiables")
    data = run_cli("define", "valeur que copie un clone", "--json").json()
    assert data["match"] == "description" and data["entry"]["term"] == "Valeurs copiables"
    result = run_cli("define", "xyzzy")
    assert result.exit_code == 1 and "Aucun terme proche" in result.stderr


def test_the_bundled_glossary_vectors_are_up_to_date(kb):
    """Every sentence of the bundled glossary has its vector in the package data
    (bench/embed_glossary.py), so a first use embeds none of them."""
    from rules_kb.engines.definitions import package_rows, sentence_texts
    from rules_kb.engines.dense import text_key

    wanted = {text_key(text) for entry in kb.glossary.entries for text in sentence_texts(entry)}
    assert wanted <= set(package_rows().keys)
    assert kb.definitions.missing == 0 and kb.definitions.size == len(kb.glossary.entries)


# -- issue 36: the kinds of misses of the look-ups ------------------------------------------


@pytest.mark.parametrize(("typed", "word", "stands"), [("pts", "point", 1), ("pt", "point", 1), ("qqn", "quelqun", 1),
                                                       ("pst", "point", 0), ("pnt", "point", 1), ("pa", "point", 0),
                                                       ("pv", "point", 0), ("ct", "cout", 1)])  # fmt: skip
def test_an_abbreviation_by_contraction_stands_for_its_word(typed, word, stands):
    """French abbreviates by contraction: the first and last letters, consonants between, in order."""
    from rules_kb.lookup.glossary import _stands_for

    assert _stands_for(typed, word) == stands


def test_a_headword_typed_abbreviated_is_found(kb):
    found = define(kb, "pts de vie")
    assert (found.entry.term, found.match) == ("Points de vie / total de points de vie", "words")


def test_a_range_cites_every_rule_within(kb):
    """« Voir règles 306-311 » (Phase de combat) cites 306, 307 … 311, as the rule graph links them."""
    found = define(kb, "phase de combat")
    assert [rule.number for rule in found.cited_rules] == ["306", "307", "308", "309", "310", "311"]
    kicker = [rule.number for rule in define(kb, "kick").cited_rules]
    assert {"409.1f", "409.1g", "409.1h"} <= set(kicker)


def test_a_description_no_entry_clearly_fits_is_offered_not_answered_wrong(kb):
    """The lead answered (MARGIN, bench/define_descriptions.py) is right 19 times in 20 on the
    development descriptions: « la pile vidée dans l'ordre inverse » leads *Résoudre* by 0.4, so
    it is offered with LIFO among the entries, not answered *Résoudre*."""
    with pytest.raises(UnknownTermError) as caught:
        define(kb, "la pile vidée dans l'ordre inverse")
    assert "LIFO" in caught.value.close[:5]
