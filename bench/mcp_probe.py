"""MCP probe: raw JSON-RPC lines written to a real ``rules-kb mcp``, each answered in time.

    python bench/mcp_probe.py                 # the table; exit code 1 if a case is not as expected
    python bench/mcp_probe.py --timeout 2     # wait longer for each reply
    python bench/mcp_probe.py --corpus DIR    # on another corpus

Starts ``rules-kb mcp`` (the one next to this Python) as a subprocess and
writes each case of :data:`CASES` to its standard input as one raw line,
malformed ones (lone surrogates, 3,000 levels of nesting, numbers of 5,000
digits, ``params`` or ``arguments`` that are not objects, invalid,
truncated or non-object JSON, batches, envelopes without ``jsonrpc``…)
interleaved with normal calls. The server is initialized and its index
built (a first ``show_rule``, not timed) before the timed cases, except the
one sent before ``initialize``.

After each case a ``ping`` with an id of its own is written: a notification
must get no reply (nothing may come before the ping's answer), and every
case shows the session goes on. Prints a table: case, replied (yes/no),
time, kind of reply (JSON-RPC error code, ``isError`` or ``result``), an
excerpt of the message. Exit code 1 if a case with an id gets no reply
within the timeout (1 s by default), a reply is not the one expected (its
kind, its id, a French fragment), a notification is answered, or the
server dies.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The server's command: ``rules-kb`` next to this Python (the project's virtual environment).
SCRIPT = Path(sys.executable).with_name("rules-kb")
#: How long a reply may take, in seconds.
TIMEOUT = 1.0
#: How long the first tool call may take: it may build the index (seconds on a slow machine).
WARM_UP = 120.0

#: The client's ``initialize`` request.
INITIALIZE = {
    "jsonrpc": "2.0", "id": "init", "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "mcp_probe", "version": "1"}},
}  # fmt: skip
#: A reply is not French if it holds one of these (the SDK's and pydantic's English).
ENGLISH = (
    "Invalid request",
    "Method not found",
    "Field required",
    "Input should",
    "Connection closed",
    "Error executing",
)


def request(request_id: Any, method: str, params: Any = None) -> str:
    """One JSON-RPC request line (``params`` left out when ``None``)."""
    message = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return json.dumps(message, ensure_ascii=False)


def tool(request_id: Any, name: str, arguments: Any) -> str:
    """A ``tools/call`` line."""
    return request(request_id, "tools/call", {"name": name, "arguments": arguments})


@dataclass(frozen=True)
class Case:
    """One raw line and the reply it must get: ``kind`` (``"result"``,
    ``"isError"``, a JSON-RPC error code such as ``"-32700"``, or ``""`` for
    none: a notification), ``ids`` the ids of the replies (``None`` for JSON
    ``null``; a batch gets one per id), ``says`` a French fragment of the
    message (of the first reply)."""

    label: str
    line: bytes
    kind: str
    ids: tuple[Any, ...] = ()
    says: str = ""

    @property
    def answered(self) -> bool:
        """Whether the line carries an id, so must be answered."""
        return bool(self.kind)


def case(label: str, line: str | bytes, kind: str, ids: Any = (), says: str = "") -> Case:
    """A :class:`Case`, ``line`` as text (UTF-8) or bytes, ``ids`` one id or a tuple of them."""
    raw = line.encode("utf-8", errors="surrogatepass") if isinstance(line, str) else line
    return Case(label, raw, kind, ids if isinstance(ids, tuple) else (ids,), says)


DEEP_ARRAYS = (
    '{"jsonrpc": "2.0", "id": 13, "method": "tools/call", "params": {"name": "define_term", "arguments": {"term": '
    + "[" * 3000
    + "]" * 3000
    + "}}}"
)
DEEP_OBJECTS = (
    '{"jsonrpc": "2.0", "id": 14, "method": "tools/call", "params": {"name": "define_term", "arguments": '
    + '{"a": ' * 3000
    + "1"
    + "}" * 3000
    + "}}"
)
LONG_NUMBER = "9" * 5000

#: The case sent before ``initialize`` (on a fresh server).
BEFORE_INITIALIZE = case("tools/list before initialize", request(1, "tools/list"), "-32602", 1, "pas encore initialisé")
#: The ``initialize`` request and its notification.
HANDSHAKE = (
    case("initialize", json.dumps(INITIALIZE), "result", "init"),
    case("notifications/initialized", '{"jsonrpc": "2.0", "method": "notifications/initialized"}', ""),
)

#: The timed cases, after the handshake and a first tool call.
CASES: tuple[Case, ...] = (
    case("normal: tools/list", request(2, "tools/list"), "result", 2),
    case("normal: show_rule 420.5c", tool(3, "show_rule", {"number": "420.5c"}), "result", 3),
    # lone surrogates, escaped in the JSON text
    case("lone surrogate in an argument", r'{"jsonrpc": "2.0", "id": 10, "method": "tools/call", "params": {"name": "define_term", "arguments": {"term": "\ud800"}}}', "-32602", 10, "demi-caractère UTF-16 isolé"),
    case("lone low surrogate in a key", r'{"jsonrpc": "2.0", "id": 11, "method": "tools/call", "params": {"name": "define_term", "arguments": {"\udc00": "x"}}}', "-32602", 11, "demi-caractère UTF-16 isolé"),
    case("lone surrogate in the method", r'{"jsonrpc": "2.0", "id": 12, "method": "tools/\ud800"}', "-32600", 12, "demi-caractère"),
    case("lone surrogate in the id", r'{"jsonrpc": "2.0", "id": "\udfff", "method": "ping"}', "-32600", None, "« id » contient un demi-caractère"),
    case("a surrogate pair (a real character)", r'{"jsonrpc": "2.0", "id": 15, "method": "tools/call", "params": {"name": "define_term", "arguments": {"term": "\ud83d\ude00"}}}', "isError", 15, "Le terme est vide"),
    # nesting
    case("3,000 nested arrays in params", DEEP_ARRAYS, "-32602", 13, "imbrique plus de 200 niveaux"),
    case("3,000 nested objects in params", DEEP_OBJECTS, "-32602", 14, "imbrique plus de 200 niveaux"),
    case("3,000 arrays never closed", '{"jsonrpc": "2.0", "id": 16, "params": ' + "[" * 3000, "-32700", None, "Requête illisible"),
    case("normal: define_term", tool(17, "define_term", {"term": "pietinement"}), "result", 17),
    # numbers
    case("a 5,000-digit integer limit", '{"jsonrpc": "2.0", "id": 20, "method": "tools/call", "params": {"name": "search_rules", "arguments": {"query": "blessures", "limit": ' + LONG_NUMBER + "}}}", "-32602", 20, "5000 chiffres"),
    case("a 5,000-digit decimal limit", '{"jsonrpc": "2.0", "id": 21, "method": "tools/call", "params": {"name": "search_rules", "arguments": {"query": "blessures", "limit": ' + LONG_NUMBER + ".5}}}", "-32602", 21, "chiffres"),
    case("a 5,000-digit id", '{"jsonrpc": "2.0", "id": ' + LONG_NUMBER + ', "method": "ping"}', "-32600", None, "5000 chiffres"),
    case("a 40-digit limit (out of bounds)", '{"jsonrpc": "2.0", "id": 22, "method": "tools/call", "params": {"name": "search_rules", "arguments": {"query": "blessures", "limit": ' + "9" * 40 + "}}}", "isError", 22, "de 1 à 200"),
    # params and arguments that are not objects
    case("params: a list", request(30, "tools/call", [1, 2]), "-32602", 30, "« params » doit être un objet JSON"),
    case("params: a string", request(31, "tools/call", "show_rule"), "-32602", 31, "« params » doit être un objet JSON"),
    case("params: a number", request(32, "tools/call", 42), "-32602", 32, "« params » doit être un objet JSON"),
    case("params: null", '{"jsonrpc": "2.0", "id": 33, "method": "tools/call", "params": null}', "-32602", 33, "il manque « params »"),
    case("arguments: a list", tool(34, "show_rule", ["420.5c"]), "-32602", 34, "« arguments » doit être un objet JSON"),
    case("arguments: a string", tool(35, "show_rule", "420.5c"), "-32602", 35, "« arguments » doit être un objet JSON"),
    case("arguments: a number", tool(36, "show_rule", 420), "-32602", 36, "« arguments » doit être un objet JSON"),
    case("arguments: null", tool(37, "show_rule", None), "isError", 37, "Il manque l'argument « number »"),
    case("tools/call without name", request(38, "tools/call", {"arguments": {}}), "-32602", 38, "il manque « name »"),
    case("name: a number", request(39, "tools/call", {"name": 5, "arguments": {}}), "-32602", 39, "« name » doit être un texte"),
    case("normal: search_rules", tool(40, "search_rules", {"query": "blessures fatales", "limit": 3}), "result", 40),
    # malformed lines
    case("invalid JSON", '{"jsonrpc": "2.0", "id": 50, "method": }', "-32700", None, "erreur au caractère"),
    case("truncated JSON", tool(51, "show_rule", {"number": "420.5c"})[:60], "-32700", None, "tronquée"),
    case("a tab inside a text (lax JSON)", '{"jsonrpc": "2.0", "id": 52, "method": "tools/call", "params": {"name": "define_term", "arguments": {"term": "a\tb"}}}', "-32700", 52, "Requête illisible"),
    case("a byte-order mark", "\ufeff" + request(53, "ping"), "-32700", None, "Requête illisible"),
    case("plain text", "bonjour", "-32700", None, "Requête illisible"),
    case("a JSON string", '"tools/list"', "-32600", None, "pas un texte"),
    case("a JSON number", "42", "-32600", None, "pas un nombre"),
    case("JSON null", "null", "-32600", None, "pas null"),
    case("a batch of two requests", "[" + request(54, "ping") + ", " + request(55, "tools/list") + "]", "-32600", (54, 55), "un lot"),
    case("an empty batch", "[]", "-32600", None, "un lot"),
    case("no jsonrpc", '{"id": 56, "method": "ping"}', "-32600", 56, '"jsonrpc": "2.0"'),
    case("jsonrpc 1.0", '{"jsonrpc": "1.0", "id": 57, "method": "ping"}', "-32600", 57, 'il doit valoir "2.0"'),
    case("no method", '{"jsonrpc": "2.0", "id": 58}', "-32600", 58, "il manque « method »"),
    case("method: a number", '{"jsonrpc": "2.0", "id": 59, "method": 7}', "-32600", 59, "« method » doit être un texte"),
    case("id: null", '{"jsonrpc": "2.0", "id": null, "method": "ping"}', "-32600", None, "« id » est null"),
    case("id: true", '{"jsonrpc": "2.0", "id": true, "method": "ping"}', "-32600", None, "est un booléen"),
    case("id: 1.5", '{"jsonrpc": "2.0", "id": 1.5, "method": "ping"}', "-32600", None, "est un nombre décimal"),
    case("id: an object", '{"jsonrpc": "2.0", "id": {"n": 1}, "method": "ping"}', "-32600", None, "est un objet"),
    case("a response with a bad result", '{"jsonrpc": "2.0", "id": 60, "result": 5}', "-32600", 60, "ni une requête"),
    case("bytes that are not UTF-8 (replaced)", b'{"jsonrpc": "2.0", "id": 61, "method": "tools/call", "params": {"name": "search_rules", "arguments": {"query": "blessures \xff fatales"}}}', "result", 61),
    case("a line over 1 MiB", tool(62, "ask_rules", {"question": "x" * (1024 * 1024)}), "-32600", None, "dépasse 1 Mio"),
    case("normal: check_scenario", tool(63, "check_scenario", {"example": "blessures-fatales"}), "result", 63),
    # the SDK's own errors, in French
    case("unknown method", request(70, "resources/list"), "-32601", 70, "Méthode inconnue : « resources/list »"),
    case("unknown tool", tool(71, "rules_everything", {}), "isError", 71, "Outil inconnu"),
    case("a tool's bad argument", tool(72, "show_rule", {"number": 420}), "isError", 72, "doit être un texte"),
    # notifications: no reply, the session goes on
    case("notification: params a list", '{"jsonrpc": "2.0", "method": "notifications/initialized", "params": [1]}', ""),
    case("notification: a lone surrogate", r'{"jsonrpc": "2.0", "method": "notifications/x", "params": {"a": "\ud800"}}', ""),
    case("notification: without jsonrpc", '{"method": "notifications/initialized"}', ""),
    case("notification: unknown", '{"jsonrpc": "2.0", "method": "notifications/whatever", "params": {"a": 1}}', ""),
    case("notification: cancelled, malformed", '{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": {"x": 1}}}', ""),
    case("notification: 3,000 nested arrays", '{"jsonrpc": "2.0", "method": "notifications/x", "params": {"a": ' + "[" * 3000 + "]" * 3000 + "}}", ""),
    case("a blank line", "   ", ""),
    case("normal: ask_rules", tool(80, "ask_rules", {"question": "ma 2/2 a pris 2 dégâts, elle meurt ?"}), "result", 80),
)  # fmt: skip


def reply_kind(reply: dict[str, Any]) -> str:
    """A reply's kind: its error code (``"-32602"``), ``"isError"`` or ``"result"``."""
    if "error" in reply:
        return str(reply["error"].get("code"))
    return "isError" if reply.get("result", {}).get("isError") else "result"


