"""``rules-kb mcp``: an MCP server over standard input and output, for assistants.

The tools are the operations of :mod:`rules_kb.operations` that have a
``tool`` name (:data:`rules_kb.operations.BY_TOOL`): ``show_rule``,
``search_rules``, ``define_term``, ``ask_rules`` and ``check_scenario``.
From each declaration come the tool's name, title and description, its
arguments (:meth:`rules_kb.operations.Operation.params_on` for
:attr:`~rules_kb.operations.Front.MCP`, each named by ``name_on``), their
JSON Schema (:func:`input_schema`: type, length, bounds, list size, default,
French help) and their checking (:func:`arguments`, on
:func:`rules_kb.operations.arguments`). This module adds only what is the
server's own: the end of each description for an assistant (what
« citations » holds), how each tool calls its library function and which
rules it cites (:data:`TOOLS`), the remedies worded with the tools' names.

Each result is the JSON shape of the matching command's ``--json``
(:mod:`rules_kb.serialize`) plus ``citations``: every rule the answer cites,
``{"number", "edition", "title", "text"}``, its text as the knowledge base
holds it (verbatim), so an assistant quotes checked French texts.

A user's mistake (an unknown rule number, a malformed argument, a bad
scenario) is a tool error (``isError``) whose text is the French message,
saying what to try next in this server's words (its tools), and whose
structured content is :func:`rules_kb.serialize.error_dict`; the server goes
on serving.

:func:`call` runs a tool in process (no MCP involved); :func:`serve` runs
the server on the SDK's low-level :class:`mcp.server.lowlevel.Server`, not on
its FastMCP: FastMCP builds a tool's schema from a Python signature and
checks the arguments with pydantic before the tool runs, answering a
malformed argument in English (pydantic's messages); with the low-level
server the schemas are generated from our declarations and the arguments
checked by :func:`rules_kb.operations.arguments`, so every message an
assistant relays is French.

Every request is answered, whatever the client writes. The SDK's stdio
transport validates each line with pydantic and drops one that fails (no
reply: the client waits until its own timeout): invalid or truncated JSON,
a value that is not one JSON-RPC object (a batch, a number), ``params``
that is not an object, a lone surrogate, a nesting deeper than its parser's
200 levels, a number of more than 4,300 digits. So :class:`ScreenedInput`
is the standard input the SDK reads: it reads each line first, with limits
(:data:`MAX_LINE` bytes, :data:`MAX_DEPTH` levels, :data:`MAX_DIGITS`
digits, no lone surrogate), passes on those :func:`screen` lets through and
answers the others itself: a JSON-RPC error (parse error, invalid request,
invalid params) in French, saying what is wrong and what to try, with the
request's id (``null`` when it cannot be read), nothing for a notification,
and one French line on standard error. The errors the SDK raises itself
(an unknown method, params its schemas refuse, a request before
``initialize``) are said in French by a middleware of the server
(:func:`sdk_error_message`, :func:`invalid_params_message`).

The ``mcp`` SDK is imported only to serve (by :func:`serve`, :func:`server`,
:class:`ScreenedInput` and the last check of :func:`screen`).
"""

from __future__ import annotations

import json
import logging
import re
import sys
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from typing import Any, BinaryIO, NamedTuple

from rules_kb import operations, serialize
from rules_kb.ask import ask
from rules_kb.checker.report import check_scenario, example
from rules_kb.checker.scenario import parse_scenario
from rules_kb.core.errors import Remedy, RulesKbError
from rules_kb.core.model import RecordKind, Rule
from rules_kb.loader import KnowledgeBase
from rules_kb.lookup.glossary import define
from rules_kb.lookup.rules import show
from rules_kb.operations import ArgumentError, Front, Operation, Parameter
from rules_kb.search import search

#: The server's name, as clients list it.
NAME = "rules-kb"

INSTRUCTIONS = (
    "Règles complètes de Magic : l'Assemblée en français, pour les arbitres. Chaque outil rend un document "
    "JSON avec « citations » : les règles citées, chacune avec son numéro, son édition et son texte exact. "
    "Citez les règles par leur numéro et leur texte tel que donné dans « citations », sans le reformuler ni "
    "le traduire. show_rule : une règle par son numéro ; define_term : un terme du glossaire ; search_rules : "
    "recherche plein texte ; ask_rules : les règles d'une situation décrite en mots de joueur ; "
    "check_scenario : vérifie un scénario TOML (effets continus, effets basés sur un état)."
)


