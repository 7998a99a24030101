"""Issue 38, point 3: the server survives slow and oversized clients. A request's head that
trickles is cut after its time-out with one log line, not a traceback; a head beyond 128 KiB
is a JSON 414 (request line) or 431 (headers), not h11's plain text."""

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


def test_a_trickling_head_is_cut_with_one_log_line(server, caplog):
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
