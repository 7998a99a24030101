"""The Starlette application of ``rules-kb serve``.

:func:`create_app` serves a knowledge base loaded once (``app.state.kb``):
the JSON routes of :mod:`rules_kb.serve.api` and the pages of
:mod:`rules_kb.serve.pages`, behind :class:`Guard`, which refuses what is
too large before the application reads it (a query string or path beyond
:data:`MAX_QUERY` / :data:`MAX_PATH` bytes: 414; a body beyond
:data:`MAX_BODY` bytes: 413) and puts the security headers
(:data:`SECURITY_HEADERS`: a strict ``Content-Security-Policy``, no
sniffing, no framing, no referrer) on every response. Nothing is written
to disk. ``GET /healthz`` says the process is up, its corpus loaded
(:func:`health`), for a load balancer.

:func:`run` serves in this process; :func:`run_workers` in several worker
processes (uvicorn's supervisor), each opening its own knowledge base and
embedding model (:func:`worker_app`), all on the one socket bound by
:func:`listening_socket`.
"""

from __future__ import annotations

import functools
import inspect
import ipaddress
import json
import logging
import os
import socket
import sys
from collections.abc import Callable
from dataclasses import dataclass

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from rules_kb import loader
from rules_kb.core.errors import RulesKbError
from rules_kb.operations import MAX_SCENARIO, MAX_VALUES, Front, Kind
from rules_kb.serve import api, pages, verifier

_LOG = logging.getLogger("rules_kb.serve")

#: The most bytes one character takes percent-encoded in an address or a form: four UTF-8 bytes, each « %XX ».
ENCODED_CHAR = 12
#: The most bytes a request body may hold: a scenario of the most characters the document allows
#: (:data:`rules_kb.operations.MAX_SCENARIO`), each percent-encoded in the verifier's form, and
#: the form's other fields (64 KiB); a TOML body sent as is takes 4 bytes a character at most.
MAX_BODY = ENCODED_CHAR * MAX_SCENARIO + 64 * 1024
#: The most bytes a query string may hold: any the OpenAPI document allows fits (:func:`longest_query`).
MAX_QUERY = 32 * 1024
#: The most bytes a request's line and headers may take (:mod:`rules_kb.serve.protocol`; beyond: 414 or 431).
MAX_HEAD = 128 * 1024
#: The most bytes a path may hold.
MAX_PATH = 2048

#: Only this site's own files, no inline script or style, no frame, forms posted only here.
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
)
#: The headers every response carries.
SECURITY_HEADERS = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-resource-policy", b"same-origin"),
)


def longest_query() -> int:
    """The most bytes the query string of a request the OpenAPI document allows can take: for
    each operation, each text of the query at its longest (a list's :data:`MAX_VALUES` times),
    each character percent-encoded (:data:`ENCODED_CHAR`), and any other parameter's name and
    value (a number or yes/no: 40 bytes at most); the largest over the operations."""
    worst = 0
    for operation in api.OPERATIONS:
        size = 0
        for param in operation.params_on(Front.HTTP):
            if api.place(operation, param) != "query":
                continue
            name = len(param.name_on(Front.HTTP)) + 2  # « & » and « = »
            if param.kind is Kind.TEXT:
                size += name + ENCODED_CHAR * param.longest
            elif param.kind is Kind.TEXTS:
                size += MAX_VALUES * (name + ENCODED_CHAR * param.longest)
            else:
                size += name + 40
        worst = max(worst, size)
    return worst


def error_body(kind: str, message: str) -> bytes:
    """The JSON error shape ``{"error": {"type", "message"}}`` as bytes."""
    return json.dumps({"error": {"type": kind, "message": message}}, ensure_ascii=False).encode("utf-8")


def _unknown_api() -> str:
    """The 404 of an unknown ``/api/`` address: the addresses that exist (those of the
    declared operations, :data:`rules_kb.serve.api.OPERATIONS`)."""
    addresses = ", ".join(
        ("" if method == "GET" else f"{method} ") + path for method, path in (op.http for op in api.OPERATIONS)
    )
    return f"Adresse inconnue de l'API. Adresses : {addresses} (décrites dans /api/openapi.json et la documentation : « L'API HTTP »)."


