"""Counterparts: the kinds of rewording between editions that the pairing reads
through (rules_kb.indexing.linking.counterparts), each with the corpus pair
that showed it.

- the examples count: an edition rewords a rule's text more freely than its
  examples (2004 418.3b ↔ 2011 611.2c);
- renamed vocabulary is one term: 2004's "en jeu" is 2011's "sur le champ
  de bataille" (2004 418.2 ↔ 2011 611.3c);
- inflections the index's stemmer leaves apart meet ("modifient" and
  "modifie", "continus" and "continu").
"""

from __future__ import annotations

import pytest

from rules_kb.core.model import Corpus, Document, DocumentKind, Rule, SourceSpan
from rules_kb.engines.graph import Relation
from rules_kb.indexing.linking import STEM_PREFIX, build_graph, content_terms, tokens, vocabulary_phrases
from rules_kb.lookup.rules import rule_links

PHRASES = vocabulary_phrases()


def terms(text: str) -> list[str]:
    return content_terms([term for term, _, _ in tokens(text)], PHRASES)


def _rule(edition: str, number: str, text: str, examples: tuple[str, ...] = ()) -> Rule:
    return Rule(number, edition, "", text, examples, "", (), SourceSpan(f"doc-{edition}", 1, 1), number)


def _pairs(rules: list[Rule]) -> set[tuple[str, str]]:
    documents = tuple(
        Document(f"doc-{edition}", f"{edition}.txt", DocumentKind.RULES, "fr", edition, edition, edition, "")
        for edition in sorted({rule.edition for rule in rules})
    )
    graph = build_graph(Corpus(documents, tuple(rules), ()))
    return {
        (edge.source.rpartition(":")[2], edge.target.rpartition(":")[2])
        for edge in graph.edges
        if edge.relation is Relation.COUNTERPART
    }


# the kind: examples ------------------------------------------------------------------------

_OTHERS_OLD = [
    _rule("2004", "100.2", "Le marchand vend du pain frais chaque matin sur la place du marché."),
    _rule("2004", "100.3", "Une rivière profonde traverse la vallée avant de rejoindre la mer."),
]
_OTHERS_NEW = [
    _rule("2011", "200.2", "Chaque matin, le marchand vend son pain frais sur la place du marché."),
    _rule("2011", "200.3", "La rivière profonde traverse toute la vallée puis rejoint la mer."),
]
_EXAMPLE = "Un dragon rouge survole le pic glacé du nord et crache du feu sur le village endormi."


def test_a_rule_reworded_with_the_same_example_is_paired():
    """Texts that share few words, examples the same: the examples say they are one rule."""
    old = _rule("2004", "100.1", "Les dragons volent au-dessus des montagnes enneigées.", (_EXAMPLE,))
    new = _rule("2011", "200.1", "Une bête ailée franchit les sommets couverts de neige.", (_EXAMPLE,))
    assert _pairs([old, *_OTHERS_OLD, new, *_OTHERS_NEW]) == {
        ("100.1", "200.1"),
        ("100.2", "200.2"),
        ("100.3", "200.3"),
    }
    # without its example, the same text has no counterpart
    assert ("100.1", "200.1") not in _pairs([old._replace(examples=()), *_OTHERS_OLD, new, *_OTHERS_NEW])


def test_611_2c_has_418_3b_its_2004_text(kb):
    """The instance: 611.2c rewrites 418.3b's text; their two examples are nearly word for word."""
    found = [
        (link.record.number, link.record.edition) for link in rule_links(kb, kb.rule("611.2c", "2011")).counterparts
    ]
    assert found == [("418.3b", "2004")]


# the kind: renamed vocabulary --------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("arrivent en jeu", "arrivent sur le champ de bataille"),
        ("est retiré de la partie", "est en exil"),
        ("un artefact", "un artéfact"),
        ("une créature blanche", "une créature blanc"),
    ],
)
def test_renamed_vocabulary_is_one_term(old, new):
    """A form of a closed vocabulary (rules_kb.core.vocabulary) reads as its member, whatever the edition prints."""
    assert set(terms(old)) - {"sur"} == set(terms(new)) - {"sur"}


def test_a_word_of_a_longer_form_alone_is_not_the_zone():
    """ "jeu" is a word of "en jeu", but "les règles du jeu" is no zone."""
    assert not any(term.startswith("=zone") for term in terms("les règles du jeu"))
    assert "=zone:battlefield" in terms("mettez-la en jeu")


def test_418_2_is_611_3c(kb):
    """The instance: "arrivent en jeu" (2004) is "l'arrivée du permanent sur le champ de bataille" (2011)."""
    found = [
        (link.record.number, link.record.edition) for link in rule_links(kb, kb.rule("418.2", "2004")).counterparts
    ]
    assert found == [("611.3c", "2011")]


# the kind: inflections ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("one", "other"),
    [("modifient", "modifie"), ("changent", "change"), ("continus", "continu"), ("appliquent", "appliqués")],
)
def test_inflections_the_stemmer_leaves_apart_meet(one, other):
    assert terms(one) == terms(other)


def test_terms_are_cut_and_stop_words_left_out():
    found = terms("Les effets continus de la capacité caractéristique")
    assert all(len(term) <= STEM_PREFIX for term in found)
    assert not {"le", "la", "de", "les"} & set(found)
