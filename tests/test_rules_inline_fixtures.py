"""The inline rules parser on small fixtures and on generated input."""

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from indexer.rules_inline import find_body, parse_inline_rules
from rules_kb.core.numbers import RuleNumber
from tests.conftest import FIXTURES


def _parse_fixture():
    text = (FIXTURES / "inline_rules.txt").read_text(encoding="utf-8")
    return text, parse_inline_rules(text, "fixture", "test")


def test_fixture_numbers_in_order():
    _, parsed = _parse_fixture()
    assert [rule.number for rule in parsed.rules] == [
        "1",
        "100",
        "100.1",
        "100.2",
        "100.2a",
        "100.2b",
        "101",
        "101.1",
        "101.2",
        "101.3",
        "101.3a",
    ]


def test_table_of_contents_makes_no_rules_and_glossary_is_outside():
    text, parsed = _parse_fixture()
    start, end = parsed.body
    assert text[start:].startswith("1. Le jeu\n100. Généralités")
    assert text[end:].startswith("Glossaire")


def test_number_mid_line_after_a_sentence_starts_a_rule():
    _, parsed = _parse_fixture()
    rules = {rule.number: rule for rule in parsed.rules}
    assert rules["100.1"].text == "Une règle qui cite la règle 101.2 et se termine."
    assert rules["100.2"].text.startswith("Une règle dont le numéro suit au milieu de la ligne")
    assert rules["100.2"].source.line_start == rules["100.1"].source.line_start


def test_french_typography_is_kept():
    _, parsed = _parse_fixture()
    rules = {rule.number: rule for rule in parsed.rules}
    assert "« guillemets » et l’apostrophe typographique." in rules["100.2"].text
    assert "insécable\u00a0: ici." in rules["100.2b"].text.replace(" :", "\u00a0:")


def test_reference_at_line_start_is_not_a_rule():
    _, parsed = _parse_fixture()
    rules = {rule.number: rule for rule in parsed.rules}
    assert "100.3" not in rules
    assert rules["100.2a"].text == "Une sous-règle qui renvoie ailleurs. Voir règle 100.3."


def test_examples_including_a_split_label():
    _, parsed = _parse_fixture()
    rules = {rule.number: rule for rule in parsed.rules}
    assert rules["100.2"].examples == ("un exemple qui continue sur deux lignes.",)
    assert rules["100.2b"].examples == ("un exemple dont le libellé est coupé.",)


def test_misnumbered_rule_gets_its_place_and_keeps_its_printed_number():
    _, parsed = _parse_fixture()
    rules = {rule.number: rule for rule in parsed.rules}
    assert rules["101.2"].printed_number == "101.3"
    assert rules["101.2"].text == "Une règle imprimée avec le numéro d'une autre."
    assert rules["101.3"].printed_number == "101.3"
    assert rules["101.3"].text == "La vraie règle 101.3."
    [diagnostic] = parsed.diagnostics
    assert (diagnostic.document, diagnostic.line, diagnostic.code) == ("fixture", 24, "misnumbered-rule")


def test_document_without_table_of_contents():
    text = "Titre\n100. Généralités\n100.1. Une règle.\n100.2. Une autre.\nGlossaire\nTerme\n"
    parsed = parse_inline_rules(text, "doc", "test")
    assert [rule.number for rule in parsed.rules] == ["100", "100.1", "100.2"]
    assert text[parsed.body[1] :].startswith("Glossaire")


def test_text_without_rules():
    parsed = parse_inline_rules("Rien de numéroté ici.\n", "doc", "test")
    assert parsed.rules == () and parsed.diagnostics == ()
    assert find_body("") == (0, 0)


# Generated documents: a valid numbering with random texts, joined by a line
# break or by a space after a full stop (headings end their line), must be
# parsed back exactly.

_words = st.text(alphabet="abcdeéèfghijklmnopqrstuvwxyz", min_size=1, max_size=8)
_sentence = st.lists(_words, min_size=1, max_size=8).map(lambda words: " ".join(words).capitalize() + ".")


@st.composite
def _documents(draw):
    number = RuleNumber.parse("100")
    numbers = [number]
    for _ in range(draw(st.integers(1, 25))):
        choices = [n for n in number.successors() if n.level.value >= 1 and n.section < 1000]
        number = draw(st.sampled_from(choices))
        numbers.append(number)
        if number.level.value == 1 and len(numbers) > 1:
            numbers.append(RuleNumber(number.chapter, number.section, 1))
            number = numbers[-1]
    parts = []
    for position, number in enumerate(numbers):
        separator = "" if position == 0 else draw(st.sampled_from(["\n", " "]))
        if position and numbers[position - 1].level.value == 1:
            separator = "\n"  # a heading has no full stop: what follows starts a line
        if number.level.value == 1:
            separator = "\n" if position else ""
            body = draw(_words).capitalize()
        else:
            body = draw(_sentence)
        dot = "." if number.level.value < 3 else draw(st.sampled_from(["", "."]))
        parts.append(f"{separator}{number}{dot} {body}")
    return numbers, "".join(parts) + "\n"


@settings(max_examples=150, deadline=None)
@given(_documents())
def test_generated_documents_parse_back(document):
    numbers, text = document
    parsed = parse_inline_rules(text, "gen", "test")
    assert [rule.number for rule in parsed.rules] == [str(n) for n in numbers]
    assert parsed.diagnostics == ()


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("0123456789.abcl Voirègle\n:EXempl")), max_size=300))
def test_any_input_gives_rules_that_tile_the_body(text):
    parsed = parse_inline_rules(text, "any", "test")
    start, end = parsed.body
    assert 0 <= start <= end <= len(text)
    position = start
    for rule in parsed.rules:
        assert rule.source.char_start == position
        assert text.startswith(rule.printed_number, rule.source.char_start)
        position = rule.source.char_end
    if parsed.rules:
        assert position == end
    numbers = [RuleNumber.parse(rule.number) for rule in parsed.rules]
    assert numbers == sorted(set(numbers))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=400))
def test_any_unicode_input_never_crashes(text):
    parsed = parse_inline_rules(text, "any", "test")
    for diagnostic in parsed.diagnostics:
        assert re.match(r"La règle imprimée", diagnostic.message) or diagnostic.code != "misnumbered-rule"


def test_blanks_before_the_first_heading_are_not_part_of_the_body():
    """Found by the property test above: ' 0. 0' left the leading blank in no rule."""
    text = " 0. 0"
    parsed = parse_inline_rules(text, "any", "test")
    assert parsed.body == (1, 5)
    assert [(rule.number, rule.source.char_start) for rule in parsed.rules] == [("0", 1)]
