"""Issue 23: every HTTP endpoint of ``rules_kb serve`` answers any text, any
body and any method with a page or a French error — never a server error."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_kb.checker.report import examples
from rules_kb.serve.app import create_app
from tests.fuzz import campaign
from tests.fuzz.test_documents import damaged

_TEXTS = st.one_of(
    st.lists(st.sampled_from(["blessures", "420.5c", "2/2", "ma", "AND", "NOT", "line:5", '"', "(", "[/b]", "\x00", "\x01",
                              "\x1b[31m", "\x7f", "\ud7ff", "1" * 1500, "-1", "poison", "marqueurs", "%", "&", "#", "?"]),
             min_size=1, max_size=5).map(" ".join),
    st.text(max_size=20),
)  # fmt: skip
_GETS = ["/api/rules/{}", "/api/define?term={}", "/api/search?q={}", "/api/suggest?q={}", "/api/ask?q={}",
         "/api/examples/{}", "/regle/{}", "/definition?terme={}", "/recherche?q={}", "/question?q={}", "/aller?q={}",
         "/api/examples?x={}", "/api/openapi.json?q={}", "/glossaire?lettre={}", "/verifier?exemple={}", "/?q={}",
         "/static/{}"]  # fmt: skip
#: Every route, once (what a client may call with any method).
_ROUTES = ["/", "/aller", "/regle/420.5c", "/definition", "/recherche", "/question", "/glossaire", "/verifier", "/api/rules/420.5c",
           "/api/define", "/api/search", "/api/suggest", "/api/ask", "/api/check", "/api/examples", "/api/examples/blessures-fatales",
           "/api/openapi.json", "/static/app.css", "/nulle-part"]  # fmt: skip
_EXAMPLE_LINES = [line for found in examples() for line in found.text.splitlines()]


@pytest.fixture(scope="module")
def client(kb):
    from starlette.testclient import TestClient

    with TestClient(create_app(kb), raise_server_exceptions=False) as client:
        yield client


@campaign(40)
@given(path=st.sampled_from(_GETS), text=_TEXTS)
def test_any_request_answers_or_refuses_clearly(client, path, text):
    response = client.get(path.format(quote(text, safe="")), follow_redirects=False)
    assert response.status_code < 500, (path, text, response.text[:300])


@campaign(40)
@given(scenario=damaged(_EXAMPLE_LINES), edition=st.sampled_from(["", "2004", "2006-faq", "1999", "\x00", "2004 "]))
def test_a_damaged_scenario_posted_gets_a_report_or_a_french_4xx(client, scenario, edition):
    """POST /api/check with the bundled examples cut, repeated and salted with hostile text: a report,
    or a French error — 400 (the request breaks the OpenAPI document), 404 (an unknown edition) or
    422 (a text the document allows that is no usable scenario, docs/reference/http.md)."""
    answer = client.post(f"/api/check?edition={quote(edition)}", content=scenario.encode("utf-8", "surrogatepass"))
    assert answer.status_code in (200, 400, 404, 422), answer.text[:300]
    if answer.status_code != 200:
        error = answer.json()["error"]
        assert error["message"] and "Traceback" not in error["message"]
    form = {"content-type": "application/x-www-form-urlencoded"}
    page = client.post(
        "/verifier", content=f"scenario={quote(scenario, safe='')}&edition={quote(edition)}", headers=form
    )
    assert page.status_code < 500


@campaign(30)
@given(path=st.sampled_from(_ROUTES), method=st.sampled_from(["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]),
       body=st.binary(max_size=200), kind=st.sampled_from(["", "application/json", "application/x-www-form-urlencoded",
                                                            "multipart/form-data; boundary=x", "text/plain; charset=latin-1"]))  # fmt: skip
def test_any_method_on_any_route_answers_or_refuses_clearly(client, path, method, body, kind):
    headers = {"content-type": kind} if kind else {}
    answer = client.request(method, path, content=body, headers=headers, follow_redirects=False)
    assert answer.status_code < 500, (method, path, answer.text[:300])
