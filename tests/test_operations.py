"""The fronts agree with each other: every parameter an operation of
:mod:`rules_kb.operations` exposes on several fronts has, on each, the same
kind, bounds, length, list size, default and requiredness.

Each front is read from what it publishes, not from the declarations: the
MCP tools from their input schemas as ``tools/list`` gives them (the real
server, through the SDK's in-memory client), the HTTP API from its OpenAPI
document as ``/api/openapi.json`` serves it. A front that re-stated a bound
of its own would disagree here. The declarations only say which parameter is
which across fronts (their names differ: ``q``, ``query``, ``kind``,
``kinds``…).

Also: the OpenAPI document holds together and describes exactly the app's
``/api/`` routes; a parameter unknown, missing or out of bounds is a French
400 on HTTP and a French tool error (``isError``) on MCP; no query string
makes ``/api/search`` or ``/api/ask`` fail (a 500).
"""

from __future__ import annotations

import json
import re
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_kb.operations import BY_NAME, OPERATIONS, Front

# -- what each front publishes ---------------------------------------------------------------


@pytest.fixture(scope="module")
def document(openapi_document) -> dict:
    return openapi_document


async def _tools(kb):
    from mcp import Client

    from rules_kb.serve import mcp as server

    async with Client(server.server(kb)) as client:
        return (await client.list_tools()).tools


@pytest.fixture(scope="module")
def tools(kb) -> dict[str, dict]:
    """Each MCP tool's input schema, as ``tools/list`` gives it."""
    import anyio

    return {tool.name: tool.input_schema for tool in anyio.run(_tools, kb)}


_KINDS = {"string": "text", "integer": "integer", "boolean": "flag", "array": "texts"}


def _published(schema: dict, required: bool) -> dict:
    """What a front says of one parameter, from its JSON Schema, in one shape for every front."""
    items = schema.get("items", {})
    return {
        "kind": _KINDS[schema["type"]],
        "low": schema.get("minimum"),
        "high": schema.get("maximum"),
        "longest": schema.get("maxLength", items.get("maxLength")),
        "most": schema.get("maxItems"),
        "choices": schema.get("enum", items.get("enum")),
        "default": schema.get("default"),
        "required": required,
    }


def mcp_parameters(operation, tools: dict[str, dict], document: dict) -> dict[str, dict] | None:
    """``operation``'s parameters on MCP, by Python name, as its tool's input schema says
    (None: no tool serves it)."""
    if operation.tool is None:
        return None
    schema = tools[operation.tool]
    by_name = {param.name_on(Front.MCP): param.name for param in operation.params}
    assert set(schema["properties"]) <= set(by_name), schema["properties"].keys()
    return {
        by_name[name]: _published(property_, name in schema["required"])
        for name, property_ in schema["properties"].items()
    }


def http_parameters(operation, tools: dict[str, dict], document: dict) -> dict[str, dict] | None:
    """``operation``'s parameters on HTTP, by Python name, as the OpenAPI document says
    (the request body, which has no name there, is the one declared parameter not
    among its path and query parameters; None: the API does not serve it)."""
    if operation.http is None:
        return None
    method, path = operation.http
    described = document["paths"][path][method.lower()]
    by_name = {param.name_on(Front.HTTP): param.name for param in operation.params}
    found = {by_name[item["name"]]: _published(item["schema"], item["required"]) for item in described["parameters"]}
    if "requestBody" in described:
        (media,) = described["requestBody"]["content"].values()
        (body,) = {param.name for param in operation.params_on(Front.HTTP)} - set(found)
        found[body] = _published(media["schema"], described["requestBody"]["required"]) | {"body": True}
    return found


# -- the command line -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def commands() -> dict[str, object]:
    """Each command's Click command, as Typer builds it from the declarations (by the command's words)."""
    import click

    from cli import app

    root = app._click_command([])
    found = {}
    for name, command in root.commands.items():
        if isinstance(command, click.Group):
            found.update({f"{name} {sub}": below for sub, below in command.commands.items()})
        else:
            found[name] = command
    return found


def cli_parameters(operation, commands: dict, document: dict) -> dict[str, dict] | None:
    """``operation``'s parameters on the command line, by Python name, as the Click command
    Typer built says: its types' bounds, defaults, whether required. A text's length is the
    declaration's there too, enforced before the command runs (:func:`cli.usage.check_values`,
    tested below by sending one character more)."""
    import click

    command = commands[operation.name]
    found = {}
    for param in command.params:
        if param.name in ("help",):
            continue
        declared = operation.param(param.name)
        many = param.multiple or param.nargs == -1
        kind = (
            "flag"
            if getattr(param, "is_flag", False)
            else "texts"
            if many and not declared.words
            else ("integer" if isinstance(param.type, click.IntRange) else "text")
        )
        found[param.name] = {
            "kind": kind,
            "low": getattr(param.type, "min", None),
            "high": getattr(param.type, "max", None),
            "default": None if param.default in ((), None) or kind == "flag" and not param.default else param.default,
            "required": param.required or bool(declared.instead),
        }
    return found