class Tool(NamedTuple):
    """A tool of the server: its ``operation`` (the declaration: name, title,
    description, arguments), ``suffix`` (the end of its description for an
    assistant: what « citations » holds) and ``run(kb, arguments) -> (data,
    cited)``: the JSON document and the rules it cites, ``arguments`` by their
    Python names (:func:`arguments`)."""

    operation: Operation
    suffix: str
    run: Callable[[KnowledgeBase, dict[str, Any]], tuple[dict[str, Any], Iterable[Rule]]]

    @property
    def name(self) -> str:
        """The tool's name (the declaration's ``tool``)."""
        return self.operation.tool or ""

    @property
    def title(self) -> str:
        """The tool's French title (the declaration's ``title``)."""
        return self.operation.title

    @property
    def description(self) -> str:
        """The declaration's description, then :attr:`suffix`."""
        return f"{self.operation.description} {self.suffix}"

    @property
    def params(self) -> tuple[Parameter, ...]:
        """The arguments the tool takes (the declaration's parameters on MCP)."""
        return self.operation.params_on(Front.MCP)


class Result(NamedTuple):
    """A tool's answer: ``data`` (the JSON document: the command's shape plus
    ``citations``, or :func:`rules_kb.serialize.error_dict`), ``error``
    whether it is a user's mistake, and ``text`` what the client reads: the
    JSON text, or the French message of the error."""

    data: dict[str, Any]
    error: bool
    text: str


# -- what to try next, in this server's words ------------------------------------------------

_EXAMPLES = "l'argument example de check_scenario (par exemple « blessures-fatales »)"
_REMEDIES: dict[Remedy, Callable[[str, Any], str]] = {
    Remedy.SEARCH_RULE: lambda text, error: text + " Essayez l'outil search_rules avec des mots de la règle.",
    Remedy.SEARCH_TERM: lambda text, error: text + f" Essayez aussi l'outil search_rules avec « {error.term} ».",
    Remedy.SEARCH_CARD: lambda text, error: (
        text + f' Essayez aussi l\'outil search_rules avec « {error.name} » et kinds ["carte"].'
    ),
    Remedy.LIST_EXAMPLES: lambda text, error: text,
    Remedy.START_FROM_EXAMPLE: lambda text, error: text + f" Pour partir d'un exemple : {_EXAMPLES}.",
}


def message(error: RulesKbError) -> str:
    """The French message of ``error``, with what to try next in this server's tools."""
    text = str(error)
    remedy = _REMEDIES.get(error.remedy) if error.remedy is not None else None
    return remedy(text, error) if remedy else text


def _note(note) -> str:
    """A note of ``show`` pointing to another rule: how to show it with this server."""
    return note.text.rstrip(".") + f" (voir show_rule avec « {note.see} »)." if note.see else note.text


# -- the tools -------------------------------------------------------------------------------


def _show_rule(kb: KnowledgeBase, args: dict[str, Any]):
    found = show(kb, args["number"], args["edition"])
    only = args["only"]
    return serialize.lookup_dict(found, only=only, note=_note), (found.rule, *(() if only else found.children))


def _define_term(kb: KnowledgeBase, args: dict[str, Any]):
    found = define(kb, args["term"])
    return serialize.definition_dict(found), found.cited_rules


def _search_rules(kb: KnowledgeBase, args: dict[str, Any]):
    found = search(kb, args["query"], limit=args["limit"], edition=args["edition"], kinds=tuple(args["kinds"]))
    rules = (kb.rule(hit.id, hit.edition) for hit in found.hits if hit.kind == RecordKind.RULE.value)
    return serialize.search_dict(found), [rule for rule in rules if rule is not None]


def _ask_rules(kb: KnowledgeBase, args: dict[str, Any]):
    answer = ask(kb, args["question"], limit=args["limit"], edition=args["edition"])
    rules = [kb.rule(rule.number, rule.edition) for rule in answer.rules]
    report = answer.verification.report
    checked = list(report.texts.values()) if report is not None else []
    return serialize.answer_dict(answer), [rule for rule in rules if rule is not None] + checked


def _check_scenario(kb: KnowledgeBase, args: dict[str, Any]):
    text, name = args["text"], args["example_name"]  # « scenario » and « example » on MCP
    if bool(text) == bool(name):
        raise ArgumentError(
            "Donnez soit « scenario » (le texte TOML d'un scénario), soit « example » (le nom d'un scénario "
            "d'exemple, par exemple « blessures-fatales »), et un seul des deux."
        )
    scenario = parse_scenario(example(name).text, name) if name else parse_scenario(text)
    report = check_scenario(kb, scenario, args["edition"], full_trace=args["full_trace"])
    return serialize.check_dict(report), report.texts.values()


