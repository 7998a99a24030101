"""The offline rulebook on a phone: its search index built from the corpus
and the players' lexicon, the sticky bar and its pages menu, the glossary's
A–Z index, 502's keywords in the table of contents, and — in a real
Chromium at 390 px, from ``file://`` with no server — the search box, the
jump to a rule number and the layout (the players' words, typos and the
menu at both widths: ``tests/test_book_browser.py``)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import html as lxml_html
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

import rules_kb
from rules_kb.core.text import fold, words
from rules_kb.engines.lexicon import parse_lexicon
from rules_kb.export import export_book
from rules_kb.export.book import BOOK_CSS, GLOSSARY, INDEX, build_book, index_entries
from rules_kb.export.book_index import (
    INDEX_SCRIPT,
    SEARCH_SCRIPT,
    STOP,
    lexicon_rows,
    player_key,
    read_index,
)
from rules_kb.lookup.glossary import SMALL_WORDS, TYPO_EDITS, TYPO_LENGTH

NOW = datetime(2026, 11, 21, 14, 3, tzinfo=UTC)
#: The bound on the index's size (the bundled corpus gives about 189 KB, 12 of them the lexicon's rows).
INDEX_BUDGET = 200_000
#: The players' lexicon as shipped, read here as plain tab-separated text (not through the library).
LEXICON_TSV = Path(rules_kb.__file__).parent / "data" / "lexicon.tsv"


@pytest.fixture(scope="module")
def book(kb):
    return build_book(kb, NOW)


@pytest.fixture(scope="module")
def index(book):
    return read_index(book[INDEX_SCRIPT])


def _pages(book):
    return {name: lxml_html.fromstring(data) for name, data in book.items() if name.endswith(".html")}


# --- the index ---------------------------------------------------------------------------


def test_index_has_every_rule_and_glossary_entry_where_the_book_puts_it(kb, book, index):
    pages = _pages(book)
    rules = {(row[1], row[3]): row for row in index["entries"] if row[0] == "r"}
    terms = {row[1]: row for row in index["entries"] if row[0] == "g"}
    assert len(rules) == len(kb.corpus.rules) and len(terms) == len(kb.corpus.glossary)
    for rule in kb.corpus.rules:
        row = rules[(rule.number, rule.edition)]
        page, anchor = index["pages"][row[4]], row[5]
        assert pages[page].xpath(f'//article[@id="{anchor}"]/@data-number') == [rule.number]
        assert row[2] == rule.title
        assert set(row[7]) == {
            w for w in words(f"{rule.title} {rule.text}") if w not in STOP and (len(w) > 1 or w.isdigit())
        }
    for entry in kb.corpus.glossary:
        row = terms[entry.term]
        assert index["pages"][row[4]] == GLOSSARY
        assert pages[GLOSSARY].xpath(f'//dt[@id="{row[5]}"]')[0].text == entry.term
    assert index["edition"] == kb.default_edition == "2004"


def test_index_words_are_folded_and_searchable(index):
    vol = next(row for row in index["entries"] if row[0] == "g" and row[1] == "Vol")
    assert {"vol", "capacite", "evasion"} <= set(vol[7])
    assert vol[6].startswith("Le vol est une capacité")
    assert index["words"] == sorted(index["words"])
    assert all(word == fold(word) for word in index["words"])
    assert not any(re.search(r"[A-ZÉéèêàùçô]", word) for word in index["words"])


# --- the players' words --------------------------------------------------------------------


def _lexicon_lines() -> list[tuple[int, str, str]]:
    """``(line, form, target)`` of every entry of ``lexicon.tsv``, split by hand."""
    found = []
    for number, line in enumerate(LEXICON_TSV.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip() and not line.startswith("#"):
            form, target, _source = (column.strip() for column in line.split("\t"))
            found.append((number, form, target))
    return found


def _name(index, position):
    row = index["entries"][position]
    return row[1] if row[0] == "g" else row[2]


def test_the_index_carries_every_form_of_the_lexicon_file(kb, index):
    """The index and ``rules_kb/data/lexicon.tsv`` agree: every form naming something is there,
    under its key, leading to what its target names; nothing else is."""
    lines = _lexicon_lines()
    assert len(lines) > 500
    rows = {}
    for key, label, *positions in index["lexicon"]:
        rows.setdefault(key, []).append((label or _name(index, positions[0]), positions))
    assert set(rows) == {player_key(form) for _, form, target in lines if target != "—"}
    for number, form, target in lines:
        if target == "—":
            continue
        said = {label for label, _ in rows[player_key(form)]}
        entry = kb.glossary.find(target)
        if entry is not None:  # a glossary term: its entry, under its headword
            assert entry.term in said, (number, form)
            assert any(_name(index, ps[0]) == entry.term and index["entries"][ps[0]][0] == "g"
                       for _, ps in rows[player_key(form)] if ps), (number, form)  # fmt: skip
        else:  # a rule title, or an expression of the texts said as written
            assert target in said or fold(target) in {fold(label) for label in said}, (number, form)
    assert ("trample", "Piétinement") in {(key, _name(index, ps[0])) for key, _, *ps in index["lexicon"] if ps}
    assert ["etb", ""] == next(row for row in index["lexicon"] if row[0] == "etb")[:2]


def test_every_line_of_the_lexicon_makes_a_row_or_names_nothing(kb):
    entries = index_entries(kb)
    rows = lexicon_rows(kb.lexicon.entries, entries, kb.glossary, kb.default_edition)
    made = sorted(line for row in rows for line in row.lines)
    assert made == [number for number, _, target in _lexicon_lines() if target != "—"]
    flash = next(row for row in rows if row.key == "flash")  # a rule's title: the FAQ's 502.57
    assert flash.label == "Flash" and entries[flash.positions[0]].label == "502.57"
    bounce = next(row for row in rows if row.key == "bounce")  # an expression of the texts: its words searched
    assert bounce.label == "main de son propriétaire" and bounce.positions == ()


def test_the_lexicon_rows_come_from_the_data_given(kb):
    """Another lexicon gives other rows: nothing of the players' words is written in the code."""
    entries = index_entries(kb)
    other = parse_lexicon(
        "# essai\nLes Zorglubs\tPiétinement\tinventé\nfoo\t—\tinventé\nmachin\tles blessures sont retirées\tinventé\n"
    )
    rows = lexicon_rows(other, entries, kb.glossary, kb.default_edition)
    assert [(row.key, row.label, row.lines) for row in rows] == [
        ("zorglub", "Piétinement", (2,)),
        ("machin", "les blessures sont retirées", (4,)),
    ]
    assert [entries[p].label for p in rows[0].positions] == ["Piétinement"] and rows[1].positions == ()


