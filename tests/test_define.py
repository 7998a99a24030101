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
