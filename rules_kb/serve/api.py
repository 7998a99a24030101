"""The HTTP JSON API of ``rules-kb serve`` (``/api/…``): the shapes of ``--json``.

Every answer is the JSON document the matching command prints with
``--json`` (:mod:`rules_kb.serialize`):

- ``GET /api/rules/{number}`` (``?edition=``, ``?only=1``): ``show``;
- ``GET /api/define?term=``: ``define``;
- ``GET /api/search?q=`` (``&limit=``, ``&kind=`` repeatable, ``&edition=``): ``search``;
- ``GET /api/ask?q=`` (``&limit=``, ``&edition=``): ``ask``;
- ``GET /api/suggest?q=`` (``&limit=``): :func:`suggest`, for the search box as one types;
- ``POST /api/check`` (``?edition=``), the scenario's TOML as the body: ``check``;
- ``GET /api/examples`` and ``GET /api/examples/{name}``: ``check --example [NOM]``;
- ``GET /api/openapi.json``: this list as OpenAPI 3.1 (:func:`openapi`).

A user's mistake is ``{"error": {"type", "message"}}`` (:func:`rules_kb.serialize.error_dict`,
the French message saying what to do on this site) with a 4xx code:
400 for malformed input, 404 for something the corpus does not hold.
The size limits (413, 414) and the security headers are in
:mod:`rules_kb.serve.app`.

Each request runs in Starlette's thread pool on the one knowledge base
(its SQLite connection is read-only and serialised by SQLite; what it
builds lazily, :func:`rules_kb.serve.app.warm_up` builds at start). ``ask``
runs under :data:`LOCK`, one question at a time: it drives the embedding
model, whose pending questions are shared
(:func:`rules_kb.build.embedding.query_vector`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from rules_kb import serialize
from rules_kb.core.errors import Remedy, RulesKbError

#: The most characters a text parameter (a question, a term, a search) may
#: hold, as on the command line.
MAX_TEXT = 2000
#: The most results a search or a question may ask for.
MAX_LIMIT = 200
#: Serialises the questions (see the module docstring).
LOCK = threading.Lock()

#: The errors of something the corpus does not hold (404); any other user error is a 400.
_NOT_FOUND = frozenset({"UnknownRuleError", "UnknownTermError", "UnknownEditionError", "UnknownExampleError"})

#: What to do next, worded for the web site (the library names no page).
_REMEDIES: dict[Remedy, Callable[[str, Any], str]] = {
    Remedy.SEARCH_RULE: lambda text, error: text + " Essayez la recherche avec des mots de la règle.",
    Remedy.SEARCH_TERM: lambda text, error: text + f" Essayez aussi la recherche « {error.term} ».",
    Remedy.SEARCH_CARD: lambda text, error: text + f" Essayez aussi la recherche « {error.name} » parmi les cartes.",
    Remedy.LIST_EXAMPLES: lambda text, error: text,
    Remedy.START_FROM_EXAMPLE: lambda text, error: text + " Partez d'un exemple de la page « Vérifier ».",
}


class BadRequest(RulesKbError):
    """A request the API cannot read (a parameter missing, too long, not a
    number; a body that is not UTF-8); the message says which, in French."""


def message(error: RulesKbError) -> str:
    """The French message of ``error`` with what to do next on the site."""
    text = str(error)
    remedy = _REMEDIES.get(error.remedy) if error.remedy is not None else None
    return remedy(text, error) if remedy else text


def status(error: RulesKbError) -> int:
    """The HTTP status of a user error: 404 when the corpus lacks what was asked, else 400."""
    return 404 if type(error).__name__ in _NOT_FOUND else 400


def text_parameter(params, name: str, required: bool = True) -> str:
    """The query parameter ``name`` (stripped; ``""`` if absent and not
    ``required``); raises :class:`BadRequest` if missing, empty or longer
    than :data:`MAX_TEXT`."""
    value = (params.get(name) or "").strip()
    if len(value) > MAX_TEXT:
        raise BadRequest(f"Le paramètre « {name} » est trop long : {len(value)} caractères, {MAX_TEXT} au plus ; raccourcissez-le.")
    if required and not value:
        raise BadRequest(f"Il manque le paramètre « {name} » (par exemple ?{name}=piétinement).")
    return value


def limit_parameter(params, default: int) -> int:
    """The ``limit`` parameter: an integer from 1 to :data:`MAX_LIMIT` (``default`` when absent);
    raises :class:`BadRequest`."""
    raw = (params.get("limit") or "").strip()
    if not raw:
        return default
    if not raw.isascii() or not raw.isdigit() or not 1 <= int(raw) <= MAX_LIMIT:
        raise BadRequest(f"Le paramètre « limit » doit être un nombre entier de 1 à {MAX_LIMIT} (reçu « {raw[:40]} »).")
    return int(raw)


def edition_parameter(params) -> str | None:
    """The ``edition`` parameter, or None."""
    return text_parameter(params, "edition", required=False) or None


def flag_parameter(params, name: str) -> bool:
    """A yes/no parameter (``1``, ``true``, ``oui``, ``on``: yes)."""
    return (params.get(name) or "").strip().lower() in ("1", "true", "oui", "on", "yes")


def scenario_text(body: bytes) -> str:
    """A request body as the TOML text of a scenario; raises :class:`BadRequest`
    when it is empty or not UTF-8."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BadRequest(f"Le scénario n'est pas en UTF-8 (octet {error.start + 1}) : envoyez le texte TOML en UTF-8.") from None
    if not text.strip():
        raise BadRequest("Le scénario est vide : envoyez le texte TOML d'un scénario (partez d'un exemple : /api/examples).")
    return text


