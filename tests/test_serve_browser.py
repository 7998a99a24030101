"""``rules-kb serve`` in a real browser (headless Chromium, at 1280 and 390
CSS pixels): the search box lands on the right page, suggestions come as one
types, the check page gives its trace; at phone width nothing is wider than
the screen and every tap target is at least 44 px high."""

from __future__ import annotations

import threading
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as ready
from selenium.webdriver.support.ui import WebDriverWait

SIZES = {"desktop": (1280, 900), "phone": (390, 844)}
#: Every element a finger taps, visible on the page; but the links inside a rule's sentences (WCAG 2.5.8's
#: « inline » exception: their size is the line's; each also has its own line under « Cite » or « Termes »).
_TARGETS = """
return Array.from(document.querySelectorAll('a, button, input, summary, textarea, select'))
  .filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden' && !e.closest('.rule-text'))
  .map(e => { const r = e.getBoundingClientRect(); return [e.tagName, (e.textContent || e.name || '').trim().slice(0, 30), r.width, r.height]; });
"""
#: Elements reaching beyond the right edge of the window.
_TOO_WIDE = """
const width = document.documentElement.clientWidth;
return Array.from(document.querySelectorAll('body *'))
  .filter(e => e.getClientRects().length && e.getBoundingClientRect().right > width + 0.5)
  .map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right));
"""


@pytest.fixture(scope="module")
def server(kb):
    """The app served by uvicorn in a thread on a free loopback port; yields its base URL."""
    import uvicorn

    from rules_kb.serve.app import create_app, listening_socket, warm_up

    sock = listening_socket("127.0.0.1", 0)
    warm_up(kb)
    config = uvicorn.Config(create_app(kb), log_level="warning", access_log=False, lifespan="off")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    port = sock.getsockname()[1]
    deadline = time.monotonic() + 20
    while not running.started:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    running.should_exit = True
    thread.join(10)
    sock.close()


@pytest.fixture(scope="module", params=list(SIZES))
def browser(request, chromium):
    return chromium(*SIZES[request.param])


def _search(browser, base: str, typed: str) -> None:
    browser.get(base + "/")
    box = browser.find_element(By.ID, "q")
    box.send_keys(typed)
    box.send_keys(Keys.ENTER)
    WebDriverWait(browser, 10).until(
        lambda driver: "/aller" not in driver.current_url and driver.current_url != base + "/"
    )


def _fits(browser) -> None:
    """At the window's width: no horizontal scroll, nothing beyond the edge, tap targets ≥ 44 px high."""
    width = browser.execute_script("return document.documentElement.clientWidth")
    assert browser.execute_script("return document.documentElement.scrollWidth") <= width
    assert browser.execute_script(_TOO_WIDE) == []
    small = [target for target in browser.execute_script(_TARGETS) if target[3] < 44 or target[2] < 24]
    assert small == [], small


@pytest.mark.parametrize(
    ("typed", "path", "heading"),
    [
        ("420.5c", "/regle/420.5c", "420.5c"),
        ("piétinement", "/definition", "Piétinement"),
        ("couche", "/definition", "Couche"),
        ("trample", "/definition", "Piétinement"),
        ("ma 2/2 a pris 2 dégâts elle meurt ?", "/question", "Question"),
    ],
)
def test_the_search_box_lands_on_the_right_page(browser, server, typed, path, heading):
    _search(browser, server, typed)
    assert browser.current_url.startswith(server + path)
    assert heading in browser.find_element(By.TAG_NAME, "h1").text
    _fits(browser)


def test_a_question_answers_with_the_rules(browser, server):
    _search(browser, server, "il a trample et je bloque avec une 1/1")
    numbers = [link.text for link in browser.find_elements(By.CSS_SELECTOR, "ol.rules a.number")]
    assert numbers and all(number.startswith("502.9") for number in numbers)
    _search(browser, server, "ma 2/2 a pris 2 dégâts elle meurt ?")
    assert "420.5c" in browser.find_element(By.CSS_SELECTOR, "section.verdict").text
    _fits(browser)


def test_the_rule_page(browser, server):
    browser.get(server + "/regle/420.5c")
    assert "blessures fatales" in browser.find_element(By.CSS_SELECTOR, "article.rule").text
    term = browser.find_element(By.CSS_SELECTOR, "details.term")
    assert not term.find_element(By.TAG_NAME, "p").is_displayed()
    term.find_element(By.TAG_NAME, "summary").click()  # the definition, on tap
    assert term.find_element(By.TAG_NAME, "p").is_displayed()
    _fits(browser)
    browser.get(server + "/regle/502.9")
    _fits(browser)


def test_a_check_example_gives_its_trace(browser, server):
    browser.get(server + "/verifier")
    _fits(browser)
    browser.find_element(By.CSS_SELECTOR, 'a[href="/verifier?exemple=blessures-fatales"]').click()
    assert "Ours runegriffe" in browser.find_element(By.ID, "scenario").get_attribute("value")
    browser.find_element(By.CSS_SELECTOR, "form.check button").click()
    WebDriverWait(browser, 10).until(ready.presence_of_element_located((By.CSS_SELECTOR, "ol.layers")))
    trace = browser.find_element(By.TAG_NAME, "main").text
    assert "Couche 6" in trace and "420.5c" in trace and "420.5d" in trace
    _fits(browser)


def test_the_glossary_and_the_home_page_fit(browser, server):
    for path in ("/", "/glossaire", "/recherche?q=Guide+griffon&type=carte", "/nulle-part"):
        browser.get(server + path)
        _fits(browser)


def test_suggestions_as_you_type(browser, server):
    browser.get(server + "/")
    browser.find_element(By.ID, "q").send_keys("piétinem")
    suggestions = WebDriverWait(browser, 10).until(ready.visibility_of_element_located((By.ID, "suggestions")))
    links = [link.get_attribute("href") for link in suggestions.find_elements(By.TAG_NAME, "a")]
    assert any("/definition?terme=Pi%C3%A9tinement" in link for link in links)  # an unfinished word
    suggestions.find_element(By.CSS_SELECTOR, "a[href*='/definition']").click()
    WebDriverWait(browser, 10).until(lambda driver: "/definition" in driver.current_url)
    assert "Piétinement" in browser.find_element(By.TAG_NAME, "h1").text
    browser.get(server + "/")
    browser.find_element(By.ID, "q").send_keys("420.5")
    suggestions = WebDriverWait(browser, 10).until(ready.visibility_of_element_located((By.ID, "suggestions")))
    suggestions.find_element(By.CSS_SELECTOR, "a[href*='/regle/420.5c']").click()
    WebDriverWait(browser, 10).until(lambda driver: "/regle/420.5c" in driver.current_url)
    _fits(browser)


def test_no_console_errors_and_no_csp_violation(browser, server):
    browser.get_log("browser")  # what the tests before left (the 404 page's own status)
    browser.get(server + "/regle/420.5c")
    browser.find_element(By.ID, "q").send_keys("couche")
    time.sleep(0.5)
    logs = browser.get_log("browser")
    assert [entry for entry in logs if entry["level"] == "SEVERE"] == []