_CHECK_SUFFIX = (
    "Le scénario : joueurs ([[player]] name, life, poison), permanents ([[permanent]] id, name, controller, "
    "card_types, power, toughness, damage, counters, attached_to…). Donnez le texte TOML dans « scenario », ou "
    "le nom d'un exemple fourni dans « example » (blessures-fatales, endurance-nulle, poison, "
    "regle-des-legendes, couches-lune-de-sang…). « citations » : les règles appliquées, texte exact."
)
#: What the server adds to each declared operation with a tool name: the end of its
#: description (what « citations » holds; for check_scenario, the scenario's format too)
#: and its run function.
_SERVED: dict[str, tuple[str, Callable[[KnowledgeBase, dict[str, Any]], tuple[dict[str, Any], Iterable[Rule]]]]] = {
    "show_rule": ("« citations » : la règle et ses sous-règles, texte exact.", _show_rule),
    "search_rules": ("« citations » : les règles trouvées, texte exact.", _search_rules),
    "define_term": ("« citations » : les règles citées par la définition, texte exact.", _define_term),
    "ask_rules": (
        "« citations » : les règles proposées et celles appliquées par la vérification, texte exact.", _ask_rules,
    ),
    "check_scenario": (_CHECK_SUFFIX, _check_scenario),
}  # fmt: skip

#: The tools, in the order of the declarations (a declared tool this module does not serve is a KeyError at import).
TOOLS: tuple[Tool, ...] = tuple(Tool(operation, *_SERVED[name]) for name, operation in operations.BY_TOOL.items())

_BY_NAME = {tool.name: tool for tool in TOOLS}


def _schema(param: Parameter) -> dict[str, Any]:
    """The JSON Schema of one argument (:func:`rules_kb.operations.json_schema`) with its help."""
    return {**operations.json_schema(param), "description": param.help}


def input_schema(tool: Tool) -> dict[str, Any]:
    """The JSON Schema of ``tool``'s arguments, as ``tools/list`` gives it, generated
    from the declaration's parameters on MCP."""
    return {
        "type": "object",
        "properties": {param.name_on(Front.MCP): _schema(param) for param in tool.params},
        "required": [param.name_on(Front.MCP) for param in tool.params if param.required],
        "additionalProperties": False,
    }


# -- checking the arguments ------------------------------------------------------------------


def arguments(tool: Tool, given: Any) -> dict[str, Any]:
    """``given`` checked against ``tool``'s declared parameters on MCP by
    :func:`rules_kb.operations.arguments`: Python name → value, with the
    defaults of those left out (``null``, and an empty text for an argument
    not required, count as left out). Raises :class:`ArgumentError` (French,
    naming the argument as MCP does) for an unknown, missing or malformed
    argument."""
    caller = operations.Caller(
        tool.name, "argument", lambda param: f"l'argument « {param.name_on(Front.MCP)} » de {tool.name}"
    )
    return operations.arguments(tool.params, Front.MCP, given, caller)


# -- running a tool --------------------------------------------------------------------------


def citation_dict(rule: Rule) -> dict[str, str]:
    """``{"number", "edition", "title", "text"}``: a rule cited, its title and
    its text as the knowledge base holds them (``text`` empty for a heading)."""
    return {"number": rule.number, "edition": rule.edition, "title": rule.title, "text": rule.text}


def citations(rules: Iterable[Rule]) -> list[dict[str, str]]:
    """The :func:`citation_dict` of ``rules``, each rule once, in order."""
    seen: dict[tuple[str, str], dict[str, str]] = {}
    for rule in rules:
        seen.setdefault((rule.edition, rule.number), citation_dict(rule))
    return list(seen.values())


def failure(error: RulesKbError) -> Result:
    """The tool error of a user's mistake: :func:`rules_kb.serialize.error_dict` and the French message."""
    text = message(error)
    return Result(serialize.error_dict(error, text), True, text)


def call(kb: KnowledgeBase, name: str, given: Any) -> Result:
    """Run the tool ``name`` on ``kb`` with the arguments ``given`` (a JSON
    object); a user's mistake (an unknown tool included) is a :class:`Result`
    with ``error`` set, never an exception."""
    tool = _BY_NAME.get(name)
    try:
        if tool is None:
            raise ArgumentError(f"Outil inconnu : « {name} » ; outils possibles : {', '.join(_BY_NAME)}.")
        data, cited = tool.run(kb, arguments(tool, given))
    except RulesKbError as error:
        return failure(error)
    data = {**data, "citations": citations(cited)}
    return Result(data, False, json.dumps(data, ensure_ascii=False, indent=2))


