"""The offline rulebook in a real browser (headless Chromium, at 390 and 1280
CSS pixels), from ``file://`` of a book freshly exported to a temporary
folder, with no server: the search understands the players' words of the
lexicon (« trample » → Piétinement, saying so) and forgives a typo as
``define`` does (« pietinemnt »); every page the navigation links to is in
reach — in the menu on a phone, in the strip on a wider screen — and the
menu opens without JavaScript too (issue 37, point 4)."""

from __future__ import annotations

import pytest
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from rules_kb.export import export_book
from rules_kb.export.book import GLOSSARY, INDEX
from tests.test_book_search import NOW

SIZES = {"phone": (390, 844), "desktop": (1280, 900)}
#: What a player types, the first result (page#anchor) and how the search says it read it.
PLAYERS_WORDS = [
    ("trample", "glossaire.html#g-pietinement", "trample → Piétinement"),
    ("Le trample", "glossaire.html#g-pietinement", "Le trample → Piétinement"),
    ("ETB", "glossaire.html#g-arriver-en-jeu", "ETB → Arriver en jeu"),
    ("flying", "glossaire.html#g-vol", "flying → Vol"),
    ("haste", "glossaire.html#g-celerite", "haste → Célérité"),
]
TYPOS = [
    ("pietinemnt", "glossaire.html#g-pietinement", "pietinemnt → Piétinement (faute de frappe\u00a0?)"),
    ("trampel", "glossaire.html#g-pietinement", "trampel → Piétinement (faute de frappe\u00a0?)"),
    ("blesures fatales", "glossaire.html#g-blessures-fatales",
     "blesures fatales → Blessures fatales (faute de frappe\u00a0?)"),
]  # fmt: skip
#: Pages the navigation is checked from: the table of contents, a chapter, the glossary, the course.
START_PAGES = [INDEX, "regles-2004-4.html", GLOSSARY, "cours-2.html"]
#: Whether an element is in the window, whole, and is what a tap at its middle reaches.
_REACHABLE = """
const e = arguments[0];
e.scrollIntoView({block: 'nearest'});
const r = e.getBoundingClientRect();
if (!r.width || !r.height) return 'invisible';
if (r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5) return 'outside';
const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
return hit && (hit === e || e.contains(hit)) ? '' : 'covered by ' + (hit ? hit.tagName + '.' + hit.className : 'nothing');
"""


@pytest.fixture(scope="module")
def folder(kb, tmp_path_factory):
    """A book exported now, as ``rules-kb export --all`` writes it, in a temporary folder."""
    target = tmp_path_factory.mktemp("livre-navigateur") / "livre"
    export_book(kb, target, now=NOW)
    return target


@pytest.fixture(scope="module", params=list(SIZES))
def browser(request, chromium):
    driver = chromium(*SIZES[request.param])
    driver.size_name = request.param
    return driver


@pytest.fixture(scope="module")
def phone(chromium):
    return chromium(*SIZES["phone"])


def _load(driver, folder, page):
    driver.get((folder / page).as_uri())
    driver.execute_script(
        "window.__errors = []; window.addEventListener('error', e => window.__errors.push(String(e.message)));"
    )


def _open(driver, folder, page):
    _load(driver, folder, page)
    WebDriverWait(driver, 5).until(lambda d: d.find_element("id", "recherche").is_displayed())
    return driver.find_element("id", "recherche")


def _search(driver, folder, typed):
    """``(notes, results)`` once ``typed`` is typed in the box: the « Compris » lines, and each
    result's ``[href, text]``."""
    box = _open(driver, folder, "regles-2004-1.html")
    box.send_keys(typed)
    notes = driver.execute_script(
        "return Array.from(document.querySelectorAll('#resultats li.understood'), li => li.textContent);"
    )
    results = driver.execute_script(
        "return Array.from(document.querySelectorAll('#resultats a'), a => [a.getAttribute('href'), a.innerText]);"
    )
    assert driver.execute_script("return window.__errors") == []
    return notes, results


def _other_pages(folder, page):
    return sorted(path.name for path in folder.glob("*.html") if path.name != page)


