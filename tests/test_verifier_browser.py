"""The verifier's board built by tapping (issue 37), in a real browser: headless Chromium at 390
CSS pixels (a phone) and 1280 (a desktop), with JavaScript and once without. « ma 2/2 avec 2
blessures » and « Humilité + Opalescence » are built by clicking and typing in the forms; the
TOML shown and the file downloaded are checked again by the library, with the same result; at
phone width nothing is wider than the screen and every tap target is at least 44 px high."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ready
from selenium.webdriver.support.ui import Select, WebDriverWait

from rules_kb import serialize
from rules_kb.checker.report import check_scenario, example
from rules_kb.checker.scenario import parse_scenario
from tests.conftest import CHROMEDRIVER, CHROMIUM
from tests.test_serve_browser import SIZES, _fits, server  # noqa: F401 (the served app, a module fixture)


@pytest.fixture(scope="module", params=list(SIZES))
def browser(request, chromium):
    return chromium(*SIZES[request.param])


@pytest.fixture(scope="module")
def no_script():
    """A phone-sized headless Chromium that runs no JavaScript (its content setting, as a user turns it
    off), opened like conftest's ``chromium`` windows."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    width, height = SIZES["phone"]
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 f"--window-size={width},{height}"):  # fmt: skip
        options.add_argument(flag)
    options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_window_size(width, height)
    yield driver
    driver.quit()


def tap(browser, element) -> None:
    """Scroll ``element`` to the middle of the window (clear of the sticky buttons), then click it."""
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def field(browser, name: str):
    return browser.find_element(By.ID, name)


def type_in(browser, name: str, text: str) -> None:
    box = field(browser, name)
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
    box.clear()
    box.send_keys(text)


def choose(browser, name: str, value: str) -> None:
    select = field(browser, name)
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", select)
    Select(select).select_by_value(value)


def tick(browser, name: str, value: str) -> None:
    """Tick the box of ``value`` by tapping its label (the chip a finger touches)."""
    box = browser.find_element(By.CSS_SELECTOR, f'input[name="{name}"][value="{value}"]')
    if not box.is_selected():
        tap(browser, box.find_element(By.XPATH, "./ancestor::label"))
    assert box.is_selected()


def press(browser, value: str) -> None:
    """Press the form's button ``value`` (``check``, ``add-effect``, ``remove-player-1``…)."""
    tap(browser, browser.find_element(By.CSS_SELECTOR, f'form.check button[name="action"][value="{value}"]'))


def result(browser) -> str:
    WebDriverWait(browser, 20).until(ready.presence_of_element_located((By.ID, "resultat")))
    return " ".join(browser.find_element(By.TAG_NAME, "main").text.split())


def shown_toml(browser) -> str:
    return browser.find_element(By.ID, "toml-resultat").get_attribute("textContent")


def report_of(kb, text: str) -> dict:
    return serialize.check_dict(check_scenario(kb, parse_scenario(text)))


def build_the_2_2(browser, base: str) -> None:
    """« ma 2/2 avec 2 blessures » : one player (Bob removed), a 2/2 creature with 2 damage."""
    browser.get(base + "/verifier")
    _fits(browser)
    press(browser, "remove-player-1")
    WebDriverWait(browser, 10).until(lambda driver: not driver.find_elements(By.ID, "player-1-name"))
    type_in(browser, "permanent-0-name", "Ours runegriffe")
    tick(browser, "permanent-0-card_types", "créature")
    for name, value in (("power", "2"), ("toughness", "2"), ("damage", "2")):
        type_in(browser, f"permanent-0-{name}", value)
    _fits(browser)
    press(browser, "check")


def test_a_2_2_with_2_damage_built_by_tapping_is_destroyed(browser, server, kb):  # noqa: F811
    build_the_2_2(browser, server)
    text = result(browser)
    assert "420.5c (vérification 1) Ours runegriffe : détruit" in text
    assert "Ours runegriffe — créature, 2/2, contrôleur Alice : cimetière" in text
    _fits(browser)
    report = report_of(kb, shown_toml(browser))  # the TOML shown, checked by the library: the same result
    assert [(e["rule"], e["names"]) for r in report["rounds"] for e in r["events"]] == [("420.5c", ["Ours runegriffe"])]
    copy = browser.find_element(By.CSS_SELECTOR, "button.copy")
    assert copy.is_displayed()  # JavaScript shows the copy button


@pytest.mark.parametrize("first", ["humility", "opalescence"])
def test_humility_and_opalescence_built_by_tapping(browser, server, kb, first):  # noqa: F811
    """418.5b (2004): whichever came first, Humilité (a 4/4 creature by Opalescence in layer 4) is
    1/1 with no abilities, like the bear; Opalescence is no creature — the bundled example's result."""
    browser.get(server + "/verifier")
    type_in(browser, "permanent-0-name", "Ours runegriffe")
    tick(browser, "permanent-0-card_types", "créature")
    type_in(browser, "permanent-0-power", "2")
    type_in(browser, "permanent-0-toughness", "2")
    second = "opalescence" if first == "humility" else "humility"
    for index, kind in enumerate((first, second)):
        press(browser, "add-effect")
        WebDriverWait(browser, 10).until(
            lambda driver, index=index: driver.find_elements(By.ID, f"effect-{index}-kind")
        )
        choose(browser, f"effect-{index}-kind", kind)
    assert field(browser, "effect-0-controller").is_displayed() and not field(browser, "effect-0-target").is_displayed()
    _fits(browser)
    press(browser, "check")
    text = result(browser)
    assert "Humilité — créature-enchantement, 1/1" in text and "Ours runegriffe — créature, 1/1" in text
    assert "Opalescence — enchantement, contrôleur Alice : en jeu" in text
    assert "Aucun effet basé sur un état ne s'applique." in text
    _fits(browser)
    toml = shown_toml(browser)
    assert toml.index('name = "Humilité"') < toml.index('name = "Opalescence"') or first == "opalescence"
    seen = {entry["name"]: entry for entry in report_of(kb, toml)["characteristics"].values()}
    bundled = report_of(kb, example("couches-humilite-opalescence").text)["characteristics"]
    wanted = {entry["name"]: (entry["power"], entry["toughness"]) for entry in bundled.values()}
    assert {name: (seen[name]["power"], seen[name]["toughness"]) for name in ("Humilité", "Opalescence")} == {
        name: wanted[name] for name in ("Humilité", "Opalescence")
    }
    stamps = {entry["name"]: entry["timestamp"] for entry in report_of(kb, toml)["initial"]["permanents"]}
    assert (stamps["Humilité"] < stamps["Opalescence"]) == (first == "humility")  # the order of entry


