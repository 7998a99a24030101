"""``rules-kb mcp``: an MCP server over standard input and output, for assistants.

Five tools, on the same library functions as the CLI: ``show_rule``
(:func:`rules_kb.lookup.rules.show`), ``define_term``
(:func:`rules_kb.lookup.glossary.define`), ``search_rules``
(:func:`rules_kb.search.search`), ``ask_rules`` (:func:`rules_kb.ask.ask`)
and ``check_scenario`` (:func:`rules_kb.checker.report.check_scenario`).
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
the server on the SDK's low-level :class:`mcp.server.lowlevel.Server` (the
tools' schemas and their checking are ours, so that every message is
French). The ``mcp`` SDK is imported only by :func:`serve`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from rules_kb import serialize
from rules_kb.core.errors import Remedy, RulesKbError
from rules_kb.core.model import RecordKind, Rule
from rules_kb.loader import KnowledgeBase

#: The server's name, as clients list it.
NAME = "rules-kb"
#: The most characters a text argument may hold (a scenario file holds a few thousand).
MAX_TEXT = 2000
#: The most characters a scenario's TOML text may hold.
MAX_SCENARIO = 100_000
#: The most kinds ``search_rules`` may be given.
MAX_KINDS = 10

INSTRUCTIONS = (
    "Règles complètes de Magic : l'Assemblée en français, pour les arbitres. Chaque outil rend un document "
    "JSON avec « citations » : les règles citées, chacune avec son numéro, son édition et son texte exact. "
    "Citez les règles par leur numéro et leur texte tel que donné dans « citations », sans le reformuler ni "
    "le traduire. show_rule : une règle par son numéro ; define_term : un terme du glossaire ; search_rules : "
    "recherche plein texte ; ask_rules : les règles d'une situation décrite en mots de joueur ; "
    "check_scenario : vérifie un scénario TOML (effets continus, effets basés sur un état)."
)


class ArgumentError(RulesKbError):
    """A tool called with a malformed argument (missing, unknown, of the wrong type, out of bounds)."""


class Param(NamedTuple):
    """An argument of a tool: its ``name``, JSON ``kind`` (``"string"``,
    ``"integer"``, ``"boolean"``, ``"strings"``: an array of strings), French
    ``description``, whether it is ``required``, its ``default``, and for an
    integer its bounds ``low``–``high``; ``longest``: a text's most characters."""

    name: str
    kind: str
    description: str
    required: bool = False
    default: Any = None
    low: int = 1
    high: int = 1
    longest: int = MAX_TEXT


class Tool(NamedTuple):
    """A tool of the server: its ``name``, French ``title`` and
    ``description``, its arguments, and ``run(kb, arguments) -> (data, cited)``:
    the JSON document and the rules it cites."""

    name: str
    title: str
    description: str
    params: tuple[Param, ...]
    run: Callable[[KnowledgeBase, dict[str, Any]], tuple[dict[str, Any], Iterable[Rule]]]


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
        text + f" Essayez aussi l'outil search_rules avec « {error.name} » et kinds [\"carte\"]."
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

_EDITION = Param("edition", "string", "Édition des règles (par exemple « 2004 ») ; à défaut, la plus récente d'abord.")


def _show_rule(kb: KnowledgeBase, args: dict[str, Any]):
    from rules_kb.lookup.rules import show

    found = show(kb, args["number"], args["edition"])
    only = args["only"]
    return serialize.lookup_dict(found, only=only, note=_note), (found.rule, *(() if only else found.children))


def _define_term(kb: KnowledgeBase, args: dict[str, Any]):
    from rules_kb.lookup.glossary import define

    found = define(kb, args["term"])
    return serialize.definition_dict(found), found.cited_rules


def _search_rules(kb: KnowledgeBase, args: dict[str, Any]):
    from rules_kb.search import search

    found = search(kb, args["query"], limit=args["limit"], edition=args["edition"], kinds=tuple(args["kinds"]))
    rules = (kb.rule(hit.id, hit.edition) for hit in found.hits if hit.kind == RecordKind.RULE.value)
    return serialize.search_dict(found), [rule for rule in rules if rule is not None]


def _ask_rules(kb: KnowledgeBase, args: dict[str, Any]):
    from rules_kb.ask import ask

    answer = ask(kb, args["question"], limit=args["limit"], edition=args["edition"])
    rules = [kb.rule(rule.number, rule.edition) for rule in answer.rules]
    report = answer.verification.report
    checked = list(report.texts.values()) if report is not None else []
    return serialize.answer_dict(answer), [rule for rule in rules if rule is not None] + checked


