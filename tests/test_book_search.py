"""The offline rulebook on a phone: its search index built from the corpus,
the sticky bar, the glossary's A–Z index, 502's keywords in the table of
contents, and — in a real Chromium at 390 px, from ``file://`` with no
server — the search box, the jump to a rule number and the layout."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import html as lxml_html
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from rules_kb.core.text import fold, words
from rules_kb.export import export_book
from rules_kb.export.book import BOOK_CSS, GLOSSARY, INDEX, build_book
from rules_kb.export.book_index import INDEX_SCRIPT, SEARCH_SCRIPT, STOP, read_index

NOW = datetime(2026, 11, 21, 14, 3, tzinfo=UTC)
#: The bound on the index's size (the bundled corpus gives about 177 KB).
INDEX_BUDGET = 200_000


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
        assert bar.xpath('./nav[@class="pages"]/a[@href="index.html"]/text()') == ["Sommaire"]
        assert bar.xpath('./ol[@id="resultats"]')


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
    assert scrolled > 10_000 and top == 0 and bottom < 844 / 5
    for link in phone.find_elements("css selector", ".book-bar nav.pages a, form.search input"):
        assert link.size["height"] >= 44 and link.size["width"] >= 44


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
