"""``rules-kb mcp``: the MCP server over stdio, driven by the SDK's own client
(a real ``rules-kb mcp`` process), and its tools called in process with any
arguments: a result or a French tool error, never an exception."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_kb.operations import Front
from rules_kb.serve import mcp as server

SCRIPT = Path(sys.executable).with_name("rules-kb")
#: In the order of their declarations (rules_kb.operations.OPERATIONS).
TOOL_NAMES = ["show_rule", "search_rules", "define_term", "ask_rules", "check_scenario"]

#: What the session asks, by label: (tool, arguments).
CALLS = {
    "show": ("show_rule", {"number": "420.5c"}),
    "show_section": ("show_rule", {"number": "420.5", "edition": "2004"}),
    "unknown_rule": ("show_rule", {"number": "999.9"}),
    "not_a_number": ("show_rule", {"number": 420}),
    "define": ("define_term", {"term": "pietinement"}),
    "search": ("search_rules", {"query": "blessures fatales", "limit": 3}),
    "ask": ("ask_rules", {"question": "ma 2/2 a pris 2 dégâts, elle meurt ?"}),
    "check": ("check_scenario", {"example": "blessures-fatales"}),
    "bad_scenario": ("check_scenario", {"scenario": "[[permanent]]\nid = 3\n"}),
    "unknown_tool": ("rules_everything", {}),
}


async def _session(quiet) -> dict:
    """Start ``rules-kb mcp`` (its standard error to ``quiet``), list its tools, make every call of :data:`CALLS`."""
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    parameters = StdioServerParameters(command=str(SCRIPT), args=["mcp"], env=dict(os.environ))
    async with stdio_client(parameters, errlog=quiet) as (read, write), ClientSession(read, write) as session:
        info = await session.initialize()
        tools = (await session.list_tools()).tools
        results = {label: await session.call_tool(name, arguments) for label, (name, arguments) in CALLS.items()}
    return {"info": info, "tools": tools, "results": results}


@pytest.fixture(scope="module")
def session(kb):  # kb: the cache is built before the server opens it
    import anyio

    with open(os.devnull, "w") as quiet:
        return anyio.run(_session, quiet)


def _data(result) -> dict:
    """A successful result's JSON document; its text and its structured content agree."""
    assert not result.is_error, result.content[0].text
    data = json.loads(result.content[0].text)
    assert data == result.structured_content
    return data


def _error(result) -> str:
    assert result.is_error
    text = result.content[0].text
    assert result.structured_content["error"]["message"] == text
    assert "Traceback" not in text and "Error executing" not in text
    return text


def test_the_server_starts_and_lists_the_five_tools_in_french(session):
    assert session["info"].server_info.name == "rules-kb"
    assert "citations" in session["info"].instructions
    tools = {tool.name: tool for tool in session["tools"]}
    assert list(tools) == TOOL_NAMES
    assert all("« citations »" in tool.description for tool in tools.values())
    assert tools["show_rule"].input_schema["required"] == ["number"]
    assert tools["search_rules"].input_schema["properties"]["limit"]["maximum"] == 200  # as on the CLI and HTTP
    assert tools["show_rule"].annotations.read_only_hint is True


def test_show_rule_gives_the_rule_text_verbatim(session, kb):
    data = _data(session["results"]["show"])
    rule = kb.rule("420.5c", "2004")
    assert data["rule"]["number"] == "420.5c" and data["rule"]["text"] == rule.text
    assert data["citations"] == [{"number": "420.5c", "edition": "2004", "title": rule.title, "text": rule.text}]
    assert "blessures fatales" in data["citations"][0]["text"]
    assert {"context", "subrules", "cites", "cited_by", "versions"} <= set(data)  # the shape of show --json
    section = _data(session["results"]["show_section"])
    cited = [citation["number"] for citation in section["citations"]]
    assert cited[0] == "420.5" and "420.5c" in cited and cited[1:] == [rule["number"] for rule in section["subrules"]]


def test_an_unknown_rule_is_a_french_tool_error_and_the_server_goes_on(session):
    text = _error(session["results"]["unknown_rule"])
    assert "Aucune règle ne porte le numéro « 999.9 »" in text
    assert session["results"]["unknown_rule"].structured_content["error"]["type"] == "UnknownRuleError"
    assert _error(session["results"]["not_a_number"]) == "L'argument « number » de show_rule doit être un texte."
    assert "Outil inconnu : « rules_everything »" in _error(session["results"]["unknown_tool"])
    assert not session["results"]["check"].is_error  # calls after the errors were answered