def test_the_downloaded_toml_checks_the_same(chromium, server, kb, tmp_path):  # noqa: F811
    browser = chromium(*SIZES["phone"])
    browser.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(tmp_path)})
    build_the_2_2(browser, server)
    result(browser)
    shown = shown_toml(browser)
    tap(browser, browser.find_element(By.CSS_SELECTOR, "section.scenario button[value=download]"))
    deadline = time.monotonic() + 20
    while not list(tmp_path.glob("*.toml")):
        assert time.monotonic() < deadline, list(tmp_path.iterdir())
        time.sleep(0.1)
    downloaded = next(tmp_path.glob("*.toml"))
    time.sleep(0.2)
    text = Path(downloaded).read_text(encoding="utf-8")
    assert downloaded.name == "scenario.toml" and text == shown
    assert report_of(kb, text)["rounds"] == report_of(kb, shown)["rounds"]
    assert report_of(kb, text)["rounds"][0]["events"][0]["label"] == "détruit"


def test_the_board_works_without_javascript(no_script, server, kb):  # noqa: F811
    """Every button a round trip to the server: the board travels in the form's fields."""
    build_the_2_2(no_script, server)
    text = result(no_script)
    assert "420.5c (vérification 1) Ours runegriffe : détruit" in text
    assert not no_script.find_element(By.CSS_SELECTOR, "button.copy").is_displayed()  # no script ran
    press(no_script, "add-effect")
    WebDriverWait(no_script, 10).until(lambda driver: driver.current_url.endswith("#effect-0"))
    choose(no_script, "effect-0-kind", "bonus")
    assert field(no_script, "effect-0-power").is_displayed() and not field(no_script, "effect-0-color").is_displayed()
    choose(no_script, "effect-0-target", no_script.find_element(By.NAME, "permanent-0-ref").get_attribute("value"))
    type_in(no_script, "effect-0-power", "0")
    type_in(no_script, "effect-0-toughness", "1")
    _fits(no_script)
    press(no_script, "check")
    text = result(no_script)
    assert "Aucun effet basé sur un état ne s'applique." in text and "Ours runegriffe — créature, 2/3" in text
    report = report_of(kb, shown_toml(no_script))
    assert not any(round_["events"] for round_ in report["rounds"])
    _fits(no_script)


def test_javascript_adds_and_removes_rows_without_a_round_trip(browser, server):  # noqa: F811
    """With JavaScript: rows come from the page's templates (no reload), take the next timestamp
    and a new player's name, the lists follow the names typed, an effect removed renumbers the
    others; the board so built is read by the server as the same rows."""
    browser.get(server + "/verifier")
    browser.execute_script("window.sansRechargement = 42")
    press(browser, "add-permanent")
    assert field(browser, "permanent-1-timestamp").get_attribute("value") == "2"
    type_in(browser, "permanent-1-name", "Ours runegriffe")
    press(browser, "add-player")
    assert field(browser, "player-2-name").get_attribute("value") == "Chloé"
    controllers = [option.text for option in Select(field(browser, "permanent-0-controller")).options]
    assert controllers == ["Alice", "Bob", "Chloé"]
    for _ in range(2):
        press(browser, "add-effect")
    targets = [option.get_attribute("textContent") for option in Select(field(browser, "effect-1-target")).options]
    assert "Ours runegriffe" in targets and "toutes les créatures" in targets
    choose(browser, "effect-0-kind", "opalescence")
    choose(browser, "effect-1-kind", "bonus")
    choose(browser, "effect-1-target", browser.find_element(By.NAME, "permanent-1-ref").get_attribute("value"))
    type_in(browser, "effect-1-power", "1")
    type_in(browser, "effect-1-toughness", "1")
    assert "Opalescence" in [o.get_attribute("textContent") for o in Select(field(browser, "effect-1-target")).options]
    choose(browser, "effect-0-kind", "switch")  # not a card: removed in place (a card goes through the server)
    assert "Opalescence" not in [
        o.get_attribute("textContent") for o in Select(field(browser, "effect-1-target")).options
    ]
    tap(browser, browser.find_element(By.CSS_SELECTOR, 'button[value="remove-effect-0"]'))
    assert not browser.find_elements(By.ID, "effect-1-kind")
    assert Select(field(browser, "effect-0-kind")).first_selected_option.get_attribute("value") == "bonus"
    assert browser.find_element(By.CSS_SELECTOR, "#effect-0 .row-title").text == "Effet n°1"
    assert browser.execute_script("return window.sansRechargement") == 42  # never reloaded
    type_in(browser, "permanent-1-toughness", "2")
    type_in(browser, "permanent-1-power", "2")
    tick(browser, "permanent-1-card_types", "créature")
    press(browser, "check")
    text = result(browser)
    assert "Ours runegriffe — créature, 3/3, contrôleur Alice : en jeu" in text
    _fits(browser)
