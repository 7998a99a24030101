"""uvicorn's HTTP/1.1 protocol (h11), guarded against slow and oversized clients.

uvicorn times out an idle keep-alive connection, but not one that trickles
its request's head: a client sending a byte a minute keeps its socket, and
1,100 such sockets take every file a process may open. And h11 answers a
request line or headers beyond its buffer with a plain-text 400.
:class:`GuardedH11Protocol` (given to uvicorn as ``http=``) closes a
connection whose request line and headers have not all arrived within
:data:`HEAD_TIMEOUT` seconds of its first byte (or of the connection), with
one short log line, and answers a head beyond :data:`MAX_HEAD` bytes with
the API's JSON error shape: 414 when the request line alone is too long,
431 for the headers.
"""

from __future__ import annotations

import json
import logging

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from rules_kb.serve.app import MAX_HEAD, SECURITY_HEADERS

#: Seconds a client has to send a request's line and headers.
HEAD_TIMEOUT = 10.0

_LOG = logging.getLogger("rules_kb.serve")


def _error(status: int, kind: str, message: str) -> tuple[list[tuple[bytes, bytes]], bytes]:
    body = json.dumps({"error": {"type": kind, "message": message}}, ensure_ascii=False).encode("utf-8")
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
               (b"connection", b"close"), *SECURITY_HEADERS]  # fmt: skip
    return headers, body


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a timeout on a request's head and JSON 414/431 (module docstring)."""

    def connection_made(self, transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._head_timer = None
        self._arm()

    def _arm(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(HEAD_TIMEOUT, self._head_timeout)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is h11.IDLE and self.conn.trailing_data[0]:
            self._arm()  # part of a head: the clock runs from its first byte
        elif self.conn.their_state is not h11.IDLE:
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._disarm()  # idle until the next request: uvicorn's keep-alive timeout

    def connection_lost(self, exc) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _head_timeout(self) -> None:
        self._head_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            client = f"{self.client[0]}:{self.client[1]}" if self.client else "un client"
            _LOG.warning("rules-kb serve : %s n'a pas envoyé sa requête en %g s : connexion fermée.", client,
                         HEAD_TIMEOUT)  # fmt: skip
            self.transport.close()

    def send_400_response(self, msg: str) -> None:
        """h11 refused the request: a head beyond :data:`MAX_HEAD` bytes is a JSON 414 (its request
        line) or 431 (its headers); anything else a JSON 400."""
        pending = self.conn.trailing_data[0]
        if len(pending) > MAX_HEAD and b"\r\n" not in pending[:MAX_HEAD]:
            status, kind, text = 414, "URITooLong", f"Adresse trop longue : {MAX_HEAD // 1024} Kio au plus."
        elif len(pending) > MAX_HEAD:
            status, kind, text = 431, "HeadersTooLarge", f"En-têtes trop grands : {MAX_HEAD // 1024} Kio au plus."
        else:
            status, kind, text = 400, "BadRequest", "Requête HTTP illisible."
        headers, body = _error(status, kind, text)
        self.transport.write(_raw_response(status, headers, body))
        self.transport.close()


_REASONS = {400: b"Bad Request", 414: b"URI Too Long", 431: b"Request Header Fields Too Large"}


def _raw_response(status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> bytes:
    """A whole HTTP/1.1 response as bytes (h11's state is broken once it refused a request)."""
    head = b"HTTP/1.1 %d %s\r\n" % (status, _REASONS[status])
    head += b"".join(name + b": " + value + b"\r\n" for name, value in headers)
    return head + b"\r\n" + body
