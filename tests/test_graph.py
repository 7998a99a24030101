"""The rule graph (rules_kb.graph, rules_kb.links, rules_kb.diagram) on the real corpus."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_kb.core.model import RecordKind
from rules_kb.engines.graph import Relation
from rules_kb.indexing.linking import COUNTERPART_THRESHOLD
from rules_kb.lookup.glossary import define
from rules_kb.lookup.graph import FORMATS, DiagramError, choose_format, neighbourhood, to_dot, to_mermaid, write_picture
from rules_kb.lookup.rules import rule_links, show, similarity, word_diff
from rules_kb.serialize import neighbourhood_dict


def numbers(links):
    return [link.record.number for link in links if link.kind is RecordKind.RULE]


def test_cited_by_420(kb):
    """Acceptance: 420 is cited by 102.1, 102.2 and 102.8 ("Voir règle 420.")."""
    links = rule_links(kb, kb.rule("420", "2004"))
    assert {"102.1", "102.2", "102.8"} <= set(numbers(links.cited_by))
    assert "Effets basés sur un état" in {
        link.record.term for link in links.cited_by if link.kind is RecordKind.GLOSSARY
    }


def test_418_5a_cites_503_and_the_range_and_uses_couche(kb):
    links = rule_links(kb, kb.rule("418.5a", "2004"))
    assert numbers(links.cites) == ["418.5b", "418.5c", "418.5d", "418.5e", "418.5f", "418.5g", "503"]
    terms = {link.record.term for link in links.terms}
    assert {"Couche", "Tampon horaire"} <= terms
    # common words are not linked from every rule
    assert not {"Carte", "Joueur", "Si", "Objet"} & terms


def test_uses_term_blessures_fatales(kb):
    definition = define(kb, "Blessures fatales")
    assert "420.5c" in [link.record.number for link in definition.used_by]
    (link,) = [link for link in definition.used_by if link.record.number == "420.5c"]
    assert link.text == "blessures fatales"


def test_faq_references_resolve_in_its_quoted_rules_then_2004(kb):
    # 2006-faq 502.16a cites "409.1b et 409.1f-h": not quoted by the FAQ, so 2004
    links = rule_links(kb, kb.rule("502.16a", "2006-faq"))
    assert [(l.record.number, l.record.edition) for l in links.cites] == [
        ("409.1b", "2004"),
        ("409.1f", "2004"),
        ("409.1g", "2004"),
        ("409.1h", "2004"),
    ]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("418", "611"),
        ("418.1", "611.1"),
        ("418.3", "611.2"),
        ("418.3a", "611.2a"),
        ("418.3c", "611.2d"),
        ("418.3d", "611.2b"),
        ("418.4", "611.3"),
        ("418.4a", "611.3a"),
        ("418.4b", "611.3b"),
        ("418.3b", "611.2c"),  # reworded text, same examples (was missed: 0.39 on the texts alone)
        ("418.2", "611.3c"),  # "arrivent en jeu" → "arrivée sur le champ de bataille" (was missed)
        ("505.7", "201.3"),
        ("202", "201"),
        ("202.1", "201.1"),
        ("202.3", "201.2"),
        ("202.2", "201.4"),
        ("202.2a", "201.5"),
        ("202.2b", "201.4a"),
    ],
)
def test_counterparts_checked_by_hand(kb, old, new):
    """2004 and 2011 number these rules differently; the texts say they are the same rule."""
    links = rule_links(kb, kb.rule(old, "2004"))
    found = [(l.record.number, l.record.edition) for l in links.counterparts]
    assert found == [(new, "2011")]
    assert links.counterparts[0].score >= COUNTERPART_THRESHOLD


@pytest.mark.parametrize("new", ["201.4b", "201.4c"])
def test_rules_new_in_2011_have_no_counterpart(kb, new):
    """Rules written after 2004 (an acquired ability naming its new object, shortened legendary names)."""
    assert rule_links(kb, kb.rule(new, "2011")).counterparts == ()


def test_every_2011_rule_with_a_2004_text_is_paired(kb):
    """The 2011 pages hold 20 rules: 18 have a 2004 counterpart, checked by hand above."""
    paired = {edge.target for edge in kb.graph.edges if edge.relation is Relation.COUNTERPART}
    numbers_2011 = {node.rpartition(":")[2] for node in paired if node.startswith("rule:2011:")}
    assert len(numbers_2011) == 18 and not {"201.4b", "201.4c"} & numbers_2011


def test_version_and_diff_of_502_16(kb):
    lookup = show(kb, "502.16", "2004")
    (version,) = lookup.links.versions
    assert (version.rule.number, version.rule.edition) == ("502.16", "2006-faq")
    (child, diff) = version.subrules[0]
    assert child.number == "502.16a"
    ops = {op for op, _ in diff}
    assert ops == {"equal", "delete", "insert"}
    old = " ".join(text for op, text in diff if op != "insert")
    assert old == " ".join(kb.rule("502.16a", "2004").text.split())
    # the FAQ section quoting the rule gives its rulings, and the cards with Rappel
    assert lookup.links.rulings and all(link.text == "section" for link in lookup.links.rulings)
    assert "Clepsydre" in {link.record.name for link in lookup.links.cards}


def test_word_diff_gives_back_both_texts():
    diff = word_diff("a b c d", "a x c d e")
    assert " ".join(t for op, t in diff if op != "insert") == "a b c d"
    assert " ".join(t for op, t in diff if op != "delete") == "a x c d e"


def test_card_keywords(kb):
    graph = kb.graph
    targets = {e.target for e in graph.outgoing("card:faq-tsp-2006:Escouflenfer du Bogardân", Relation.KEYWORD)}
    assert targets == {"rule:2006-faq:502.57", "rule:2004:502.4"}  # Flash, Vol


def test_unresolved_references_are_diagnostics(kb):
    unresolved = [d for d in kb.diagnostics if d.code == "unresolved-reference"]
    messages = " ".join(d.message for d in unresolved)
    assert "« étape 401.9h »" in messages  # a FAQ ruling
    assert "« Section 110 »" in messages  # the course follows the 2009 numbering
    assert "« règle 608.2g »" in messages  # 2011 page citing outside itself
    (malformed,) = [d for d in kb.diagnostics if d.code == "malformed-reference"]
    assert "410.10.c" in malformed.message and malformed.document == "cr-2004"
    # located on the line where the reference is printed
    text = Path(kb.corpus.documents[0].path).read_text(encoding="utf-8").splitlines()
    assert "410.10.c" in text[malformed.line - 1]


def test_every_edge_joins_existing_records(kb):
    for edge in kb.graph.edges:
        assert kb.record(edge.source) is not None, edge
        assert kb.record(edge.target) is not None, edge


def test_neighbourhood_formats(kb):
    hood = neighbourhood(kb, "418.5a", depth=1)
    assert hood.center == "rule:2004:418.5a" and hood.nodes[0][0] == hood.center
    data = neighbourhood_dict(hood)
    ids = {node["id"] for node in data["nodes"]}
    assert all(edge["source"] in ids and edge["target"] in ids for edge in data["edges"])
    assert "glossary:2004:Couche" in ids
    dot = to_dot(hood)
    assert dot.startswith("digraph") and '"rule:2004:418.5a" -> "rule:2004:503"' in dot
    mermaid = to_mermaid(hood)
    assert mermaid.startswith("flowchart LR") and '-->|"cite"|' in mermaid


def test_neighbourhood_of_a_term_and_limits(kb):
    hood = neighbourhood(kb, "couches", depth=2, limit=10)
    assert hood.center == "glossary:2004:Couche"
    assert len(hood.nodes) == 10 and hood.truncated
    with pytest.raises(DiagramError, match="Relation « foo » inconnue"):
        neighbourhood(kb, "420", relations=("foo",))


def test_write_picture_never_overwrites(tmp_path):
    target = tmp_path / "g.dot"
    write_picture("digraph {}\n", target)
    with pytest.raises(DiagramError, match="existe déjà"):
        write_picture("autre\n", target)
    assert target.read_text() == "digraph {}\n"
    write_picture("autre\n", target, force=True)
    assert target.read_text() == "autre\n"


def test_a_version_s_similarity_weighs_its_subrules(kb):
    """The issue: ``show 502.16`` said « similarité 100 % » between two
    different texts, the titles alone (« Rappel ») being compared; the score
    now covers the words shown, the rule and its subrules."""
    (version,) = rule_links(kb, kb.rule("502.16", "2004")).versions
    parts = (version.diff, *(diff for _, diff in version.subrules))
    assert version.score == similarity(parts)
    assert 0.2 < version.score < 0.8
    assert similarity((word_diff("a b c d", "a b c d"),)) == 1.0
    assert similarity((word_diff("a b", "c d"),)) == 0.0
    assert similarity(()) == 1.0


@pytest.mark.parametrize(
    ("name", "output", "chosen"),
    [
        (None, None, "dot"), ("mermaid", None, "mermaid"), (None, "v.mmd", "mermaid"), (None, "v.SVG", "dot"),
        (None, "g.json", "json"), ("dot", "g.gv", "dot"), (None, "-", "dot"), ("json", "graphe", "json"),
    ],
)  # fmt: skip
def test_the_format_comes_from_the_option_then_the_suffix(name, output, chosen):
    assert choose_format(name, output) == chosen


@pytest.mark.parametrize(
    ("name", "output", "expected"),
    [
        (
            "mermaid",
            "v.svg",
            "Un fichier .svg contient une image dessinée par Graphviz d'après le texte DOT, pas du Mermaid",
        ),
        ("json", "v.dot", "nommez le fichier en .json."),
        (None, "v.txt", "Extension « .txt » inconnue pour un graphe"),
        ("dot", "v.txt", "Extension « .txt » inconnue"),
        ("svg", None, "Format « svg » inconnu"),
    ],
)
def test_a_picture_never_gets_a_format_its_name_does_not_announce(name, output, expected):
    """The issue's ``graph 420 -o v.svg --format mermaid`` wrote Mermaid into a .svg."""
    with pytest.raises(DiagramError) as raised:
        choose_format(name, output)
    assert expected in str(raised.value)


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.none(), st.text(max_size=10)), st.one_of(st.none(), st.text(max_size=20)))
def test_any_format_and_output_give_a_picture_format_or_the_french_error(name, output):
    try:
        chosen = choose_format(name, output)
    except DiagramError as error:
        assert "inconnu" in str(error) or "Un fichier" in str(error)
    else:
        assert chosen in FORMATS
