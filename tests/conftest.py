"""Shared fixtures: the real corpus, its parse, a knowledge base with its cache
in a temporary folder, and a runner for the command line."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from indexer.rules_inline import parse_inline_rules
from rules_kb.core.corpus import bundled_corpus, load_manifest

CORPUS = bundled_corpus()
FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="session", autouse=True)
def rules_kb_home(tmp_path_factory):
    """Every test writes its caches under a temporary RULES_KB_HOME."""
    home = tmp_path_factory.mktemp("rules-kb-home")
    previous = os.environ.get("RULES_KB_HOME")
    os.environ["RULES_KB_HOME"] = str(home)
    os.environ.pop("RULES_KB_CORPUS", None)
    yield home
    if previous is None:
        os.environ.pop("RULES_KB_HOME", None)
    else:
        os.environ["RULES_KB_HOME"] = previous


@pytest.fixture(scope="session")
def documents():
    return {document.id: document for document in load_manifest(CORPUS)}


@pytest.fixture(scope="session")
def text_2004(documents):
    return Path(documents["cr-2004"].path).read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def parsed_2004(text_2004):
    return parse_inline_rules(text_2004, "cr-2004", "2004")


@pytest.fixture(scope="session")
def rules_2004(parsed_2004):
    return {rule.number: rule for rule in parsed_2004.rules}


@pytest.fixture(scope="session")
def kb(rules_kb_home):
    from rules_kb import loader

    return loader.open()


def flat(text: str) -> str:
    """``text`` as one line: the frame of an error panel (Rich's box characters) and line breaks removed."""
    return " ".join(re.sub("[│╭╮╰╯─]", " ", text).split())


@dataclass
class CliResult:
    exit_code: int
    stdout: str
    stderr: str

    @property
    def error(self) -> str:
        """Standard error on one line (:func:`flat`)."""
        return flat(self.stderr)

    def json(self):
        return json.loads(self.stdout)


@pytest.fixture
def endless_stdin(monkeypatch) -> list[int]:
    """Standard input that never ends (``#`` bytes): only ``read(n)`` may stop
    it. Returns the list of the sizes read from it, to check a reader stops
    at its limit."""
    import io
    import sys

    given: list[int] = []

    class Endless(io.RawIOBase):
        def readable(self):
            return True

        def readinto(self, buffer):
            buffer[:] = b"#" * len(buffer)
            given.append(len(buffer))
            return len(buffer)

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(Endless())))
    return given


@pytest.fixture
def run_cli(capsys, kb):
    """Run ``rules-kb ARGS…`` in this process; returns exit code and outputs."""
    from cli.app import run as run_app

    def run(*args: str) -> CliResult:
        capsys.readouterr()
        code = run_app(list(args))
        out, err = capsys.readouterr()
        return CliResult(code, out, err)

    return run


#: Debian's Chromium and its driver (packages chromium and chromium-driver), which the README's test
#: command installs; Selenium never downloads a browser here.
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


@pytest.fixture(scope="session")
def chromium():
    """A headless Chromium driven by Selenium: ``chromium(width, height)`` opens a window of that
    size (CSS pixels) and returns its WebDriver; every window is closed at the end of the session.
    Phone: 390 × 844; desktop: 1280 × 900."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    drivers = []

    def open_window(width: int = 1280, height: int = 900):
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in (
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
            "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
            f"--window-size={width},{height}", "--allow-file-access-from-files",
        ):  # fmt: skip
            options.add_argument(flag)
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        driver.set_window_size(width, height)
        drivers.append(driver)
        return driver

    yield open_window
    for driver in drivers:
        driver.quit()


@pytest.fixture(scope="module")
def client(kb):
    """The web app and its API on the bundled corpus, in this process (Starlette's TestClient; any Host)."""
    from starlette.testclient import TestClient

    from rules_kb.serve.app import create_app

    with TestClient(create_app(kb)) as client:
        yield client


@pytest.fixture(scope="module")
def openapi_document(client) -> dict:
    """The OpenAPI document, as the API serves it."""
    answer = client.get("/api/openapi.json")
    assert answer.status_code == 200
    return answer.json()