# -- the answers, as the features give them (shared with the pages) ----------------------


def note_text(note) -> str:
    """A note of ``show`` pointing to another rule: where to read it on the site."""
    return note.text.rstrip(".") + f" (voir /regle/{note.see})." if note.see else note.text


def show(kb, number: str, edition: str | None = None, only: bool = False) -> dict:
    """``show``'s JSON (:func:`rules_kb.serialize.lookup_dict`)."""
    from rules_kb.lookup.rules import show as lookup

    if len(number) > MAX_TEXT:
        raise BadRequest(f"Le numéro est trop long : {len(number)} caractères.")
    return serialize.lookup_dict(lookup(kb, number, edition), only=only, note=note_text)


def define(kb, term: str) -> dict:
    """``define``'s JSON (:func:`rules_kb.serialize.definition_dict`)."""
    from rules_kb.lookup.glossary import define as look_up

    return serialize.definition_dict(look_up(kb, term))


def search(kb, query: str, limit: int = 10, edition: str | None = None, kinds: tuple[str, ...] = ()) -> dict:
    """``search``'s JSON (:func:`rules_kb.serialize.search_dict`)."""
    from rules_kb.search import search as find

    return serialize.search_dict(find(kb, query, limit=limit, edition=edition, kinds=kinds))


def ask(kb, question: str, limit: int = 5, edition: str | None = None) -> dict:
    """``ask``'s JSON (:func:`rules_kb.serialize.answer_dict`)."""
    from rules_kb.ask import ask as answer_question

    with LOCK:
        return serialize.answer_dict(answer_question(kb, question, limit=limit, edition=edition))


def _folded(text: str) -> str:
    """``text`` lowercased without accents, single-spaced (to compare what is typed with names)."""
    import unicodedata

    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return " ".join("".join(char for char in decomposed if not unicodedata.combining(char)).split())


