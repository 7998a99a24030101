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
assistant relays is French. The ``mcp`` SDK is imported only by :func:`serve`
and :func:`server`.
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable, Iterable
from importlib.metadata import PackageNotFoundError, version
from typing import Any, NamedTuple

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
    report = check_scenario(kb, scenario, args["edition"])
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

    return Server(
        NAME, version=_version(), title="rules-kb : règles de Magic en français", instructions=INSTRUCTIONS,
        on_list_tools=list_tools, on_call_tool=call_tool,
    )  # fmt: skip


def serve(kb: KnowledgeBase) -> None:
    """Serve the tools on ``kb`` over standard input and output until the client closes them."""
    # deferred: the mcp SDK, for the server alone (module docstring)
    import anyio
    from mcp.server.stdio import stdio_server

    mcp_server = server(kb)

    async def run() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await mcp_server.run(read_stream, write_stream, mcp_server.create_initialization_options())

    anyio.run(run)
