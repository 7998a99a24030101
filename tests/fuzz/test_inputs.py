"""Issue 23: inputs that cannot crash it — property tests of what a user types.

Each test feeds any text (control characters, escape sequences, huge
numbers, Whoosh's operators and fields, Rich markup) and asserts that only
the project's documented errors escape. Kept short (a few seconds each);
``RULES_KB_FUZZ=N`` runs N times as many examples (:func:`tests.fuzz.campaign`).
"""

from __future__ import annotations

import re
import tomllib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_kb.ask import ask
from rules_kb.ask.facts import SOURCE, board, extract_facts
from rules_kb.checker.report import examples
from rules_kb.checker.scenario import parse_scenario
from rules_kb.checker.scenario_writer import scenario_to_toml
from rules_kb.core.errors import QueryError, RulesKbError
from rules_kb.core.numbers import RuleNumber, RuleNumberError
from rules_kb.lookup.rules import show
from rules_kb.search import search
from tests.fuzz import campaign
from tests.fuzz.test_documents import damaged
from tests.scenarios import unplaced

#: Pieces a hostile or careless user types, mixed with ordinary words.
_PIECES = [
    "blessures", "fatales", "créature", "420.5c", "2/2", "ma", "sa", "3/3", "prend", "-1/-1", "+1/+1", "marqueurs",
    "poison", "pv", "-1", "0", "dégâts", "AND", "OR", "NOT", "ANDNOT", "ANDMAYBE", "REQUIRE", "NEAR", "(", ")",
    '"', "'", "line:5", "depth:2", "about:x", "titre:", "^2", "[/bold]", "[b]", "\x1b[31m", "\x7f", "\x00", "\x01",
    "\t", "\n", "\u2028", "\ud800", "1" * 4400, "9" * 5000, "420." + "1" * 4400, "*", "?", "{", "}", "~2",
]  # fmt: skip
_QUERIES = st.one_of(
    st.lists(st.sampled_from(_PIECES), min_size=1, max_size=6).map(" ".join),
    st.text(min_size=1, max_size=40),
)
_FUZZ = campaign(60)


@pytest.mark.parametrize("query", ["line:5", "depth:2", "about:x", "blessures ANDNOT ANDMAYBE fatales", "NOT AND blessures )",
                                   'NEAR ANDNOT ("'])  # fmt: skip
def test_the_issues_queries_are_refused_in_french(kb, query):
    with pytest.raises(QueryError, match="n'est pas accepté"):
        search(kb, query)


@pytest.mark.parametrize(
    "query", ['"blessures fatales', "(blessures) fatales", "blessures ^ fatales", "[blessures] {fatales}"]
)
def test_other_signs_are_read_as_words(kb, query):
    assert search(kb, query, limit=3).hits


@_FUZZ
@given(query=_QUERIES)
def test_any_search_answers_or_refuses_clearly(kb, query):
    try:
        result = search(kb, query, limit=3)
    except QueryError as error:
        assert str(error).startswith("La recherche")
    else:
        assert len(result.hits) <= 3


@given(
    text=st.one_of(
        st.text(max_size=30), st.sampled_from(_PIECES), st.from_regex(r"[1-9]\d{2}\.\d{4,5000}[a-z]?", fullmatch=True)
    )
)
def test_any_rule_number_parses_or_is_refused(text):
    try:
        number = RuleNumber.parse(text)
    except RuleNumberError as error:
        assert "n'est pas un numéro de règle" in str(error)
    else:
        assert number.chapter >= 0


@_FUZZ
@given(text=st.one_of(st.sampled_from(_PIECES), st.text(max_size=20)))
def test_any_show_answers_or_refuses_clearly(kb, text):
    try:
        show(kb, text)
    except RulesKbError as error:
        assert str(error)


@campaign(150)
@given(parts=st.lists(st.sampled_from(_PIECES + ["a", "avec", "reçoit", "marqueur", "endurance de", "à"]), max_size=8))
def test_facts_build_only_what_the_loader_accepts(parts):
    """Control characters, DEL, huge or negative numbers: the board's file reads back as the board, and
    loads with the question in its comment (a question longer than ask takes may pass the loader's line bound)."""
    question = " ".join(parts)
    facts = extract_facts(question)
    if facts.checkable:
        built = board(facts, question, "2004").scenario
        assert unplaced(parse_scenario(scenario_to_toml(built), SOURCE)) == unplaced(built)
        tomllib.loads(scenario_to_toml(built, f"avant\n{question}\naprès"))


@pytest.mark.parametrize(
    "question", ["ma 2/2 \x1b[31m reçoit \x7f 3 blessures \x01", "ma 2/2 a -1 marqueurs poison", "ma 2/2 avec " + "9" * 1500 + " marqueurs +1/+1"]
)  # fmt: skip
def test_ask_keeps_its_rules_whatever_the_question(kb, question):
    answer = ask(kb, question, limit=3, dense=False)
    assert answer.rules


_HOSTILE = st.lists(
    st.sampled_from(["a", " ", "\x00", "\x01", "\x1b[31m", "\x7f", "\x85", "\ud800", "\ufffe", "[/b]", "é"]), max_size=8
).map("".join)