def _cli_comparable(published: dict) -> dict:
    """What the command line publishes of one parameter that another front also does."""
    return {key: published[key] for key in ("kind", "low", "high", "default", "required")}


@pytest.mark.parametrize("operation", [op for op in OPERATIONS if op.http or op.tool], ids=lambda op: op.name)
def test_the_command_line_publishes_the_same_bounds_as_http_and_mcp(operation, commands, tools, document):
    """The issue's acceptance: what ``list_tools`` says of a parameter is what ``--help`` says."""
    line = cli_parameters(operation, commands, document)
    assert set(line) == {param.name for param in operation.params_on(Front.CLI)}
    compared = 0
    for read in (http_parameters, mcp_parameters):
        other = read(operation, tools, document) or {}
        for name in line.keys() & other.keys():
            theirs = dict(other[name])
            if theirs["default"] in ([], None, False):
                theirs["default"] = None
            mine = _cli_comparable(line[name])
            if theirs.get("body") or operation.param(name).instead:
                mine.pop("required"), theirs.pop("required")
            assert mine == {key: theirs[key] for key in mine}, (operation.name, name)
            compared += 1
    assert compared, operation.name


def test_the_command_line_refuses_a_text_one_character_longer_than_declared(run_cli):
    edition = BY_NAME["show"].param("edition")
    longer = run_cli("show", "420.5c", "--edition", "2" * (edition.longest + 1))
    assert longer.exit_code == 1 and f"{edition.longest} au plus" in longer.error
    at_limit = run_cli("show", "420.5c", "--edition", "2" * edition.longest)
    assert "au plus" not in at_limit.error


#: How to read each front.
READERS = {Front.HTTP: http_parameters, Front.MCP: mcp_parameters}


def _comparable(one: dict, other: dict) -> tuple[dict, dict]:
    """What two fronts must agree on, of one parameter. A request body is required on HTTP
    (the only way to give the scenario there) where its MCP argument is not (« example »
    may replace it)."""
    ignored = {"body", "required"} if one.get("body") or other.get("body") else {"body"}
    return tuple({key: value for key, value in side.items() if key not in ignored} for side in (one, other))


@pytest.mark.parametrize("operation", [op for op in OPERATIONS if op.http or op.tool], ids=lambda op: op.name)
def test_the_fronts_publish_the_same_parameters_with_the_same_bounds(operation, tools, document):
    fronts = {front: read(operation, tools, document) for front, read in READERS.items()}
    fronts = {front: published for front, published in fronts.items() if published is not None}
    for front, published in fronts.items():  # each front publishes the parameters declared for it, no more
        assert set(published) == {param.name for param in operation.params_on(front)}, (front, published)
    compared = 0
    for (one, first), (other, second) in combinations(fronts.items(), 2):
        for name in first.keys() & second.keys():
            mine, theirs = _comparable(first[name], second[name])
            assert mine == theirs, (operation.name, name, one.value, other.value)
            compared += 1
    if operation.http and operation.tool:
        assert compared, operation.name


def test_the_search_limit_is_200_everywhere(tools, document):
    """The MCP tools capped search and ask at 50 before they were derived from the declarations."""
    for tool, path in (("search_rules", "/api/search"), ("ask_rules", "/api/ask")):
        assert tools[tool]["properties"]["limit"]["maximum"] == 200
        (limit,) = [item for item in document["paths"][path]["get"]["parameters"] if item["name"] == "limit"]
        assert limit["schema"]["maximum"] == 200


# -- the OpenAPI document --------------------------------------------------------------------