def test_define_search_ask_check_cite_rules_verbatim(session, kb):
    for label in ("define", "search", "ask", "check"):
        data = _data(session["results"][label])
        assert data["citations"], label
        for citation in data["citations"]:
            assert citation["text"] == kb.rule(citation["number"], citation["edition"]).text, (label, citation)
    assert _data(session["results"]["define"])["entry"]["term"] == "Piétinement"
    search = _data(session["results"]["search"])
    rule_hits = [hit["id"] for hit in search["hits"] if hit["kind"] == "rule"]
    assert "420.5c" in rule_hits and [citation["number"] for citation in search["citations"]] == rule_hits
    assert "420.5c" in [citation["number"] for citation in _data(session["results"]["ask"])["citations"]]
    check = _data(session["results"]["check"])
    assert check["outcome"]["losers"] == [] and "420.5c" in [citation["number"] for citation in check["citations"]]


def test_a_bad_scenario_lists_its_mistakes_in_french(session):
    text = _error(session["results"]["bad_scenario"])
    assert "clé obligatoire absente" in text
    problems = session["results"]["bad_scenario"].structured_content["error"]["problems"]
    assert {problem["key"] for problem in problems} >= {"name", "controller", "id"}


# -- in process: the handlers on any arguments -----------------------------------------------

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3),
    max_leaves=6,
)
_WORDS = st.sampled_from(["420.5c", "420", "4", "2004", "règle", "carte", "blessures", "pietinement", "ma 2/2 meurt",
                          "", " ", "42O.5", "502.10", "[[player]]\nname = \"Alice\"", "blessures-fatales", "∞"])  # fmt: skip


def _arguments(name: str):
    """Arguments for ``name``: its own parameters with plausible or arbitrary values, and strangers."""
    params = (
        [param.name_on(Front.MCP) for param in server._BY_NAME[name].params] if name in server._BY_NAME else ["number"]
    )
    value = _WORDS | _JSON | st.integers(-3, 60) | st.lists(_WORDS, max_size=3)
    return st.dictionaries(st.sampled_from([*params, "extra"]), value, max_size=4) | st.none() | _JSON


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([*TOOL_NAMES, "unknown", ""]).flatmap(lambda name: st.tuples(st.just(name), _arguments(name))))
def test_any_arguments_give_a_result_or_a_french_error(kb, call):
    name, arguments = call
    result = server.call(kb, name, arguments)
    assert isinstance(result.data, dict)
    json.dumps(result.data)  # what the client receives
    if result.error:
        message = result.data["error"]["message"]
        assert message == result.text and message.strip() and "Traceback" not in message
    else:
        assert json.loads(result.text) == result.data
        assert all(set(citation) == {"number", "edition", "title", "text"} for citation in result.data["citations"])


def test_arguments_are_checked_in_french(kb):
    tool = server._BY_NAME["search_rules"]
    assert server.arguments(tool, {"query": "a", "limit": 3.0, "edition": " "}) == {
        "query": "a", "limit": 3, "edition": None, "kinds": (),
    }  # fmt: skip
    for arguments, expected in [
        ({"query": "a", "limit": True}, "doit être un nombre entier de 1 à 200"),
        ({"query": "a", "kinds": "règle"}, "doit être une liste"),
        ({"query": "a", "typo": 1}, "Argument inconnu pour search_rules : « typo »"),
        ({"limit": 2}, "Il manque l'argument « query »"),
        ({"query": "x" * 2001}, "trop long : 2001 caractères, 2000 au plus"),
        ({"query": "a\udc80"}, "caractères invalides"),
    ]:
        result = server.call(kb, "search_rules", arguments)
        assert result.error and expected in result.text, (arguments, result.text)


def test_errors_say_what_to_try_with_the_tools(kb):
    assert (
        "Essayez aussi l'outil search_rules avec « zzzqqq »." in server.call(kb, "define_term", {"term": "zzzqqq"}).text
    )
    both = server.call(kb, "check_scenario", {"scenario": "title = 'x'", "example": "poison"})
    assert both.error and "un seul des deux" in both.text


def test_a_bug_in_a_tool_is_a_french_tool_error_and_the_server_goes_on(kb, monkeypatch, capsys):
    """The server in process (the SDK's in-memory client): a tool that raises
    an unexpected exception answers in French; the next call is answered."""
    import anyio
    from mcp import Client

    calls = server.call

    def broken(kb, name, arguments):
        if name == "define_term":
            raise KeyError("oups")
        return calls(kb, name, arguments)

    monkeypatch.setattr(server, "call", broken)

    async def drive():
        async with Client(server.server(kb)) as client:
            return await client.call_tool("define_term", {"term": "couche"}), await client.call_tool(
                "show_rule", {"number": "420.5c"}
            )

    failed, answered = anyio.run(drive)
    assert failed.is_error and failed.content[0].text.startswith(
        "Erreur interne de rules-kb dans define_term (KeyError)"
    )
    assert "KeyError: 'oups'" in capsys.readouterr().err
    assert not answered.is_error and answered.structured_content["citations"][0]["number"] == "420.5c"
