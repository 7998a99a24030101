"""``rules-kb mcp`` always answers: raw JSON-RPC lines, malformed ones
included, written to a real server's standard input (the cases of
``bench/mcp_probe.py``), each answered within 1 s by a JSON-RPC error or a
tool result, in French, the session going on; notifications get no reply.
Then :func:`rules_kb.serve.mcp.screen` in process: whatever it lets through,
the SDK's transport takes."""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from bench.mcp_probe import (
    BEFORE_INITIALIZE,
    CASES,
    ENGLISH,
    HANDSHAKE,
    TIMEOUT,
    Wire,
    case,
    probe,
    reply_text,
    request,
    run_case,
    tool,
)
from rules_kb.serve import mcp as server

#: A normal call made after each case: the server goes on serving.
AFTER = case("normal: show_rule after", tool("after", "show_rule", {"number": "420.5c"}), "result", "after")
#: How long a normal tool call may take on a loaded machine (the 1 s bound is for the refusals).
SLOW = 10.0


@pytest.fixture(scope="module")
def wire(kb):  # kb: the cache is built before the server opens it
    wire = Wire()
    wire.handshake()
    yield wire
    wire.close()


def _check(outcome) -> None:
    assert outcome.in_time, f"{outcome.case.label}: no reply within the timeout"
    assert not outcome.problems, (outcome.case.label, outcome.problems, outcome.replies)


@pytest.mark.parametrize("raw", CASES, ids=[raw.label for raw in CASES])
def test_each_raw_line_is_answered_in_time_in_french_and_the_server_goes_on(wire, raw):
    outcome = run_case(wire, raw, SLOW if raw.kind == "result" else TIMEOUT)
    _check(outcome)  # in time; the kind, the ids and a French fragment expected; no English
    for reply in outcome.replies:
        assert set(reply) == {"jsonrpc", "id", "error"} or set(reply) == {"jsonrpc", "id", "result"}, reply
        if "error" in reply:
            assert isinstance(reply["error"]["code"], int) and reply["error"]["message"].strip()
    if raw.answered and raw.kind.startswith("-32"):  # what to try: an example, a tool, a method or a remedy
        text = reply_text(outcome.replies[0])
        assert any(word in text for word in ("Envoyez", "Donnez", "Ajoutez", "exemple", "tools/list", "doit")), text
    _check(run_case(wire, AFTER, SLOW))


def test_a_request_before_initialize_is_refused_in_french_then_the_handshake_works(kb):
    fresh = Wire()
    try:
        _check(run_case(fresh, BEFORE_INITIALIZE, 60))  # the server's start may take seconds
        _check(run_case(fresh, HANDSHAKE[0], SLOW))
    finally:
        code, errors = fresh.close()
    assert code == 0 and "Traceback" not in errors


def test_the_probe_passes_and_says_refusals_in_one_french_line_each(kb):
    outcomes, errors = probe()
    assert [outcome.case.label for outcome in outcomes if outcome.problems] == []
    assert "Traceback" not in errors
    sent = [outcome.case.line for outcome in outcomes]
    screened = [len(raw) > server.MAX_LINE or server.screen(raw.decode("utf-8", "replace")) for raw in sent]
    refused = [line for line in errors.splitlines() if line.startswith("rules-kb mcp : refusé (")]
    assert len(refused) == sum(map(bool, screened)) and all(len(line) < 250 for line in refused)
    assert "rules-kb mcp : notification « notifications/cancelled » ignorée" in errors  # the SDK's log, in French
    assert not any(english in errors for english in ENGLISH + ("dropped",))


# -- random lines over the wire ----------------------------------------------------------------

_TEXT = st.text(max_size=12) | st.sampled_from(["\ud800", "a\udfffb", "é", "\x00", "420.5c", "blessures", "\t"])
_SCALAR = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | _TEXT
_JSON = st.recursive(
    _SCALAR, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3), max_leaves=8
)
_ARGUMENT = st.sampled_from(["number", "term", "query", "limit", "question", "example", "edition", "kinds", "x"])
_PARAMS = (
    st.none()
    | _JSON
    | st.fixed_dictionaries({
        "name": st.sampled_from([tool.name for tool in server.TOOLS] + ["x", ""]),
        "arguments": _JSON | st.dictionaries(_ARGUMENT, _JSON | st.integers(-3, 300), max_size=3),
    })
)  # fmt: skip
_METHOD = (
    st.sampled_from(
        ["ping", "tools/list", "tools/call", "initialize", "resources/list", "notifications/initialized", ""]
    )
    | _JSON
)
_ENVELOPE = st.fixed_dictionaries(
    {}, optional={"jsonrpc": st.just("2.0") | _JSON, "method": _METHOD, "params": _PARAMS, "extra": _JSON}
)
#: How the id of a message is made: absent (a notification), valid (made unique by the test) or not an id.
_ID = st.sampled_from(["absent", "int", "str", "null", "bool", "float", "list"])
_NOT_IDS = {"null": None, "bool": True, "float": 1.5, "list": [1]}
_LINE = st.one_of(
    st.tuples(st.just("message"), _ENVELOPE, _ID, st.booleans(), st.none() | st.floats(0, 1, exclude_max=True)),
    st.tuples(st.just("batch"), st.lists(st.tuples(_ENVELOPE, _ID), max_size=3)),
    st.tuples(st.just("text"), st.text(st.characters(blacklist_characters="\n"), max_size=40)),
)
_counter = iter(range(10**9))