def reply_text(reply: dict[str, Any]) -> str:
    """A reply's message: the error's, or the text of a tool's result."""
    if "error" in reply:
        return str(reply["error"].get("message", ""))
    content = reply.get("result", {}).get("content") or [{}]
    return str(content[0].get("text", "")) if isinstance(content[0], dict) else ""


class Wire:
    """A ``rules-kb mcp`` process spoken to in raw lines: :meth:`send` writes
    one, :meth:`receive` takes the next reply (a thread reads standard
    output into a queue); standard error goes to a temporary file
    (:meth:`close` gives it back). ``args``: after ``rules-kb mcp``."""

    def __init__(self, args: tuple[str, ...] = (), env: dict[str, str] | None = None) -> None:
        self._errors = tempfile.TemporaryFile()  # noqa: SIM115 - open as long as the server runs; close() closes it
        self.process = subprocess.Popen(
            [str(SCRIPT), "mcp", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._errors,
            env=env if env is not None else dict(os.environ),
        )  # fmt: skip
        self._replies: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self._pings = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            try:
                self._replies.put(json.loads(raw))
            except ValueError:
                self._replies.put({"unreadable": raw.decode("utf-8", errors="replace")})
        self._replies.put(None)  # the end of the output

    def alive(self) -> bool:
        """Whether the server still runs."""
        return self.process.poll() is None

    def send(self, line: bytes | str) -> None:
        """Write ``line`` and an end of line (nothing if the server is gone: its replies will be missing)."""
        assert self.process.stdin is not None
        try:
            self.process.stdin.write((line.encode("utf-8") if isinstance(line, str) else line) + b"\n")
            self.process.stdin.flush()
        except OSError:  # a broken pipe: the server died
            pass

    def receive(self, timeout: float) -> dict[str, Any] | None:
        """The next reply, ``None`` if none comes within ``timeout`` seconds or the output ended."""
        try:
            return self._replies.get(timeout=timeout)
        except queue.Empty:
            return None

    def exchange(self, line: bytes | str, ids: tuple[Any, ...], timeout: float) -> tuple[list[dict], float, bool]:
        """Send ``line``, then a ping of an id of its own; wait for the replies
        carrying ``ids`` (``None`` for JSON ``null``) and the ping's. Returns
        the replies received before the ping's, in order (those to ``line``),
        the seconds until the last of ``ids`` was answered (or the ping, if
        ``ids`` is empty), and whether all came within ``timeout`` seconds."""
        self._pings += 1
        ping = f"ping-{self._pings}"
        start = time.monotonic()
        self.send(line)
        self.send(request(ping, "ping"))
        waiting, replies, took, pinged = list(ids), [], 0.0, False
        while waiting or not pinged:
            left = timeout - (time.monotonic() - start)
            reply = self.receive(max(left, 0.0)) if left > 0 else None
            if reply is None:
                return replies, time.monotonic() - start, False
            if reply.get("id") == ping:
                pinged = True
                took = took or time.monotonic() - start
                continue
            replies.append(reply)
            if reply.get("id") in waiting:
                waiting.remove(reply.get("id"))
                took = time.monotonic() - start
        return replies, took, True

    def handshake(self, timeout: float = WARM_UP) -> None:
        """``initialize``, ``notifications/initialized``, then a first tool call (it may build the index)."""
        self.send(json.dumps(INITIALIZE))
        if self.receive(timeout) is None:
            raise RuntimeError("rules-kb mcp did not answer initialize")
        self.warm_up(timeout)

    def warm_up(self, timeout: float = WARM_UP) -> None:
        """``notifications/initialized`` and a first ``show_rule``, not timed (it may build the index)."""
        self.send(HANDSHAKE[1].line)
        self.send(tool("warm-up", "show_rule", {"number": "420.5c"}))
        reply = self.receive(timeout)
        if reply is None or reply.get("id") != "warm-up":
            raise RuntimeError(f"rules-kb mcp did not answer its first tool call: {reply!r}")

    def close(self) -> tuple[int | None, str]:
        """Close standard input, wait for the end; the exit code and standard error."""
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        try:
            code = self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait()
        self._errors.seek(0)
        errors = self._errors.read().decode("utf-8", errors="replace")
        self._errors.close()
        return code, errors


@dataclass(frozen=True)
class Outcome:
    """What a case got: ``replies`` (those to its line), ``seconds``, ``in_time``, ``problems`` (empty: as expected)."""

    case: Case
    replies: tuple[dict[str, Any], ...]
    seconds: float
    in_time: bool
    problems: tuple[str, ...]


def judge(case: Case, replies: list[dict[str, Any]], in_time: bool, alive: bool) -> tuple[str, ...]:
    """What is wrong with the replies to ``case`` (empty: as expected)."""
    problems = []
    if not alive:
        problems.append("server died")
    if not in_time:
        problems.append("no reply in time" if case.answered else "ping not answered")
    if not case.answered and replies:
        problems.append("a notification was answered")
    if case.answered:
        if sorted(map(repr, (reply.get("id") for reply in replies))) != sorted(map(repr, case.ids)):
            problems.append(f"ids {[reply.get('id') for reply in replies]} instead of {list(case.ids)}")
        for reply in replies:
            if reply.get("jsonrpc") != "2.0" or ("error" in reply) == ("result" in reply):
                problems.append(f"not a JSON-RPC reply: {reply!r:.80}")
            elif reply_kind(reply) != case.kind:
                problems.append(f"{reply_kind(reply)} instead of {case.kind}")
            if any(english in reply_text(reply) for english in ENGLISH):
                problems.append("English message")
        if replies and case.says not in reply_text(replies[0]):
            problems.append(f"message without « {case.says} »")
    return tuple(problems)


def run_case(wire: Wire, case: Case, timeout: float = TIMEOUT) -> Outcome:
    """Send ``case`` on ``wire`` and judge its replies."""
    replies, seconds, in_time = wire.exchange(case.line, case.ids if case.answered else (), timeout)
    return Outcome(case, tuple(replies), seconds, in_time, judge(case, replies, in_time, wire.alive()))


def probe(timeout: float = TIMEOUT, args: tuple[str, ...] = ()) -> tuple[list[Outcome], str]:
    """Start a server, send :data:`BEFORE_INITIALIZE`, the handshake, a first
    tool call (not timed), then every case of :data:`CASES`; the outcomes and
    the server's standard error."""
    wire = Wire(args)
    outcomes = []
    try:
        outcomes.append(run_case(wire, BEFORE_INITIALIZE, WARM_UP))  # the server may take seconds to start
        outcomes.append(run_case(wire, HANDSHAKE[0], timeout))
        wire.warm_up()
        outcomes += [run_case(wire, each, timeout) for each in CASES]
    finally:
        _code, errors = wire.close()
    return outcomes, errors


def table(outcomes: list[Outcome]) -> str:
    """The outcomes as a text table."""
    rows = [("case", "replied", "time", "kind", "message", "problems")]
    for outcome in outcomes:
        first = outcome.replies[0] if outcome.replies else None
        rows.append((
            outcome.case.label,
            "yes" if outcome.replies else ("no" if outcome.case.answered else "no (notification)"),
            f"{outcome.seconds * 1000:.0f} ms",
            ", ".join(reply_kind(reply) for reply in outcome.replies) if first else "-",
            " ".join(reply_text(first).split())[:70] if first else "",
            "; ".join(outcome.problems) or "ok",
        ))  # fmt: skip
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]) - 1)]
    return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[-1] for row in rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=TIMEOUT, help="seconds a reply may take (1)")
    parser.add_argument("--corpus", help="the corpus folder (rules-kb mcp --corpus)")
    options = parser.parse_args(argv)
    outcomes, errors = probe(options.timeout, ("--corpus", options.corpus) if options.corpus else ())
    print(table(outcomes))
    failed = [outcome for outcome in outcomes if outcome.problems]
    lines = errors.splitlines()
    print(f"\n{len(outcomes)} cases, {len(failed)} not as expected; standard error: {len(lines)} lines", end="")
    print(", with a traceback" if "Traceback" in errors else ", no traceback")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
