"""The HTTP JSON API of ``rules-kb serve`` (``/api/…``): the shapes of ``--json``.

Every address is derived from a declaration (:class:`rules_kb.operations.Operation`):
the operations of :data:`rules_kb.operations.OPERATIONS` that have an
``http`` (method, path), and the HTTP-only ones declared here with the same
dataclasses (:data:`SUGGEST`, :data:`EXAMPLES`, :data:`EXAMPLE`,
:data:`OPENAPI`); :data:`OPERATIONS` lists them all. From a declaration come
the route (:func:`routes`), the reading and checking of its parameters
(:func:`read`, on :func:`rules_kb.operations.arguments`) and its entry in
the OpenAPI document (:func:`openapi`); this module states no parameter,
bound or default of its own. Where a parameter travels is read from the
path and the declaration: a ``{name}`` of the path is a path parameter, a
parameter declared with a ``body`` media type the request body, any other
a query parameter. Today:

- ``GET /api/rules/{number}`` (``?edition=``, ``?only=1``): ``show``;
- ``GET /api/define?term=``: ``define``;
- ``GET /api/search?q=`` (``&limit=``, ``&kind=`` repeatable, ``&edition=``): ``search``;
- ``GET /api/ask?q=`` (``&limit=``, ``&edition=``): ``ask``;
- ``GET /api/suggest?q=`` (``&limit=``): :func:`suggest`, for the search box as one types;
- ``POST /api/check`` (``?edition=``), the scenario's TOML as the body: ``check``;
- ``GET /api/examples`` and ``GET /api/examples/{name}``: ``check --example [NOM]``;
- ``GET /api/openapi.json``: this list as OpenAPI 3.1 (:func:`openapi`).

Every answer is the JSON document the matching command prints with
``--json`` (:mod:`rules_kb.serialize`). A user's mistake is
``{"error": {"type", "message"}}`` (:func:`rules_kb.serialize.error_dict`,
the French message saying what to do on this site) with a 4xx code
(:func:`api_status`): 400 for a request the OpenAPI document refuses (a
parameter unknown, missing, too long, out of bounds, not of its form:
``BadRequest``, ``RuleNumberError``), 404 for something the corpus does not
hold, 422 for a request the document allows whose content cannot be used
(a search without a significant word, a scenario that is not one). The
document says exactly what each address takes (bounds, lengths, patterns,
values) and answers, so that a client, or schemathesis
(``bench/schemathesis_run.py``), can rely on it. The size limits (413, 414),
the ``Host`` check (a 400) and the security headers are in
:mod:`rules_kb.serve.app`.

Each request runs in Starlette's thread pool on the one knowledge base
(its SQLite connection is read-only and serialised by SQLite; what it
builds lazily, :func:`rules_kb.serve.app.warm_up` builds at start). ``ask``
runs under :data:`LOCK`, one question at a time: it drives the embedding
model, whose pending questions are shared
(:func:`rules_kb.engines.embedding.query_vector`).
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from rules_kb import operations, serialize
from rules_kb.ask import ask as answer_question
from rules_kb.checker.report import check_scenario
from rules_kb.checker.report import example as bundled_example
from rules_kb.checker.report import examples as bundled_examples
from rules_kb.checker.scenario import parse_scenario
from rules_kb.core.errors import Remedy, RulesKbError
from rules_kb.core.model import RecordKind
from rules_kb.lookup.glossary import define as look_up
from rules_kb.lookup.rules import show as lookup
from rules_kb.operations import MAX_LIMIT, MAX_TEXT, Front, Kind, Operation, Parameter  # noqa: F401 (the bounds, as declared, re-exported)
from rules_kb.search import search as find

#: Serialises the questions (see the module docstring).
LOCK = threading.Lock()

#: The errors of something the corpus does not hold (404).
_NOT_FOUND = frozenset(
    {"UnknownRuleError", "UnknownTermError", "LaterKeywordError", "UnknownEditionError", "UnknownExampleError"}
)
#: The errors of a request the OpenAPI document refuses (400): a parameter unknown, missing, too long, out of
#: bounds (:class:`BadRequest`), a rule number not of the document's pattern. On the API, any other user
#: error is a 422 (:func:`api_status`); a page answers it with a 400 (:func:`status`).
_MALFORMED = frozenset({"BadRequest", "RuleNumberError"})

#: What to do next, worded for the web site (the library names no page).
_REMEDIES: dict[Remedy, Callable[[str, Any], str]] = {
    Remedy.SEARCH_RULE: lambda text, error: text + " Essayez la recherche avec des mots de la règle.",
    Remedy.SEARCH_TERM: lambda text, error: text + f" Essayez aussi la recherche « {error.term} ».",
    Remedy.SEARCH_CARD: lambda text, error: text + f" Essayez aussi la recherche « {error.name} » parmi les cartes.",
    Remedy.LIST_EXAMPLES: lambda text, error: text,
    Remedy.START_FROM_EXAMPLE: lambda text, error: text + " Partez d'un exemple de la page « Vérifier ».",
}


class BadRequest(RulesKbError):
    """A request the API cannot read (a parameter unknown, missing, too long,
    not a number; a body that is not UTF-8); the message says which, in French."""


class ServerBusy(RulesKbError):
    """More checks wait their turn than :data:`CHECKS_WAITING` (HTTP 503)."""

    def __init__(self) -> None:
        super().__init__(
            f"Serveur occupé : {CHECKS_WAITING} vérifications attendent déjà leur tour ; réessayez dans un instant."
        )


#: Checks one process computes at once, each in a worker thread. A check is pure Python: two at once
#: would not go faster on one interpreter lock, and would make the event loop (and so every lookup)
#: wait for it (``bench/amplification.py``: eight heavy checks at once).
CHECKS_AT_ONCE = 1
#: Checks that may wait their turn (their CPU budget starts with their turn); one more is a 503.
CHECKS_WAITING = 32


class CheckQueue:
    """The checks of one server process, computed :data:`CHECKS_AT_ONCE` at a time in a worker
    thread, at most :data:`CHECKS_WAITING` waiting (``app.state.check_queue``)."""

    def __init__(self, at_once: int = CHECKS_AT_ONCE, waiting: int = CHECKS_WAITING) -> None:
        import anyio  # deferred: the web server; MCP imports this module too

        self.limiter = anyio.CapacityLimiter(at_once)
        self.waiting = waiting

    async def run(self, function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)`` in a worker thread once its turn comes; raises :class:`ServerBusy`
        when :attr:`waiting` checks already wait."""
        import anyio.to_thread

        if self.limiter.statistics().tasks_waiting >= self.waiting:
            raise ServerBusy()
        return await anyio.to_thread.run_sync(function, *args, limiter=self.limiter)