def _check_scenario(kb: KnowledgeBase, args: dict[str, Any]):
    from rules_kb.checker.report import check_scenario, example
    from rules_kb.checker.scenario import parse_scenario

    text, name = args["scenario"], args["example"]
    if bool(text) == bool(name):
        raise ArgumentError(
            "Donnez soit « scenario » (le texte TOML d'un scénario), soit « example » (le nom d'un scénario "
            "d'exemple, par exemple « blessures-fatales »), et un seul des deux."
        )
    scenario = parse_scenario(example(name).text, name) if name else parse_scenario(text)
    report = check_scenario(kb, scenario, args["edition"])
    return serialize.check_dict(report), report.texts.values()


TOOLS: tuple[Tool, ...] = (
    Tool(
        "show_rule", "Afficher une règle",
        "Affiche une règle des règles complètes par son numéro (420.5c, 420.5, 420 ou 4) : son texte exact, "
        "son contexte, ses sous-règles, ce qu'elle cite et ce qui la cite, ses termes du glossaire, les décisions "
        "de la FAQ et ses autres éditions. « citations » : la règle et ses sous-règles, texte exact.",
        (
            Param("number", "string", "Numéro de règle : « 420.5c », « 420.5 », « 420 » ou « 4 ».", required=True),
            _EDITION,
            Param("only", "boolean", "La règle seule, sans ses sous-règles.", default=False),
        ),
        _show_rule,
    ),
    Tool(
        "define_term", "Définir un terme du glossaire",
        "Définition d'un terme du glossaire (accents, pluriels, fautes de frappe et mots de joueur tolérés : "
        "« pietinement », « trample »), avec les règles qu'elle cite et celles qui emploient le terme. "
        "« citations » : les règles citées par la définition, texte exact.",
        (Param("term", "string", "Le terme, même approximatif : « piétinement », « blessure fatale ».", required=True),),
        _define_term,
    ),
    Tool(
        "search_rules", "Rechercher dans le corpus",
        "Recherche plein texte dans tout le corpus : règles, glossaire, cartes et décisions de la FAQ, cours ; "
        "chaque mot significatif est requis. « citations » : les règles trouvées, texte exact.",
        (
            Param("query", "string", "Les mots à chercher, par exemple « blessures fatales ».", required=True),
            Param("limit", "integer", "Nombre maximal de résultats.", default=10, low=1, high=50),
            _EDITION,
            Param("kinds", "strings",
                  "Ne chercher que ces types : règle, glossaire, carte, décision, faq, cours.", default=()),
        ),  # fmt: skip
        _search_rules,
    ),
    Tool(
        "ask_rules", "Les règles d'une situation",
        "Les règles qui s'appliquent à une situation décrite en mots de joueur (« ma 2/2 a pris 2 dégâts, elle "
        "meurt ? »), classées, avec les termes du glossaire, les décisions de la FAQ et, quand la question décrit "
        "un état du jeu, la vérification par le moteur de règles. « citations » : les règles proposées et celles "
        "appliquées par la vérification, texte exact.",
        (
            Param("question", "string", "La situation, en français, en mots de joueur.", required=True),
            Param("limit", "integer", "Nombre maximal de règles.", default=5, low=1, high=50),
            _EDITION,
        ),
        _ask_rules,
    ),
    Tool(
        "check_scenario", "Vérifier un scénario",
        "Calcule les effets continus couche par couche (418.5) puis applique les effets basés sur un état (420) "
        "à un scénario TOML : joueurs ([[player]] name, life, poison), permanents ([[permanent]] id, name, "
        "controller, card_types, power, toughness, damage, counters, attached_to…) ; chaque vérification, l'état "
        "final et le résultat. Donnez le texte TOML dans « scenario », ou le nom d'un exemple fourni dans "
        "« example » (blessures-fatales, endurance-nulle, poison, "
        "regle-des-legendes, couches-lune-de-sang…). « citations » : les règles appliquées, texte exact.",
        (
            Param("scenario", "string", "Le texte TOML du scénario.", longest=MAX_SCENARIO),
            Param("example", "string", "Le nom d'un scénario d'exemple fourni, par exemple « blessures-fatales »."),
            _EDITION,
        ),
        _check_scenario,
    ),
)  # fmt: skip

_BY_NAME = {tool.name: tool for tool in TOOLS}