def test_openapi_holds_together(document):
    from jsonschema import Draft202012Validator

    assert document["openapi"].startswith("3.1.") and document["info"]["title"] and document["info"]["version"]
    schemas = document["components"]["schemas"]
    for path, item in document["paths"].items():
        assert path.startswith("/api/")
        templated = set(re.findall(r"\{(\w+)\}", path))
        for method, described in item.items():
            assert method in {"get", "post"}, (path, method)
            assert described["summary"] and described["description"] and described["operationId"]
            places = [(param["name"], param["in"]) for param in described["parameters"]]
            assert len(places) == len(set(places)), (path, places)
            assert {name for name, where in places if where == "path"} == templated, path
            for param in described["parameters"]:
                assert param["in"] in {"path", "query"} and param["description"], (path, param)
                assert param["required"] or param["in"] != "path", (path, param)
                Draft202012Validator.check_schema(param["schema"])
                if "default" in param["schema"]:
                    Draft202012Validator(param["schema"]).validate(param["schema"]["default"])
            if "requestBody" in described:
                for media in described["requestBody"]["content"].values():
                    Draft202012Validator.check_schema(media["schema"])
            responses = described["responses"]
            assert {"200", "400", "404", "414"} <= set(responses), path
            for code, response in responses.items():
                assert response["description"], (path, code)
                for media in response.get("content", {}).values():
                    if ref := media["schema"].get("$ref"):
                        assert ref.startswith("#/components/schemas/") and ref.rpartition("/")[2] in schemas, ref
                    if code != "200":
                        assert media["schema"] == {"$ref": "#/components/schemas/Error"}, (path, code)
    for schema in schemas.values():
        Draft202012Validator.check_schema(schema)
    check = document["paths"]["/api/check"]["post"]["requestBody"]
    assert check["required"] and check["content"]["application/toml"]["schema"]["maxLength"] == 100_000


def test_openapi_describes_exactly_the_app_routes(kb, document):
    from starlette.routing import Route

    from rules_kb.serve.app import create_app

    routes: dict[str, set[str]] = {}
    for route in create_app(kb).routes:
        if isinstance(route, Route) and route.path.startswith("/api/"):
            path = re.sub(r"\{(\w+):\w+\}", r"{\1}", route.path)
            routes.setdefault(path, set()).update(method.lower() for method in route.methods - {"HEAD"})
    assert routes == {path: set(item) for path, item in document["paths"].items()}


def test_the_mcp_schemas_are_json_schemas(tools):
    from jsonschema import Draft202012Validator

    for name, schema in tools.items():
        Draft202012Validator.check_schema(schema)
        assert schema["additionalProperties"] is False, name
        for property_ in schema["properties"].values():
            assert property_["description"], name
            if "default" in property_:
                Draft202012Validator(property_).validate(property_["default"])


# -- a bad parameter, in French, on every front ----------------------------------------------


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (
            "/api/search?q=couche&zzz=1",
            "Paramètre inconnu pour /api/search : « zzz » ; paramètres possibles : q, kind, limit, edition.",
        ),
        ("/api/examples?x=1", "Paramètre inconnu pour /api/examples : « x » ; aucun paramètre n'est attendu."),
        ("/api/rules/420.5c?number=3", "Paramètre inconnu pour /api/rules/{number} : « number »"),
        ("/api/ask", "Il manque le paramètre « q » : La situation, en mots de joueur"),
        ("/api/define?term=%20", "Il manque le paramètre « term »"),
        ("/api/search?q=couche&limit=201", "Le paramètre « limit » doit être un nombre entier de 1 à 200."),
        ("/api/ask?q=couche&limit=0", "Le paramètre « limit » doit être un nombre entier de 1 à 200."),
        ("/api/suggest?q=a&limit=x", "Le paramètre « limit » doit être un nombre entier de 1 à 200."),
        ("/api/rules/420.5c?edition=" + "x" * 41, "Le paramètre « edition » est trop long : 41 caractères, 40 au plus"),
        ("/api/search?q=couche" + "&kind=carte" * 11, "Le paramètre « kind » doit être une liste d'au plus 10 textes"),
        ("/api/examples/" + "a" * 101, "Le paramètre « name » est trop long : 101 caractères, 100 au plus"),
    ],
)
def test_a_bad_http_parameter_is_a_french_400(client, url, expected):
    answer = client.get(url)
    assert answer.status_code == 400, answer.text
    assert answer.json() == {"error": {"type": "BadRequest", "message": answer.json()["error"]["message"]}}
    assert answer.json()["error"]["message"].startswith(expected)


def test_a_bad_body_is_a_french_400(client):
    answer = client.post("/api/check", content=b"x" * 100_001)
    assert answer.status_code == 400
    assert answer.json()["error"]["message"].startswith(
        "Le corps de la requête est trop long : 100001 caractères, 100000 au plus"
    )
    unknown = client.post("/api/check?text=x", content=b"title = 'x'")
    assert (
        unknown.status_code == 400
        and "Paramètre inconnu pour /api/check : « text »" in unknown.json()["error"]["message"]
    )