class _TooLarge(Exception):
    """The body went beyond :data:`MAX_BODY` while the application read it."""


#: The names of this computer a browser on it uses: always answered.
LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})


def host_name(header: bytes) -> str:
    """The host of a ``Host`` header, lowercased, without its port nor an IPv6
    address's brackets (``b"[::1]:8000"`` → ``"::1"``); ``""`` when unreadable."""
    try:
        text = header.decode("ascii").strip().lower()
    except UnicodeDecodeError:
        return ""
    if text.startswith("["):
        return text[1:].partition("]")[0]
    return text.rpartition(":")[0] if text.count(":") == 1 else text


class Guard:
    """ASGI middleware: the ``Host`` header checked against ``allowed_hosts``
    (None: any; a web page elsewhere must not reach the API by renaming a
    host, « DNS rebinding »: a 400), the size limits (413, 414, answered as the
    JSON error shape) and :data:`SECURITY_HEADERS` on every response."""

    def __init__(self, app, allowed_hosts: frozenset[str] | None = None) -> None:
        self.app = app
        self.allowed_hosts = allowed_hosts

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.allowed_hosts is not None:
            host = host_name(dict(scope.get("headers", ())).get(b"host", b""))
            if host not in self.allowed_hosts:
                await self._refuse(send, 400, "BadHost", _bad_host(host))
                return
        path = scope.get("raw_path") or scope["path"].encode("utf-8", "surrogateescape")
        if len(scope.get("query_string", b"")) > MAX_QUERY or len(path) > MAX_PATH:
            await self._refuse(send, 414, "URITooLong", _TOO_LONG)
            return
        if sum(len(name) + len(value) + 4 for name, value in scope.get("headers", ())) > MAX_HEAD:
            await self._refuse(send, 431, "HeadersTooLarge", f"En-têtes trop grands : {MAX_HEAD // 1024} Kio au plus.")
            return
        declared = dict(scope.get("headers", ())).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
            await self._refuse(send, 413, "PayloadTooLarge", _too_large())
            return
        started = False
        received = 0

        async def limited_receive():
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > MAX_BODY:
                    raise _TooLarge
            return message

        async def secured_send(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message = {**message, "headers": [*message.get("headers", ()), *SECURITY_HEADERS]}
            await send(message)

        try:
            await self.app(scope, limited_receive, secured_send)
        except _TooLarge:
            if not started:
                await self._refuse(send, 413, "PayloadTooLarge", _too_large())
        except ClientDisconnect:  # the client left mid-request: nothing to answer, one line said
            client = scope.get("client")
            where = f"{client[0]}:{client[1]}" if client else "un client"
            _LOG.warning("rules-kb serve : %s est parti avant la fin de sa requête (%s).", where, scope.get("path", ""))

    @staticmethod
    async def _refuse(send, code: int, kind: str, message: str) -> None:
        body = error_body(kind, message)
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                   (b"connection", b"close"), *SECURITY_HEADERS]  # fmt: skip
        await send({"type": "http.response.start", "status": code, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def _bad_host(host: str) -> str:
    """The 400 of a ``Host`` the server was not started for."""
    shown = f"« {host[:100]} »" if host else "absent ou illisible"
    return (
        f"Nom d'hôte {shown} non reconnu : ce serveur répond à ses adresses (localhost, 127.0.0.1, l'adresse "
        "du réseau local affichée au démarrage) et aux noms donnés avec --allowed-host."
    )


#: The 414's message.
_TOO_LONG = f"Adresse trop longue : {MAX_QUERY // 1024} Kio au plus de paramètres ; raccourcissez la question."


def _too_large() -> str:
    return f"Requête trop grande : {MAX_BODY // 1024} Kio au plus ; envoyez un scénario plus court."


def create_app(kb, allowed_hosts=None):
    """The ASGI application serving ``kb`` (a :class:`rules_kb.loader.KnowledgeBase`,
    loaded once): the pages of :mod:`rules_kb.serve.pages` and the routes of
    :mod:`rules_kb.serve.api`, behind :class:`Guard`, which answers only the
    hosts ``allowed_hosts`` names (an iterable of names; None: any, for tests;
    :data:`LOOPBACK_HOSTS` are always added). An address that exists nowhere
    is a 404 (the JSON error shape under ``/api/``, a page elsewhere); an
    unexpected failure a 500 without any detail. Redirects are relative: the
    trailing slash one of Starlette's router, which builds its ``Location``
    from the ``Host`` header, is off."""
    hosts = (
        None if allowed_hosts is None else frozenset(LOOPBACK_HOSTS | {host_name(h.encode()) for h in allowed_hosts})
    )

    def http_error(request, error: HTTPException):
        if request.url.path.startswith("/api/") or request.url.path == "/api":
            wording = {404: _unknown_api(),
                       405: "Méthode non permise sur cette adresse."}.get(error.status_code, str(error.detail))  # fmt: skip
            return Response(
                error_body("HTTPError", wording),
                error.status_code,
                headers=error.headers,
                media_type="application/json",
            )
        page = pages.error_page(request, error.status_code)
        page.headers.update(error.headers or {})  # a 405's Allow (RFC 9110, 15.5.6)
        return page

    def server_error(request, error: Exception):
        # Starlette answers an unexpected failure outside the middleware (Guard): its headers are added here
        headers = {name.decode(): value.decode() for name, value in SECURITY_HEADERS}
        return Response(
            error_body("InternalError", "Erreur interne du serveur."),
            500,
            headers=headers,
            media_type="application/json",
        )

    app = Starlette(
        routes=[Route("/healthz", health, methods=["GET"]), *api.routes(), *verifier.routes(), *pages.routes()],
        middleware=[Middleware(Guard, allowed_hosts=hosts)],
        exception_handlers={HTTPException: http_error, Exception: server_error},
    )
    app.router.redirect_slashes = False
    app.state.kb = kb
    app.state.check_queue = api.CheckQueue()
    return app


def health(request) -> JSONResponse:
    """``GET /healthz``: ``{"status": "ok", "pid", "fingerprint", "read_only"}``, 200.

    A process answers only once its knowledge base is loaded and warm
    (:func:`create_app` is given it loaded; until then the connection waits
    on the listening socket), so there is no « not ready » answer: a load
    balancer's probe that gets no answer in time finds the process not ready.
    ``pid`` tells the worker processes apart, ``fingerprint`` (the cache's,
    :func:`rules_kb.loader.fingerprint`) that replicas serve the same corpus
    and code, ``read_only`` whether the cache is read without writing."""
    kb = request.app.state.kb
    return JSONResponse(
        {"status": "ok", "pid": os.getpid(), "fingerprint": kb.fingerprint, "read_only": bool(kb.read_only)}
    )


def warm_up(kb) -> None:
    """Answer one question of each kind, so that the first user's is as fast as
    the others (the embedding model, the glossary, the index are loaded)."""
    api.show(kb, "420.5c")
    api.define(kb, "piétinement")
    api.search(kb, "blessures fatales")
    api.suggest(kb, "piétinem")
    api.ask(kb, "ma 2/2 a pris 2 dégâts, elle meurt ?")


def is_loopback(host: str) -> bool:
    """Whether ``host`` listens on this computer only (``127.0.0.1``, ``::1``, ``localhost``)."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def lan_address() -> str:
    """This computer's address on the local network (what a phone on the same
    Wi-Fi opens), or ``""`` when it has none. Nothing is sent: connecting a
    UDP socket only chooses the route."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never reached, only routed
            address = probe.getsockname()[0]
        except OSError:
            return ""
    return "" if address.startswith("127.") or address == "0.0.0.0" else address


def served_hosts(host: str, allowed: list[str] | tuple[str, ...] = ()) -> tuple[str, ...]:
    """The names a server listening on ``host`` answers to (:func:`create_app`'s
    ``allowed_hosts``; :data:`LOOPBACK_HOSTS` are added there): ``host`` itself,
    the local network's address (:func:`lan_address`) and this computer's name
    when it listens on every address (``0.0.0.0``, ``::``), and the names ``allowed``."""
    found = [host.strip("[]")]
    if host.strip("[]") in ("0.0.0.0", "::"):
        found += [address for address in (lan_address(), socket.gethostname()) if address]
    return tuple(dict.fromkeys([*found, *allowed]))


def listening_socket(host: str, port: int):
    """A TCP socket bound to ``host``:``port`` and listening; raises :class:`OSError`
    (address in use, unknown host, permission) for the front end to word."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)  # TCP named: asyncio then sets TCP_NODELAY
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host.strip("[]"), port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


#: uvicorn's settings, for one process or several: the guarded h11 protocol (a head's timeout, JSON
#: 414/431, a connection limit) and event loop; the backlog is :data:`rules_kb.serve.protocol.BACKLOG`.
_UVICORN = {"log_level": "warning", "access_log": False, "lifespan": "off", "server_header": False,
            "http": "rules_kb.serve.protocol:GuardedH11Protocol", "h11_max_incomplete_event_size": MAX_HEAD,
            "timeout_keep_alive": 5, "backlog": 128, "loop": "rules_kb.serve.protocol:guarded_loop"}  # fmt: skip


#: Seconds a thread holds the interpreter lock before another waiting for it takes it (Python's
#: default: 0.005). A lookup's threads wait for it while a question or a check runs Python code in
#: another, and a lookup takes it several times (each SQLite call lets it go): 1 ms instead of 5
#: (bench/serve_load.py, 2 workers: lookups' p95 16-21 ms instead of 22-27; bench/amplification.py,
#: eight heavy checks at once: show's p95 under 100 ms instead of 155).
SWITCH_INTERVAL = 0.001


def run(app, sock) -> None:
    """Serve ``app`` with uvicorn on the bound ``sock`` until interrupted (Ctrl+C), with
    :data:`SWITCH_INTERVAL`."""
    import uvicorn  # deferred: uvicorn (and Click with it) only when the server runs; tests build the app alone

    sys.setswitchinterval(SWITCH_INTERVAL)

    config = uvicorn.Config(app, workers=1, **_UVICORN)
    uvicorn.Server(config).run(sockets=[sock])


#: The most worker processes :func:`run_workers` starts: twice the cores, 16 at most (each holds
#: its own knowledge base and embedding model, about 90 MiB; more processes than cores only wait).
MAX_WORKERS = max(2, min(16, 2 * (os.cpu_count() or 1)))
#: How long (seconds) a worker may take to open its knowledge base and warm up.
WORKER_START = 120.0
#: The exit code of a worker that could not open its knowledge base (uvicorn's for a failed start).
START_FAILED = 3


@dataclass(frozen=True, slots=True)
class WorkerPlan:
    """What each worker process opens (:func:`worker_app`): the corpus folder
    ``corpus`` (as the parent process found it), the cache folder ``cache``
    (``None``: ``$RULES_KB_HOME`` or the user's), whether that cache is
    read without writing (``read_only``, as the parent decided), and the
    names the server answers to (``allowed_hosts``, :func:`create_app`'s)."""

    corpus: str
    cache: str | None
    read_only: bool
    allowed_hosts: tuple[str, ...] | None = None


def worker_app(plan: WorkerPlan, ready=None):
    """The application of one worker process, made in that process (uvicorn's
    factory): its own knowledge base opened as ``plan`` says, warmed up
    (:func:`warm_up`), then ``ready`` (a semaphore of the parent's) released.
    A knowledge base that cannot be opened ends the process: its French
    message on stderr, exit code :data:`START_FAILED`."""
    # One thread for the model's OpenMP parallel parts, unless the user chose: N workers then share
    # the cores instead of N x cores threads taking turns (measured with 2 workers on 2 cores: 30 s of
    # CPU for bench/serve_load.py's 2,000 requests instead of 36, the run 17 s instead of 20).
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    try:
        kb = loader.open(plan.corpus, cache=plan.cache, read_only=plan.read_only)
    except RulesKbError as error:
        print(f"rules-kb serve (processus {os.getpid()}) : {error}", file=sys.stderr, flush=True)
        sys.exit(START_FAILED)
    warm_up(kb)
    sys.setswitchinterval(SWITCH_INTERVAL)
    app = Spread(create_app(kb, plan.allowed_hosts))
    if ready is not None:
        ready.release()
    return app


#: How many requests a worker answers on one connection before asking the client to close it (:class:`Spread`).
REQUESTS_PER_CONNECTION = 12
#: How many connections :class:`Spread` counts at most (the oldest forgotten first).
SPREAD_SIZE = 4096


class Spread:
    """ASGI middleware of a worker process: every :data:`REQUESTS_PER_CONNECTION`
    requests on a connection, the answer asks the client to close it
    (``Connection: close``, as nginx's ``keepalive_requests`` does), so that
    its next connection goes to whichever worker accepts it first, most often
    the least busy. The workers share one listening socket and a connection
    stays with the worker that accepted it: without this, twenty connections
    opened at once were seen split 18 to 2 for good, the questions of the 18
    waiting on one worker (measured with bench/serve_load.py and 2 workers:
    the questions' p95 1.0-1.5 s with it, 2.2-2.5 s without). Connections are
    told apart by the client's address and port; :data:`SPREAD_SIZE` at most
    are counted."""

    def __init__(self, app) -> None:
        self.app = app
        self.counts: dict[tuple, int] = {}

    async def __call__(self, scope, receive, send) -> None:
        client = scope.get("client") if scope["type"] == "http" else None
        if not client:
            await self.app(scope, receive, send)
            return
        key = tuple(client)
        count = self.counts.pop(key, 0) + 1
        closing = count >= REQUESTS_PER_CONNECTION
        if not closing:
            self.counts[key] = count
            if len(self.counts) > SPREAD_SIZE:
                del self.counts[next(iter(self.counts))]

        async def send_closing(message) -> None:
            headers = message.get("headers", ())
            if message["type"] == "http.response.start" and not any(name == b"connection" for name, _ in headers):
                message = {**message, "headers": [*headers, (b"connection", b"close")]}
            await send(message)

        await self.app(scope, receive, send_closing if closing else send)


def run_workers(plan: WorkerPlan, sock, count: int, started: Callable[[], None]) -> str:
    """Serve on the bound ``sock`` from ``count`` worker processes until
    interrupted (Ctrl+C, or SIGTERM to this process): uvicorn's supervisor
    starts them (``spawn``: a new interpreter each, never a fork of this one),
    each runs :func:`worker_app` on ``plan`` and accepts connections on the
    one socket; a worker that dies is replaced. ``started()`` is called once
    every worker is ready. On Ctrl+C or SIGTERM every worker stops, its
    requests answered first. Returns ``""``, or why the workers did not all
    start (:func:`_await_workers`: ``"died"``, its message on stderr, or
    ``"slow"``); the others are then stopped."""
    import multiprocessing  # deferred: these modules only when several processes serve

    import uvicorn
    from uvicorn.supervisors import Multiprocess

    ready = multiprocessing.get_context("spawn").Semaphore(0)
    config = uvicorn.Config(functools.partial(worker_app, plan, ready), factory=True, workers=count, **_UVICORN)
    failed = []

    class Supervisor(Multiprocess):
        def init_processes(self) -> None:
            super().init_processes()
            why = _await_workers(self, ready, count)
            if not why:
                started()
            elif why != "interrupted":  # stop the others (interrupted: the supervisor's loop stops them)
                failed.append(why)
                self.should_exit.set()

    if "target" in inspect.signature(Multiprocess).parameters:  # an older uvicorn: the target is given
        supervisor = Supervisor(config, target=uvicorn.Server(config).run, sockets=[sock])
    else:
        supervisor = Supervisor(config, sockets=[sock])
    supervisor.run()
    return failed[0] if failed else ""


def _await_workers(supervisor, ready, count: int) -> str:
    """``""`` once the ``count`` workers of ``supervisor`` all said they are ready
    (``ready`` released), else why not: ``"interrupted"`` (a signal, Ctrl+C, waits
    for the supervisor's loop), ``"died"`` (a worker ended first) or ``"slow"``
    (not all ready within :data:`WORKER_START` seconds)."""
    import time  # deferred: as run_workers'

    deadline = time.monotonic() + WORKER_START
    waiting = count
    while waiting:
        if ready.acquire(timeout=0.1):
            waiting -= 1
        elif getattr(supervisor, "signal_queue", ()):
            return "interrupted"
        elif any(getattr(process, "process", process).exitcode is not None for process in supervisor.processes):
            return "died"
        elif time.monotonic() > deadline:
            return "slow"
    return ""