@pytest.mark.parametrize(
    "text, key",
    [("trample", "trample"), ("Le trample", "trample"), ("Blessures marquées", "blessure marquee"),
     ("dégâts de trample", "degat trample"), ("L'ETB", "etb")],
)  # fmt: skip
def test_player_key_folds_and_leaves_small_words_out(text, key):
    assert player_key(text) == key


def test_the_typo_tolerance_and_small_words_are_defines(index):
    assert index["typo"] == [TYPO_LENGTH, *TYPO_EDITS]
    assert index["small"] == sorted(SMALL_WORDS)
    assert index["format"] == 2


def test_the_search_script_holds_no_players_word(book):
    """The lexicon and the names reach the browser through the index only: no list in ``livre.js``."""
    script = fold(book[SEARCH_SCRIPT].decode("utf-8"))
    for word in ("trample", "pietinement", "etb", "flying", "arriver en jeu", "mulligan"):
        assert word not in script


def test_the_book_stays_offline_with_no_inline_script(book):
    """No address outside the folder, no inline script or handler, nothing the script fetches or evaluates."""
    for name, data in book.items():
        text = data.decode("utf-8")
        assert not re.search(r"(?i)\b(?:https?|ftp|wss?):|\bwww\.", text), name
        if not name.endswith(".html"):
            continue
        tree = lxml_html.fromstring(data)
        for value in tree.xpath("//@href | //@src | //@action"):
            assert not re.match(r"(?i)[a-z][a-z0-9+.-]*:|//", value), (name, value)
        assert not tree.xpath("//@*[starts-with(name(), 'on')]"), name
        assert all(script.get("src") and not (script.text or "").strip() for script in tree.xpath("//script"))
    script = book[SEARCH_SCRIPT].decode("utf-8")
    assert not re.search(r"\beval\(|new Function|innerHTML|fetch\(|XMLHttpRequest|import\(", script)