_MCP_MISTAKES = [
    ("search_rules", {"query": "couche", "zzz": 1}, "Argument inconnu pour search_rules : « zzz » ; arguments possibles : query, kinds, limit, edition."),
    ("ask_rules", {}, "Il manque l'argument « question » de ask_rules : La situation, en mots de joueur"),
    ("define_term", {"term": "  "}, "Il manque l'argument « term » de define_term"),
    ("search_rules", {"query": "couche", "limit": 201}, "L'argument « limit » de search_rules doit être un nombre entier de 1 à 200."),
    ("ask_rules", {"question": "couche", "limit": 0}, "L'argument « limit » de ask_rules doit être un nombre entier de 1 à 200."),
    ("show_rule", {"number": "420.5c", "edition": "x" * 41}, "L'argument « edition » de show_rule est trop long : 41 caractères, 40 au plus"),
    ("search_rules", {"query": "couche", "kinds": ["carte"] * 11}, "L'argument « kinds » de search_rules doit être une liste d'au plus 10 textes"),
    ("check_scenario", {"example": "a" * 101}, "L'argument « example » de check_scenario est trop long : 101 caractères, 100 au plus"),
    ("show_rule", {"number": "420.5c", "only": "oui"}, "L'argument « only » de show_rule doit être true ou false."),
]  # fmt: skip


def test_a_bad_mcp_argument_is_a_french_tool_error(kb):
    import anyio
    from mcp import Client

    from rules_kb.serve import mcp as server

    async def drive():
        async with Client(server.server(kb)) as client:
            return [await client.call_tool(name, arguments) for name, arguments, _ in _MCP_MISTAKES]

    for result, (name, arguments, expected) in zip(anyio.run(drive), _MCP_MISTAKES):
        assert result.is_error, (name, arguments)
        assert result.content[0].text.startswith(expected), result.content[0].text
        assert result.structured_content["error"] == {"type": "ArgumentError", "message": result.content[0].text}


# -- no query string makes the API fail ------------------------------------------------------

_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=50)
#: A value: sensible words often (so that many requests reach the search and the question), anything else too.
_VALUES = st.one_of(
    st.sampled_from(["couche", "blessures fatales", "ma 2/2 a pris 2 dégâts, elle meurt ?", "trample bloque 1/1",
                     "carte", "règle", "2004", "3", "1", "oui", " ", ""]),
    st.integers(-5, 400).map(str),
    _TEXT,
)  # fmt: skip
#: The parameters of each address (besides ``q``), and some that none of them takes.
_KNOWN = {"/api/search": ("kind", "limit", "edition"), "/api/ask": ("limit", "edition")}
_STRANGERS = st.sampled_from(["only", "term", "query", "kinds", "question", "kind"]) | _TEXT


def _queries(path: str):
    """Query strings for ``path``: mostly its own parameters (``q`` always, so that many
    requests reach the search and the question), sometimes strangers too."""
    optional = {name: _VALUES for name in _KNOWN[path]} | {"limit": st.integers(-5, 250).map(str) | _VALUES}
    return st.builds(
        lambda known, strangers: strangers | known,
        st.fixed_dictionaries({"q": _VALUES}, optional=optional),
        st.one_of(st.just({}), st.just({}), st.dictionaries(_STRANGERS, _VALUES, min_size=1, max_size=2)),
    )


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(list(_KNOWN)).flatmap(lambda path: st.tuples(st.just(path), _queries(path))))
def test_any_query_string_gives_200_or_a_4xx_json_error(client, sent):
    path, query = sent
    answer = client.get(path, params=query)
    assert answer.status_code == 200 or 400 <= answer.status_code < 500, (path, query, answer.text[:300])
    data = answer.json()
    if answer.status_code >= 400:
        assert set(data) == {"error"} and set(data["error"]) >= {"type", "message"}, data
        assert data["error"]["message"].strip() and "Traceback" not in data["error"]["message"]
    json.dumps(data)


def test_the_declared_texts_hold_no_rich_markup():
    """Typer shows help through Rich markup, where ``[mot]`` is a tag that vanishes: no declared text holds one."""
    from cli.commands import DESCRIPTION, fronts
    from rules_kb.operations import OPERATIONS

    texts = [DESCRIPTION]
    for operation in OPERATIONS:
        texts += [
            operation.summary,
            operation.description,
            *operation.examples,
            *(param.help for param in operation.params),
        ]
    texts += [function.__doc__ or "" for function in fronts(dict.fromkeys(("serve", "mcp", "completion"))).values()]
    assert not [text for text in texts if "[" in text]
