"""The verifier of ``rules-kb serve``: ``/verifier`` checks a scenario.

- ``GET /verifier``: the form (``?exemple=`` fills it with a bundled example);
- ``POST /verifier``: the form's TOML scenario checked
  (:func:`rules_kb.serve.api.check`, in a worker thread): outcome,
  state-based events, what an effect that changes the rules stopped, layer
  trace, final state, rules applied.

Built with the page skeleton of :mod:`rules_kb.serve.pages`.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlencode

from starlette.concurrency import run_in_threadpool
from starlette.routing import Route

from rules_kb import operations
from rules_kb.checker.report import examples
from rules_kb.core.errors import RulesKbError
from rules_kb.serve import api
from rules_kb.serve.pages import (
    add_section,
    append_text,
    element,
    error_box,
    html_response,
    rule_href,
    rule_line,
    skeleton,
)


def check_page(request):
    """``GET /verifier``: the form (``?exemple=`` fills it); ``POST``: the form's scenario checked."""
    text, report, problem = "", None, None
    if request.method == "GET":
        name = (request.query_params.get("exemple") or "").strip()
        if name:
            try:
                text = api.example(name)["text"]
            except RulesKbError as error:
                problem = error
    return _check_response(text, report, problem, examples())


async def check_post(request):
    body = await request.body()
    text, report, problem = "", None, None
    try:
        form = parse_qs(api.scenario_text(body), keep_blank_values=True)
        text = (form.get("scenario") or [""])[0]
        edition = api.parameter({name: values[0] for name, values in form.items()}, operations.EDITION)
        report = await run_in_threadpool(
            api.check, request.app.state.kb, api.scenario_text(text.encode("utf-8")), edition
        )
    except RulesKbError as error:
        problem = error
    return _check_response(text, report, problem, examples())


def _check_response(text: str, report, problem, bundled):
    root, main = skeleton("Vérifier un scénario")
    element(main, "h1", "Vérifier un scénario")
    form = element(main, "form", "", "check", action="/verifier", method="post")
    element(form, "label", "Scénario (TOML)", **{"for": "scenario"})
    element(form, "textarea", text, "", id="scenario", name="scenario", rows="16", spellcheck="false")
    element(form, "button", "Vérifier", type="submit")
    if problem is not None:
        error_box(main, problem)
        problems = getattr(problem, "problems", ())
        if len(problems) > 1:
            listing = element(main, "ul", "", "problems")
            for each in problems:
                element(listing, "li", (f"ligne {each.line} : " if each.line else "") + each.detail)
    if report is not None:
        _report(main, report)
    listing = element(add_section(main, "Exemples pour commencer"), "ul", "", "examples")
    for example in bundled:
        item = element(listing, "li")
        element(item, "a", example.title, href="/verifier?" + urlencode({"exemple": example.name}))
        element(item, "span", f" ({example.name})", "muted")
    return html_response(root, api.status(problem) if problem is not None else 200)


def _report(main, report: dict) -> None:
    """The trace of a checked scenario: outcome, state-based events, layers, rules."""
    section = add_section(main, f"Résultat : {report['title'] or 'scénario'}", "verdict")
    element(section, "p", f"Édition : {report['edition_name']}", "muted")
    outcome = report["outcome"]
    if outcome["draw"]:
        element(section, "p", f"Partie nulle ({outcome['rule']}).")
    if outcome["losers"]:
        element(section, "p", "Perd la partie : " + ", ".join(outcome["losers"]))
    events = [event for round_ in report["rounds"] for event in round_["events"]]
    if not events:
        element(
            section,
            "p",
            "Aucun effet basé sur un état n'a lieu : un effet qui change les règles empêche ce qui suit (103.1)."
            if report["stopped"]
            else "Aucun effet basé sur un état ne s'applique.",
        )
    listing = element(section, "ol", "", "events")
    for number, round_ in enumerate(report["rounds"], 1):
        for event in round_["events"]:
            item = element(listing, "li")
            element(item, "a", event["rule"], "number", href=rule_href(event["rule"]))
            who = ", ".join(event["objects"] + event["players"])
            append_text(item, f" (vérification {number}) {who} : {event['reason']}")
    if report["stopped"]:
        stopped = add_section(main, "Empêché par un effet qui change les règles (103.1)", "stopped")
        element(stopped, "p", "La carte l'emporte sur la règle : ces effets basés sur un état n'ont pas lieu.", "muted")
        listing = element(stopped, "ol", "", "events")
        for found in report["stopped"]:
            event, item = found["event"], element(listing, "li")
            element(item, "a", event["rule"], "number", href=rule_href(event["rule"]))
            who = ", ".join(event["objects"] + event["players"])
            append_text(
                item,
                f" (vérification {found['check']}) {who} : {found['label']} — {event['reason']} ; "
                f"empêché par {', '.join(found['by'])} : « {found['ability']} ».",
            )
            for number in found["rules"]:
                if number != event["rule"]:
                    append_text(item, " ")
                    element(item, "a", number, "number", href=rule_href(number))
    layers = element(add_section(main, "Couches (418.5)", "layers"), "ol", "", "layers")
    for layer in report["layers"]:
        item = element(layers, "li")
        element(item, "strong", f"Couche {layer['layer']} — {layer['name']}")
        if not layer["steps"]:
            element(item, "span", " : aucun effet", "muted")
        for step in layer["steps"]:
            line = element(item, "p", f"{step['text'] or step['id']} → {', '.join(step['objects'])}")
            if step["reason"]:
                append_text(line, f" ({step['reason']})")
            for number in step["rules"]:
                append_text(line, " ")
                element(line, "a", number, "number", href=rule_href(number))
    final = element(add_section(main, "État final"), "ul")
    for permanent in report["final"]["permanents"]:
        power = f" {permanent['power']}/{permanent['toughness']}" if permanent["power"] is not None else ""
        element(final, "li", f"{permanent['name']} ({permanent['id']}){power} : {permanent['zone']}")
    rules = element(add_section(main, "Règles appliquées"), "ul", "", "links")
    for found in report["rules"]:
        rule_line(rules, found)


def routes() -> list:
    """The verifier's Starlette routes."""
    return [
        Route("/verifier", check_page, methods=["GET"]),
        Route("/verifier", check_post, methods=["POST"]),
    ]