def _with_id(envelope: dict, kind: str) -> tuple[dict, object]:
    """``envelope`` with an id of ``kind``, and the id its reply carries (``None`` for JSON null, ``...`` for none)."""
    if kind == "absent":
        return envelope, ...
    if kind in _NOT_IDS:
        return {**envelope, "id": _NOT_IDS[kind]}, None
    value = next(_counter) if kind == "int" else f"h{next(_counter)}"
    return {**envelope, "id": value}, value


def _valid(value) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool)) or (
        isinstance(value, str) and not any("\ud800" <= char <= "\udfff" for char in value)
    )


def _line_and_ids(drawn) -> tuple[bytes, tuple]:
    """The raw line of a drawn example and the ids its replies must carry (empty: no reply)."""
    if drawn[0] == "message":
        _, envelope, kind, ascii_only, cut = drawn
        message, answered = _with_id(envelope, kind)
        text = json.dumps(message, ensure_ascii=ascii_only)
        if cut is not None and int(len(text) * cut) > 0:  # a strict prefix of an object: not JSON
            return text[: int(len(text) * cut)].encode("utf-8", "surrogatepass"), (None,)
        return text.encode("utf-8", "surrogatepass"), () if answered is ... else (answered,)
    if drawn[0] == "batch":
        messages = [_with_id(envelope, kind) for envelope, kind in drawn[1]]
        ids = tuple(answered for _, answered in messages if answered is not ... and answered is not None)
        return json.dumps([message for message, _ in messages]).encode("utf-8"), ids or (None,)
    text = drawn[1]
    if not text.strip(" \t\r"):
        return text.encode("utf-8", "surrogatepass"), ()
    try:
        value = json.loads(text)
    except ValueError:
        return text.encode("utf-8", "surrogatepass"), (None,)
    assume(not isinstance(value, dict))  # a random text that is a JSON object: the "message" lines cover those
    if isinstance(value, list):
        ids = tuple(item["id"] for item in value if isinstance(item, dict) and _valid(item.get("id")))
        return text.encode("utf-8", "surrogatepass"), ids or (None,)
    return text.encode("utf-8", "surrogatepass"), (None,)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(drawn=_LINE)
@example(drawn=("message", {"jsonrpc": "2.0", "params": None, "method": "ping"}, "int", False, None))  # CI's failure
def test_random_lines_are_answered_by_id_notifications_are_not_and_the_server_lives(wire, drawn):
    line, ids = _line_and_ids(drawn)
    replies, _seconds, in_time = wire.exchange(line, ids, 5.0)
    assert in_time, (line[:200], ids, replies)
    assert wire.alive()
    assert sorted(map(repr, (reply.get("id") for reply in replies))) == sorted(map(repr, ids)), (line[:200], replies)
    for reply in replies:
        assert reply.get("jsonrpc") == "2.0" and ("error" in reply) != ("result" in reply), reply
        if "result" in reply and "content" not in reply["result"]:
            continue  # a method that succeeded without a tool's text (a valid ``ping``: ``{}``)
        text = reply_text(reply)
        assert text.strip() and not any(english in text for english in ENGLISH), reply


# -- in process: what screen lets through, the SDK takes -----------------------------------------


def _message(request_id, params: str) -> str:
    """A request line to the method ``x`` with ``params`` written as JSON text."""
    return f'{{"jsonrpc": "2.0", "id": {request_id}, "method": "x", "params": {params}}}'