def message(error: RulesKbError) -> str:
    """The French message of ``error`` with what to do next on the site."""
    text = str(error)
    remedy = _REMEDIES.get(error.remedy) if error.remedy is not None else None
    return remedy(text, error) if remedy else text


def status(error: RulesKbError) -> int:
    """The HTTP status of a user error on a page: 404 when the corpus lacks what was asked, else 400."""
    return 404 if type(error).__name__ in _NOT_FOUND else 400


def api_status(error: RulesKbError) -> int:
    """The HTTP status of a user error on the API (:func:`error_response`): 404 when the corpus lacks
    what was asked, 400 when the request is not what the OpenAPI document allows, 503 when too many
    checks wait (:class:`ServerBusy`), else 422 (allowed, but its content cannot be used: a search
    without a significant word, an invalid scenario)."""
    if isinstance(error, ServerBusy):
        return 503
    code = status(error)
    return 422 if code == 400 and type(error).__name__ not in _MALFORMED else code


# -- the HTTP-only operations, declared as those of rules_kb.operations ----------------------

_HTTP = frozenset({Front.HTTP})

#: ``GET /api/suggest``: what the search box suggests as one types (:func:`suggest`).
SUGGEST = Operation(
    "suggest", "Suggestions pendant la frappe.",
    "Les numéros de règles, les termes du glossaire et les noms de cartes qui commencent par ce qui est tapé (son "
    "dernier mot peut être inachevé : « piétinem »), puis les résultats de la recherche plein texte.",
    "rules_kb.serve.api:suggest",
    (
        Parameter("text", Kind.TEXT, "Ce qui est tapé, même inachevé : « piétinem », « 420.5 ».", default="",
                  names={Front.HTTP: "q"}, fronts=_HTTP, examples=("piétinem", "420.5")),
        replace(operations.limit("suggestions", 6), fronts=_HTTP),
    ),
    http=("GET", "/api/suggest"),
)  # fmt: skip
#: ``GET /api/examples``: the bundled scenarios (``check --example``).
EXAMPLES = Operation(
    "examples", "Les scénarios d'exemple.",
    "Les scénarios d'exemple fournis (nom, titre, description), à lire avec /api/examples/{name}, copier, modifier "
    "puis envoyer à POST /api/check.",
    "rules_kb.serve.api:examples", http=("GET", "/api/examples"),
)  # fmt: skip
#: ``GET /api/examples/{name}``: one bundled scenario (``check --example NOM``); its
#: parameter is ``check``'s ``example_name`` (MCP's ``example``), required here.
EXAMPLE = Operation(
    "example", "Un scénario d'exemple.",
    "Un scénario d'exemple fourni, par son nom : son texte TOML, à copier, modifier puis envoyer à POST /api/check.",
    "rules_kb.serve.api:example",
    (replace(operations.BY_NAME["check"].param("example_name"), name="name", required=True, names={}, fronts=_HTTP),),
    http=("GET", "/api/examples/{name}"),
)  # fmt: skip
#: ``GET /api/openapi.json``: :func:`openapi`.
OPENAPI = Operation(
    "openapi", "La description de l'API.",
    "Les adresses de l'API, leurs paramètres et leurs codes de réponse, au format OpenAPI 3.1 (ce document).",
    "rules_kb.serve.api:openapi", http=("GET", "/api/openapi.json"),
)  # fmt: skip