def test_index_is_small(book):
    size = len(book[INDEX_SCRIPT])
    assert 50_000 < size < INDEX_BUDGET, size
    assert book[INDEX_SCRIPT].startswith(b"window.RULES_KB_INDEX = {")


def test_read_index_refuses_another_file():
    with pytest.raises(ValueError):
        read_index(b"alert(1);")


# --- the pages ----------------------------------------------------------------------------


def test_every_page_has_the_bar_and_loads_the_scripts_by_src(book):
    assert book[SEARCH_SCRIPT].startswith(b"/* rules-kb")
    for name, tree in _pages(book).items():
        scripts = tree.xpath("//script")
        assert [script.get("src") for script in scripts] == [INDEX_SCRIPT, SEARCH_SCRIPT], name
        assert all(not (script.text or "").strip() for script in scripts)  # no inline script
        bar = tree.xpath('//body/header[@class="book-bar"]')[0]
        form = bar.xpath('./form[@role="search"]')[0]
        assert form.get("hidden") is not None  # shown by the script: without JavaScript, no dead box
        assert form.xpath('.//input[@type="search"]/@id') == ["recherche"]
        assert bar.xpath('./ol[@id="resultats"]')
        others = sorted(page for page in _pages(book) if page != name)
        strip = bar.xpath('./nav[@class="pages"]')[0]
        assert strip.xpath('./a[@href="index.html"]/text()') == (["Sommaire"] if name != INDEX else [])
        assert sorted(strip.xpath("./a/@href")) == others
        assert strip.xpath("./strong[@aria-current='page']")  # the page itself, not a link
        menu = bar.xpath('./details[@class="menu"]')[0]  # a menu that opens without JavaScript
        assert menu.get("open") is None and "Menu" in menu.xpath("./summary")[0].text_content()
        assert sorted(menu.xpath('./nav[@class="menu"]/ul/li/a/@href')) == others


def test_table_of_contents_lists_502s_keywords(book):
    tree = lxml_html.fromstring(book[INDEX])
    section = tree.xpath('//a[@href="regles-2004-5.html#r502"]/..')[0]
    keywords = section.xpath('./ul[@class="titled"]/li/a')
    labels = [a.text for a in keywords]
    assert "502.4 Vol" in labels and "502.5 Célérité" in labels and len(labels) >= 30
    assert all(a.get("href").startswith("regles-2004-5.html#r502-") for a in keywords)
    assert tree.xpath('//*[@id="sommaire"]')


def test_glossary_has_an_a_to_z_index(book):
    tree = lxml_html.fromstring(book[GLOSSARY])
    letters = tree.xpath('//nav[@class="az"]/*')
    assert [node.text for node in letters][:26] == list("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    linked = {node.text: node.get("href") for node in letters if node.tag == "a"}
    ids = set(tree.xpath("//@id"))
    assert linked and all(href[1:] in ids for href in linked.values())
    first_v = tree.xpath(f'//dt[@id="{linked["V"][1:]}"]')[0].text
    assert first_v.upper().startswith("V")


def test_the_book_css_has_thumb_sized_targets():
    assert "position: sticky" in BOOK_CSS
    assert BOOK_CSS.count("min-height: 44px") >= 4


# --- in a real browser, from file:// --------------------------------------------------------


@pytest.fixture(scope="module")
def folder(kb, tmp_path_factory):
    target = tmp_path_factory.mktemp("livre") / "livre"
    export_book(kb, target, now=NOW)
    return target


@pytest.fixture(scope="module")
def phone(chromium):
    return chromium(390, 844)


def _open(driver, folder, page):
    driver.get((folder / page).as_uri())
    WebDriverWait(driver, 5).until(lambda d: d.find_element("id", "recherche").is_displayed())
    driver.execute_script(
        "window.__errors = []; window.addEventListener('error', e => window.__errors.push(String(e.message)));"
    )
    return driver.find_element("id", "recherche")


def _results(driver):
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#resultats a'), a => [a.getAttribute('href'), a.innerText]);"
    )


