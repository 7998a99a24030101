"""Exports: annotated excerpts (HTML round trip and links, Markdown snapshot,
JSON), the offline rulebook, escaping of hostile texts, and files written
whole or not at all."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import html as lxml_html
from markdown_it import MarkdownIt

from cli.app import message as cli_message
from rules_kb.core.errors import ExportError, OutputError
from rules_kb.core.files import BOOK_MARKER, write_file, write_folder
from rules_kb.core.model import rule_node
from rules_kb.export import FORMATS, SelectionRequest, choose_format, export_book, export_excerpt, render
from rules_kb.export.book import build_book
from rules_kb.export.data import excerpt_dict
from rules_kb.export.excerpt import SegmentKind, build_excerpt, paragraphs, segment, text_links
from rules_kb.export.html import read_rules, to_html
from rules_kb.export.markdown import escape, to_markdown
from rules_kb.export.selection import Selection, select

NOW = datetime(2026, 11, 21, 14, 3, tzinfo=UTC)
SNAPSHOTS = Path(__file__).parent / "snapshots"
HOSTILE = Path(__file__).parent / "fixtures" / "hostile"


def _excerpt(kb, *items, annotations=True, **request):
    return build_excerpt(kb, select(kb, SelectionRequest(items=items, **request)), annotations, "", NOW)


def _links_resolve(pages: dict[str, bytes]) -> list[tuple[str, str]]:
    """Every ``<a href>`` of ``pages`` that does not lead to a page and an id there."""
    trees = {name: lxml_html.fromstring(data) for name, data in pages.items()}
    ids = {name: set(tree.xpath("//@id")) for name, tree in trees.items()}
    broken = []
    for name, tree in trees.items():
        for href in tree.xpath("//a/@href"):
            page, _, anchor = href.partition("#")
            page = page or name
            if page not in pages or (anchor and anchor not in ids[page]):
                broken.append((name, href))
    return broken


# --- segments -----------------------------------------------------------------------


def test_segments_give_every_rule_text_back(kb):
    """Cutting texts into links never loses or changes a character (every rule of the corpus)."""
    for rule in kb.corpus.rules:
        links = text_links(kb.graph, rule_node(rule))
        for text in (*paragraphs(rule.text), *rule.examples):
            assert "".join(part.text for part in segment(text, links, terms=True)) == text


@settings(max_examples=200, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from(list('règle 503 418.5b-418.5g Voir aussi "Couche" couches, tampon horaire.\n«»<&')),
        max_size=120,
    )
)
def test_any_text_cuts_into_segments_that_give_it_back(kb, text):
    links = text_links(kb.graph, "rule:2004:418.5a")
    assert "".join(part.text for part in segment(text, links, terms=True)) == text


def test_references_link_inside_the_excerpt_and_note_outside(kb):
    """418.5a cites 503 and "règles 418.5b-418.5g"; 418.5b-c are in the excerpt, 503 is not."""
    excerpt = _excerpt(kb, "418.5a-c")
    first = excerpt.rules[0]
    refs = {p.text: p for para in first.paragraphs for p in para if p.kind is SegmentKind.RULE}
    assert refs["règles 418.5b-418.5g"].href == "#r418-5b" and refs["règles 418.5b-418.5g"].note == 0
    assert refs["règle 503"].note == 1 and refs["règle 503"].href == "#n1"
    assert excerpt.notes[0].reference == "règle 503" and excerpt.notes[0].rules[0].number == "503"


def test_glossary_terms_are_defined_once_per_excerpt(kb):
    excerpt = _excerpt(kb, "420.5")
    terms = [item.entry.term for item in excerpt.glossary]
    assert "Blessures fatales" in terms and len(terms) == len(set(terms))
    entry = next(e for e in excerpt.rules if e.rule.number == "420.5c")
    assert "g-blessures-fatales" in entry.terms


def test_annotations_rulings_versions_cards(kb):
    excerpt = _excerpt(kb, "502.16")
    rule = excerpt.rules[0]
    assert [v.rule.edition for v in rule.versions] == ["2006-faq"]
    assert "Clepsydre" in rule.cards
    assert rule.rulings and all(r.why in ("cite", "section") for r in rule.rulings)
    counterpart = _excerpt(kb, "418.3a").rules[0].counterparts
    assert [(r.number, r.edition) for r, _ in counterpart] == [("611.2a", "2011")]


def test_each_ruling_is_listed_once_per_excerpt(kb):
    """The FAQ section quoting 502.16 also quotes 502.16a: its rulings are listed under 502.16 only."""
    excerpt = _excerpt(kb, "502.16")
    listed = [(r.ruling.source.line_start, r.ruling.text) for entry in excerpt.rules for r in entry.rulings]
    assert listed and len(listed) == len(set(listed))
    assert excerpt.rules[1].rule.number == "502.16a" and excerpt.rules[1].rulings_above == ("r502-16",)


def test_no_annotations_gives_bare_texts(kb):
    excerpt = _excerpt(kb, "418.5a", annotations=False)
    assert not excerpt.glossary and not excerpt.notes
    assert all(part.kind is SegmentKind.TEXT for para in excerpt.rules[0].paragraphs for part in para)
    page = to_html(excerpt)
    assert b"<a " not in page and b"Exemple" not in page


# --- HTML ------------------------------------------------------------------------


def test_html_round_trip_gives_the_same_numbers_and_texts(kb):
    selection = select(kb, SelectionRequest(items=("420.5", "418.5a-i", "611.3a", "502.16"), terms=("Couche",)))
    page = to_html(build_excerpt(kb, selection, now=NOW))
    assert read_rules(page) == [(rule.number, rule.edition, rule.text) for rule in selection.rules]


def test_html_internal_links_all_resolve(kb):
    page = to_html(_excerpt(kb, "418.5a-i", "420.5", "502.16", terms=("Couche",), cards=("Guide griffon",)))
    tree = lxml_html.fromstring(page)
    assert len(tree.xpath("//a[@href]")) > 30
    assert _links_resolve({"page.html": page}) == []


def test_html_is_self_contained_and_printable(kb):
    page = to_html(_excerpt(kb, "420.5")).decode("utf-8")
    tree = lxml_html.fromstring(page)
    assert page.startswith("<!DOCTYPE html>")
    assert not tree.xpath("//script | //link | //img | //iframe")
    assert "@media print" in page and "size: A4" in page
    assert tree.xpath('//article[@id="r420-5c"]')
    assert tree.xpath('//dt[@id="g-blessures-fatales"]/text()') == ["Blessures fatales"]
    assert tree.xpath("//time/@datetime") == ["2026-11-21T14:03+00:00"]


def test_rules_of_the_same_number_in_two_editions_get_distinct_anchors(kb):
    both = Selection((), (kb.rule("502.16a", "2004"), kb.rule("502.16a", "2006-faq")))
    page = to_html(build_excerpt(kb, both, now=NOW))
    assert lxml_html.fromstring(page).xpath("//article/@id") == ["r502-16a", "r502-16a-2006-faq"]


# --- hostile texts ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def hostile_kb():
    from rules_kb import loader

    return loader.open(HOSTILE)


def test_markup_in_sources_comes_out_as_text_in_html(hostile_kb):
    excerpt = build_excerpt(
        hostile_kb, select(hostile_kb, SelectionRequest(items=("100",))), note='<script>x</script> & "n"', now=NOW
    )
    page = to_html(excerpt)
    tree = lxml_html.fromstring(page)
    assert tree.xpath("//script") == []
    assert not tree.xpath("//article//b | //article//i")
    text = tree.text_content()
    assert "<script>alert('règle')</script>" in text
    assert 'Si A < B & C > D, le joueur "gagne"' in text
    assert "</p></article><p>" in text
    assert '<script>x</script> & "n"' in text  # the judge's note too
    assert 'Règles <script>alert("titre")</script> & « test »' in text  # document title in the header
    assert read_rules(page) == [(e.rule.number, e.rule.edition, e.rule.text) for e in excerpt.rules]


def test_markup_in_sources_comes_out_as_text_in_markdown(hostile_kb):
    excerpt = build_excerpt(hostile_kb, select(hostile_kb, SelectionRequest(items=("100",))), now=NOW)
    rendered = MarkdownIt().render(to_markdown(excerpt))
    tree = lxml_html.fromstring(rendered)
    assert tree.xpath("//script | //b | //i") == []
    assert tree.xpath("//a") == []  # "[lien](javascript:…)" stays text
    text = tree.text_content()
    assert "<script>alert('règle')</script> *étoiles* _soulignés_ [lien](javascript:alert(1))" in text
    assert "&amp; une entité" in text


def test_markup_in_sources_comes_out_as_text_in_json(hostile_kb):
    excerpt = build_excerpt(hostile_kb, select(hostile_kb, SelectionRequest(items=("100.1",))), now=NOW)
    data = json.loads(render(excerpt, "json"))
    assert data["rules"][0]["text"].startswith('Si A < B & C > D, le joueur "gagne"')


@pytest.mark.parametrize(
    "text",
    ["a *b* _c_ `d` <e> & [f](g) ~h~ \\i", "1. liste", "- tiret", "# titre", "+ plus", "12) parenthèse", "[x]: def"],
)
def test_markdown_escape_reads_back_as_the_same_text(text):
    rendered = MarkdownIt().render(escape(text))
    assert lxml_html.fromstring(rendered).text_content().strip() == text


# --- Markdown -------------------------------------------------------------------------


def test_markdown_matches_the_stored_snapshot(kb):
    """The Markdown of a fixed selection; set UPDATE_SNAPSHOTS=1 to rewrite it after a deliberate change."""
    text = to_markdown(_excerpt(kb, "418.5a-c", "502.16"))
    stored = SNAPSHOTS / "export-418.5a-c-502.16.md"
    if os.environ.get("UPDATE_SNAPSHOTS"):
        stored.write_text(text, encoding="utf-8")
    assert text == stored.read_text(encoding="utf-8")


def test_markdown_survives_pasting(kb):
    text = to_markdown(_excerpt(kb, "418.5a-c"))
    assert "](#" not in text and "<a" not in text  # no anchors a chat would drop
    assert "> **418.5a** " in text
    assert "règles 418.5b-418.5g (ci-dessous)" in text
    assert "règle 503 [1]" in text and "\n[1] « règle 503 » : **503** (2004) Copier des objets" in text
    tokens = MarkdownIt().parse(text)
    assert not [t for t in tokens if t.type in ("html_block", "html_inline")]


# --- JSON ----------------------------------------------------------------------------


def test_json_records_carry_their_annotations(kb):
    data = excerpt_dict(_excerpt(kb, "418.5a"))
    assert data["format"] == "rules-kb-export" and data["version"] == 1
    assert data["header"]["exported"] == "2026-11-21T14:03+00:00"
    rule = data["rules"][0]
    assert rule["number"] == "418.5a" and rule["anchor"] == "r418-5a" and rule["document"] == "cr-2004"
    linked = [part for para in rule["paragraphs"] for part in para if part["kind"] == "rule"]
    assert {"text": "règle 503", "kind": "rule", "targets": ["rule:2004:503"], "href": "#n1", "note": 1} in linked
    assert data["notes"][0]["rules"][0]["number"] == "503"
    assert "Couche" in [entry["term"] for entry in data["glossary"]]


def test_format_is_chosen_from_the_option_then_the_suffix():
    assert choose_format(None, "sba.html") == "html"
    assert choose_format(None, "x.JSON") == "json"
    assert choose_format(None, "-") == "md"
    assert choose_format("markdown", "x.md") == "md"
    assert choose_format("html", "extrait") == "html"  # a name without suffix takes any format
    with pytest.raises(ExportError, match="Format « pdf » inconnu"):
        choose_format("pdf")


@pytest.mark.parametrize(
    ("name", "output", "expected"),
    [
        (
            None,
            "sba.pdf",
            "Extension « .pdf » inconnue pour un extrait : .md (Markdown), .html (page imprimable) ou .json.",
        ),
        ("md", "sba.pdf", "imprimez-la en PDF depuis le navigateur"),
        (None, "notes.docx", "Extension « .docx » inconnue"),
        (
            "markdown",
            "x.html",
            "Un fichier .html annonce le format html, pas md : pour ce format, nommez le fichier en .md",
        ),
        ("json", "x.md", "nommez le fichier en .json."),
    ],
)
def test_a_file_never_gets_a_format_its_name_does_not_announce(name, output, expected):
    """The issue's ``export 420.5 -o sba.pdf`` wrote Markdown into a .pdf."""
    with pytest.raises(ExportError) as raised:
        choose_format(name, output)
    assert expected in str(raised.value)


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.none(), st.text(max_size=12)), st.one_of(st.none(), st.text(max_size=20)))
def test_any_format_and_output_give_a_format_or_the_french_error(name, output):
    try:
        chosen = choose_format(name, output)
    except ExportError as error:
        assert "inconnu" in str(error) or "annonce le format" in str(error)
    else:
        assert chosen in FORMATS


