"""``rules-kb serve``: the JSON API (shapes of ``--json``, errors, limits,
headers), the pages (routing of the search box, escaping, working without
JavaScript), and the command (a real uvicorn in a subprocess)."""

from __future__ import annotations

import http.client
import json
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote, urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_kb import serialize
from rules_kb.checker.report import example
from rules_kb.serve.app import CONTENT_SECURITY_POLICY, MAX_BODY, MAX_QUERY, create_app

QUESTION = "ma 2/2 a pris 2 dégâts elle meurt ?"


# -- the API ---------------------------------------------------------------------------------------


def test_rule_has_the_shape_of_show_json(client, kb):
    from rules_kb.lookup.rules import show

    answer = client.get("/api/rules/420.5c")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/json"
    expected = json.loads(json.dumps(serialize.lookup_dict(show(kb, "420.5c"))))
    assert answer.json()["rule"] == expected["rule"] and set(answer.json()) == set(expected)
    assert "blessures fatales" in answer.json()["rule"]["text"]


def test_rule_only_drops_the_subrules(client):
    assert [rule["number"] for rule in client.get("/api/rules/420.5").json()["subrules"]][:3] == [
        "420.5a",
        "420.5b",
        "420.5c",
    ]
    assert client.get("/api/rules/420.5?only=1").json()["subrules"] == []


def test_define_search_ask(client):
    assert client.get("/api/define", params={"term": "trample"}).json()["entry"]["term"] == "Piétinement"
    hits = client.get("/api/search", params={"q": "blessures fatales", "limit": 3}).json()["hits"]
    assert 1 <= len(hits) <= 3 and {"kind", "id", "snippet"} <= set(hits[0])
    cards = client.get("/api/search", params=[("q", "Guide griffon"), ("kind", "carte")]).json()["hits"]
    assert cards and {hit["kind"] for hit in cards} == {"card"}
    answer = client.get("/api/ask", params={"q": QUESTION}).json()
    assert answer["rules"][0]["number"] == "420.5c"
    assert answer["verification"]["applied"] == ["420.5c"]


def test_check_takes_a_toml_body(client):
    answer = client.post("/api/check", content=example("blessures-fatales").text.encode("utf-8"))
    assert answer.status_code == 200
    events = [event["rule"] for round_ in answer.json()["rounds"] for event in round_["events"]]
    assert events == ["420.5c", "420.5d"]
    assert [layer["layer"] for layer in answer.json()["layers"]] == [1, 2, 3, 4, 5, 6]


def test_examples(client):
    names = [found["name"] for found in client.get("/api/examples").json()["examples"]]
    assert "blessures-fatales" in names
    assert client.get("/api/examples/blessures-fatales").json()["text"] == example("blessures-fatales").text
    missing = client.get("/api/examples/absent")
    assert missing.status_code == 404 and missing.json()["error"]["type"] == "UnknownExampleError"


@pytest.mark.parametrize(
    ("url", "code", "kind", "words"),
    [
        ("/api/rules/999.9", 404, "UnknownRuleError", "999.9"),
        ("/api/rules/abc", 400, "RuleNumberError", "n'est pas un numéro de règle"),
        ("/api/rules/420.5c?edition=1850", 404, "UnknownEditionError", "1850"),
        ("/api/define?term=", 400, "BadRequest", "Il manque le paramètre « term »"),
        ("/api/define?term=zzzqqqxxx", 404, "UnknownTermError", "zzzqqqxxx"),
        ("/api/search", 400, "BadRequest", "« q »"),
        ("/api/search?q=le", 422, "QueryError", "aucun mot significatif"),
        ("/api/search?q=couche&limit=0", 400, "BadRequest", "limit"),
        ("/api/search?q=couche&limit=deux", 400, "BadRequest", "limit"),
        ("/api/ask?q=" + "a" * 2001, 400, "BadRequest", "trop long"),
        ("/api/nothing-here", 404, "HTTPError", "Adresse inconnue"),
    ],
)
def test_errors_are_json_with_4xx(client, url, code, kind, words):
    answer = client.get(url)
    assert answer.status_code == code, answer.text
    error = answer.json()["error"]
    assert error["type"] == kind and words in error["message"]
    assert "rules-kb " not in error["message"]  # a web user types no command