# -- the wire: every line read, every request answered (module docstring) -----------------------
# (mcp/server/stdio.py's stdin_reader hands a line pydantic refuses to the dispatcher as an
# exception, and JSONRPCDispatcher._dispatch drops it with a debug log: no reply.)

#: JSON-RPC 2.0's error codes.
PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR = -32700, -32600, -32601, -32602, -32603
#: The longest line read, in bytes: a scenario (100,000 characters) fits, even all in \uXXXX escapes, and a
#: line this long is screened in well under a second.
MAX_LINE = 1024 * 1024
#: The deepest nesting of arrays and objects in a message, the message itself counted: the SDK's parser's limit.
MAX_DEPTH = 200
#: The most digits of a number: the limit of Python's int-string conversion and of the SDK's parser.
MAX_DIGITS = 4300

RequestId = int | str
_EXAMPLE = '{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "show_rule", "arguments": {"number": "420.5c"}}}'
_METHODS = "initialize, ping, tools/list et tools/call"


class Refusal(NamedTuple):
    """A message the server answers itself (the SDK never sees it): ``code``
    (JSON-RPC's: :data:`PARSE_ERROR`, :data:`INVALID_REQUEST` or
    :data:`INVALID_PARAMS`), ``message`` (French: what is wrong and what to
    try), ``ids`` the ids to answer: the message's own, ``None`` (JSON
    ``null``) when it cannot be read, none for a notification."""

    code: int
    message: str
    ids: tuple[RequestId | None, ...]


@dataclass(frozen=True, slots=True)
class _LongNumber:
    """A number read with more than :data:`MAX_DIGITS` digits (``digits`` of them), kept out of ``int``."""

    digits: int


#: JSON's whitespace: a line of it alone is no message.
_BLANK = " \t\r\n"
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')
_SURROGATE = re.compile("[\ud800-\udfff]")
#: What a value nested deeper than MAX_DEPTH is replaced with before the line is read (:func:`_prune`).
_DEEP = "\x00rules-kb: too deep\x00"


def _prune(text: str) -> tuple[str, bool]:
    """``text`` with every array or object nested deeper than :data:`MAX_DEPTH`
    replaced by the string :data:`_DEEP` (so the rest, the id included, can be
    read), and whether there was one. Strings are skipped whole; brackets that
    do not match are left to the JSON parser to refuse."""
    depth, kept, cut, pieces = 0, 0, -1, []
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in ("[", "{"):
            depth += 1
            if depth == MAX_DEPTH + 1:
                cut = match.start()
        elif token in ("]", "}"):
            if depth == MAX_DEPTH + 1 and cut >= 0:
                pieces += [text[kept:cut], json.dumps(_DEEP)]
                kept, cut = match.end(), -1
            depth -= 1
    return ("".join([*pieces, text[kept:]]), True) if pieces else (text, False)


def _integer(literal: str) -> int | _LongNumber:
    digits = len(literal.lstrip("-"))
    return _LongNumber(digits) if digits > MAX_DIGITS else int(literal)


def _decimal(literal: str) -> float | _LongNumber:
    digits = sum(char.isdigit() for char in literal)
    return _LongNumber(digits) if digits > MAX_DIGITS else float(literal)


def _loads(text: str, strict: bool = True) -> Any:
    """``text`` read as JSON, numbers of more than :data:`MAX_DIGITS` digits as :class:`_LongNumber`.
    Raises :class:`ValueError` (not JSON) or :class:`RecursionError` (too many brackets left open)."""
    return json.loads(text, parse_int=_integer, parse_float=_decimal, strict=strict)


def _kind(value: Any) -> str:
    """What ``value`` is, in French, after « pas » (« pas un texte »)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "un booléen"
    if isinstance(value, _LongNumber):
        return f"un nombre de {value.digits} chiffres"
    if isinstance(value, float):
        return "un nombre décimal"
    if isinstance(value, int):
        return "un nombre"
    if isinstance(value, str):
        return "un texte"
    return "une liste" if isinstance(value, list) else "un objet"


def _short(text: str, most: int = 40) -> str:
    """``text`` cut to ``most`` characters (an ellipsis marks the cut), its lone surrogates
    written ``\\udc00``: a message quoting the client's text can be written in UTF-8."""
    text = text if len(text) <= most else text[: most - 1] + "…"
    return _SURROGATE.sub(lambda found: f"\\u{ord(found.group()):04x}", text)


def _path(parts: tuple[str | int, ...]) -> str:
    """Where a value sits in the message: ``params.arguments.kinds[0]`` (the first ones if it is deep)."""
    text = "".join(f"[{part}]" if isinstance(part, int) else f".{_short(part, 30)}" for part in parts[:6])
    return text.lstrip(".") + ("…" if len(parts) > 6 else "")


