"""Every printed figure is true (issue 36, point 6): a figure is the one of
what is shown, the way it is shown.

- ``search``: hits are diversified by kind after scoring, so the score that
  orders them is the diversified one; that is the score printed (and given
  in JSON), in French notation (``14,54``), and it decreases down the list
  (``search blessures fatales`` printed 14.54 above 17.75);
- ``show --only``: a version's similarity covers the words shown; without
  subrules, the rule's own; no « Différences » heading over a text that
  did not change (``show 502.16 --only`` printed « similarité 42 % » over
  « Rappel » unchanged: the 42 % was its subrule's).
"""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from rules_kb.lookup.rules import rule_links, similarity
from rules_kb.search import KIND_DECAY, diversified, search

QUERIES = ["blessures fatales", "endurance 0", "piétinement", "contrôleur", "copie", "rappel", "jeton"]


def _hit(kind: str, score: float):
    return SimpleNamespace(score=score, stored=SimpleNamespace(kind=kind))


def test_diversified_gives_the_score_that_ranked_each_hit():
    hits = [_hit("glossary", 30.0), _hit("rule", 15.0), _hit("glossary", 18.0), _hit("rule", 13.0)]
    ranked = diversified(hits, 4)
    assert [(hit.stored.kind, score) for hit, score in ranked] == [
        ("glossary", 30.0),
        ("rule", 15.0),
        ("glossary", pytest.approx(18.0 * KIND_DECAY)),
        ("rule", pytest.approx(13.0 * KIND_DECAY)),
    ]


@pytest.mark.parametrize("query", QUERIES)
def test_search_scores_decrease_down_the_hits(kb, query):
    scores = [hit.score for hit in search(kb, query, limit=10).hits]
    assert scores == sorted(scores, reverse=True)


def test_search_prints_the_ordering_score_in_french(run_cli):
    result = run_cli("search", "blessures", "fatales")
    printed = [float(score.replace(",", ".")) for score in re.findall(r"score (\d+,\d\d)\)", result.stdout)]
    assert len(printed) >= 5 and printed == sorted(printed, reverse=True)
    assert "score 14,54)" in result.stdout and "score 17,75)" not in result.stdout
    data = run_cli("search", "blessures", "fatales", "--json").json()
    assert [round(hit["score"], 2) for hit in data["hits"]] == printed


def test_a_version_s_own_similarity_is_the_rule_s_text_alone(kb):
    (version,) = rule_links(kb, kb.rule("502.16", "2004")).versions
    assert version.own_score == similarity((version.diff,)) == 1.0 and not version.own_changed
    assert version.changed and version.score < 0.5


def test_show_only_heads_no_difference_over_an_unchanged_text(run_cli):
    only = run_cli("show", "502.16", "--only").stdout
    assert "Différences" not in only and "similarité 42 %" in only
    assert "Aucune différence de l'édition 2004 à l'édition 2006-faq dans le texte de la règle" in only
    whole = run_cli("show", "502.16").stdout
    assert "Différences de l'édition 2004 à l'édition 2006-faq (similarité 42 %)" in whole


def test_show_says_when_nothing_changed(run_cli):
    """502.8a is the same in 2004 and in the FAQ: no heading « Différences … 100 % » over the same words."""
    out = run_cli("show", "502.8a").stdout
    assert "Différences" not in out and "Aucune différence de l'édition 2004 à l'édition 2006-faq." in out


def test_show_only_figures_the_words_shown(run_cli):
    """A change in the rule's own words: the heading, the diff and their own similarity (502.19: « Echo » → « Écho »)."""
    out = " ".join(run_cli("show", "502.19", "--only").stdout.split())
    assert "Différences de l'édition 2004 à l'édition 2006-faq (similarité 0 %) : [-Echo-] {+Écho+}" in out


def test_show_only_json_scores_the_diff_it_gives(run_cli):
    (version,) = run_cli("show", "502.16", "--only", "--json").json()["versions"]
    assert version["subrules"] == [] and version["score"] == 1.0
    assert {part["op"] for part in version["diff"]} == {"equal"}
    (version,) = run_cli("show", "502.16", "--json").json()["versions"]
    assert version["score"] < 0.5
