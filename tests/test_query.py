"""Lookup by number, full-text search and questions on the real corpus."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_kb.ask import ask
from rules_kb.core.errors import QueryError, UnknownEditionError, UnknownRuleError
from rules_kb.core.numbers import RuleNumberError
from rules_kb.core.text import strip_accents as fold_accents
from rules_kb.engines.analysis import pairs as analyze
from rules_kb.lookup.rules import show
from rules_kb.search import search

# --- analysis -------------------------------------------------------------


def test_analyzer_folds_accents_elides_and_stems():
    terms = [term for term, _ in analyze("L'endurance des créatures")]
    assert terms == [term for term, _ in analyze("endurance creature")]
    assert [original for _, original in analyze("qu'il détruise l’aura")] == ["détruise", "l’aura"]


def test_analyzer_keeps_rule_numbers_and_power_toughness():
    assert [term for term, _ in analyze("Voir règle 420.5c, une 2/2.")] == ["voir", "regl", "420.5c", "2/2"]


def test_analyzer_drops_stop_words():
    assert analyze("le la les de est à a") == []


@given(st.text(max_size=60))
def test_fold_accents_leaves_no_combining_mark(text):
    import unicodedata

    assert not any(unicodedata.combining(char) for char in fold_accents(text))


# --- lookup ---------------------------------------------------------------


def test_lookup_gives_rule_context_and_subrules(kb):
    lookup = show(kb, "420.5")
    assert lookup.rule.text == "Les effets basés sur un état sont les suivants :"
    assert [rule.number for rule in lookup.ancestors] == ["4", "420"]
    assert [rule.number for rule in lookup.children][:3] == ["420.5a", "420.5b", "420.5c"]
    assert len(lookup.children) == 11


def test_lookup_accepts_printed_forms(kb):
    assert show(kb, "420.5C.").rule.number == "420.5c"
    assert show(kb, " 420. ").rule.title == "Effets basés sur un état"


def test_numbers_match_exactly(kb):
    assert show(kb, "502.1").rule.number == "502.1"
    assert show(kb, "502.1").rule.text.startswith("La plupart des capacités de créatures")
    assert show(kb, "502.10").rule.title == "Regroupement"


def test_unknown_number_suggests_the_nearest(kb):
    with pytest.raises(UnknownRuleError) as raised:
        show(kb, "420.5z")
    assert "420.5k" in raised.value.nearest
    assert "Numéros les plus proches" in str(raised.value)
    with pytest.raises(UnknownRuleError) as raised:
        show(kb, "999.9")
    assert raised.value.beyond == "2004"
    assert raised.value.nearest == ("507.3b", "507.3c", "507.3d", "507.4")
    assert "il vient après la dernière règle de l'édition 2004, 507.4" in str(raised.value)


def test_not_a_number_is_a_clear_error(kb):
    with pytest.raises(RuleNumberError, match="n'est pas un numéro de règle") as raised:
        show(kb, "abc")
    assert raised.value.suggestion == "" and "Formes acceptées" in str(raised.value)


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("42O.5", "420.5"),
        ("42o.5C", "420.5c"),
        ("4OO", "400"),
        ("420,5", "420.5"),
        ("420 .5", "420.5"),
        ("1OO.1", "100.1"),
    ],
)
def test_a_number_typed_with_look_alikes_names_the_rule(kb, typed, meant):
    """The issue's ``show 42O.5`` (letter O): the rule it stands for is named."""
    with pytest.raises(RuleNumberError) as raised:
        show(kb, typed)
    assert raised.value.suggestion == meant
    assert str(raised.value) == f"« {typed} » n'est pas un numéro de règle : vouliez-vous dire {meant} ?"


def test_look_alikes_name_only_an_existing_rule(kb):
    with pytest.raises(RuleNumberError) as raised:
        show(kb, "42O.5z")  # 420.5z does not exist
    assert raised.value.suggestion == ""


def test_a_number_after_the_last_rule_of_an_edition_says_so(kb):
    with pytest.raises(UnknownRuleError) as raised:
        show(kb, "612", "2011")
    assert raised.value.beyond == "2011" and raised.value.nearest[-1] == "611.3c"
    with pytest.raises(UnknownRuleError) as raised:
        show(kb, "480.1")  # among the rules: the nearest, no "after the last"
    assert raised.value.beyond == "" and "Numéros les plus proches" in str(raised.value)


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="0123456789.,OoIlQ| abcz", max_size=9))
def test_any_typed_number_shows_a_rule_or_a_clear_error(kb, text):
    try:
        found = show(kb, text, links=False)
    except RuleNumberError as error:
        assert error.text == text
        assert (
            not error.suggestion
            or kb.rule(error.suggestion, "2004")
            or any(kb.rule(error.suggestion, edition) for edition in kb.editions)
        )
    except UnknownRuleError as error:
        assert error.nearest and str(error).startswith("Aucune règle")
    else:
        assert found.rule.number