#: Every operation the API serves: those of :data:`rules_kb.operations.OPERATIONS` with an
#: ``http``, then the HTTP-only ones.
OPERATIONS: tuple[Operation, ...] = (
    *(op for op in operations.OPERATIONS if op.http),
    SUGGEST,
    EXAMPLES,
    EXAMPLE,
    OPENAPI,
)
#: :data:`OPERATIONS` by name.
BY_NAME: dict[str, Operation] = {operation.name: operation for operation in OPERATIONS}

#: What the 200 answer of an operation holds, when it is not its command's JSON (no option
#: named: the site's texts name no command line).
_SHAPES = {
    "suggest": "{\"query\", \"hits\": [{\"kind\", \"id\", \"edition\", \"title\", \"snippet\"}…]} : les champs d'un "
               "résultat de « search »",
    "examples": "la liste des scénarios d'exemple de « check »",
    "example": "un scénario d'exemple de « check », avec son texte TOML",
    "openapi": "OpenAPI 3.1 : ce document",
}  # fmt: skip


# -- reading a request's parameters, as declared ----------------------------------------------


def place(operation: Operation, param: Parameter) -> str:
    """Where ``param`` travels in a request of ``operation``: ``"path"`` (a ``{name}`` of its
    path), ``"body"`` (declared with a ``body`` media type) or ``"query"``."""
    if operation.http and "{" + param.name_on(Front.HTTP) + "}" in operation.http[1]:
        return "path"
    if param.body:
        return "body"
    return "query"


def _caller(operation: Operation, address: str) -> operations.Caller:
    """How the messages of :func:`rules_kb.operations.arguments` name the parameters of
    ``operation``, served at ``address``: by their names in the query string or the path,
    the body as such."""
    return operations.Caller(
        address,
        "paramètre",
        lambda param: (
            "le corps de la requête"
            if place(operation, param) == "body"
            else f"le paramètre « {param.name_on(Front.HTTP)} »"
        ),
    )


def _checked(params: tuple[Parameter, ...], given: Mapping[str, Any], caller: operations.Caller) -> dict[str, Any]:
    """:func:`rules_kb.operations.arguments` on the HTTP front (texts read as their
    parameter's kind); its :class:`rules_kb.operations.ArgumentError` becomes a
    :class:`BadRequest` (the error's type the API has always answered)."""
    try:
        return operations.arguments(params, Front.HTTP, given, caller, strings=True)
    except operations.ArgumentError as error:
        raise BadRequest(str(error)) from None


