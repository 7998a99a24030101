"""The numbered rules of the real 2004 document (corpus/regles-completes-2004.txt)."""

import itertools
import re

from rules_kb.core.numbers import Level, RuleNumber

_LABEL_RE = re.compile(r"Exemples?\s*:")


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_every_level_is_parsed(parsed_2004):
    levels = {level: 0 for level in Level}
    for rule in parsed_2004.rules:
        levels[rule.level] += 1
    assert levels[Level.CHAPTER] == 5
    assert levels[Level.SECTION] == 69  # 100–104, 200–217, 300–314, 400–422, 500–507
    assert levels[Level.RULE] == 323
    assert levels[Level.SUBRULE] == 374


def test_numbering_is_strictly_increasing_and_complete(parsed_2004):
    numbers = [RuleNumber.parse(rule.number) for rule in parsed_2004.rules]
    assert numbers[0] == RuleNumber.parse("1")
    assert str(numbers[-1]) == "507.4"
    for previous, current in itertools.pairwise(numbers):
        assert previous < current
        assert current in previous.successors(), f"{current} ne suit pas {previous}"


def test_each_number_once(parsed_2004):
    numbers = [rule.number for rule in parsed_2004.rules]
    assert len(numbers) == len(set(numbers))


def test_every_parent_exists_and_lists_its_children(rules_2004):
    for rule in rules_2004.values():
        if rule.level is Level.CHAPTER:
            assert rule.parent == ""
            continue
        parent = rules_2004[rule.parent]
        assert rule.number in parent.children
        assert parent.number == str(RuleNumber.parse(rule.number).parent)
    for rule in rules_2004.values():
        for child in rule.children:
            assert rules_2004[child].parent == rule.number


def test_no_rule_is_invented(parsed_2004, text_2004):
    """Every rule starts, in the source, with the number it was printed with."""
    for rule in parsed_2004.rules:
        start = rule.source.char_start
        assert text_2004.startswith(rule.printed_number, start), rule.number
        line = text_2004.count("\n", 0, start) + 1
        assert line == rule.source.line_start


def test_no_text_is_lost(parsed_2004, text_2004):
    """The rules' source spans tile the rules body, and each rule's title, text
    and examples hold every non-blank character of its span (the number and
    the "Exemple :" labels aside)."""
    body_start, body_end = parsed_2004.body
    rules = parsed_2004.rules
    assert rules[0].source.char_start == body_start
    assert rules[-1].source.char_end == body_end
    for previous, current in itertools.pairwise(rules):
        assert previous.source.char_end == current.source.char_start
    for rule in rules:
        raw = text_2004[rule.source.char_start : rule.source.char_end]
        raw = raw[len(rule.printed_number) :].removeprefix(".")
        expected = rule.title + rule.text + "".join(rule.examples)
        assert _squash(_LABEL_RE.sub("", raw)) == _squash(expected), rule.number


def test_body_skips_table_of_contents_and_stops_at_glossary(parsed_2004, text_2004):
    body_start, body_end = parsed_2004.body
    before = text_2004[:body_start]
    assert "Table des matières" in before
    assert before.count("418.5. Interaction des effets") == 1  # the TOC entry
    assert text_2004[body_end:].startswith("Glossaire")


def test_line_start_numbers_are_rules_unless_references(parsed_2004, text_2004):
    """An independent scan: a number opening a line whose previous line does
    not end with a reference word ("règle", "voir", "et"…) starts a rule."""
    body_start, body_end = parsed_2004.body
    starts = {rule.source.char_start for rule in parsed_2004.rules}
    offset = body_start
    previous_line = ""
    for line in text_2004[body_start:body_end].split("\n"):
        match = re.match(r"\d{3}(?:\.\d+[a-z]?)?\.?(?=\s|$)", line)
        follows_reference = re.search(r"(r[èe]gles?|voir|et|à)\s*$", previous_line, re.IGNORECASE)
        if match and not follows_reference:
            assert offset in starts, line
        offset += len(line) + 1
        previous_line = line


def test_known_texts(rules_2004):
    assert rules_2004["420.5c"].text.startswith("Une créature avec des blessures fatales")
    assert rules_2004["420"].title == "Effets basés sur un état"
    assert rules_2004["418.5"].title == "Interaction des effets continus"
    assert rules_2004["418.5"].text == ""
    assert rules_2004["1"].title == "Le jeu"
    assert rules_2004["205.3"].title == "Sous-types"  # printed without a dot
    assert rules_2004["102.8"].text.startswith("Si un joueur a dix marqueurs poison")


def test_lines_are_rejoined(rules_2004):
    text = rules_2004["420.5c"].text
    assert "\n" not in text
    assert "blessures fatales sont une quantité de blessures supérieure à zéro" in text


def test_examples_belong_to_the_rule_before_them(rules_2004):
    rule = rules_2004["103.4"]
    assert len(rule.examples) == 1
    assert rule.examples[0].startswith('une carte dit "Chaque joueur sacrifie une créature."')
    assert "Exemple" not in rule.text
    assert len(rules_2004["507.3"].examples) == 3
    assert rules_2004["104.2"].examples[1].startswith("si vous ne contrôlez aucun permanent")


def test_references_stay_in_the_text(rules_2004):
    assert rules_2004["104.4"].text.endswith("Voir règle 212.3d.")
    assert "Voir règle 420.)" in rules_2004["102.1"].text
    assert "409.1a à 409.1h de la règle 409" in rules_2004["503.12"].text


def test_misnumbered_rule_is_placed_by_the_sequence(rules_2004, parsed_2004):
    misplaced = rules_2004["502.11d"]
    assert misplaced.printed_number == "502.10d"
    assert misplaced.parent == "502.11"
    assert misplaced.text.startswith("Des exemplaires multiples du regroupement avec les autres")
    genuine = rules_2004["502.10d"]
    assert genuine.printed_number == "502.10d"
    assert genuine.parent == "502.10"
    diagnostics = [d for d in parsed_2004.diagnostics if d.code == "misnumbered-rule"]
    assert len(diagnostics) == 1
    assert diagnostics[0].line == misplaced.source.line_start == 3191
    assert "502.10d" in diagnostics[0].message and "502.11d" in diagnostics[0].message


def test_only_the_misnumbering_is_diagnosed(parsed_2004):
    assert [d.code for d in parsed_2004.diagnostics] == ["misnumbered-rule"]