def _is_id(value: Any) -> bool:
    """Whether ``value`` is an id this server can answer: an integer or a text of real characters."""
    if isinstance(value, str):
        return not _SURROGATE.search(value)
    return isinstance(value, int) and not isinstance(value, bool)


def _flaw(value: Any, parts: tuple[str | int, ...], pruned: bool) -> tuple[tuple[str | int, ...], str] | None:
    """The first value of ``value`` the SDK cannot take, where it sits and what is wrong, in French:
    a text with a lone surrogate, a number too long, a nesting too deep (``pruned``: :func:`_prune` cut one)."""
    if isinstance(value, str):
        if pruned and value == _DEEP:
            return parts, (
                f"imbrique plus de {MAX_DEPTH} niveaux de tableaux ou d'objets. Les arguments des outils sont des "
                "textes, des nombres ou des listes de textes (tools/list les décrit)"
            )
        if found := _SURROGATE.search(value):
            return parts, (
                f"contient un demi-caractère UTF-16 isolé (\\u{ord(found.group()):04x}), qui n'est pas un caractère. "
                "Envoyez le texte en UTF-8, ou chaque caractère hors du plan de base en paire \\uD8xx\\uDCxx complète"
            )
    elif isinstance(value, _LongNumber):
        return parts, (
            f"est un nombre de {value.digits} chiffres, {MAX_DIGITS} au plus. Envoyez un nombre plus court "
            "(tools/list donne les bornes de chaque argument)"
        )
    elif isinstance(value, dict):
        for key, item in value.items():
            if flaw := _flaw(key, (*parts, key), pruned) or _flaw(item, (*parts, key), pruned):
                return flaw
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if flaw := _flaw(item, (*parts, index), pruned):
                return flaw
    return None


class Read(NamedTuple):
    """A line the SDK refuses, read as JSON: ``message`` (a JSON object),
    ``pruned`` whether a value nested too deep was cut from it
    (:func:`_prune`). What each check of :data:`CHECKS` takes."""

    message: dict[str, Any]
    pruned: bool


# Each check of a message read returns the code and French message of its refusal, or None.


def _version(read: Read) -> tuple[int, str] | None:
    message = read.message
    if "jsonrpc" not in message:
        return INVALID_REQUEST, 'Requête invalide : il manque « "jsonrpc": "2.0" ». Ajoutez-le à la requête.'
    value = message["jsonrpc"]
    if value != "2.0":
        plain = isinstance(value, (str, int, float)) and not isinstance(value, bool)
        given = f"vaut {_short(json.dumps(value, ensure_ascii=False))}" if plain else f"est {_kind(value)}"
        return INVALID_REQUEST, f'Requête invalide : « jsonrpc » {given} ; il doit valoir "2.0".'
    return None


def _method(read: Read) -> tuple[int, str] | None:
    message = read.message
    if "method" in message:
        if isinstance(message["method"], str):
            return None
        return INVALID_REQUEST, (
            f"Requête invalide : « method » doit être un texte ({_METHODS}), pas {_kind(message['method'])}."
        )
    if "result" in message or "error" in message:  # a response to a request of the server's
        return None
    return INVALID_REQUEST, f"Requête invalide : il manque « method », le nom de la méthode ({_METHODS})."


def _params(read: Read) -> tuple[int, str] | None:
    params = read.message.get("params")
    if params is None or isinstance(params, dict):
        return None
    return INVALID_PARAMS, (
        f"Paramètres invalides : « params » doit être un objet JSON ({{…}}), pas {_kind(params)}. "
        f"Par exemple, pour appeler un outil : {_EXAMPLE}"
    )


def _content(read: Read) -> tuple[int, str] | None:
    flaw = _flaw(read.message, (), read.pruned)
    if flaw is None:
        return None
    parts, what = flaw
    code, label = (
        (INVALID_PARAMS, "Paramètres invalides") if parts[0] == "params" else (INVALID_REQUEST, "Requête invalide")
    )
    return code, f"{label} : « {_path(parts)} » {what}."


#: The checks of a message the SDK refuses, in order; the first that fails says why (else: :data:`_NOT_JSON_RPC`).
CHECKS: tuple[Callable[[Read], tuple[int, str] | None], ...] = (_version, _method, _params, _content)
_NOT_JSON_RPC = (
    "Requête invalide : ce n'est ni une requête (« method »), ni une réponse (« result » ou « error ») JSON-RPC 2.0 "
    f"valide. Envoyez par exemple {_EXAMPLE}"
)