# --- the rulebook -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def book(kb):
    return build_book(kb, NOW)


def test_rulebook_pages(book, kb):
    assert {
        "index.html",
        "glossaire.html",
        "regles-2004-4.html",
        "regles-2011-6.html",
        "faq-tsp-2006.html",
        "cours-2.html",
    } <= set(book)
    chapter = lxml_html.fromstring(book["regles-2004-4.html"])
    assert chapter.xpath('//article[@id="r420-5c"]')
    glossary = lxml_html.fromstring(book["glossaire.html"])
    assert glossary.xpath('//dt[@id="g-blessures-fatales"]')


def test_rulebook_links_all_resolve(book):
    assert _links_resolve(book) == []


def test_rulebook_has_every_rule_once_with_its_text(book, kb):
    found = [rule for name, data in book.items() for rule in read_rules(data)]
    assert sorted(found) == sorted((rule.number, rule.edition, rule.text) for rule in kb.corpus.rules)


def test_rulebook_backlinks_and_glossary_links(book):
    chapter = lxml_html.fromstring(book["regles-2004-4.html"])
    cited_by = chapter.xpath('//article[@id="r420"]/p[@class="cited-by"]//a/@href')
    assert "regles-2004-1.html#r102-1" in cited_by
    terms = chapter.xpath('//article[@id="r420-5c"]//a[@class="term"]/@href')
    assert "glossaire.html#g-blessures-fatales" in terms