def _names(kb) -> tuple[tuple[str, dict], ...]:
    """Every rule number, glossary headword and card name, folded, with the hit it suggests."""
    from rules_kb.core.model import RecordKind

    def build():
        found: dict[str, tuple[str, dict]] = {}
        for rule in kb.rules(kb.default_edition):
            hit = {"kind": "rule", "id": rule.number, "edition": rule.edition, "title": rule.title, "snippet": rule.text[:120]}
            found.setdefault(f"rule:{rule.number}", (rule.number, hit))
        for entry in kb.records(RecordKind.GLOSSARY):
            hit = {"kind": "glossary", "id": entry.term, "edition": entry.edition, "title": entry.term, "snippet": ""}
            found.setdefault(f"glossary:{entry.term}", (_folded(entry.term), hit))
        for card in kb.records(RecordKind.CARD):
            hit = {"kind": "card", "id": card.name, "edition": None, "title": card.name, "snippet": card.type_line}
            found.setdefault(f"card:{card.name}", (_folded(card.name), hit))
        return tuple(found.values())

    return kb.cached("serve-suggest-names", build)


def suggest(kb, text: str, limit: int = 6) -> dict:
    """Suggestions for what is being typed: ``{"query", "hits": [{"kind", "id",
    "edition", "title", "snippet"}…]}`` (the fields of a search hit): the
    rule numbers, glossary headwords and card names starting with ``text``
    (its last word may be unfinished: ``"piétinem"``), then the search's hits
    for it. Never raises for a text the search cannot run."""
    typed = _folded(text)
    hits: list[dict] = []
    if typed:
        names = _names(kb)
        starting = [hit for name, hit in names if name.startswith(typed)]
        hits = sorted(starting, key=lambda hit: (len(hit["id"]), hit["id"]))[:limit]
        if len(hits) < limit:
            try:
                found = search(kb, text, limit=limit)["hits"]
            except RulesKbError:
                found = []
            seen = {(hit["kind"], hit["id"]) for hit in hits}
            hits += [hit for hit in found if (hit["kind"], hit["id"]) not in seen][: limit - len(hits)]
    return {"query": text, "hits": hits}


def check(kb, text: str, edition: str | None = None) -> dict:
    """``check``'s JSON for the TOML ``text`` of a scenario (:func:`rules_kb.serialize.check_dict`);
    raises :class:`rules_kb.checker.scenario.ScenarioError`."""
    from rules_kb.checker.report import check_scenario
    from rules_kb.checker.scenario import parse_scenario

    return serialize.check_dict(check_scenario(kb, parse_scenario(text, "scénario envoyé"), edition))


def examples() -> dict:
    """``check --example``'s JSON: the bundled scenarios."""
    from rules_kb.checker.report import examples as bundled

    return serialize.examples_dict(bundled())


def example(name: str) -> dict:
    """``check --example NOM``'s JSON; raises :class:`rules_kb.checker.report.UnknownExampleError`."""
    from rules_kb.checker.report import example as bundled

    return serialize.example_dict(bundled(name[:MAX_TEXT]))