def _parse_error(text: str, error: Exception) -> str:
    if isinstance(error, json.JSONDecodeError) and error.pos >= len(text.rstrip()):
        what = "la ligne s'arrête avant la fin du JSON (tronquée ?)"
    elif isinstance(error, json.JSONDecodeError):
        what = f"la ligne n'est pas du JSON valide (erreur au caractère {error.pos + 1} sur {len(text.rstrip())})"
    else:
        what = "la ligne ouvre trop de tableaux ou d'objets sans les fermer"
    return (
        f"Requête illisible : {what}. Envoyez un objet JSON-RPC 2.0 complet sur une seule ligne, par exemple {_EXAMPLE}"
    )


def sdk_takes(line: str) -> bool:
    """Whether the SDK's stdio transport takes ``line`` and answers it if it
    has an id: its own validation passes (pydantic's, in Rust: quick), and a
    message it reads as a notification has no ``id`` (one it cannot take,
    so ignores: a JSON-RPC request must be answered)."""
    # deferred: the mcp SDK, for the server alone (module docstring)
    import mcp_types as types

    try:
        message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)  # as mcp/server/stdio.py does
    except ValueError:
        return False
    return not isinstance(message, types.JSONRPCNotification) or "id" not in json.loads(line)


def screen(line: str) -> Refusal | None:
    """How to answer ``line`` (one line of the client's, its end of line
    included or not) if the SDK cannot: ``None`` when the SDK takes it
    (:func:`sdk_takes`) or it is JSON whitespace alone, else the
    :class:`Refusal` to send, saying why: :data:`PARSE_ERROR` for a line
    that is not JSON (id ``null``, unless the JSON is only lax: a control
    character in a text), :data:`INVALID_REQUEST` for a JSON value that is
    not one JSON-RPC message (a batch is answered for each id it holds), a
    bad ``jsonrpc``, ``id`` or ``method``, :data:`INVALID_PARAMS` for
    ``params`` that is not an object or holds what the SDK cannot read (a
    lone surrogate, more than :data:`MAX_DIGITS` digits, more than
    :data:`MAX_DEPTH` levels)."""
    if not line.strip(_BLANK) or sdk_takes(line):
        return None
    text, pruned = _prune(line)
    try:
        message = _loads(text)
    except (ValueError, RecursionError) as error:
        try:  # the JSON may be lax only (a tab in a text): answer its id, if any
            lax = _loads(text, strict=False)
        except (ValueError, RecursionError):
            lax = None
        found = lax.get("id") if isinstance(lax, dict) and _is_id(lax.get("id")) else None
        return Refusal(PARSE_ERROR, _parse_error(line, error), (found,))
    if isinstance(message, list):
        ids = tuple(item["id"] for item in message if isinstance(item, dict) and _is_id(item.get("id")))
        return Refusal(
            INVALID_REQUEST,
            "Requête invalide : un lot (un tableau de requêtes) n'est pas accepté par MCP. Envoyez chaque requête "
            "sur sa propre ligne.",
            ids or (None,),
        )
    if not isinstance(message, dict):
        return Refusal(
            INVALID_REQUEST,
            f"Requête invalide : un message JSON-RPC est un objet JSON ({{…}}), pas {_kind(message)}. Envoyez par "
            f"exemple {_EXAMPLE}",
            (None,),
        )
    if "id" in message and not _is_id(message["id"]):
        given = message["id"]
        what = "contient un demi-caractère UTF-16 isolé" if isinstance(given, str) else f"est {_kind(given)}"
        return Refusal(
            INVALID_REQUEST,
            f"Requête invalide : « id » {what} ; il doit être un nombre entier ou un texte. Donnez un tel id, ou "
            "aucun pour une notification (qui n'a pas de réponse).",
            (None,),
        )
    ids = (message["id"],) if "id" in message else ()
    read = Read(message, pruned)
    for check in CHECKS:
        if refused := check(read):
            return Refusal(*refused, ids)
    return Refusal(INVALID_REQUEST, _NOT_JSON_RPC, ids)


def too_long() -> Refusal:
    """The refusal of a line longer than :data:`MAX_LINE` bytes (not read: its id is unknown)."""
    return Refusal(
        INVALID_REQUEST,
        f"Requête invalide : la ligne dépasse {MAX_LINE // 1024 // 1024} Mio. Envoyez des textes plus courts "
        "(un scénario compte au plus 100 000 caractères, un autre texte 2 000).",
        (None,),
    )