def _query(query, params: tuple[Parameter, ...], tidy: bool = True) -> dict[str, Any]:
    """The query string ``query`` (a multi-dict: ``getlist``, like Starlette's
    ``QueryParams``; or a plain mapping) as ``{name: value}``: a repeatable
    parameter (:attr:`rules_kb.operations.Kind.TEXTS`) gives the list of its
    values, any other its last value. ``tidy`` (a page's form): a repeatable
    parameter's values stripped, the empty ones left out (an empty choice
    of a form's list); else (the API) as sent, as the document says."""
    repeatable = {param.name_on(Front.HTTP) for param in params if param.kind is Kind.TEXTS}
    given: dict[str, Any] = {}
    for name in query:
        if name in repeatable:
            values = query.getlist(name) if hasattr(query, "getlist") else [query[name]]
            if tidy:
                values = [value.strip() for value in values if value.strip()]
            if values:
                given[name] = values
        else:
            given[name] = query[name]
    return given


def _typed(params: tuple[Parameter, ...], given: Mapping[str, Any], caller: operations.Caller) -> None:
    """The API's integers and flags written as the document types them: a blank one is a 400 (as
    any text that is not a number or a yes/no), not the default a page's empty field stands for."""
    for param in params:
        raw = given.get(param.name_on(Front.HTTP))
        if param.kind in (Kind.INTEGER, Kind.FLAG) and isinstance(raw, str) and not raw.strip():
            try:
                operations.value(caller.where(param), param, raw, strings=True)
            except operations.ArgumentError as error:
                raise BadRequest(str(error)[:1].upper() + str(error)[1:]) from None


def read(operation: Operation, query, path: Mapping[str, str] | None = None, body: str | None = None) -> dict[str, Any]:
    """The arguments of a request of ``operation`` (Python name → value, the
    defaults of those left out), from its query string ``query``, its path
    parameters ``path`` and its ``body`` (already decoded), checked against
    the declaration; raises :class:`BadRequest` (French) for a parameter
    unknown, missing or malformed."""
    params = operation.params_on(Front.HTTP)
    in_query = tuple(param for param in params if place(operation, param) == "query")
    elsewhere = tuple(param for param in params if place(operation, param) != "query")
    caller = _caller(operation, operation.http[1])
    sent = _query(query, in_query, tidy=False)
    _typed(in_query, sent, caller)
    checked = _checked(in_query, sent, caller)
    given: dict[str, Any] = {}
    for param in elsewhere:
        name = param.name_on(Front.HTTP)
        given[name] = body if place(operation, param) == "body" else (path or {}).get(name)
    return checked | _checked(elsewhere, given, caller)


def parameter(query, param: Parameter, name: str | None = None) -> Any:
    """One parameter of a page's query string (or path: any mapping), read and
    checked as ``param`` declares it; ``name``: its name there (by default its
    HTTP name). The other parameters are ignored (a page takes what it knows).
    Raises :class:`BadRequest`."""
    name = name or param.name_on(Front.HTTP)
    param = replace(param, names={Front.HTTP: name}, fronts=_HTTP)
    given = _query(query, (param,))
    caller = operations.Caller("cette page", "paramètre", lambda param: f"le paramètre « {name} »")
    return _checked((param,), {name: given[name]} if name in given else {}, caller)[param.name]


def scenario_text(body: bytes) -> str:
    """A request body as the TOML text of a scenario; raises :class:`BadRequest`
    when it is empty or not UTF-8."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise BadRequest(
            f"Le scénario n'est pas en UTF-8 (octet {error.start + 1}) : envoyez le texte TOML en UTF-8."
        ) from None
    if not text.strip():
        raise BadRequest(
            "Le scénario est vide : envoyez le texte TOML d'un scénario (partez d'un exemple : /api/examples)."
        )
    return text


# -- the answers, as the features give them (shared with the pages) ----------------------


def note_text(note) -> str:
    """A note of ``show`` pointing to another rule: where to read it on the site."""
    return note.text.rstrip(".") + f" (voir /regle/{note.see})." if note.see else note.text


def show(kb, number: str, edition: str | None = None, only: bool = False) -> dict:
    """``show``'s JSON (:func:`rules_kb.serialize.lookup_dict`). A number not of the form the
    document's pattern says is refused first (a 400 whatever edition the request names)."""
    if edition and re.search(operations.RULE_NUMBER, number) is None:
        lookup(kb, number)  # raises RuleNumberError, with the number it may stand for
    return serialize.lookup_dict(lookup(kb, number, edition), only=only, note=note_text)


