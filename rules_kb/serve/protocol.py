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

It also keeps the process's open connections under :func:`connection_limit`,
below the open-file limit: a connection beyond it closes the oldest one
still waiting for its request (a slow client, or an idle keep-alive one),
or, when every connection is busy with a request, is answered a JSON 503
and closed. So the listening socket never meets « Too many open files »,
and a client that sends its request at once is served even while slow
clients take every connection. Repeated events (heads timed out,
connections closed at the limit, an ``accept`` that failed) are logged as
one line, then one summary line per :data:`LOG_EVERY` seconds, not one
line each.
"""

from __future__ import annotations

import asyncio
import atexit
import json
import logging
import resource
import time

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from rules_kb.serve.app import MAX_HEAD, SECURITY_HEADERS

#: Seconds a client has to send a request's line and headers.
HEAD_TIMEOUT = 10.0

#: Open files kept for the process's own use (its database, index, model, log, sockets to clients
#: being refused) out of its open-file limit: at least this, or an eighth of the limit.
FILES_KEPT = 64
#: The listening socket's backlog, which is also how many connections asyncio accepts in one go
#: before any of them reaches :class:`GuardedH11Protocol` (uvicorn's ``backlog``).
BACKLOG = 128
#: Seconds between two summary lines of a repeated event.
LOG_EVERY = 10.0

_LOG = logging.getLogger("rules_kb.serve")


def connection_limit(files: int | None = None) -> int:
    """The most connections a process keeps open: its open-file soft limit ``files``
    (``RLIMIT_NOFILE`` when None) less what the process keeps for itself
    (:data:`FILES_KEPT`, or an eighth of the limit when more) and two batches
    of connections accepted before they are counted (2 × :data:`BACKLOG`); at
    least 16. 1,024 files: 640 connections."""
    if files is None:
        files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        if files == resource.RLIM_INFINITY:
            files = 1 << 20
    return max(16, files - max(FILES_KEPT, files // 8) - 2 * BACKLOG)


class _Tally:
    """A repeated event logged once, then summed up once per :data:`LOG_EVERY` seconds.

    ``first``: the first line (``%s``: the event's detail); ``summary``: the summary line
    (``%d``: how many events since the last line)."""

    def __init__(self, first: str, summary: str) -> None:
        self.first, self.summary = first, summary
        self.count, self.last = 0, None

    def note(self, detail: str) -> None:
        """One event; a line when it is the first, or when the last line is :data:`LOG_EVERY` s old."""
        now = time.monotonic()
        if self.last is None:
            self.last = now
            _LOG.warning(self.first, detail)
            return
        self.count += 1
        if now - self.last >= LOG_EVERY:
            self.flush()
        elif self.count == 1:  # said within LOG_EVERY even if nothing follows
            try:
                asyncio.get_running_loop().call_later(self.last + LOG_EVERY - now, self.flush)
            except RuntimeError:  # no event loop (a test): said with the next event, or at the end
                pass

    def flush(self) -> None:
        """The summary line of the events not yet said, if any (the server stops: :func:`_flush_all`)."""
        if self.count:
            now = time.monotonic()
            _LOG.warning(self.summary, self.count, now - (self.last or now))
            self.count, self.last = 0, now


_SLOW = _Tally(
    "rules-kb serve : %s n'a pas envoyé sa requête en " + f"{HEAD_TIMEOUT:g} s : connexion fermée.",
    "rules-kb serve : %d autres clients n'ont pas envoyé leur requête à temps en %.0f s : connexions fermées.",
)
_EVICTED = _Tally(
    "rules-kb serve : limite de connexions atteinte (%s) : la plus ancienne en attente de sa requête est fermée.",
    "rules-kb serve : %d connexions en attente de leur requête fermées à la limite en %.0f s.",
)
_REFUSED = _Tally(
    "rules-kb serve : limite de connexions atteinte (%s), toutes occupées : réponse 503.",
    "rules-kb serve : %d connexions refusées (503) à la limite en %.0f s.",
)
_ACCEPT = _Tally(
    "rules-kb serve : plus de fichier ouvrable pour une connexion (%s) : nouvel essai dans 1 s.",
    "rules-kb serve : %d connexions non acceptées faute de fichier en %.0f s.",
)


def _flush_all() -> None:
    """Say the repeated events not yet summed up, as the process ends."""
    for tally in (_SLOW, _EVICTED, _REFUSED, _ACCEPT):
        tally.flush()


atexit.register(_flush_all)
#: Every open connection of this process, oldest first.
_OPEN: dict[GuardedH11Protocol, None] = {}
_LIMIT: list[int] = []
#: Connections answered 503, waiting for their client to read it and leave (at most :data:`BACKLOG`).
_LINGERING: set[GuardedH11Protocol] = set()
#: Seconds a connection answered 503 stays open for its client to read the answer.
LINGER = 1.0


def guarded_loop() -> asyncio.AbstractEventLoop:
    """uvicorn's ``loop`` setting (``"rules_kb.serve.protocol:guarded_loop"``, a loop factory):
    asyncio's event loop, whose exception handler logs an ``accept`` that found no free file as
    one line (:func:`_exception_handler`), not a traceback."""
    loop = asyncio.SelectorEventLoop()
    loop.set_exception_handler(_exception_handler)
    return loop


def _exception_handler(loop, context: dict) -> None:
    """The event loop's handler: an ``accept`` without a free file is one line (:data:`_ACCEPT`),
    not asyncio's traceback; anything else goes to asyncio's own handler."""
    if str(context.get("message", "")).startswith("socket.accept() out of system resource"):
        _ACCEPT.note(str(context.get("exception", "")))
        return
    loop.default_exception_handler(context)


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
        self._refused = False
        if not _LIMIT:
            _LIMIT.append(connection_limit())
        _OPEN[self] = None
        if len(_OPEN) > _LIMIT[0] and not self._make_room():
            return
        self._arm()

    def _waiting(self) -> bool:
        """Whether this connection waits for a request (none begun or its head incomplete)."""
        return self.conn.their_state is h11.IDLE

    def _make_room(self) -> bool:
        """Beyond the limit: close the oldest connection waiting for its request and return True;
        when all are busy, answer this one a JSON 503, close it and return False."""
        for other in _OPEN:
            if other is not self and other._waiting() and not other.transport.is_closing():
                _EVICTED.note(str(_LIMIT[0]))
                other.transport.close()
                return True
        _REFUSED.note(str(_LIMIT[0]))
        headers, body = _error(503, "ServerBusy", "Serveur occupé : toutes ses connexions servent ; réessayez dans "
                               "un instant.")  # fmt: skip
        self.transport.write(_raw_response(503, [*headers, (b"retry-after", b"1")], body))
        self._refused = True
        _OPEN.pop(self, None)
        if len(_LINGERING) < BACKLOG:  # closed once the client has read the answer (closing at once would reset it)
            _LINGERING.add(self)
            self.transport.write_eof()
            self.loop.call_later(LINGER, self.transport.close)
        else:
            self.transport.close()
        return False

    def _arm(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(HEAD_TIMEOUT, self._head_timeout)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return  # answered 503: what it sends is read and dropped until it leaves
        super().data_received(data)
        if self.conn.their_state is h11.IDLE and self.conn.trailing_data[0]:
            self._arm()  # part of a head: the clock runs from its first byte
        elif self.conn.their_state is not h11.IDLE:
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._disarm()  # idle until the next request: uvicorn's keep-alive timeout

    def shutdown(self) -> None:
        """The server stops: the repeated events not yet summed up are said first (uvicorn ends
        the process by its signal once stopped, so :mod:`atexit` runs only after Ctrl+C)."""
        _flush_all()
        super().shutdown()

    def connection_lost(self, exc) -> None:
        self._disarm()
        _OPEN.pop(self, None)
        _LINGERING.discard(self)
        super().connection_lost(exc)

    def _head_timeout(self) -> None:
        self._head_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            _SLOW.note(f"{self.client[0]}:{self.client[1]}" if self.client else "un client")
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


_REASONS = {400: b"Bad Request", 414: b"URI Too Long", 431: b"Request Header Fields Too Large",
            503: b"Service Unavailable"}  # fmt: skip


def _raw_response(status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> bytes:
    """A whole HTTP/1.1 response as bytes (h11's state is broken once it refused a request)."""
    head = b"HTTP/1.1 %d %s\r\n" % (status, _REASONS[status])
    head += b"".join(name + b": " + value + b"\r\n" for name, value in headers)
    return head + b"\r\n" + body