def read_line(stream: BinaryIO) -> bytes | None:
    """The next line of ``stream`` (its end of line included), ``None`` at its
    end; a line longer than :data:`MAX_LINE` bytes is read to its end but not
    kept: ``b""`` stands for it."""
    line = stream.readline(MAX_LINE + 1)
    if not line:
        return None
    if len(line) <= MAX_LINE or line.endswith(b"\n"):
        return line
    while (rest := stream.readline(1 << 16)) and not rest.endswith(b"\n"):
        pass
    return b""


class ScreenedInput:
    """The client's lines as the SDK's ``stdio_server`` reads them (its
    ``stdin``): an asynchronous iterator of the lines :func:`screen` lets
    through, each read and screened in a worker thread; the others are
    answered here, on the SDK's write stream given by :meth:`answer_on`, and
    said on standard error in one French line. ``stream``: binary, read
    line by line (standard input's buffer). Made inside the event loop
    (it holds an :class:`anyio.Event`)."""

    def __init__(self, stream: BinaryIO) -> None:
        import anyio  # deferred: the server's own (module docstring)

        self._stream = stream
        self._write: Any = None
        self._ready = anyio.Event()

    def answer_on(self, write_stream: Any) -> None:
        """Answer the refused lines on ``write_stream`` (the SDK's: it takes
        :class:`mcp.shared.message.SessionMessage`); until then they wait."""
        self._write = write_stream
        self._ready.set()

    def _next(self) -> tuple[str, Refusal | None] | None:
        """The next line that is not blank, decoded (as the SDK does: a byte that is not UTF-8 is replaced), and
        its refusal, if any; ``None`` at the end of the input."""
        while (raw := read_line(self._stream)) is not None:
            if not raw:
                return "", too_long()
            line = raw.decode("utf-8", errors="replace")
            if line.strip(_BLANK):
                return line, screen(line)
        return None

    async def __aiter__(self):
        import anyio

        while (read := await anyio.to_thread.run_sync(self._next)) is not None:
            line, refusal = read
            if refusal is None:
                yield line
            else:
                await self._answer(refusal)

    async def _answer(self, refusal: Refusal) -> None:
        import anyio
        import mcp_types as types
        from mcp.shared.message import SessionMessage

        await self._ready.wait()
        error = types.ErrorData(code=refusal.code, message=refusal.message)
        for request_id in refusal.ids:
            try:
                await self._write.send(SessionMessage(types.JSONRPCError(jsonrpc="2.0", id=request_id, error=error)))
            except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                break
        print(f"rules-kb mcp : refusé ({refusal.code}) : {_short(refusal.message, 160)}", file=sys.stderr, flush=True)


# -- the SDK's own errors, in French ---------------------------------------------------------

#: pydantic's error types, as what the value should be (« doit être un objet JSON »).
_EXPECTED = {
    "dict_type": "un objet JSON", "model_type": "un objet JSON", "model_attributes_type": "un objet JSON",
    "string_type": "un texte", "int_type": "un nombre entier", "int_parsing": "un nombre entier",
    "float_type": "un nombre", "bool_type": "true ou false", "list_type": "une liste", "tuple_type": "une liste",
}  # fmt: skip


def invalid_params_message(method: str, errors: Iterable[dict[str, Any]]) -> str:
    """The French message of the SDK's check of ``method``'s params failing
    with ``errors`` (pydantic's ``ValidationError.errors()``: dicts with
    ``loc`` and ``type``): what is wrong with the first three, and where the
    arguments are described."""
    said: list[str] = []
    for error in errors:
        parts = tuple(error.get("loc", ()))
        parts = parts[1:] if parts[:1] == ("params",) else parts
        where = f"« {_path(parts)} »" if parts else "« params »"
        kind = error.get("type", "")
        if kind == "missing":
            text = f"il manque {where}"
        elif kind in _EXPECTED:
            text = f"{where} doit être {_EXPECTED[kind]}"
        else:
            text = f"{where} n'a pas la forme attendue"
        if text not in said:
            said.append(text)
    details = " ; ".join(said[:3]) or "ils n'ont pas la forme attendue"
    hint = (
        f" Par exemple : {_EXAMPLE} ; tools/list donne les arguments de chaque outil."
        if method == "tools/call"
        else " Voyez la spécification MCP de cette méthode."
    )
    return f"Paramètres invalides pour {_short(method)} : {details}.{hint}"