def define(kb, term: str) -> dict:
    """``define``'s JSON (:func:`rules_kb.serialize.definition_dict`)."""
    return serialize.definition_dict(look_up(kb, term))


def search(kb, query: str, limit: int = 10, edition: str | None = None, kinds: tuple[str, ...] = ()) -> dict:
    """``search``'s JSON (:func:`rules_kb.serialize.search_dict`)."""
    return serialize.search_dict(find(kb, query, limit=limit, edition=edition, kinds=kinds))


def ask(kb, question: str, limit: int = 5, edition: str | None = None) -> dict:
    """``ask``'s JSON (:func:`rules_kb.serialize.answer_dict`)."""
    with LOCK:
        return serialize.answer_dict(answer_question(kb, question, limit=limit, edition=edition))


def _folded(text: str) -> str:
    """``text`` lowercased without accents, single-spaced (to compare what is typed with names)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return " ".join("".join(char for char in decomposed if not unicodedata.combining(char)).split())


def _names(kb) -> tuple[tuple[str, dict], ...]:
    """Every rule number, glossary headword and card name, folded, with the hit it suggests."""

    def build():
        found: dict[str, tuple[str, dict]] = {}
        for rule in kb.rules(kb.default_edition):
            hit = {
                "kind": "rule",
                "id": rule.number,
                "edition": rule.edition,
                "title": rule.title,
                "snippet": rule.text[:120],
            }
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


def check(kb, text: str, edition: str | None = None, full_trace: bool = False) -> dict:
    """``check``'s JSON for the TOML ``text`` of a scenario (:func:`rules_kb.serialize.check_dict`);
    raises :class:`rules_kb.checker.scenario.ScenarioError`."""
    scenario = parse_scenario(text, "scénario envoyé")
    return serialize.check_dict(check_scenario(kb, scenario, edition, full_trace=full_trace))


def examples() -> dict:
    """``check --example``'s JSON: the bundled scenarios."""
    return serialize.examples_dict(bundled_examples())


def example(name: str) -> dict:
    """``check --example NOM``'s JSON; raises :class:`rules_kb.checker.report.UnknownExampleError`."""
    return serialize.example_dict(bundled_example(name[:MAX_TEXT]))


#: What each operation may not find in the corpus (its 404), by operation name.
_MISSING = {
    "show": "le numéro de règle ou l'édition",
    "define": "le terme (aucune entrée du glossaire ne lui correspond, ou un mot-clé de règles plus récentes)",
    "search": "l'édition",
    "ask": "l'édition",
    "check": "l'édition",
    "example": "l'exemple",
}
#: What each operation cannot use although the document allows it (its 422), by operation name.
_UNUSABLE = {
    "define": "un terme sans lettre ni chiffre",
    "search": "une recherche sans mot significatif (« le », « de »…), avec un opérateur (AND, OR, NOT…) ou un nom de "
              "champ (« line:5 »)",
    "ask": "une question sans mot significatif ou trop longue une fois lue",
    "check": "un scénario invalide (TOML mal formé ou contenu refusé : « ScenarioError », avec « line », « key » et "
             "« problems »), une édition que le vérificateur ne juge pas, un calcul trop long",
}  # fmt: skip
#: The answers every address may give besides its own (the size limits, the ``Host`` check and the
#: unexpected failure are :mod:`rules_kb.serve.app`'s).
_ALWAYS = {
    "405": "Méthode non permise sur cette adresse ; l'en-tête « Allow » dit lesquelles le sont",
    "413": "Corps de la requête plus grand que la limite du serveur",
    "414": "Adresse (chemin ou paramètres) plus longue que la limite du serveur",
    "500": "Erreur interne du serveur, sans détail",
    "503": "Serveur occupé : toutes ses connexions servent, ou trop de vérifications attendent leur tour ; "
    "réessayer après le délai de l'en-tête « Retry-After »",
}
#: The JSON error shape (:func:`rules_kb.serialize.error_dict`), as an OpenAPI component.
_ERROR_SCHEMA = {
    "type": "object", "required": ["error"], "additionalProperties": False,
    "properties": {"error": {
        "type": "object", "required": ["type", "message"],
        "properties": {
            "type": {"type": "string", "description": "Le nom de l'erreur : BadRequest, RuleNumberError, ScenarioError…"},
            "message": {"type": "string", "minLength": 1, "description": "Ce qui ne va pas et quoi faire, en français."},
            "file": {"type": ["string", "null"]},
            "line": {"type": ["integer", "null"]},
            "key": {"type": ["string", "null"]},
            "problems": {"type": "array", "items": {"type": "object", "required": ["message", "line", "key"],
                                                   "properties": {"message": {"type": "string"},
                                                                  "line": {"type": ["integer", "null"]},
                                                                  "key": {"type": ["string", "null"]}}}},
        },
    }},
}  # fmt: skip
#: The links between answers (OpenAPI ``links``): an operation's 200 gives another's parameter.
_LINKS = {
    "examples": {"example": {"operationId": "example", "parameters": {"name": "$response.body#/examples/0/name"},
                             "description": "Le premier scénario d'exemple de la liste."}},
}  # fmt: skip