# --- the players' words and typos -------------------------------------------------------------


def test_trample_shows_pietinement_first_and_says_how_it_was_read(browser, folder):
    """The issue's acceptance: « trample » finds Piétinement, first, with the note."""
    notes, results = _search(browser, folder, "trample")
    assert notes == ["Compris\u00a0: trample → Piétinement"]
    assert results[0][0] == "glossaire.html#g-pietinement" and results[0][1].startswith("Piétinement")
    assert results[1][0] == "regles-2004-5.html#r502-9"  # then the rule of that name
    assert browser.find_element("css selector", "#resultats li.understood").is_displayed()
    browser.find_element("id", "recherche").send_keys(Keys.ENTER)
    WebDriverWait(browser, 5).until(lambda d: d.current_url.endswith("glossaire.html#g-pietinement"))


@pytest.mark.parametrize("typed, first, note", PLAYERS_WORDS)
def test_a_players_word_leads_to_what_it_names(browser, folder, typed, first, note):
    notes, results = _search(browser, folder, typed)
    assert notes == [f"Compris\u00a0: {note}"]
    assert results[0][0] == first


@pytest.mark.parametrize("typed, first, note", TYPOS)
def test_a_typo_finds_the_name_it_misspells(browser, folder, typed, first, note):
    notes, results = _search(browser, folder, typed)
    assert results[0][0] == first
    assert notes == [f"Compris\u00a0: {note}"]


def test_a_players_word_in_a_longer_query(browser, folder):
    notes, results = _search(browser, folder, "dégâts de trample")
    assert notes == ["Compris\u00a0: dégâts → Blessures ; trample → Piétinement"]
    assert results and all(href.startswith("regles-2004-5.html#r502-9") for href, _ in results[:4])


def test_the_documents_words_are_read_as_they_are(browser, folder):
    """A word of the documents is no player's word and no typo: no note, the entry of that name first."""
    notes, results = _search(browser, folder, "vol")
    assert notes == [] and results[0][0] == "glossaire.html#g-vol"
    notes, results = _search(browser, folder, "xyzzy")
    assert notes == [] and results == []
    assert "Aucun résultat pour" in browser.find_element("id", "resultats").text


# --- the navigation ------------------------------------------------------------------------------


@pytest.mark.parametrize("page", START_PAGES)
def test_every_page_of_the_navigation_is_in_reach(browser, folder, page):
    """At 390 px, the menu (opened by its button) holds every other page, each link whole on the
    screen and on top; at 1280 px the strip does, and the menu is not shown."""
    _open(browser, folder, page)
    menu = browser.find_element("css selector", ".book-bar details.menu")
    strip = browser.find_element("css selector", ".book-bar nav.pages")
    if browser.size_name == "phone":
        assert not strip.is_displayed()
        summary = menu.find_element("css selector", "summary")
        assert browser.execute_script(_REACHABLE, summary) == ""
        summary.click()
        assert menu.get_attribute("open") is not None
        links = menu.find_elements("css selector", "nav.menu a")
    else:
        assert not menu.is_displayed()
        links = strip.find_elements("css selector", "a")
    assert sorted(link.get_attribute("href").rpartition("/")[2] for link in links) == _other_pages(folder, page)
    for link in links:
        assert link.is_displayed(), link.text
        assert browser.execute_script(_REACHABLE, link) == "", link.text
        assert link.size["height"] >= 44, link.text
    width, inner = browser.execute_script("return [document.documentElement.scrollWidth, innerWidth];")
    assert width <= inner  # nothing cut, nothing beyond the edge


def test_each_link_of_the_navigation_leads_to_its_page(browser, folder):
    """Glossaire, FAQ, Cours, every chapter: tapped from the glossary, each opens its page."""
    for target in _other_pages(folder, GLOSSARY):
        _open(browser, folder, GLOSSARY)
        if browser.size_name == "phone":
            browser.find_element("css selector", "details.menu summary").click()
            link = browser.find_element("css selector", f'details.menu nav.menu a[href="{target}"]')
        else:
            link = browser.find_element("css selector", f'nav.pages a[href="{target}"]')
        link.click()
        WebDriverWait(browser, 5).until(lambda d, t=target: d.current_url.endswith("/" + t))