def test_search_vol_from_file_url(phone, folder):
    """The issue's acceptance: the offline book searches « vol » from ``file://``."""
    box = _open(phone, folder, "regles-2004-1.html")
    box.send_keys("vol")
    results = _results(phone)
    hrefs = [href for href, _ in results]
    assert hrefs[:2] == ["glossaire.html#g-vol", "regles-2004-5.html#r502-4"]
    assert "regles-2004-5.html#r502-4a" in hrefs
    assert results[0][1].startswith("Vol") and "capacité d'évasion" in results[0][1]
    phone.find_element("css selector", '#resultats a[href="regles-2004-5.html#r502-4"]').click()
    WebDriverWait(phone, 5).until(lambda d: d.current_url.endswith("regles-2004-5.html#r502-4"))


def test_a_typed_number_lands_on_its_rule(phone, folder):
    box = _open(phone, folder, "regles-2004-1.html")
    box.send_keys("420.5c")
    assert _results(phone)[0][0] == "regles-2004-4.html#r420-5c"
    box.send_keys(Keys.ENTER)
    WebDriverWait(phone, 5).until(lambda d: d.current_url.endswith("regles-2004-4.html#r420-5c"))
    top, bar, height = phone.execute_script(
        "return [document.getElementById('r420-5c').getBoundingClientRect().top,"
        " document.querySelector('.book-bar').getBoundingClientRect().bottom, innerHeight];"
    )
    assert bar <= top < height / 2  # in view, under the sticky bar, not hidden by it


def test_a_missing_number_says_so_and_stays(phone, folder):
    box = _open(phone, folder, "glossaire.html")
    box.send_keys("999.9z", Keys.ENTER)
    assert phone.current_url.endswith("glossaire.html")
    assert "Pas de règle 999.9z" in phone.find_element("id", "resultats").text


def test_the_bar_stays_on_screen_and_is_thumb_sized(phone, folder):
    _open(phone, folder, "regles-2004-4.html")
    phone.execute_script("window.scrollTo(0, document.body.scrollHeight / 2);")
    top, bottom, scrolled = phone.execute_script(
        "var b = document.querySelector('.book-bar').getBoundingClientRect(); return [b.top, b.bottom, scrollY];"
    )
    assert scrolled > 10_000 and top == 0 and bottom < 844 / 10  # one row: the box and the menu's button
    shown = [e for e in phone.find_elements("css selector", ".book-bar a, .book-bar summary, .book-bar input")
             if e.is_displayed()]  # fmt: skip
    assert {e.tag_name for e in shown} == {"summary", "input"}  # the strip is the menu's, on a phone
    for target in shown:
        assert target.size["height"] >= 44 and target.size["width"] >= 44


@pytest.mark.parametrize(
    "page", [INDEX, GLOSSARY, "regles-2004-4.html", "faq-tsp-2006.html", "cours-2.html", "regles-2011-6.html"]
)
def test_no_horizontal_scroll_at_390_px(phone, folder, page):
    _open(phone, folder, page)
    width, inner = phone.execute_script("return [document.documentElement.scrollWidth, innerWidth];")
    assert inner == 390 and width <= inner


def test_glossary_letters_are_thumb_sized(phone, folder):
    _open(phone, folder, GLOSSARY)
    letters = phone.find_elements("css selector", "nav.az a")
    assert len(letters) > 15 and all(a.size["height"] >= 44 and a.size["width"] >= 44 for a in letters)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=40))
def test_any_query_gives_results_or_a_message_never_an_error(phone, folder, query):
    if not phone.current_url.endswith("index.html"):
        _open(phone, folder, INDEX)
    state = phone.execute_script(
        """
        var box = document.getElementById('recherche'), list = document.getElementById('resultats');
        box.value = arguments[0];
        box.dispatchEvent(new Event('input'));
        return [list.hidden, list.querySelectorAll('li').length, window.__errors.slice(), box.value.trim() !== ''];
        """,
        query,
    )
    hidden, items, errors, typed = state
    assert errors == []
    assert hidden == (items == 0)
    assert (items >= 1) == typed  # results, or a message saying there are none; nothing for a blank box