def _error(description: str) -> dict[str, Any]:
    """An error answer of the OpenAPI document: ``description`` and the JSON error shape."""
    return {
        "description": description + ' : {"error": {"type", "message"}}, message en français.',
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    }


def responses(operation: Operation) -> dict[str, dict[str, Any]]:
    """The answers ``operation`` may give, by status (OpenAPI ``responses``): its 200, then 400 (a request the
    document refuses, or a ``Host`` the server was not started for), 404 (what its operation may not find,
    or an address that does not exist), 422 for an operation whose content may be unusable, and those of every
    address (:data:`_ALWAYS`: 405 with its ``Allow``, 413, 414, 500), each error in the JSON error shape."""
    params = operation.params_on(Front.HTTP)
    shape = _SHAPES.get(operation.name, f"« {operation.name} »")
    refused = ["paramètre inconnu" if params else "paramètre (aucun n'est attendu)"]
    if any(param.required for param in params if place(operation, param) != "body"):
        refused.append("manquant")
    if any(param.body for param in params):
        refused.append("corps vide, hors UTF-8 ou trop long")
    if any(param.kind in (Kind.TEXT, Kind.TEXTS) for param in params):
        refused.append("texte trop long ou hors des valeurs permises")
    if any(param.pattern for param in params):
        refused.append("de forme refusée (« pattern »)")
    if any(param.kind in (Kind.INTEGER, Kind.FLAG) for param in params):
        refused.append("nombre ou oui/non mal écrit ou hors limites")
    found = {
        "200": {
            "description": f"Le document JSON de {shape} (formes décrites dans la documentation : « Les formes JSON »).",
            "content": {"application/json": {"schema": {"type": "object"}}},
        },
        "400": _error(
            "Demande que ce document refuse : " + ", ".join(refused) + " ; ou nom d'hôte (en-tête Host) non "
            "reconnu (« BadHost »)"
        ),
        "404": _error(
            f"Absent du corpus : {_MISSING[operation.name]}"
            if operation.name in _MISSING
            else "Jamais pour cette adresse, qui ne cherche rien dans le corpus : le code d'une adresse inconnue de l'API"
        ),
    }
    if operation.name in _LINKS:
        found["200"]["links"] = _LINKS[operation.name]
    if operation.name in _UNUSABLE:
        found["422"] = _error(f"Demande permise par ce document mais inutilisable : {_UNUSABLE[operation.name]}")
    for code, what in _ALWAYS.items():
        found[code] = _error(what)
    found["405"]["headers"] = {
        "Allow": {"description": "Les méthodes permises sur cette adresse.", "required": True,
                  "schema": {"type": "string", "minLength": 1}}
    }  # fmt: skip
    return dict(sorted(found.items()))


def _path_item(operation: Operation) -> dict[str, Any]:
    """The OpenAPI operation object of ``operation``, from its declaration."""
    parameters, body = [], None
    for param in operation.params_on(Front.HTTP):
        where = place(operation, param)
        if where == "body":
            body = param
            continue
        described = {"name": param.name_on(Front.HTTP), "in": where, "required": param.required or where == "path",
                     "description": param.help, "schema": operations.json_schema(param)}  # fmt: skip
        if param.kind is Kind.TEXTS:
            described.update(style="form", explode=True)  # ?kind=carte&kind=règle
        parameters.append(described)
    item: dict[str, Any] = {"operationId": operation.name, "summary": operation.summary,
                            "description": operation.description, "parameters": parameters}  # fmt: skip
    if body is not None:
        # Required on HTTP although not in the declaration: the body is the only way to give a
        # scenario here (MCP may name an example instead); an empty one is a missing one (a 400).
        item["requestBody"] = {
            "required": True,
            "description": body.help + " En UTF-8.",
            "content": {body.body: {"schema": operations.json_schema(replace(body, required=True))}},
        }
    item["responses"] = responses(operation)
    return item