def input_schema(tool: Tool) -> dict[str, Any]:
    """The JSON Schema of ``tool``'s arguments, as ``tools/list`` gives it."""
    properties: dict[str, Any] = {}
    for param in tool.params:
        if param.kind == "strings":
            schema: dict[str, Any] = {"type": "array", "items": {"type": "string"}, "maxItems": MAX_KINDS}
        else:
            schema = {"type": param.kind}
        if param.kind == "string":
            schema["maxLength"] = param.longest
        if param.kind == "integer":
            schema.update(minimum=param.low, maximum=param.high)
        if not param.required:
            schema["default"] = list(param.default) if isinstance(param.default, tuple) else param.default
        properties[param.name] = {**schema, "description": param.description}
    required = [param.name for param in tool.params if param.required]
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


# -- checking the arguments ------------------------------------------------------------------


def _text(tool: Tool, param: Param, value: Any) -> str:
    if not isinstance(value, str):
        raise ArgumentError(f"L'argument « {param.name} » de {tool.name} doit être un texte.")
    if len(value) > param.longest:
        raise ArgumentError(
            f"L'argument « {param.name} » de {tool.name} est trop long : {len(value)} caractères, "
            f"{param.longest} au plus ; raccourcissez-le."
        )
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ArgumentError(
            f"L'argument « {param.name} » de {tool.name} contient des caractères invalides (demi-paires UTF-16 "
            "isolées) ; renvoyez un texte Unicode valide."
        ) from None
    return value


def _value(tool: Tool, param: Param, value: Any) -> Any:
    """The value of one argument, checked; raises :class:`ArgumentError`."""
    if param.kind == "string":
        return _text(tool, param, value)
    if param.kind == "boolean":
        if not isinstance(value, bool):
            raise ArgumentError(f"L'argument « {param.name} » de {tool.name} doit être true ou false.")
        return value
    if param.kind == "integer":
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or not param.low <= value <= param.high:
            raise ArgumentError(
                f"L'argument « {param.name} » de {tool.name} doit être un nombre entier de {param.low} à {param.high}."
            )
        return value
    if not isinstance(value, list) or len(value) > MAX_KINDS:
        raise ArgumentError(
            f"L'argument « {param.name} » de {tool.name} doit être une liste d'au plus {MAX_KINDS} textes, "
            "par exemple [\"règle\", \"glossaire\"]."
        )
    return tuple(_text(tool, param, item) for item in value)


def arguments(tool: Tool, given: Any) -> dict[str, Any]:
    """``given`` checked against ``tool``'s parameters, with the defaults of
    those left out (``null`` counts as left out; an empty edition too).
    Raises :class:`ArgumentError` (French) for an unknown, missing or
    malformed argument."""
    if given is not None and not isinstance(given, dict):
        raise ArgumentError(f"Les arguments de {tool.name} forment un objet JSON : {{\"nom\": valeur, …}}.")
    given = dict(given or {})
    names = [param.name for param in tool.params]
    if unknown := [name for name in given if name not in names]:
        raise ArgumentError(
            f"Argument inconnu pour {tool.name} : « {unknown[0]} » ; arguments possibles : {', '.join(names)}."
        )
    checked: dict[str, Any] = {}
    for param in tool.params:
        value = given.get(param.name)
        if value is None:
            if param.required:
                raise ArgumentError(f"Il manque l'argument « {param.name} » de {tool.name} : {param.description}")
            checked[param.name] = param.default
            continue
        checked[param.name] = _value(tool, param, value)
    if "edition" in checked and not (checked["edition"] or "").strip():
        checked["edition"] = None
    return checked


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


# -- the server ------------------------------------------------------------------------------


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(NAME)
    except PackageNotFoundError:
        return ""


def server(kb: KnowledgeBase):
    """The MCP server (:class:`mcp.server.lowlevel.Server`) of the tools of
    :data:`TOOLS` on ``kb`` (loaded once, by the caller)."""
    import anyio
    import mcp_types as types
    from mcp.server.lowlevel import Server

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
                import traceback

                traceback.print_exc()
                text = (
                    f"Erreur interne de rules-kb dans {params.name} ({type(error).__name__}) : ce n'est pas votre "
                    "faute ; le détail est sur la sortie d'erreur du serveur. Essayez une autre formulation."
                )
                result = Result({"error": {"type": "InternalError", "message": text}}, True, text)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=result.text)], structured_content=result.data, is_error=result.error
        )

    return Server(
        NAME, version=_version(), title="rules-kb : règles de Magic en français", instructions=INSTRUCTIONS,
        on_list_tools=list_tools, on_call_tool=call_tool,
    )  # fmt: skip


def serve(kb: KnowledgeBase) -> None:
    """Serve the tools on ``kb`` over standard input and output until the client closes them."""
    import anyio
    from mcp.server.stdio import stdio_server

    mcp_server = server(kb)

    async def run() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await mcp_server.run(read_stream, write_stream, mcp_server.create_initialization_options())

    anyio.run(run)