@campaign(30)
@given(note=_HOSTILE, search_text=_HOSTILE, term=_HOSTILE)
def test_any_note_search_or_term_exports_to_html(kb, note, search_text, term):
    """Control characters in --note, --search or --term crashed lxml; now they are replaced."""
    from lxml import html as lxml_html

    from rules_kb.export import export_excerpt
    from rules_kb.export.selection import SelectionRequest

    request = SelectionRequest(items=("420.5c",), searches=(f"blessures {search_text}",), terms=(f"Blessures{term}",))
    try:
        exported = export_excerpt(kb, request, format="html", note=note)
    except RulesKbError as error:
        assert str(error)
    else:
        assert lxml_html.fromstring(exported.data).xpath("//article")


@campaign(100)  # each run sets what it reads (monkeypatch)
@given(text=_HOSTILE)
def test_no_escape_sequence_reaches_the_terminal(text, monkeypatch):
    """Corpus or user text printed by the CLI: its control characters are made visible, in a terminal or not."""
    import io

    from cli.output import Console, Text

    for terminal in ("1", ""):
        monkeypatch.setenv("TTY_COMPATIBLE", terminal)
        monkeypatch.delenv("FORCE_COLOR", raising=False)
        stream = io.StringIO()
        monkeypatch.setattr("sys.stdout", stream)
        Console().print(Text(f"« {text} »", "bold"), text)
        written = stream.getvalue()
        if terminal:  # Rich's own style codes aside
            written = re.sub(r"\x1b\[[0-9;]*m", "", written)
        assert not any(character in written for character in "\x00\x01\x1b\x7f\x85")


_PAGE_LINES = ["611. Sorts, capacités et effets : Effets continus", "611.1", "611.2a", "611.3l", "611.3o.", "000. Titre",
               "611." + "1" * 5000, "Un effet continu. 611.4 Si un effet", "Exemple : x", "", "texte \x01 \x7f"]  # fmt: skip


@campaign(80)
@given(lines=st.lists(st.sampled_from(_PAGE_LINES), max_size=12))
def test_a_rules_page_parses_whatever_its_numbers(lines):
    """Issue 23: a 2011 page with "611.3l" made every command fail; bad numbers are diagnostics naming the line."""
    from indexer.rules_pages import parse_rule_pages

    text = "\n".join(lines)
    parsed = parse_rule_pages(text, "page", "2011")
    for diagnostic in parsed.diagnostics:
        assert diagnostic.document == "page" and diagnostic.line >= 1 and len(diagnostic.message) < 300


def test_a_bad_number_in_the_real_page_names_its_line():
    from pathlib import Path

    from indexer.rules_pages import parse_rule_pages

    page = (Path(__file__).parents[2] / "corpus" / "regles-2011-611-effets-continus.txt").read_text(encoding="utf-8")
    assert "\n611.3a\n" in page
    parsed = parse_rule_pages(page.replace("\n611.3a\n", "\n611.3l\n", 1), "regles-2011-611", "2011")
    (bad,) = [d for d in parsed.diagnostics if d.code == "bad-rule-number"]
    assert "« 611.3l »" in bad.message and page[: page.index("\n611.3a\n")].count("\n") + 2 == bad.line
    assert "611.3a" not in [str(rule.number) for rule in parsed.rules]


@_FUZZ
@given(text=_QUERIES)
def test_any_define_answers_or_refuses_clearly(kb, text):
    from rules_kb.lookup.glossary import define

    try:
        define(kb, text)
    except RulesKbError as error:
        assert str(error)


@_FUZZ
@given(item=_QUERIES, term=st.sampled_from(["", "Blessures", "[/b]\x01"]))
def test_any_export_selection_is_made_or_refused_clearly(kb, item, term):
    from rules_kb.export.selection import SelectionRequest, select

    try:
        select(kb, SelectionRequest(items=(item,), terms=(term,) if term else ()))
    except RulesKbError as error:
        assert str(error)


@campaign(150)
@given(text=st.one_of(st.text(max_size=60), st.lists(st.sampled_from(
    ["[[player]]", 'name = "A"', "life = " + "9" * 5000, "poison = -1", "[[permanent]]", 'id = "x"', "power = 2",
     "toughness = \x7f", 'name = "\x1b[31m"', "=", "[", '"', "\n"]), max_size=10).map("\n".join)))  # fmt: skip
def test_any_scenario_text_loads_or_is_refused_clearly(text):
    from rules_kb.checker.scenario import ScenarioError

    try:
        parse_scenario(text, "essai")
    except ScenarioError as error:
        assert str(error).startswith("Scénario")


@campaign(80)
@given(text=damaged([line for found in examples() for line in found.text.splitlines()]))
def test_a_damaged_example_scenario_checks_or_is_refused_clearly(kb, text):
    """The bundled examples cut, repeated, swapped and salted: a report, or the scenario's French errors."""
    from rules_kb.checker.report import check_scenario
    from rules_kb.checker.scenario import ScenarioError

    try:
        scenario = parse_scenario(text, "essai")
    except ScenarioError as error:
        assert str(error).startswith("Scénario") and len(str(error)) < 5000
    else:
        assert check_scenario(kb, scenario) is not None
