"""The OpenAPI document is as strict as the API (issue 38, point 4): what it allows is answered, what it
refuses is refused, and every answer is one it declares, in the shape it declares.

``bench/schemathesis_run.py`` checks this with schemathesis over thousands of requests (a bench tool,
not installed for the tests); here, fast and without it:

- the document's schemas hold each parameter's declared bounds, lengths, values, patterns and
  examples, and the ``application/toml`` body of ``POST /api/check``;
- every address declares its error answers (400, 404, 405 with ``Allow``, 413, 414, 500; 422 where
  content can be unusable) in the JSON error shape, and the server's own refusals (a foreign ``Host``,
  a body or an address too large, a method not permitted) have that shape;
- the patterns say exactly what the API takes: blanks as ``str.strip`` reads them, rule numbers as
  :meth:`rules_kb.core.numbers.RuleNumber.parse` reads them;
- a hypothesis property draws query values from the document's own schemas for each ``GET``
  address, valid and not: a valid request is never a 400, an invalid one always a 4xx, and every
  answer is declared for its address, a 4xx in the JSON error shape.
"""

from __future__ import annotations

import re
import sys
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from rules_kb import operations
from rules_kb.core.numbers import RuleNumber, RuleNumberError
from rules_kb.operations import BLANK, MAX_SCENARIO, MAX_VALUES, NOT_BLANK, RULE_NUMBER, Front, Kind
from rules_kb.serve import api


@pytest.fixture(scope="module")
def document(openapi_document) -> dict:
    return openapi_document


@pytest.fixture(scope="module")
def error_shape(document) -> Draft202012Validator:
    return Draft202012Validator(document["components"]["schemas"]["Error"])


def _described(document: dict, operation) -> dict:
    method, path = operation.http
    return document["paths"][path][method.lower()]


def _by_name(described: dict) -> dict[str, dict]:
    return {item["name"]: item for item in described["parameters"]}


# -- the schemas hold the declarations -------------------------------------------------------


@pytest.mark.parametrize("operation", api.OPERATIONS, ids=lambda op: op.name)
def test_each_parameter_schema_holds_its_declared_bounds(document, operation):
    described = _described(document, operation)
    published = _by_name(described)
    for param in operation.params_on(Front.HTTP):
        if param.body:
            continue
        schema = published[param.name_on(Front.HTTP)]["schema"]
        Draft202012Validator.check_schema(schema)
        if param.kind is Kind.TEXT:
            assert schema["type"] == "string" and schema["maxLength"] == param.longest, param.name
            expected = param.pattern or (NOT_BLANK if param.required else None)
            assert schema.get("pattern") == expected, param.name
            assert schema.get("enum") == (list(param.choices) or None), param.name
        elif param.kind is Kind.TEXTS:
            assert schema["type"] == "array" and schema["maxItems"] == MAX_VALUES, param.name
            assert schema["items"]["maxLength"] == param.longest, param.name
            assert schema["items"].get("enum") == (list(param.choices) or None), param.name
        elif param.kind is Kind.INTEGER:
            assert (schema["type"], schema["minimum"], schema["maximum"]) == ("integer", param.low, param.high)
        else:
            assert schema["type"] == "boolean", param.name
        for example in schema.get("examples", ()):
            Draft202012Validator(schema).validate(example)


def test_the_search_kinds_and_the_rule_number_are_described_exactly(document):
    search = _by_name(document["paths"]["/api/search"]["get"])
    assert search["kind"]["schema"]["items"]["enum"] == list(operations.SEARCH_KIND_VALUES)
    assert {"règle", "carte", "card", "rule"} <= set(operations.SEARCH_KIND_VALUES)
    number = _by_name(document["paths"]["/api/rules/{number}"]["get"])["number"]
    assert number["in"] == "path" and number["required"]
    assert number["schema"]["pattern"] == RULE_NUMBER and number["schema"]["maxLength"] == 40
    for required in (
        ("/api/define", "term"),
        ("/api/search", "q"),
        ("/api/ask", "q"),
        ("/api/examples/{name}", "name"),
    ):
        path, name = required
        (method,) = document["paths"][path]
        assert _by_name(document["paths"][path][method])[name]["schema"]["pattern"] == NOT_BLANK, required


def test_the_toml_body_of_check_is_described(document):
    check = document["paths"]["/api/check"]["post"]
    body = check["requestBody"]
    assert body["required"] is True and body["description"]
    assert list(body["content"]) == ["application/toml"]
    schema = body["content"]["application/toml"]["schema"]
    assert schema["type"] == "string" and schema["maxLength"] == MAX_SCENARIO == 100_000
    assert schema["pattern"] == NOT_BLANK  # an empty body is a missing scenario: a 400
    assert [param["name"] for param in check["parameters"]] == ["trace_complete", "edition"]


# -- every answer declared, in the error shape -----------------------------------------------