def openapi() -> dict:
    """The API described as OpenAPI 3.1 (served at ``/api/openapi.json``),
    generated from :data:`OPERATIONS`: each address, its method, its
    parameters (where they travel, their type, bounds, length, pattern,
    values, default and French help), its body and its answers (:func:`responses`);
    the answers' shapes are those of ``--json``, described in docs/reference/json.md."""
    paths: dict[str, dict[str, Any]] = {}
    for operation in OPERATIONS:
        method, path = operation.http
        paths.setdefault(path, {})[method.lower()] = _path_item(operation)
    return {
        "openapi": "3.1.0",
        "info": {"title": "rules-kb", "version": "1", "description": "Les règles de Magic : l'Assemblée, en français : "
                 "les mêmes réponses, aux mêmes formes JSON, que la ligne de commande."},
        "paths": paths,
        "components": {"schemas": {"Error": _ERROR_SCHEMA}},
    }  # fmt: skip


# -- the routes ------------------------------------------------------------------------------

#: The function answering each operation, called with the knowledge base and the arguments :func:`read` gives.
_ANSWERS: dict[str, Callable[..., dict]] = {
    "show": show,
    "define": define,
    "search": search,
    "ask": ask,
    "check": check,
    "suggest": suggest,
    "examples": lambda kb: examples(),
    "example": lambda kb, name: example(name),
    "openapi": lambda kb: openapi(),
}


def error_response(error: RulesKbError):
    """The JSON error of a user's mistake, with its 4xx status."""
    from starlette.responses import JSONResponse  # deferred: the web server; MCP imports this module too

    code = api_status(error)
    return JSONResponse(serialize.error_dict(error, message(error)), status_code=code,
                        headers={"retry-after": "1"} if code == 503 else None)  # fmt: skip


def _endpoint(operation: Operation):
    """The Starlette endpoint of ``operation``: its body (if a parameter travels in it)
    read asynchronously within the size limit, then in the thread pool its arguments read
    (:func:`read`) and its answer computed as JSON."""
    # deferred: the web server; MCP imports this module too
    from starlette.concurrency import run_in_threadpool
    from starlette.responses import JSONResponse

    answer = _ANSWERS[operation.name]
    takes_body = any(param.body for param in operation.params_on(Front.HTTP))

    async def endpoint(request):
        try:
            body = scenario_text(await request.body()) if takes_body else None

            def compute():
                arguments = read(operation, request.query_params, request.path_params, body)
                return JSONResponse(answer(request.app.state.kb, **arguments))

            if operation.name == "check":
                return await request.app.state.check_queue.run(compute)
            return await run_in_threadpool(compute)
        except RulesKbError as error:
            return error_response(error)

    return endpoint


#: The name of the path convertor of :func:`routes` (:func:`_rest`).
REST = "rest"


def _rest() -> str:
    """Register (once) and name Starlette's path convertor for a path parameter: the rest of
    the path, whatever it holds (Starlette's ``path`` stops at a line break)."""
    from starlette.convertors import CONVERTOR_TYPES, PathConvertor, register_url_convertor

    if REST not in CONVERTOR_TYPES:

        class Rest(PathConvertor):
            regex = "(?s:.*)"

        register_url_convertor(REST, Rest())
    return REST


def routes() -> list:
    """The API's Starlette routes, one per operation of :data:`OPERATIONS` (a path
    parameter takes the rest of the path, slashes and line breaks included: ``/api/rules/a/b``
    and ``/api/rules/%0A`` are 400s of ``show``, not unknown addresses)."""
    from starlette.routing import Route  # deferred: the web server; MCP imports this module too

    rest = _rest()
    return [
        Route(
            re.sub(r"\{(\w+)\}", rf"{{\1:{rest}}}", operation.http[1]),
            _endpoint(operation),
            methods=[operation.http[0]],
        )
        for operation in OPERATIONS
    ]