def test_a_malformed_scenario_is_a_422_with_the_french_message(client):
    answer = client.post("/api/check", content=b"title = 3\n[[permanent")
    assert answer.status_code == 422  # a text, as the document allows, that is not a scenario
    error = answer.json()["error"]
    assert error["type"] == "ScenarioError" and "TOML invalide" in error["message"] and error["line"] == 2
    assert (
        client.post("/api/check", content=b"\xff\xfe")
        .json()["error"]["message"]
        .startswith("Le scénario n'est pas en UTF-8")
    )
    assert client.post("/api/check", content=b"  ").status_code == 400
    assert client.get("/api/check").status_code == 405


def test_limits_refuse_what_is_too_large(client):
    big = client.post("/api/check", content=b"a" * (2 * MAX_BODY))
    assert big.status_code == 413 and big.json()["error"]["type"] == "PayloadTooLarge"
    assert client.post("/api/check", content=b"a" * (MAX_BODY + 1)).status_code == 413

    def chunks():  # no content-length: counted as it comes
        for _ in range(MAX_BODY // 16384 + 2):
            yield b"a" * 16384

    assert client.post("/api/check", content=chunks()).status_code == 413
    long = client.get("/api/search?q=" + "a" * (MAX_QUERY + 1))
    assert long.status_code == 414 and long.json()["error"]["type"] == "URITooLong"
    assert client.get("/api/rules/420.5c").status_code == 200  # and the server goes on


def test_every_response_carries_the_security_headers(client):
    for url in ("/", "/api/rules/420.5c", "/api/rules/999.9", "/static/style.css", "/nowhere"):
        headers = client.get(url).headers
        assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY
        assert headers["x-content-type-options"] == "nosniff" and headers["x-frame-options"] == "DENY"
    assert "script-src 'self'" in CONTENT_SECURITY_POLICY and "unsafe-inline" not in CONTENT_SECURITY_POLICY


def test_openapi_lists_every_api_route(client):
    from starlette.routing import Route

    from rules_kb.serve import api

    described = client.get("/api/openapi.json").json()
    assert described["openapi"].startswith("3.1")
    routes = {re.sub(r":\w+\}", "}", route.path) for route in api.routes() if isinstance(route, Route)}
    assert routes == set(described["paths"])  # itself included


_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=60)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=st.sampled_from(["/api/define", "/api/search", "/api/ask", "/aller", "/recherche", "/question", "/definition"]),
       names=st.lists(st.sampled_from(["q", "term", "terme", "limit", "kind", "type", "edition", "only"]), max_size=3),
       values=st.lists(_TEXT, min_size=3, max_size=3))  # fmt: skip
def test_no_query_string_gives_a_500(client, path, names, values):
    query = "&".join(f"{quote(name)}={quote(value)}" for name, value in zip(names, values))
    answer = client.get(f"{path}?{query}", follow_redirects=False)
    assert answer.status_code < 500, (path, query, answer.text[:300])
    if path.startswith("/api/") and answer.status_code >= 400:
        assert set(answer.json()["error"]) >= {"type", "message"}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(number=_TEXT)
def test_no_rule_number_gives_a_500(client, number):
    for base in ("/api/rules/", "/regle/"):
        assert client.get(base + quote(number, safe="")).status_code in (200, 400, 404)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.binary(max_size=300) | _TEXT.map(lambda text: text.encode("utf-8")))
def test_no_scenario_body_gives_a_500(client, body):
    assert client.post("/api/check", content=body).status_code in (200, 400, 404, 422)