@pytest.mark.parametrize("operation", api.OPERATIONS, ids=lambda op: op.name)
def test_every_address_declares_its_error_answers(document, operation):
    responses = _described(document, operation)["responses"]
    expected = {"200", "400", "404", "405", "413", "414", "500", "503"} | (
        {"422"} if operation.name in api._UNUSABLE else set()
    )
    assert set(responses) == expected, operation.name
    assert responses["200"]["content"]["application/json"]["schema"] == {"type": "object"}
    for code, response in responses.items():
        assert response["description"].strip(), (operation.name, code)
        if code != "200":
            assert response["content"] == {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    assert "BadHost" in responses["400"]["description"]
    allow = responses["405"]["headers"]["Allow"]
    assert allow["required"] is True and allow["schema"]["type"] == "string"


def test_the_unusable_content_is_declared_where_it_can_happen():
    assert set(api._UNUSABLE) == {"define", "search", "ask", "check"}
    assert set(api._MISSING) <= {op.name for op in api.OPERATIONS}


def test_the_examples_link_to_an_example(document, client):
    link = document["paths"]["/api/examples"]["get"]["responses"]["200"]["links"]["example"]
    assert link["operationId"] == "example" and link["parameters"] == {"name": "$response.body#/examples/0/name"}
    first = client.get("/api/examples").json()["examples"][0]["name"]
    assert client.get(f"/api/examples/{first}").status_code == 200


def test_the_servers_own_refusals_have_the_declared_shape(kb, client, document, error_shape):
    from starlette.testclient import TestClient

    from rules_kb.serve.app import MAX_BODY, MAX_QUERY, create_app

    refusals = {
        405: client.delete("/api/search?q=couche"),
        413: client.post("/api/check", content=b"x" * (MAX_BODY + 1)),
        414: client.get("/api/search?q=" + "a" * (MAX_QUERY + 1)),
        422: client.post("/api/check", content=b"titre = 3\n[["),
        404: client.get("/api/examples/absent"),
    }
    with TestClient(create_app(kb, allowed_hosts=("regles.example",))) as guarded:
        refusals[400] = guarded.get("/api/examples", headers={"host": "ailleurs.example"})
    assert refusals[400].json()["error"]["type"] == "BadHost"
    for code, answer in refusals.items():
        assert answer.status_code == code, (code, answer.text[:200])
        assert answer.headers["content-type"].startswith("application/json"), code
        error_shape.validate(answer.json())
    assert {word.strip() for word in refusals[405].headers["allow"].split(",")} == {"GET", "HEAD"}
    for path, item in document["paths"].items():
        concrete = path.replace("{number}", "420.5c").replace("{name}", "blessures-fatales")
        for method in ("DELETE", "PUT", "PATCH", "OPTIONS"):
            answer = client.request(method, concrete)
            assert answer.status_code == 405, (method, path)
            allowed = {word.strip().lower() for word in answer.headers["allow"].split(",")}
            assert allowed - {"head"} == set(item), (method, path, allowed)
            error_shape.validate(answer.json())


# -- the patterns say what the API takes -----------------------------------------------------


def test_blank_is_what_str_strip_removes():
    blank = re.compile(BLANK)
    assert [code for code in range(sys.maxunicode + 1) if bool(blank.fullmatch(chr(code))) != chr(code).isspace()] == []
    assert re.search(NOT_BLANK, "\u00a0 x\u3000") and not re.search(NOT_BLANK, " \t\u00a0\u2028\u3000")


def _segment(text: str) -> str:
    """``text`` as one path segment: every character but letters and digits percent-encoded, dots
    too (a client would otherwise read ``..`` as « the folder above »)."""
    return quote(text, safe="").replace(".", "%2E")


def _parses(text: str) -> bool:
    try:
        RuleNumber.parse(text.strip())
    except RuleNumberError:
        return False
    return True


#: Texts near rule numbers: digits, dots, letters (l and o among them), blanks of every kind.
_NEAR_NUMBERS = st.text(st.sampled_from("0123456789..abclLoOzZ \t\u00a0\u3000\n٤"), max_size=14)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.from_regex(RULE_NUMBER, fullmatch=True), _NEAR_NUMBERS))
def test_the_rule_number_pattern_is_what_the_parser_takes(text):
    assert (re.search(RULE_NUMBER, text) is not None) == _parses(text), repr(text)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.from_regex(RULE_NUMBER, fullmatch=True), _NEAR_NUMBERS).filter(lambda text: len(text) <= 40))
def test_a_rule_number_is_refused_exactly_when_the_pattern_refuses_it(client, text):
    answer = client.get("/api/rules/" + _segment(text))
    if re.search(RULE_NUMBER, text) and text.strip(" \t\n\r\f\v"):  # a path of blanks only is « missing » too
        assert answer.status_code in (200, 404), (repr(text), answer.text[:200])
    else:
        assert answer.status_code == 400, (repr(text), answer.text[:200])