def sdk_error_message(method: str, code: int, text: str, initialized: bool) -> str:
    """The French message of an error the SDK raised for a request of
    ``method`` (``code``, its English ``text``); ``initialized``: whether the
    client has sent ``initialize``. A code this server never meets keeps its text."""
    if code == METHOD_NOT_FOUND:
        return (
            f"Méthode inconnue : « {_short(method)} ». Ce serveur répond à {_METHODS} ; ses outils : "
            f"{', '.join(_BY_NAME)} (tools/list les décrit)."
        )
    if code == INVALID_PARAMS and not initialized and method != "initialize":
        return (
            f"Le serveur n'est pas encore initialisé : envoyez d'abord la requête initialize, puis la notification "
            f"notifications/initialized, et ensuite {_short(method)}."
        )
    if code == INVALID_PARAMS:
        return f"Paramètres invalides pour {_short(method)} : ils n'ont pas la forme attendue ({text})."
    if code == INTERNAL_ERROR:
        return f"Erreur interne du serveur pour {_short(method)} ({text}) : ce n'est pas votre faute."
    return text


# -- the server ------------------------------------------------------------------------------


def _version() -> str:
    try:
        return version(NAME)
    except PackageNotFoundError:
        return ""


def server(kb: KnowledgeBase):
    """The MCP server (:class:`mcp.server.lowlevel.Server`) of the tools of
    :data:`TOOLS` on ``kb`` (loaded once, by the caller)."""
    # deferred: the mcp SDK, for the server alone; call() runs a tool without it (module docstring)
    import anyio
    import mcp_types as types
    from mcp.server.lowlevel import Server
    from mcp.shared.exceptions import MCPError
    from pydantic import ValidationError

    listed = [
        types.Tool(
            name=tool.name, title=tool.title, description=tool.description, input_schema=input_schema(tool),
            annotations=types.ToolAnnotations(title=tool.title, read_only_hint=True, destructive_hint=False,
                                              idempotent_hint=True, open_world_hint=False),
        )
        for tool in TOOLS
    ]  # fmt: skip

    async def list_tools(context, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listed)

    one_at_a_time = anyio.Lock()  # the knowledge base's lazy caches are filled by one call at a time

    async def call_tool(context, params) -> types.CallToolResult:
        async with one_at_a_time:  # the library is synchronous: a worker thread keeps the server answering pings
            try:
                result = await anyio.to_thread.run_sync(call, kb, params.name, params.arguments)
            except Exception as error:  # noqa: BLE001 - a bug: said in French, the traceback on standard error
                traceback.print_exc()
                text = (
                    f"Erreur interne de rules-kb dans {params.name} ({type(error).__name__}) : ce n'est pas votre "
                    "faute ; le détail est sur la sortie d'erreur du serveur. Essayez une autre formulation."
                )
                result = Result({"error": {"type": "InternalError", "message": text}}, True, text)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=result.text)],
            structured_content=result.data,
            is_error=result.error,
        )

    async def in_french(context, call_next):
        """Middleware: the SDK's errors (an unknown method, params it refuses, a request before
        ``initialize``) said in French, with the same code and data."""
        try:
            return await call_next(context)
        except ValidationError as error:
            raise MCPError(INVALID_PARAMS, invalid_params_message(context.method, error.errors()), "") from None
        except MCPError as error:
            initialized = context.session.client_params is not None
            text = sdk_error_message(context.method, error.code, error.message, initialized)
            raise MCPError(error.code, text, error.data) from None

    mcp_server = Server(
        NAME, version=_version(), title="rules-kb : règles de Magic en français", instructions=INSTRUCTIONS,
        on_list_tools=list_tools, on_call_tool=call_tool,
    )  # fmt: skip
    mcp_server.middleware.append(in_french)
    return mcp_server


def _french_log(record: logging.LogRecord) -> bool:
    """Filter of the SDK's log: its one line on a client's mistake (a
    notification whose params it refuses, dropped) said in French."""
    if record.msg == "dropped %r: malformed params" and record.args:
        method = record.args[0] if isinstance(record.args, tuple) else record.args
        record.msg = "rules-kb mcp : notification « %s » ignorée : ses paramètres n'ont pas la forme attendue."
        record.args = (_short(str(method)),)
    return True


def serve(kb: KnowledgeBase) -> None:
    """Serve the tools on ``kb`` over standard input and output until the
    client closes them: the lines read through :class:`ScreenedInput`, the
    SDK's errors and log on a client's mistake in French."""
    # deferred: the mcp SDK, for the server alone (module docstring)
    import anyio
    from mcp.server.stdio import stdio_server

    logging.getLogger("mcp.server.runner").addFilter(_french_log)
    mcp_server = server(kb)

    async def run() -> None:
        lines = ScreenedInput(sys.stdin.buffer)  # the SDK still diverts standard output while it serves
        async with stdio_server(stdin=lines) as (read_stream, write_stream):
            lines.answer_on(write_stream)
            await mcp_server.run(read_stream, write_stream, mcp_server.create_initialization_options())

    anyio.run(run)