# --- writing -----------------------------------------------------------------------------


def test_an_existing_file_is_never_replaced_without_force(kb, tmp_path):
    target = tmp_path / "sba.html"
    export_excerpt(kb, SelectionRequest(items=("420.5",)), "html", output=target, now=NOW)
    first = target.read_bytes()
    with pytest.raises(OutputError, match="existe déjà") as existing:
        export_excerpt(kb, SelectionRequest(items=("418.5a",)), "html", output=target, now=NOW)
    assert cli_message(existing.value).endswith("existe déjà ; ajoutez --force pour le remplacer.")
    assert target.read_bytes() == first
    export_excerpt(kb, SelectionRequest(items=("418.5a",)), "html", output=target, force=True, now=NOW)
    assert target.read_bytes() != first
    assert list(tmp_path.iterdir()) == [target]  # no staging file left


def test_a_failed_write_keeps_the_old_file(tmp_path, monkeypatch):
    target = tmp_path / "notes.md"
    target.write_text("mes notes", encoding="utf-8")

    def broken(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OutputError, match="plus de place sur le disque"):
        write_file(target, b"nouveau", force=True)
    assert target.read_text(encoding="utf-8") == "mes notes"
    assert list(tmp_path.iterdir()) == [target]


def test_rulebook_folder_rules(kb, tmp_path):
    folder = tmp_path / "livre"
    export_book(kb, folder, now=NOW)
    assert (folder / "index.html").is_file() and (folder / BOOK_MARKER).is_file()
    with pytest.raises(OutputError, match="contient déjà un livre") as existing_book:
        export_book(kb, folder, now=NOW)
    assert cli_message(existing_book.value).endswith("contient déjà un livre ; ajoutez --force pour le remplacer.")
    export_book(kb, folder, force=True, now=NOW)
    mine = tmp_path / "mes-fichiers"
    mine.mkdir()
    (mine / "perso.txt").write_text("à moi", encoding="utf-8")
    with pytest.raises(OutputError, match="ne contient pas un livre écrit par rules-kb"):
        write_folder(mine, {"index.html": b"x"}, force=True)
    assert (mine / "perso.txt").read_text(encoding="utf-8") == "à moi"
    with pytest.raises(ExportError, match="qu'en HTML"):
        export_book(kb, tmp_path / "autre", "md")
    with pytest.raises(ExportError, match="dossier de pages") as no_folder:
        export_book(kb, "-")
    assert "indiquez-le avec -o" in cli_message(no_folder.value)