def openapi() -> dict:
    """The API described as OpenAPI 3.1 (served at ``/api/openapi.json``): its
    addresses, parameters and codes; the answers' shapes are those of
    ``--json``, described in the README."""

    def parameter(name: str, where: str = "query", required: bool = False, kind: str = "string", text: str = "") -> dict:
        return {"name": name, "in": where, "required": required, "schema": {"type": kind}, "description": text}

    error = {"description": "Erreur de l'utilisateur : {\"error\": {\"type\", \"message\"}} (message en français)",
             "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}  # fmt: skip

    def answer(summary: str, parameters: list[dict], like: str) -> dict:
        return {"summary": summary, "parameters": parameters, "responses": {
            "200": {"description": f"Le document JSON de « {like} » (formes décrites dans le README)", "content": {"application/json": {"schema": {"type": "object"}}}},
            "400": error, "404": error, "414": error,
        }}  # fmt: skip

    edition = parameter("edition", text="Édition des règles (2004, 2006-faq, 2011…)")
    limit = parameter("limit", kind="integer", text=f"De 1 à {MAX_LIMIT}")
    return {
        "openapi": "3.1.0",
        "info": {"title": "rules-kb", "version": "1", "description": "Les règles de Magic : l'Assemblée, en français : "
                 "les mêmes réponses, aux mêmes formes JSON, que la ligne de commande."},  # fmt: skip
        "paths": {
            "/api/rules/{number}": {"get": answer("Une règle par son numéro", [
                parameter("number", "path", True, text="420.5c, 420.5, 420 ou 4"), edition,
                parameter("only", text="1 : sans les sous-règles")], "show")},
            "/api/define": {"get": answer("Un terme du glossaire", [parameter("term", required=True)], "define")},
            "/api/search": {"get": answer("Recherche plein texte", [parameter("q", required=True), limit, edition,
                                          parameter("kind", text="règle, glossaire, carte, décision, faq, cours (répétable)")], "search")},
            "/api/ask": {"get": answer("Les règles d'une situation", [parameter("q", required=True), limit, edition], "ask")},
            "/api/suggest": {"get": answer("Suggestions pendant la frappe", [parameter("q"), limit], "search")},
            "/api/check": {"post": {**answer("Vérifier un scénario", [edition], "check"),
                                    "requestBody": {"required": True, "content": {"application/toml": {"schema": {"type": "string"}}}}}},
            "/api/examples": {"get": answer("Les scénarios d'exemple", [], "exemples")},
            "/api/examples/{name}": {"get": answer("Un scénario d'exemple", [parameter("name", "path", True)], "exemple")},
        },
        "components": {"schemas": {"Error": {"type": "object", "required": ["error"], "properties": {"error": {
            "type": "object", "required": ["type", "message"],
            "properties": {"type": {"type": "string"}, "message": {"type": "string"}}}}}}},
    }  # fmt: skip


# -- the routes ------------------------------------------------------------------------------


def error_response(error: RulesKbError):
    """The JSON error of a user's mistake, with its 4xx status."""
    from starlette.responses import JSONResponse

    return JSONResponse(serialize.error_dict(error, message(error)), status_code=status(error))


def _answering(compute: Callable[[Any], dict]):
    """A Starlette endpoint (run in the thread pool) answering ``compute(request)`` as JSON."""
    from starlette.responses import JSONResponse

    def endpoint(request):
        try:
            return JSONResponse(compute(request))
        except RulesKbError as error:
            return error_response(error)

    return endpoint


async def _check_endpoint(request):
    """``POST /api/check``: the body read asynchronously (within the size limit), then checked in the thread pool."""
    from starlette.concurrency import run_in_threadpool
    from starlette.responses import JSONResponse

    try:
        text = scenario_text(await request.body())
        edition = edition_parameter(request.query_params)
        return JSONResponse(await run_in_threadpool(check, request.app.state.kb, text, edition))
    except RulesKbError as error:
        return error_response(error)


def routes() -> list:
    """The API's Starlette routes."""
    from starlette.routing import Route

    def kb(request):
        return request.app.state.kb

    def kinds(request) -> tuple[str, ...]:
        return tuple(text_parameter({"kind": kind}, "kind") for kind in request.query_params.getlist("kind") if kind.strip())

    return [
        Route("/api/rules/{number:path}", _answering(lambda request: show(
            kb(request), request.path_params["number"], edition_parameter(request.query_params),
            flag_parameter(request.query_params, "only"),
        ))),  # fmt: skip
        Route("/api/define", _answering(lambda request: define(kb(request), text_parameter(request.query_params, "term")))),
        Route("/api/search", _answering(lambda request: search(
            kb(request), text_parameter(request.query_params, "q"), limit_parameter(request.query_params, 10),
            edition_parameter(request.query_params), kinds(request),
        ))),  # fmt: skip
        Route("/api/suggest", _answering(lambda request: suggest(
            kb(request), text_parameter(request.query_params, "q", required=False), limit_parameter(request.query_params, 6),
        ))),  # fmt: skip
        Route("/api/ask", _answering(lambda request: ask(
            kb(request), text_parameter(request.query_params, "q"), limit_parameter(request.query_params, 5),
            edition_parameter(request.query_params),
        ))),  # fmt: skip
        Route("/api/check", _check_endpoint, methods=["POST"]),
        Route("/api/examples", _answering(lambda request: examples())),
        Route("/api/openapi.json", _answering(lambda request: openapi())),
        Route("/api/examples/{name}", _answering(lambda request: example(request.path_params["name"]))),
    ]