def test_misprinted_number_finds_both_rules(kb):
    genuine = show(kb, "502.10d")
    assert genuine.rule.number == "502.10d"
    assert [rule.number for rule in genuine.also_printed_on] == ["502.11d"]
    assert "aussi imprimé par erreur sur la règle 502.11d" in genuine.notes[0].text
    placed = show(kb, "502.11d")
    assert placed.rule.printed_number == "502.10d"
    assert "imprime cette règle sous le numéro 502.10d" in placed.notes[0].text


def test_unknown_edition(kb):
    with pytest.raises(UnknownEditionError, match="Éditions disponibles : 2004"):
        show(kb, "420.5c", edition="1999")


# --- search ---------------------------------------------------------------


def test_search_endurance_0_has_420_5b_in_top_3(kb):
    hits = search(kb, "endurance 0").hits
    assert "420.5b" in [hit.id for hit in hits[:3]]


def test_search_is_accent_insensitive(kb):
    plain = [hit.id for hit in search(kb, "creature").hits]
    accented = [hit.id for hit in search(kb, "créature").hits]
    assert plain == accented and plain
    first = search(kb, "creature").hits[0]
    assert any(first.snippet[a:b].lower().startswith("créature") for a, b in first.matches)


def test_search_highlights_matched_words(kb):
    hit = search(kb, "blessures fatales", kinds=("rule",)).hits[0]
    assert hit.id == "420.5c"
    marked = {hit.snippet[start:end] for start, end in hit.matches}
    assert {"blessures", "fatales"} <= marked


def test_search_by_rule_number(kb):
    assert search(kb, "420.5c").hits[0].id == "420.5c"
    assert search(kb, "420.5", kinds=("règle",)).hits[0].id == "420.5"


def test_search_phrase_and_elision(kb):
    assert search(kb, '"blessures fatales"', kinds=("rule",)).hits[0].id == "420.5c"
    assert "420.5b" in [hit.id for hit in search(kb, "l'endurance de 0").hits[:3]]


def test_search_limit_and_edition(kb):
    assert len(search(kb, "créature", limit=3).hits) == 3
    assert all(hit.edition == "2004" for hit in search(kb, "créature", edition="2004").hits)


def test_empty_search_is_refused(kb):
    with pytest.raises(QueryError, match="vide"):
        search(kb, "   ")
    with pytest.raises(QueryError, match="aucun mot significatif"):
        search(kb, "le la de")


# --- ask ------------------------------------------------------------------


def test_ask_without_words_is_refused(kb):
    with pytest.raises(QueryError, match="aucun mot significatif"):
        ask(kb, "et la ?")
    with pytest.raises(QueryError, match="vide"):
        ask(kb, "   ")


@pytest.mark.parametrize("method", ["search", "ask"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=60))
def test_any_text_gives_results_or_a_clear_error(kb, method, text):
    try:
        result = {"search": search, "ask": ask}[method](kb, text, limit=2)
    except QueryError as error:
        assert str(error)
    else:
        assert len(result.hits if method == "search" else result.rules) <= 2


@pytest.mark.parametrize(
    ("query", "first", "understood"),
    [
        ("trample", "Piétinement", "trample → Piétinement"),
        ("first strike", "Initiative", "first strike → Initiative"),
        ("ETB", "Arriver en jeu", "ETB → Arriver en jeu"),
        ("mana burn", "Brûlure de mana", "mana burn → Brûlure de mana"),
        ("flying", "Vol", "flying → Vol"),
    ],
)
def test_search_reads_players_words_in_the_documents_words(kb, query, first, understood):
    """The lexicon serves search too (rules_kb/data/lexicon.tsv: English names of keywords, players' words)."""
    result = search(kb, query, limit=5)
    assert result.hits and result.hits[0].id == first
    assert result.understood == (understood,)


def test_search_keeps_the_documents_words_as_typed(kb):
    result = search(kb, "blessures fatales", limit=3)
    assert result.understood == () and result.hits[0].id == "Blessures fatales"
    mixed = search(kb, "trample bloquée", limit=5)
    assert mixed.understood == ("trample → Piétinement",)
    assert any(hit.id.startswith("502.9") for hit in mixed.hits)