def test_concurrent_clients_get_the_answers_of_one(client):
    from concurrent.futures import ThreadPoolExecutor

    urls = ["/api/rules/420.5c", "/api/define?term=couche", "/api/search?q=blessures+fatales", "/api/ask?q=trample+bloque+1%2F1",
            "/api/rules/502.9", "/api/suggest?q=pi%C3%A9tin", "/regle/418.5a", "/glossaire"]  # fmt: skip
    alone = {url: client.get(url).text for url in urls}
    with ThreadPoolExecutor(20) as pool:
        together = list(pool.map(lambda url: (url, client.get(url)), urls * 8))
    assert all(answer.status_code == 200 and answer.text == alone[url] for url, answer in together)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(scenario=_TEXT, edition=_TEXT, raw=st.binary(max_size=100))
def test_no_check_form_gives_a_500(client, scenario, edition, raw):
    form = {"content-type": "application/x-www-form-urlencoded"}
    assert (
        client.post(
            "/verifier", content=urlencode({"scenario": scenario, "edition": edition}), headers=form
        ).status_code
        < 500
    )
    assert client.post("/verifier", content=raw, headers=form).status_code < 500


# -- the pages ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "lands"),
    [
        ("420.5c", "/regle/420.5c"),
        ("420.5C.", "/regle/420.5c"),
        ("piétinement", "/definition?terme=pi%C3%A9tinement"),
        ("couche", "/definition?terme=couche"),
        ("trample", "/definition?terme=trample"),
        ("guide griffon", "/recherche?q=Guide+griffon&type=carte"),
        (QUESTION, "/question?q="),
        ("blessures combat assignation", "/recherche?q="),
        ("", "/"),
    ],
)
def test_the_search_box_goes_to_the_right_page(client, typed, lands):
    answer = client.get("/aller", params={"q": typed}, follow_redirects=False)
    assert answer.status_code == 303
    assert answer.headers["location"].startswith(lands)


def test_the_landing_pages(client):
    rule = client.get("/regle/420.5c").text
    assert "<h1>" in rule and "420.5c" in rule and "blessures fatales" in rule
    assert "Cité par" in rule and "<details" in rule  # glossary terms open on tap, without script
    assert 'href="/regle/420.5?edition=2004"' in rule  # the context
    linked = client.get("/regle/212.4f").text  # its references and terms, linked in its text
    assert '<a href="/regle/420?edition=2004" class="ref">règle 420</a>' in linked
    assert 'class="term">enchantement local</a>' in linked
    assert "Piétinement" in client.get("/definition", params={"terme": "trample"}).text
    asked = client.get("/question", params={"q": "il a trample et je bloque avec une 1/1"}).text
    assert "502.9" in asked
    verdict = client.get("/question", params={"q": QUESTION}).text
    assert "Verdict du vérificateur" in verdict and "420.5c" in verdict
    glossary = client.get("/glossaire").text
    assert 'href="#lettre-P"' in glossary and "Piétinement" in glossary
    cards = client.get("/aller", params={"q": "Guide griffon"}).text
    assert "Guide griffon" in cards and "décision" in cards  # the card and its rulings
    versions = client.get("/regle/502.3").text
    assert "Version 2006-faq" in versions and "<del>" in versions and "<ins>" in versions


