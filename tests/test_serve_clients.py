"""Issue 38, point 3: the server survives slow and oversized clients. A request's head that
trickles is cut after its time-out with one log line, not a traceback; a head beyond 128 KiB
is a JSON 414 (request line) or 431 (headers), not h11's plain text; beyond the connection
limit, the oldest connection waiting for its request is closed, or the newcomer answered a
JSON 503 when every connection is busy. (``bench/slow_clients.py`` runs the campaign: 1,100
slow clients under a 1,024-file limit.)"""

from __future__ import annotations

import json
import socket
import threading
import time

import pytest

from rules_kb.serve import protocol
from rules_kb.serve.app import MAX_HEAD, create_app


@pytest.fixture(scope="module")
def server(kb):
    """uvicorn serving the app on a free port in a thread, with the guarded protocol and a short head time-out."""
    import uvicorn

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    config = uvicorn.Config(create_app(kb), http=protocol.GuardedH11Protocol, h11_max_incomplete_event_size=MAX_HEAD,
                            log_level="warning", lifespan="off")  # fmt: skip
    served = uvicorn.Server(config)
    saved, protocol.HEAD_TIMEOUT = protocol.HEAD_TIMEOUT, 0.5
    thread = threading.Thread(target=served.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not served.started:
        time.sleep(0.01)
    yield sock.getsockname()[1]
    served.should_exit = True
    thread.join(10)
    protocol.HEAD_TIMEOUT = saved


def exchange(port: int, data: bytes, wait: float = 5.0) -> bytes:
    with socket.create_connection(("127.0.0.1", port)) as client:
        client.sendall(data)
        client.settimeout(wait)
        answer = b""
        while chunk := client.recv(65536):
            answer += chunk
    return answer


def parts(answer: bytes) -> tuple[int, dict]:
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split(b" ")[1]), json.loads(body)


def test_a_trickling_head_is_cut_with_one_log_line(server, caplog, monkeypatch):
    monkeypatch.setattr(protocol, "_SLOW", protocol._Tally(protocol._SLOW.first, protocol._SLOW.summary))
    with socket.create_connection(("127.0.0.1", server)) as client:
        client.sendall(b"GET /api/rules/420.5c HTTP/1.1\r\nHost: loc")
        client.settimeout(10)
        started = time.monotonic()
        assert client.recv(100) == b""  # closed by the server
        assert time.monotonic() - started < 5
    said = [record.getMessage() for record in caplog.records if "n'a pas envoyé sa requête" in record.getMessage()]
    assert len(said) == 1 and not any(record.exc_info for record in caplog.records)
    status, _ = parts(
        exchange(server, b"GET /api/rules/420.5c HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
    )
    assert status == 200  # the server still answers


def test_a_head_beyond_128_kib_is_a_json_414_or_431(server):
    line = b"GET /api/search?q=" + b"a" * (MAX_HEAD + 10) + b" HTTP/1.1\r\nHost: localhost\r\n\r\n"
    status, body = parts(exchange(server, line))
    assert status == 414 and body["error"]["type"] == "URITooLong"
    header = b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: " + b"b" * (MAX_HEAD + 10) + b"\r\n\r\n"
    status, body = parts(exchange(server, header))
    assert status == 431 and body["error"]["type"] == "HeadersTooLarge" and "Kio" in body["error"]["message"]


def test_an_unreadable_request_is_a_json_400(server):
    status, body = parts(exchange(server, b"GARBAGE\r\n\r\n"))
    assert status == 400 and body["error"]["type"] == "BadRequest"


def test_a_client_leaving_mid_request_is_one_log_line(server, caplog):
    with socket.create_connection(("127.0.0.1", server)) as client:
        client.sendall(b"POST /api/check HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/toml\r\n"
                       b"Content-Length: 1000\r\n\r\ntitle = ")  # fmt: skip
        time.sleep(0.2)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and not any("est parti" in r.getMessage() for r in caplog.records):
        time.sleep(0.05)
    said = [record for record in caplog.records if "est parti avant la fin de sa requête" in record.getMessage()]
    assert len(said) == 1 and not any(record.exc_info for record in caplog.records)


def test_the_connection_limit_stays_below_the_open_file_limit():
    assert protocol.connection_limit(1024) == 640
    assert protocol.connection_limit(1024) + 2 * protocol.BACKLOG + 64 <= 1024
    assert protocol.connection_limit(100) == 16 and protocol.connection_limit(1 << 20) < 1 << 20


def _open_slow(port: int, count: int, data: bytes) -> list[socket.socket]:
    clients = []
    for _ in range(count):
        client = socket.create_connection(("127.0.0.1", port))
        client.sendall(data)
        clients.append(client)
    return clients


def _closed(clients: list[socket.socket]) -> int:
    shut = 0
    for client in clients:
        client.settimeout(0.05)
        try:
            shut += client.recv(100) == b""
        except TimeoutError:
            pass
        except OSError:
            shut += 1
    return shut


@pytest.fixture
def limit_of_eight(monkeypatch):
    """A connection limit of 8 for the test, fresh tallies (their first line is logged)."""
    monkeypatch.setattr(protocol, "_LIMIT", [8])
    for name in ("_EVICTED", "_REFUSED"):
        tally = getattr(protocol, name)
        monkeypatch.setattr(protocol, name, protocol._Tally(tally.first, tally.summary))
    time.sleep(0.2)  # the other tests' connections closed


def test_beyond_the_limit_the_oldest_slow_client_makes_room(server, limit_of_eight, caplog):
    slow = _open_slow(server, 12, b"GET /api/rules/420.5c HTTP/1.1\r\nHost: loc")
    try:
        answer = exchange(server, b"GET /api/rules/420.5c HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        assert parts(answer)[0] == 200  # the client that sends its request at once is served
        time.sleep(0.1)
        assert _closed(slow[:5]) == 5 and _closed(slow[-3:]) == 0  # the oldest went first
    finally:
        for client in slow:
            client.close()
    said = [record.getMessage() for record in caplog.records if "limite de connexions" in record.getMessage()]
    assert len(said) == 1 and "(8)" in said[0] and not any(record.exc_info for record in caplog.records)


def test_beyond_the_limit_with_every_connection_busy_the_newcomer_gets_a_json_503(server, limit_of_eight):
    busy = _open_slow(server, 8, b"POST /api/check HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/toml\r\n"
                                 b"Content-Length: 1000\r\n\r\ntitle = ")  # fmt: skip
    try:
        time.sleep(0.1)
        status, body = parts(exchange(server, b"GET /api/rules/420.5c HTTP/1.1\r\nHost: localhost\r\n\r\n"))
        assert status == 503 and "Serveur occupé" in body["error"]["message"]
        assert _closed(busy) == 0  # a request being received is never cut for a newcomer
    finally:
        for client in busy:
            client.close()


def test_a_repeated_event_is_one_line_then_a_summary_even_when_nothing_follows(monkeypatch, caplog):
    import asyncio

    monkeypatch.setattr(protocol, "LOG_EVERY", 0.2)
    tally = protocol._Tally("premier : %s", "%d autres en %.0f s")  # the server's thread may log meanwhile

    async def events():
        for number in range(5):
            tally.note(str(number))
        await asyncio.sleep(0.4)

    asyncio.run(events())
    said = [record.getMessage() for record in caplog.records if record.getMessage().startswith(("premier", "4 autres"))]
    assert said == ["premier : 0", "4 autres en 0 s"]
    tally.flush()  # nothing left to say
    assert not [record for record in caplog.records if "autres en" in record.getMessage()][1:]