#: Lines, the code of their refusal (None: the SDK takes them), the ids answered, a fragment of the message.
SCREENED = [
    ('{"jsonrpc": "2.0", "id": 1, "method": "ping"}', None, (), ""),
    ('{"jsonrpc": "2.0", "id": 2, "result": {}}', None, (), ""),  # a response: the SDK's
    ('{"jsonrpc": "2.0", "method": "notifications/initialized"}\r\n', None, (), ""),
    ("  \t\r\n", None, (), ""),
    (_message(3, '{"a": "[[{{\\"]]"}'), None, (), ""),  # brackets inside a text
    ('{"jsonrpc": "2.0", "id": 4', server.PARSE_ERROR, (None,), "tronquée"),
    (_message(5, '{"a": "\x01"}'), server.PARSE_ERROR, (5,), "JSON"),  # lax JSON: its id is read
    (_message(6, '{"a": ' + "[" * 198 + "]" * 198 + "}"), None, (), ""),  # 200 levels, the message counted
    (_message(7, '{"a": ' + "[" * 250 + "]" * 250 + "}"), server.INVALID_PARAMS, (7,), "plus de 200 niveaux"),
    (_message(8, '{"a": ' * 199 + "1" + "}" * 199), None, (), ""),
    (_message(9, '{"a": ' * 200 + "1" + "}" * 200), server.INVALID_PARAMS, (9,), "« params.a.a.a.a.a… »"),
    (_message(10, '{"n": ' + "9" * 4300 + "}"), None, (), ""),
    (_message(11, '{"n": ' + "9" * 4301 + "}"), server.INVALID_PARAMS, (11,), "4301 chiffres"),
    ('[{"jsonrpc": "2.0", "id": 12, "method": "ping"}, {"jsonrpc": "2.0", "method": "x"}, 3]', -32600, (12,), "lot"),
    ('{"jsonrpc": "2.0", "method": "x", "params": 3}', server.INVALID_PARAMS, (), "« params »"),  # notification
    (_message(13, r'{"k\udc80": 1}'), server.INVALID_PARAMS, (13,), "\\udc80"),
    ('{"jsonrpc": "2.0", "id": null, "method": "ping"}', server.INVALID_REQUEST, (None,), "« id » est null"),
]


@pytest.mark.parametrize("line, code, ids, says", SCREENED)
def test_screen_refuses_what_the_sdk_would_drop(line, code, ids, says):
    refusal = server.screen(line)
    if code is None:
        assert refusal is None
        return
    assert refusal is not None and refusal.code == code and refusal.ids == ids and says in refusal.message
    refusal.message.encode("utf-8")  # writable: no lone surrogate quoted


def _sdk_reads(line: str):
    """The message the SDK's transport reads in ``line`` (as mcp/server/stdio.py does), ``None`` if it drops it."""
    import mcp_types as types

    try:
        return types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except ValueError:
        return None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(drawn=_LINE)
def test_what_screen_lets_through_the_sdk_answers_and_its_refusals_are_french(drawn):
    import mcp_types as types

    raw, ids = _line_and_ids(drawn)
    line = raw.decode("utf-8", errors="replace")  # as the server reads it
    refusal = server.screen(line)
    if refusal is None:
        if line.strip(" \t\r\n"):
            read = _sdk_reads(line)
            assert read is not None, line[:200]  # the SDK takes it…
            assert ids == () or not isinstance(read, types.JSONRPCNotification), line[:200]  # …and answers an id
    else:
        assert refusal.ids == ids, (line[:200], refusal)
        assert refusal.message.startswith(("Requête", "Paramètres")), refusal
        refusal.message.encode("utf-8")  # writable: no lone surrogate quoted


def test_the_sdk_errors_are_said_in_french():
    errors = [{"loc": ("params", "arguments"), "type": "dict_type"}, {"loc": ("params", "name"), "type": "missing"}]
    text = server.invalid_params_message("tools/call", errors)
    assert "« arguments » doit être un objet JSON ; il manque « name »" in text and "tools/list" in text
    assert "Méthode inconnue : « prompts/list »" in server.sdk_error_message("prompts/list", -32601, "Method", True)
    assert "pas encore initialisé" in server.sdk_error_message("tools/list", -32602, "Invalid", False)


def test_pings_are_answered_while_a_heavy_check_runs(wire):
    """Issue 38, point 1: the 92 KB amplification body (100 Crusades, 400 creatures) runs in a worker
    thread: a ping sent after it is answered within a second, before the check's own answer."""
    from bench.amplification import crusades

    wire.send(tool("lourd", "check_scenario", {"scenario": crusades(100, 400)}))
    started = time.monotonic()
    wire.send(request("pendant", "ping"))
    first = wire.receive(SLOW)
    assert first is not None and first.get("id") == "pendant" and time.monotonic() - started < 1.0, first
    heavy = wire.receive(30)
    assert heavy is not None and heavy.get("id") == "lourd" and not heavy["result"].get("isError"), str(heavy)[:300]
    assert len(json.dumps(heavy)) < 5_000_000