def test_the_check_page_works_without_javascript(client):
    form = client.get("/verifier", params={"exemple": "blessures-fatales"}).text
    assert "Ours runegriffe" in form and 'method="post"' in form
    checked = client.post(
        "/verifier", content=urlencode({"scenario": example("blessures-fatales").text}),
        headers={"content-type": "application/x-www-form-urlencoded"},
    )  # fmt: skip
    assert checked.status_code == 200 and "Couche 6" in checked.text and "420.5d" in checked.text
    broken = client.post(
        "/verifier",
        content="scenario=title+%3D+3%0A%5B%5Bx",
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert broken.status_code == 400 and "TOML invalide" in broken.text and "title = 3" in broken.text


def test_every_text_is_escaped(client):
    attack = '<script>alert(1)</script>"><img src=x>'
    for url in ("/recherche?" + urlencode({"q": attack}), "/definition?" + urlencode({"terme": attack}),
                "/regle/" + quote(attack, safe=""), "/question?" + urlencode({"q": attack + " elle meurt ?"})):  # fmt: skip
        page = client.get(url).text
        assert "<script>alert" not in page and "<img src=x>" not in page, url
        assert "&lt;script&gt;" in page or "&lt;script&gt;" in page.replace("&amp;", "&"), url
    checked = client.post("/verifier", content=urlencode({"scenario": f'title = "{attack}"'}),
                          headers={"content-type": "application/x-www-form-urlencoded"})  # fmt: skip
    assert "<script>alert" not in checked.text


def test_pages_use_no_inline_script_or_style_and_nothing_external(client):
    for url in ("/", "/regle/502.9", "/glossaire", "/verifier", "/question?" + urlencode({"q": QUESTION})):
        page = client.get(url).text
        assert not re.search(r"<script(?![^>]*\bsrc=\"/static/)", page), url
        assert "<style" not in page and " style=" not in page and " on" + "click=" not in page
        assert not re.search(r"(src|href)=\"(https?:)?//", page), url
    assert client.get("/static/suggest.js").status_code == 200


def test_unknown_page_is_a_french_404(client):
    answer = client.get("/nulle-part")
    assert answer.status_code == 404 and "Page introuvable" in answer.text
    unknown = client.get("/regle/999.9")
    assert unknown.status_code == 404 and "Aucune règle ne porte le numéro" in unknown.text


def test_nothing_is_written_to_disk(client, kb, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cache = Path(kb.cache_dir)
    before = {path: path.stat().st_mtime_ns for path in cache.rglob("*") if path.is_file()}
    client.get("/api/ask", params={"q": QUESTION})
    client.post("/api/check", content=example("blessures-fatales").text.encode())
    client.get("/verifier", params={"exemple": "copies"})
    after = {path: path.stat().st_mtime_ns for path in cache.rglob("*") if path.is_file()}
    assert after == before and list(tmp_path.iterdir()) == []


# -- the command -------------------------------------------------------------------------------------


def test_serve_help_and_bad_port(run_cli):
    help = run_cli("serve", "--help")
    assert help.exit_code == 0 and "--host" in help.stdout and "--port" in help.stdout
    assert run_cli("serve", "--port", "70000").exit_code == 2


def test_serve_reports_a_port_in_use(run_cli):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        result = run_cli("serve", "--port", str(taken.getsockname()[1]))
    assert result.exit_code == 1 and "port déjà utilisé" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("host", ["127.0.0.1", "0.0.0.0"])
def test_serve_says_where_to_open_and_warns_beyond_loopback(run_cli, monkeypatch, host):
    from rules_kb.serve import app as web

    served = []
    monkeypatch.setattr(web, "listening_socket", lambda host, port: ("socket", host, port))
    monkeypatch.setattr(web, "run", lambda app, sock: served.append((app.state.kb, sock)))
    monkeypatch.setattr(web, "lan_address", lambda: "192.168.1.20")
    result = run_cli("serve", "--host", host, "--port", "8123")
    assert result.exit_code == 0 and served[0][1] == ("socket", host, 8123)
    assert "http://127.0.0.1:8123/" in result.stdout
    if host == "0.0.0.0":
        assert "http://192.168.1.20:8123/" in result.stdout
        assert (
            result.stderr.count("\n") == 1
            and "Attention\u00a0: le serveur est ouvert à tout le réseau local" in result.stderr
        )
    else:
        assert "192.168" not in result.stdout and result.stderr == ""


def test_lan_helpers():
    from rules_kb.serve.app import is_loopback, lan_address

    assert is_loopback("127.0.0.1") and is_loopback("localhost") and is_loopback("::1")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5")
    assert not lan_address().startswith("127.")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _get(port: int, method: str, path: str, body: bytes | None = None) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request(method, path, body=body)
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


def test_serve_runs_uvicorn_refuses_2_mb_and_goes_on(kb):
    port = _free_port()
    script = Path(sys.executable).with_name("rules-kb")
    server = subprocess.Popen([str(script), "serve", "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              env=dict(os.environ), text=True)  # fmt: skip
    try:
        assert f"http://127.0.0.1:{port}/" in server.stdout.readline()
        deadline = time.monotonic() + 30
        while True:
            try:
                status, body = _get(port, "GET", "/api/rules/420.5c")
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None
                time.sleep(0.1)
        assert status == 200 and json.loads(body)["rule"]["number"] == "420.5c"
        try:
            status, body = _get(port, "POST", "/api/check", b"a" * (2 * 1024 * 1024))
            assert status == 413
        except (ConnectionResetError, BrokenPipeError):  # refused before the whole body was sent
            pass
        assert _get(port, "GET", "/api/rules/502.9")[0] == 200  # the server goes on
        assert _get(port, "GET", "/aller?q=couche")[0] == 303
    finally:
        server.terminate()
        server.wait(10)


def test_the_check_page_says_what_a_rule_changing_effect_stopped(client):
    """103.1 (issue 36): the page shows each stopped event, its rule, who stopped it and
    how, as check does; « Aucun effet … ne s'applique » would hide them."""
    checked = client.post(
        "/verifier", content=urlencode({"scenario": example("regles-changees").text}),
        headers={"content-type": "application/x-www-form-urlencoded"},
    )  # fmt: skip
    text = " ".join(checked.text.split())
    assert checked.status_code == 200 and "Empêché par un effet qui change les règles (103.1)" in text
    assert (
        "Alice : ne perd pas la partie" in text
        and "empêché par Ange de platine : « vous ne pouvez pas perdre la partie »" in text
    )
    assert "la règle des légendes ne s'applique pas" in text


def test_every_page_names_the_documents_it_answers_from(client):
    """Issue 37: the header of every page says which documents answer (the 2004 rules, where
    mana burn still exists, the 2006 FAQ, the 2011 pages), from the manifest."""
    wanted = ("Règles complètes du 1er juin 2004", "FAQ Spirale temporelle (18 août 2006)",
              "Règles complètes du 4 février 2011 (extraits : 611. Effets continus, 201. Nom)")  # fmt: skip
    for url in ("/", "/regle/420.5c", "/definition?terme=couche", "/recherche?q=couche", "/glossaire",
                "/question?q=" + quote("ma 2/2 a pris 2 blessures, elle meurt ?"), "/nulle-part"):  # fmt: skip
        page = " ".join(client.get(url).text.replace("\xa0", " ").split())
        assert all(label in page for label in wanted), url


def test_a_rule_shows_its_edition_and_links_to_its_other_editions(client):
    page = " ".join(client.get("/regle/611.2c?edition=2011").text.replace("\xa0", " ").split())
    assert "Règles complètes du 4 février 2011 (extraits : 611. Effets continus, 201. Nom) (édition 2011)" in page
    assert 'href="/regle/418.3b?edition=2004"' in page and "(Règles complètes du 1er juin 2004)" in page
    faq = " ".join(client.get("/regle/502.16").text.replace("\xa0", " ").split())
    assert "Version 2006-faq : FAQ Spirale temporelle (18 août 2006)" in faq
    assert 'href="/regle/502.16?edition=2006-faq"' in faq


def test_a_405_says_which_methods_the_address_takes(client):
    """Issue 38, point 4: a 405 carries its Allow header (RFC 9110, 15.5.6), on the API and the pages."""
    for method, url, allowed in (("delete", "/api/search?q=x", {"GET", "HEAD"}), ("put", "/api/check", {"POST"}),
                                 ("post", "/regle/420.5c", {"GET", "HEAD"})):  # fmt: skip
        answer = getattr(client, method)(url)
        assert answer.status_code == 405 and set(answer.headers["allow"].replace(" ", "").split(",")) == allowed
        assert answer.headers["x-content-type-options"] == "nosniff"


def test_a_500_carries_the_security_headers(kb, monkeypatch):
    """Issue 38, point 4: an unexpected failure is answered outside the middleware, headers included."""
    from starlette.testclient import TestClient

    from rules_kb.serve import api
    from rules_kb.serve.app import SECURITY_HEADERS

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setitem(api._ANSWERS, "show", broken)
    answer = TestClient(create_app(kb), raise_server_exceptions=False).get("/api/rules/420.5c")
    assert answer.status_code == 500 and answer.json()["error"]["message"] == "Erreur interne du serveur."
    assert "boom" not in answer.text
    for name, value in SECURITY_HEADERS:
        assert answer.headers[name.decode()] == value.decode()


def test_only_the_hosts_the_server_was_started_for_are_answered(kb):
    """Issue 38, point 5: DNS rebinding. A Host the server was not started for is a 400 (French
    JSON); loopback names and the names given are answered; no redirect names a host."""
    from starlette.testclient import TestClient

    guarded = TestClient(create_app(kb, allowed_hosts=["regles.club.example", "192.168.1.20"]))
    for host in ("localhost:8000", "127.0.0.1", "[::1]:8000", "REGLES.club.example", "192.168.1.20:8000"):
        assert guarded.get("/api/rules/420.5c", headers={"host": host}).status_code == 200, host
    for host in ("evil.example", "evil.example:8000", "", "127.0.0.1.evil.example"):
        refused = guarded.get("/api/rules/420.5c", headers={"host": host})
        assert refused.status_code == 400, host
        assert refused.json()["error"]["type"] == "BadHost" and "non reconnu" in refused.json()["error"]["message"]
        assert refused.headers["x-frame-options"] == "DENY"
    moved = guarded.get("/aller?q=420.5c", headers={"host": "localhost"}, follow_redirects=False)
    assert moved.status_code == 303 and moved.headers["location"].startswith("/")
    slash = guarded.get("/glossaire/", headers={"host": "localhost"}, follow_redirects=False)
    assert slash.status_code == 404 and "location" not in slash.headers


def test_served_hosts_are_the_listening_address_the_lan_and_the_names_given():
    from rules_kb.serve.app import served_hosts

    assert served_hosts("127.0.0.1") == ("127.0.0.1",)
    assert served_hosts("127.0.0.1", ["regles.club.example"]) == ("127.0.0.1", "regles.club.example")
    everywhere = served_hosts("0.0.0.0", ["a.example"])
    assert everywhere[0] == "0.0.0.0" and everywhere[-1] == "a.example"


def test_the_servers_byte_limits_take_whatever_the_document_allows(kb):
    """Issue 38: the size limits count bytes, the document characters; a text at its longest, in
    characters of four UTF-8 bytes, is never refused by a byte limit (414, 413)."""
    from urllib.parse import quote

    from starlette.testclient import TestClient

    from rules_kb.operations import MAX_SCENARIO, MAX_TEXT
    from rules_kb.serve.app import longest_query

    assert longest_query() <= MAX_QUERY and MAX_BODY >= 4 * MAX_SCENARIO
    wide = "\U0001d51e"  # 𝔞: four bytes in UTF-8
    with TestClient(create_app(kb)) as client:
        asked = client.get("/api/ask?q=" + quote(wide * MAX_TEXT) + "&edition=2004&limit=5")
        assert asked.status_code in (200, 422), asked.text[:200]
        comment = ("# " + wide * 4997 + "\n") * (MAX_SCENARIO // 5000 - 1)  # lines under the scenario's line limit
        scenario = comment + 'title = "Large"\n\n[[player]]\nname = "Alice"\nlife = 0\n'
        assert len(scenario) <= MAX_SCENARIO
        checked = client.post("/api/check", content=scenario.encode(), headers={"content-type": "application/toml"})
        assert checked.status_code == 200, checked.text[:200]
        too_long = client.post("/api/check", content=(scenario + "#" * (MAX_SCENARIO - len(scenario) + 1)).encode(),
                               headers={"content-type": "application/toml"})  # fmt: skip
        assert too_long.status_code == 400  # the document's own limit, in characters
