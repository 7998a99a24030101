"""Lookup by number, full-text search and questions on the real corpus."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_kb.build.analysis import pairs as analyze
from rules_kb.core.text import strip_accents as fold_accents
from rules_kb.core.errors import QueryError, UnknownEditionError, UnknownRuleError
from rules_kb.core.numbers import RuleNumberError
from rules_kb.lookup.rules import show
from rules_kb.search import search
from rules_kb.ask import ask


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
    assert raised.value.nearest[0] == "507.4"


def test_not_a_number_is_a_clear_error(kb):
    with pytest.raises(RuleNumberError, match="n'est pas un numéro de règle"):
        show(kb, "abc")


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
