"""The Starlette application of ``rules-kb serve``.

:func:`create_app` serves a knowledge base loaded once (``app.state.kb``):
the JSON routes of :mod:`rules_kb.serve.api` and the pages of
:mod:`rules_kb.serve.pages`, behind :class:`Guard`, which refuses what is
too large before the application reads it (a query string or path beyond
:data:`MAX_QUERY` / :data:`MAX_PATH` bytes: 414; a body beyond
:data:`MAX_BODY` bytes: 413) and puts the security headers
(:data:`SECURITY_HEADERS`: a strict ``Content-Security-Policy``, no
sniffing, no framing, no referrer) on every response. Nothing is written
to disk.
"""

from __future__ import annotations

import ipaddress
import json
import socket

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.responses import Response

from rules_kb.serve import api, pages, verifier

#: The most bytes a request body may hold (a scenario takes a few kilobytes).
MAX_BODY = 256 * 1024
#: The most bytes a query string may hold (a question of 2,000 characters, percent-encoded, fits).
MAX_QUERY = 16 * 1024
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


class Guard:
    """ASGI middleware: the size limits (413, 414, answered as the JSON error
    shape) and :data:`SECURITY_HEADERS` on every response."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("raw_path") or scope["path"].encode("utf-8", "surrogateescape")
        if len(scope.get("query_string", b"")) > MAX_QUERY or len(path) > MAX_PATH:
            await self._refuse(send, 414, "URITooLong", _TOO_LONG)
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

    @staticmethod
    async def _refuse(send, code: int, kind: str, message: str) -> None:
        body = error_body(kind, message)
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                   (b"connection", b"close"), *SECURITY_HEADERS]  # fmt: skip
        await send({"type": "http.response.start", "status": code, "headers": headers})
        await send({"type": "http.response.body", "body": body})


#: The 414's message.
_TOO_LONG = f"Adresse trop longue : {MAX_QUERY // 1024} Kio au plus de paramètres ; raccourcissez la question."


def _too_large() -> str:
    return f"Requête trop grande : {MAX_BODY // 1024} Kio au plus ; envoyez un scénario plus court."


def create_app(kb):
    """The ASGI application serving ``kb`` (a :class:`rules_kb.loader.KnowledgeBase`,
    loaded once): the pages of :mod:`rules_kb.serve.pages` and the routes of
    :mod:`rules_kb.serve.api`, behind :class:`Guard`. An address that
    exists nowhere is a 404 (the JSON error shape under ``/api/``, a page
    elsewhere); an unexpected failure a 500 without any detail."""

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
        routes=[*api.routes(), *verifier.routes(), *pages.routes()],
        middleware=[Middleware(Guard)],
        exception_handlers={HTTPException: http_error, Exception: server_error},
    )
    app.state.kb = kb
    return app


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


def run(app, sock) -> None:
    """Serve ``app`` with uvicorn on the bound ``sock`` until interrupted (Ctrl+C)."""
    import uvicorn  # deferred: uvicorn (and Click with it) only when the server runs; tests build the app alone

    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off", server_header=False)
    uvicorn.Server(config).run(sockets=[sock])
