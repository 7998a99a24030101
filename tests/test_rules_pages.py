"""The 2011 one-section rule pages (corpus/regles-2011-*.txt), and the same form in HTML."""

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from indexer.html import html_to_text
from indexer.rules_pages import parse_rule_pages

FIXTURES = Path(__file__).parent / "fixtures"


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.fixture(scope="module")
def page_611(documents):
    text = Path(documents["cr-2011-611"].path).read_text(encoding="utf-8")
    return text, parse_rule_pages(text, "cr-2011-611", "2011")


@pytest.fixture(scope="module")
def page_201(documents):
    text = Path(documents["cr-2011-201"].path).read_text(encoding="utf-8")
    return text, parse_rule_pages(text, "cr-2011-201", "2011")


def test_section_611(page_611):
    _, parsed = page_611
    numbers = [rule.number for rule in parsed.rules]
    assert numbers == [
        "611", "611.1", "611.2", "611.2a", "611.2b", "611.2c", "611.2d", "611.3", "611.3a", "611.3b", "611.3c",
    ]  # fmt: skip
    rules = {rule.number: rule for rule in parsed.rules}
    assert rules["611"].title == "Effets continus"  # the chapter's name before " : " is left out
    assert rules["611.2a"].text.startswith("Un effet continu créé par la résolution")
    assert rules["611.2a"].edition == "2011" and rules["611.2a"].parent == "611.2"
    assert len(rules["611.2c"].examples) == 2 and rules["611.2c"].examples[0].startswith("Un effet qui dit")
    assert "Exemple" not in rules["611.2c"].text
    assert rules["611.2"].children == ("611.2a", "611.2b", "611.2c", "611.2d")
    assert parsed.diagnostics == ()


def test_run_in_rule_is_split_out(page_201):
    _, parsed = page_201
    rules = {rule.number: rule for rule in parsed.rules}
    assert rules["201.2"].text.endswith("est la même.")
    assert rules["201.3"].text.startswith("Si un effet demande à un joueur de nommer une carte")
    assert rules["201.3"].source.line_start == rules["201.2"].source.line_end == 37
    assert rules["201"].children == ("201.1", "201.2", "201.3", "201.4", "201.5")
    assert [d.code for d in parsed.diagnostics] == ["run-in-rule"]
    assert len(rules["201.4b"].examples) == 3


@pytest.mark.parametrize("page", ["page_611", "page_201"])
def test_no_text_lost(page, request):
    text, parsed = request.getfixturevalue(page)
    start = parsed.body[0]
    spans = "".join(text[r.source.char_start : r.source.char_end] for r in parsed.rules)
    assert _squash(spans) == _squash(text[start:])
    for rule in parsed.rules[1:]:
        source = _squash(text[rule.source.char_start : rule.source.char_end])
        printed = re.match(r"\d{3}\.\d+[a-z]?\.?", source).group(0)
        examples = "".join("Exemple:" + _squash(x) for x in rule.examples)
        assert source == printed + _squash(rule.text) + examples, rule.number


def test_html_rules_page():
    text = html_to_text((FIXTURES / "rules_page.html").read_bytes())
    assert "ne pas lire" not in text and "margin" not in text
    assert "\n611.1.\n" in text
    parsed = parse_rule_pages(text, "html", "2011")
    rules = {rule.number: rule for rule in parsed.rules}
    assert list(rules) == ["611", "611.1", "611.2", "611.3", "611.3a"]
    assert rules["611.3a"].text == "L’effet s’applique à tout moment <sans exception> & partout."
    assert rules["611.3a"].examples[0].startswith("Un permanent avec « Toutes")
    assert rules["611.1"].text.endswith("; il dure plus ou moins longtemps.")


def test_page_without_section_heading():
    parsed = parse_rule_pages("Rien ici.\n", "x", "2011")
    assert parsed.rules == () and parsed.diagnostics[0].code == "missing-section-heading"


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300))
def test_any_text_gives_a_result(text):
    parsed = parse_rule_pages("611. Titre : Effets\n\n611.1.\n\n" + text, "x", "2011")
    assert parsed.rules[0].number == "611"