def test_the_menu_closes_on_a_tap_elsewhere_and_on_escape(phone, folder):
    _open(phone, folder, "regles-2004-4.html")
    menu = phone.find_element("css selector", "details.menu")
    menu.find_element("css selector", "summary").click()
    assert menu.get_attribute("open") is not None
    spot = phone.execute_script(  # a point of the page below the open menu, on no link
        """const below = document.querySelector('details.menu nav.menu').getBoundingClientRect().bottom;
        for (let y = innerHeight - 5; y > below; y -= 5) for (let x = 20; x < innerWidth; x += 30) {
          const hit = document.elementFromPoint(x, y); if (hit && !hit.closest('a, summary')) return [x, y]; }
        return null;"""
    )
    tap = ActionBuilder(phone)
    tap.pointer_action.move_to_location(*spot).click()
    tap.perform()
    assert menu.get_attribute("open") is None
    menu.find_element("css selector", "summary").click()
    phone.find_element("css selector", "body").send_keys(Keys.ESCAPE)
    assert menu.get_attribute("open") is None
    menu.find_element("css selector", "summary").click()
    phone.find_element("id", "recherche").click()  # searching closes it too
    assert menu.get_attribute("open") is None


def _node(driver, selector: str, every: bool = False):
    """The DevTools node id(s) of ``selector`` (no script of the page's: they may be off); each
    call reads the document anew, and the ids of an earlier call are no longer valid."""
    root = driver.execute_cdp_cmd("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    if every:
        return driver.execute_cdp_cmd("DOM.querySelectorAll", {"nodeId": root, "selector": selector})["nodeIds"]
    return driver.execute_cdp_cmd("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]


def _attributes(driver, node) -> dict[str, str]:
    """A node's attributes, by name (as :func:`_node` found it: the next call renumbers the nodes)."""
    found = driver.execute_cdp_cmd("DOM.getAttributes", {"nodeId": node})["attributes"]
    return dict(zip(found[0::2], found[1::2]))


def _box(driver, node):
    """``(x, y, width, height)`` of a node's border box, or None when it is not rendered."""
    try:
        model = driver.execute_cdp_cmd("DOM.getBoxModel", {"nodeId": node})["model"]
    except WebDriverException:
        return None
    xs, ys = model["border"][0::2], model["border"][1::2]
    return min(xs), min(ys), model["width"], model["height"]


def _tap(driver, box) -> None:
    x, y = box[0] + box[2] / 2, box[1] + box[3] / 2
    for kind in ("mousePressed", "mouseReleased"):
        driver.execute_cdp_cmd(
            "Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}
        )


def test_the_menu_opens_without_javascript(phone, folder):
    """With scripts off, the search box stays hidden and the menu, a ``<details>``, still opens and
    leads to every page (read and tapped through DevTools, which need no script of the page)."""
    phone.get((folder / INDEX).as_uri())
    phone.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    try:
        phone.refresh()
        assert _box(phone, _node(phone, "form.search")) is None  # livre.js did not run: the box stays hidden
        assert _box(phone, _node(phone, ".book-bar nav.pages")) is None  # the strip is for wider screens
        assert "open" not in _attributes(phone, _node(phone, "details.menu"))
        summary = _box(phone, _node(phone, "details.menu summary"))
        assert summary is not None and summary[3] >= 44
        _tap(phone, summary)
        assert "open" in _attributes(phone, _node(phone, "details.menu"))
        links = {
            _attributes(phone, node)["href"]: _box(phone, node)
            for node in _node(phone, "details.menu nav.menu a", every=True)
        }
        assert sorted(links) == _other_pages(folder, INDEX)
        height = SIZES["phone"][1]
        assert all(box is not None and box[3] >= 44 and 0 <= box[1] and box[1] + box[3] <= height
                   for box in links.values()), links  # fmt: skip
        _tap(phone, links["cours-2.html"])
        WebDriverWait(phone, 5).until(lambda d: d.current_url.endswith("/cours-2.html"))
    finally:
        phone.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})