@pytest.mark.parametrize(
    ("url", "code"),
    [
        ("/api/rules/420.5c?only=1", 200),
        ("/api/rules/420.5c?only=false", 200),
        ("/api/rules/420.5c?only=peut-%C3%AAtre", 400),  # a flag is true or false, not « anything else is false »
        ("/api/rules/420.5c?only=", 400),  # the document types it: blank is no boolean
        ("/api/search?q=couche&limit=", 400),
        ("/api/search?q=couche&kind=card", 200),
        ("/api/search?q=couche&kind=Carte", 400),  # the enum's values, as written
        ("/api/search?q=couche&kind=", 400),
        ("/api/search?q=couche&edition=" + "%20" * 41, 400),  # a length is the one sent, blanks included
        ("/api/search?q=couche&edition=" + "%20" * 40, 200),  # blank: the default edition
        ("/api/define?term=%C2%A0%E3%80%80", 400),  # blanks only: missing
        ("/api/define?term=!", 422),  # a term, as the document allows, that holds no word
        ("/api/search?q=le", 422),
        ("/api/search?q=AND", 422),
        ("/api/ask?q=le", 422),
    ],
)
def test_the_api_is_as_strict_as_its_document(client, url, code):
    answer = client.get(url)
    assert answer.status_code == code, answer.text[:300]


# -- a property: values drawn from the document's own schemas --------------------------------


def _valid(schema: dict) -> st.SearchStrategy:
    """Values the schema allows (as they travel in a query string or a path: texts)."""
    kind = schema["type"]
    if kind == "integer":
        return st.integers(schema["minimum"], schema["maximum"]).map(str)
    if kind == "boolean":
        return st.sampled_from(["true", "false"])
    if kind == "array":
        return st.lists(_valid(schema["items"]), max_size=schema["maxItems"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    longest = schema["maxLength"]
    if "pattern" in schema:
        texts = st.from_regex(schema["pattern"], fullmatch=schema["pattern"].startswith("^"))
        return st.one_of(
            st.sampled_from(schema.get("examples", ["x"])), texts.filter(lambda text: len(text) <= longest)
        )
    return st.one_of(
        st.sampled_from(schema.get("examples", [""])), st.text(max_size=40), st.just("é" * longest), st.just("")
    )


def _invalid(schema: dict) -> st.SearchStrategy:
    """Values the schema refuses."""
    kind = schema["type"]
    if kind == "integer":
        return st.one_of(
            st.integers(max_value=schema["minimum"] - 1),
            st.integers(min_value=schema["maximum"] + 1),
            st.sampled_from(["", "deux", "1.5"]),
        ).map(str)
    if kind == "boolean":
        return st.sampled_from(["", "peut-être", "2"])
    if kind == "array":
        return st.one_of(
            st.lists(_valid(schema["items"]), min_size=schema["maxItems"] + 1, max_size=schema["maxItems"] + 3),
            _invalid(schema["items"]).map(lambda value: [value]),
        )
    longer = st.integers(1, 30).map(lambda extra: "a" * (schema["maxLength"] + extra))
    if "enum" in schema:
        return st.one_of(longer, st.text(max_size=10).filter(lambda text: text not in schema["enum"]))
    if "pattern" in schema:
        return st.one_of(longer, st.text(max_size=20).filter(lambda text: not re.search(schema["pattern"], text)))
    return longer


@st.composite
def _request(draw, document: dict):
    """A GET address of the document, its parameters drawn from their schemas (sometimes one made
    invalid, or one unknown added); returns ``(path, url, valid)``."""
    gets = [(path, item["get"]) for path, item in document["paths"].items() if "get" in item]
    path, described = draw(st.sampled_from(gets))
    params = described["parameters"]
    wrong = draw(st.sampled_from([None, None, *[param["name"] for param in params], "inconnu"]))
    values, url = {}, path
    for param in params:
        if param["in"] == "path" or param["required"] or param["name"] == wrong or draw(st.booleans()):
            values[param["name"]] = draw(
                _invalid(param["schema"]) if param["name"] == wrong else _valid(param["schema"])
            )
    query = []
    for param in params:
        if param["name"] not in values:
            continue
        value = values[param["name"]]
        if param["in"] == "path":
            url = url.replace("{" + param["name"] + "}", _segment(value))
        else:
            query += [(param["name"], item) for item in (value if isinstance(value, list) else [value])]
    if wrong == "inconnu":
        query.append(("inconnu", "1"))
    encoded = "&".join(f"{quote(name, safe='')}={quote(value, safe='')}" for name, value in query)
    return path, url + (f"?{encoded}" if encoded else ""), wrong is None


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_request_drawn_from_the_document_gets_a_declared_answer(client, document, error_shape, data):
    path, url, valid = data.draw(_request(document))
    answer = client.get(url)
    declared = document["paths"][path]["get"]["responses"]
    assert str(answer.status_code) in declared, (url, answer.status_code, answer.text[:200])
    assert answer.status_code < 500, (url, answer.text[:200])
    assert answer.headers["content-type"].startswith("application/json"), url
    body = answer.json()
    if answer.status_code == 200:
        assert isinstance(body, dict)
    else:
        error_shape.validate(body)
        assert body["error"]["message"].strip()
    if valid:  # what the document allows is never refused as malformed
        assert answer.status_code != 400, (url, body)
    else:  # what it refuses is refused
        assert answer.status_code in (400, 414), (url, answer.status_code)
