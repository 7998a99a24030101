"""Rule numbers: parsing, canonical form, document order and succession."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_kb.core.errors import RulesKbError
from rules_kb.core.numbers import SUBRULE_LETTERS, Level, RuleNumber, RuleNumberError


@pytest.mark.parametrize(
    ("text", "canonical", "level"),
    [
        ("420.5c", "420.5c", Level.SUBRULE),
        ("420.5c.", "420.5c", Level.SUBRULE),
        (" 420.5C ", "420.5c", Level.SUBRULE),
        ("420.5.", "420.5", Level.RULE),
        ("502.10", "502.10", Level.RULE),
        ("420", "420", Level.SECTION),
        ("420.", "420", Level.SECTION),
        ("4", "4", Level.CHAPTER),
    ],
)
def test_parse_gives_canonical_number_and_level(text, canonical, level):
    number = RuleNumber.parse(text)
    assert str(number) == canonical
    assert number.level is level


@pytest.mark.parametrize("text", ["", "abc", "42", "4200", "420.5l", "420.5o", "420.5cc", "420..5", "-420"])
def test_parse_rejects_what_is_not_a_rule_number(text):
    with pytest.raises(RuleNumberError) as raised:
        RuleNumber.parse(text)
    assert isinstance(raised.value, RulesKbError)
    assert "n'est pas un numéro de règle" in str(raised.value)


def test_document_order():
    printed = ["4", "400", "400.1", "418", "418.5", "418.5a", "418.5i", "418.6", "419", "5", "500"]
    numbers = [RuleNumber.parse(n) for n in printed]
    assert numbers == sorted(numbers)
    assert RuleNumber.parse("502.2") < RuleNumber.parse("502.10")


def test_successors_skip_l_and_o():
    assert RuleNumber.parse("502.15m") in RuleNumber.parse("502.15k").successors()
    assert RuleNumber.parse("502.15p") in RuleNumber.parse("502.15n").successors()
    assert "l" not in SUBRULE_LETTERS and "o" not in SUBRULE_LETTERS


def test_successors_of_each_level():
    assert [str(n) for n in RuleNumber.parse("4").successors()] == ["400"]
    assert [str(n) for n in RuleNumber.parse("420").successors()] == ["420.1"]
    assert [str(n) for n in RuleNumber.parse("420.5").successors()] == ["420.5a", "420.6", "421", "5", "500"]
    assert "420.5d" in [str(n) for n in RuleNumber.parse("420.5c").successors()]


def test_parent_chain():
    number = RuleNumber.parse("420.5c")
    chain = []
    while number is not None:
        chain.append(str(number))
        number = number.parent
    assert chain == ["420.5c", "420.5", "420", "4"]


valid_numbers = st.builds(
    lambda section, rule, letter: f"{section}.{rule}{letter}",
    st.integers(100, 999),
    st.integers(1, 99),
    st.sampled_from(["", *SUBRULE_LETTERS]),
)


@given(valid_numbers)
def test_canonical_form_round_trips(text):
    assert str(RuleNumber.parse(text)) == text
    assert RuleNumber.parse(str(RuleNumber.parse(text))) == RuleNumber.parse(text)


@given(st.text(max_size=30))
def test_any_string_parses_or_raises_the_french_error(text):
    try:
        number = RuleNumber.parse(text)
    except RuleNumberError as error:
        assert error.text == text
    else:
        assert RuleNumber.parse(str(number)) == number
