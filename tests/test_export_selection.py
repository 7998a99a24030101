"""Export selections: numbers, sections, ranges as typed, terms, cards,
searches and questions, read against the real corpus."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_kb.core.errors import ExportError, UnknownEditionError, UnknownRuleError, UnknownTermError
from rules_kb.export.selection import (
    SelectionError,
    SelectionRequest,
    UnknownCardError,
    find_card,
    parse_items,
    select,
)


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        (["420.5c"], [("420.5c", "420.5c")]),
        (["420.5C."], [("420.5c", "420.5c")]),
        (["420"], [("420", "420")]),
        (["4"], [("4", "4")]),
        (["418.5a-i"], [("418.5a", "418.5i")]),
        (["418.5b-418.5g"], [("418.5b", "418.5g")]),
        (["409.1a à 409.1h"], [("409.1a", "409.1h")]),
        (["409.1a", "à", "409.1h"], [("409.1a", "409.1h")]),  # the shell splits an unquoted range
        (["418.5a – 418.5c"], [("418.5a", "418.5c")]),
        (["306-311"], [("306", "311")]),
        (["420.5,418.5a-c", "101"], [("420.5", "420.5"), ("418.5a", "418.5c"), ("101", "101")]),
    ],
)
def test_numbers_and_ranges_as_typed(typed, expected):
    assert [(item.first, item.last) for item in parse_items(typed)] == expected


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        (["42x"], "« 42x » n'est ni un numéro de règle ni une plage"),
        (["420.5k-a"], "va à l'envers"),
        (["418.5-c"], "ne commence pas par une sous-règle"),
        (["418.5a-l"], "n'est pas un numéro de règle"),  # l is never a subrule letter
        (["règle"], "« règle » n'est ni un numéro"),
    ],
)
def test_unreadable_selection_is_a_french_error(typed, message):
    with pytest.raises(SelectionError, match=message):
        parse_items(typed)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789.,;-–à abcdefghijklmnopqrstuvwxyzABC\u00a0", max_size=40))
def test_any_selection_text_gives_items_or_a_french_error(text):
    try:
        items = parse_items([text])
    except SelectionError as error:
        assert str(error)
    else:
        for item in items:
            assert item.first and item.last


def _numbers(selection):
    return [rule.number for rule in selection.rules]


def test_a_number_selects_its_rule_and_every_subrule(kb):
    selection = select(kb, SelectionRequest(items=("420.5",)))
    assert _numbers(selection) == ["420.5"] + [f"420.5{letter}" for letter in "abcdefghijk"]
    assert selection.items[0].label == "règle 420.5 et ses 11 sous-règles"


def test_a_section_selects_all_its_rules(kb):
    numbers = _numbers(select(kb, SelectionRequest(items=("420",))))
    assert numbers[0] == "420" and "420.5c" in numbers and "420.1" in numbers
    assert all(number == "420" or number.startswith("420.") for number in numbers)


def test_ranges_of_subrules(kb):
    assert _numbers(select(kb, SelectionRequest(items=("418.5a-i",)))) == [f"418.5{c}" for c in "abcdefghi"]
    assert _numbers(select(kb, SelectionRequest(items=("418.5b-418.5g",)))) == [f"418.5{c}" for c in "bcdefg"]
    assert _numbers(select(kb, SelectionRequest(items=("409.1a", "à", "409.1h")))) == [f"409.1{c}" for c in "abcdefgh"]


def test_a_range_of_sections_includes_the_last_one_whole(kb):
    numbers = _numbers(select(kb, SelectionRequest(items=("306-307",))))
    assert numbers[0] == "306" and "307" in numbers
    assert all(n.split(".")[0] in ("306", "307") for n in numbers)
    assert any(n.startswith("307.") for n in numbers)


def test_rule_order_and_no_duplicates(kb):
    selection = select(kb, SelectionRequest(items=("420.5c", "418.5a-c", "420.5", "418.5b")))
    assert _numbers(selection) == ["418.5a", "418.5b", "418.5c", "420.5"] + [f"420.5{c}" for c in "abcdefghijk"]


def test_a_missing_range_end_is_a_warning(kb):
    selection = select(kb, SelectionRequest(items=("420.5a-z",)))
    assert _numbers(selection)[-1] == "420.5k"
    assert "420.5z n'existe pas" in selection.warnings[0]


def test_other_editions_come_after_the_newest_complete_one(kb):
    selection = select(kb, SelectionRequest(items=("611.3a", "418.5a")))
    assert [rule.key for rule in selection.rules] == ["2004:418.5a", "2011:611.3a"]
    assert selection.editions == ("2004", "2011")


def test_edition_option(kb):
    selection = select(kb, SelectionRequest(items=("502.16",), edition="2006-faq"))
    assert {rule.edition for rule in selection.rules} == {"2006-faq"}
    with pytest.raises(UnknownEditionError):
        select(kb, SelectionRequest(items=("420.5",), edition="1999"))


def test_unknown_number_names_the_nearest(kb):
    with pytest.raises(UnknownRuleError, match="Numéros les plus proches"):
        select(kb, SelectionRequest(items=("420.5z",)))


def test_a_term_selects_its_entry_and_the_rules_it_cites(kb):
    selection = select(kb, SelectionRequest(terms=("Couche",)))
    assert [entry.term for entry in selection.glossary] == ["Couche"]
    assert "418.5a" in _numbers(selection)  # Couche cites 418.5, whose subrules list the layers
    with pytest.raises(UnknownTermError):
        select(kb, SelectionRequest(terms=("zzzzqx",)))


def test_a_card_selects_its_entry_keywords_and_cited_rules(kb):
    selection = select(kb, SelectionRequest(cards=("guide grifon",)))  # case and a typo tolerated
    assert [card.name for card in selection.cards] == ["Guide griffon"]
    assert "502.4a" in _numbers(selection)  # the card has flying: 502.4
    with pytest.raises(UnknownCardError, match="Aucune carte de la FAQ"):
        find_card(kb, "Dragon de test inexistant")


def test_search_and_question_select_the_rules_they_find(kb):
    searched = select(kb, SelectionRequest(searches=("blessures fatales",), limit=3))
    assert len(searched.rules) <= 3 and "420.5c" in _numbers(searched)
    asked = select(kb, SelectionRequest(questions=("ma 2/2 a pris 2 dégâts",)))
    assert "420.5c" in _numbers(asked)
    assert any("420.5c" in line for line in asked.items[0].outcome)


def test_a_question_alone_keeps_the_order_ask_gave(kb):
    """``export --ask``: the rule that decides first, as ``ask`` ranks it, not in rule order."""
    from rules_kb.ask import ask

    question = "ma 2/2 a pris 2 dégâts elle meurt ?"
    ranked = [rule.number for rule in ask(kb, question).rules]
    asked = select(kb, SelectionRequest(questions=(question,)))
    assert _numbers(asked) == ranked and ranked[0] == "420.5c"


def test_empty_request_is_an_error(kb):
    with pytest.raises(ExportError, match="Rien à exporter"):
        select(kb, SelectionRequest(items=("  ",)))
