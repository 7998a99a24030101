"""The HTML pages of ``rules-kb serve``: French, mobile-first, usable without JavaScript.

Every page is built as an lxml tree from the JSON shapes of
:mod:`rules_kb.serve.api` (those of ``--json``), but the answer to a
question, built from :func:`rules_kb.ask.ask`'s :class:`~rules_kb.ask.Answer`
as the command line renders it (its verdicts by their kind); every text is
escaped by lxml; its CSS and its one script come from ``static/`` (the
Content-Security-Policy allows nothing inline and nothing from elsewhere).

- ``/``: the search box (``GET /aller?q=``: :func:`destination` sends a
  rule number to its rule, a card name to its card, a glossary term to its
  definition, a question to ``ask``, anything else to the search);
- ``/regle/{numéro}``: a rule with its context, text, examples, subrules,
  what it cites and what cites it, its glossary terms (definition on tap),
  FAQ rulings, cards, other editions and versions with their diffs;
- ``/definition?terme=``, ``/recherche?q=`` (``&type=``), ``/question?q=``;
- ``/verifier``: the scenario checker, in :mod:`rules_kb.serve.verifier`;
- ``/glossaire``: the glossary from A to Z.

``static/suggest.js`` adds suggestions as one types, from ``/api/suggest``.

A page reads each parameter of its query string with :func:`rules_kb.serve.api.parameter`,
as the operation it shows declares it (:mod:`rules_kb.operations`: length, bounds,
default), under the page's own French name (``terme``, ``type``).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace
from pathlib import Path
from urllib.parse import quote, urlencode

from starlette.responses import RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from rules_kb import operations
from rules_kb.ask import ask as answer_question
from rules_kb.core.errors import RulesKbError
from rules_kb.core.model import RecordKind, node_id
from rules_kb.core.numbers import RuleNumber, RuleNumberError
from rules_kb.export import html as builders
from rules_kb.export.excerpt import segment, text_links
from rules_kb.export.html import serialise
from rules_kb.inventory import Source, sources
from rules_kb.serve import api

#: The folder of the CSS and the script.
STATIC = Path(__file__).parent / "static"

#: The operations the pages show, whose declared parameters they read (as the API serves them).
_SHOW, _DEFINE, _SEARCH, _ASK = (api.BY_NAME[name] for name in ("show", "define", "search", "ask"))
#: The search page shows more results than the search's default.
_PAGE_LIMIT = replace(_SEARCH.param("limit"), default=20)

#: A question: a question mark, or at least this many words.
QUESTION_WORDS = 4


#: What XML cannot hold (control characters, lone surrogates, non-characters): left out of the pages.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff\ufffe\uffff]")


#: The space before ``: ; ? ! »`` and after ``«``: made non-breaking in the pages' texts.
_FRENCH_SPACE = re.compile(r"(?<=\S) (?=[:;?!»])|(?<=«) ")


def clean(text: str) -> str:
    """``text`` without the characters XML cannot hold (a user may type or send any)."""
    return _NOT_XML.sub("", text)


def element(parent, tag: str, text: str = "", css_class: str = "", **attributes: str):
    """:func:`rules_kb.export.html.element` on :func:`clean` text (French
    punctuation held to its word by a non-breaking space; not in a text
    area, whose text is the user's) and attributes."""
    text = clean(text) if tag == "textarea" else _FRENCH_SPACE.sub("\u00a0", clean(text))
    return builders.element(parent, tag, text, css_class, **{name: clean(value) for name, value in attributes.items()})


def append_text(parent, text: str) -> None:
    """:func:`rules_kb.export.html.append_text` on :func:`clean` text, French punctuation held to its word."""
    builders.append_text(parent, _FRENCH_SPACE.sub("\u00a0", clean(text)))


# -- where the search box goes ---------------------------------------------------------------


def _folded(text: str) -> str:
    """``text`` lowercased without accents and with single spaces, to compare names."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return " ".join("".join(char for char in decomposed if not unicodedata.combining(char)).split())


def _card_names(kb) -> dict[str, str]:
    """The FAQ's card names, by their folded form."""
    return kb.cached(
        "serve-card-names", lambda: {_folded(card.name): card.name for card in kb.records(RecordKind.CARD)}
    )


def destination(kb, text: str) -> str:
    """Where the search box sends ``text``: the rule page for a rule number
    (``420.5c``), the card for a card's name, the definition for a glossary
    term (``piétinement``, ``trample``, ``couche``), ``ask`` for a question
    (a ``?``, or :data:`QUESTION_WORDS` words or more), else the search."""
    query = " ".join(text.split())[: api.MAX_TEXT]
    if not query:
        return "/"
    candidate = query.rstrip(".")
    if re.fullmatch(r"\d[\w.]*", candidate):
        try:
            return "/regle/" + quote(str(RuleNumber.parse(candidate)))
        except RuleNumberError:
            return "/regle/" + quote(candidate, safe="")
    if (card := _card_names(kb).get(_folded(query))) is not None:
        return card_href(card)
    question = "?" in query or len(query.split()) >= QUESTION_WORDS
    if not question:
        try:
            found = api.define(kb, query)
        except RulesKbError:
            found = None
        if found is not None:
            return "/definition?" + urlencode({"terme": query})
        return "/recherche?" + urlencode({"q": query})
    return "/question?" + urlencode({"q": query})


def hit_href(hit: dict) -> str:
    """The page of a search hit (:func:`rules_kb.serialize.hit_dict`)."""
    if hit["kind"] == "rule":
        return f"/regle/{quote(hit['id'])}" + (
            f"?{urlencode({'edition': hit['edition']})}" if hit.get("edition") else ""
        )
    if hit["kind"] == "glossary":
        return "/definition?" + urlencode({"terme": hit["title"]})
    if hit["kind"] in ("card", "ruling"):
        return card_href(hit["title"])
    return "/recherche?" + urlencode({"q": hit["title"]})


def card_href(name: str) -> str:
    """The page of a FAQ card: the search of its name among the cards and the rulings."""
    return "/recherche?" + urlencode([("q", name), ("type", "carte"), ("type", "décision")])


def rule_href(number: str, edition: str = "") -> str:
    """The page of a rule (of ``edition``, if given)."""
    return f"/regle/{quote(number)}" + (f"?{urlencode({'edition': edition})}" if edition else "")


# -- the page skeleton -------------------------------------------------------------------------


def page_sources(request) -> tuple[Source, ...]:
    """The documents the served corpus answers from
    (:func:`rules_kb.inventory.sources`: « Règles complètes du 1er juin 2004 »…),
    computed once per application."""
    state = request.app.state
    found = getattr(state, "sources", None)
    if found is None:
        found = state.sources = sources(state.kb)
    return found


def edition_label(request, edition: str) -> str:
    """What an edition's records come from, in French: the label of its first
    document (« Règles complètes du 1er juin 2004 »), or « édition <id> »."""
    return next((source.label for source in page_sources(request) if source.edition == edition), f"édition {edition}")


def skeleton(title: str, query: str = "", request=None):
    """``(root, main)``: a page with the header (site name, search box,
    navigation, and — given the ``request`` — the documents it answers from,
    :func:`page_sources`), an empty ``<main>`` and the footer."""
    root = element(None, "html", lang="fr")
    head = element(root, "head")
    element(head, "meta", charset="utf-8")
    element(head, "meta", name="viewport", content="width=device-width, initial-scale=1")
    element(head, "meta", name="referrer", content="no-referrer")
    element(head, "title", f"{title} — rules-kb" if title else "rules-kb")
    element(head, "link", rel="stylesheet", href="/static/style.css")
    element(head, "link", rel="icon", href="/static/icon.svg", type="image/svg+xml")
    element(head, "script", src="/static/suggest.js", defer="defer")
    body = element(root, "body")
    header = element(body, "header", "", "site")
    element(header, "a", "rules-kb", "brand", href="/")
    form = element(header, "form", "", "search", action="/aller", method="get", role="search")
    element(form, "label", "Règle, terme, carte ou question", "visually-hidden", **{"for": "q"})
    element(form, "input", "", "", id="q", name="q", type="search", value=query, autocomplete="off",
            placeholder="420.5c, piétinement, ou une question…", maxlength=str(api.MAX_TEXT),
            aria_controls="suggestions")  # fmt: skip
    element(form, "button", "Chercher", type="submit")
    element(header, "ul", "", "suggestions", id="suggestions", role="listbox", hidden="hidden")
    nav = element(header, "nav")
    for label, href in (("Glossaire", "/glossaire"), ("Vérifier", "/verifier"), ("Recherche", "/recherche")):
        element(nav, "a", label, href=href)
    if request is not None:
        said = element(header, "p", "D'après : ", "sources")
        for position, source in enumerate(page_sources(request)):
            if position:
                append_text(said, " · ")
            element(said, "span", source.label, "source")
    main = element(body, "main", id="contenu")
    footer = element(body, "footer")
    element(footer, "p", "Règles complètes de Magic : l'Assemblée, en français. Fonctionne hors ligne.")
    return root, main


def html_response(root, status: int = 200):
    """The HTML response of a page built by :func:`skeleton` (``root``), with ``status``."""
    return Response(serialise(root), status, media_type="text/html; charset=utf-8")


def error_box(main, error: RulesKbError | str) -> None:
    """An error's box in ``main``: « Introuvable » for a 404, else « Erreur », and its French message."""
    box = element(main, "div", "", "error", role="alert")
    element(box, "h1", "Introuvable" if isinstance(error, RulesKbError) and api.status(error) == 404 else "Erreur")
    element(box, "p", api.message(error) if isinstance(error, RulesKbError) else error)


def _error_response(request, title: str, error: RulesKbError, query: str = ""):
    root, main = skeleton(title, query, request)
    error_box(main, error)
    return html_response(root, api.status(error))


def error_page(request, status: int):
    """The page of an HTTP error (an address that does not exist: 404)."""
    root, main = skeleton("Page introuvable", request=request)
    box = element(main, "div", "", "error", role="alert")
    element(box, "h1", "Page introuvable" if status == 404 else f"Erreur {status}")
    element(box, "p", "Cette adresse n'existe pas. Tapez un numéro de règle, un terme ou une question dans la boîte "
            "de recherche, ou revenez à l'accueil.")  # fmt: skip
    element(element(box, "p"), "a", "Accueil", "button", href="/")
    return html_response(root, status)


def node_href(node: str) -> str:
    """The page of a graph node id (``rule:2004:309``, ``glossary:2004:Couche``); ``""``: none."""
    kind, _, rest = node.partition(":")
    edition, _, key = rest.partition(":")
    if kind == "rule":
        return rule_href(key, edition)
    if kind == "glossary":
        return "/definition?" + urlencode({"terme": key})
    if kind in ("card", "ruling"):
        return card_href(key.partition("#")[0])
    return ""


def _linked_text(parent, kb, rule: dict, css_class: str = "rule-text") -> None:
    """The paragraphs of a rule's text, its references (« voir règle 309 ») and
    the first use of each glossary term linked (the rule graph's links:
    :func:`rules_kb.export.excerpt.segment`)."""
    links = text_links(kb.graph, node_id(RecordKind.RULE, rule["edition"], rule["number"]))
    for paragraph in [part for part in rule["text"].split("\n") if part.strip()]:
        node = element(parent, "p", "", css_class)
        for part in segment(paragraph, links, terms=True):
            href = node_href(part.targets[0]) if part.targets else ""
            if href:
                element(node, "a", part.text, "term" if part.kind.name == "TERM" else "ref", href=href)
            else:
                append_text(node, part.text)


def rule_line(parent, rule: dict, tag: str = "li", text_key: str = "text", edition: str = ""):
    """A rule as a line: its number (a link), title, ``edition`` (what it comes
    from, :func:`edition_label`, when given) and text (or excerpt)."""
    item = element(parent, tag, "", "rule-line")
    element(item, "a", rule["number"], "number", href=rule_href(rule["number"], rule.get("edition", "")))
    if rule.get("title"):
        element(item, "strong", " " + rule["title"])
    if edition:
        element(item, "span", f" ({edition})", "edition")
    if rule.get(text_key):
        append_text(item, " — " + rule[text_key])
    return item


def add_section(main, heading: str, css_class: str = ""):
    """A ``<section>`` of ``main`` under an ``<h2>`` ``heading``; returns the section."""
    section = element(main, "section", "", css_class)
    element(section, "h2", heading)
    return section


def _term_details(parent, term: str, definition: str, written: str = ""):
    """A glossary term whose definition opens on tap (``<details>``: no script needed)."""
    details = element(parent, "details", "", "term")
    summary = element(details, "summary", written or term)
    if written and written.casefold() != term.casefold():
        element(summary, "span", f" ({term})", "muted")
    element(details, "p", definition)
    element(details, "a", "Définition complète", href="/definition?" + urlencode({"terme": term}))
    return details


def _links(main, heading: str, links: list[dict]) -> None:
    """A list of graph links (:func:`rules_kb.serialize.link_dict`)."""
    if not links:
        return
    listing = element(add_section(main, heading), "ul", "", "links")
    for link in links:
        item = element(listing, "li")
        if link["kind"] == "rule":
            element(item, "a", link["number"], "number", href=rule_href(link["number"], link.get("edition", "")))
            append_text(item, " " + (link.get("title") or link.get("excerpt") or ""))
        elif link["kind"] == "glossary":
            element(item, "a", link["term"], href="/definition?" + urlencode({"terme": link["term"]}))
            append_text(item, " — " + link.get("definition", ""))
        elif link["kind"] == "ruling":
            element(item, "a", link["card"], href=card_href(link["card"]))
            append_text(item, " — " + link.get("text", ""))
        elif link["kind"] == "card":
            element(item, "a", link["name"], href=card_href(link["name"]))
            append_text(item, f" (FAQ {link.get('faq', '')})")
        else:
            element(item, "a", link.get("title", ""), href="/recherche?" + urlencode({"q": link.get("title", "")}))


def _diff(parent, diff: list[dict]) -> None:
    """A word diff as text with ``<del>`` and ``<ins>``."""
    paragraph = element(parent, "p", "", "diff")
    for part in diff:
        if part["op"] == "equal":
            append_text(paragraph, part["text"] + " ")
        else:
            element(paragraph, "del" if part["op"] == "delete" else "ins", part["text"])
            append_text(paragraph, " ")


# -- the pages -----------------------------------------------------------------------------------


def home(request):
    root, main = skeleton("", request=request)
    element(main, "h1", "Les règles, tout de suite")
    element(main, "p", "Tapez un numéro de règle (420.5c), un terme du glossaire (piétinement, trample), "
            "le nom d'une carte de la FAQ, ou une question en mots de joueur.", "lead")  # fmt: skip
    tries = element(add_section(main, "Essayez"), "ul", "", "tries")
    for example in ("420.5c", "piétinement", "couche", "Guide griffon", "ma 2/2 a pris 2 dégâts, elle meurt ?",
                    "il a trample et je bloque avec une 1/1"):  # fmt: skip
        element(element(tries, "li"), "a", example, "button", href="/aller?" + urlencode({"q": example}))
    return html_response(root)


def go(request):
    """``/aller?q=``: a redirect (303) to :func:`destination`."""
    return RedirectResponse(destination(request.app.state.kb, request.query_params.get("q") or ""), 303)


def rule(request):
    number = request.path_params["number"]
    try:
        edition = api.parameter(request.query_params, operations.EDITION)
        data = api.show(request.app.state.kb, api.parameter(request.path_params, _SHOW.param("number")), edition)
    except RulesKbError as error:
        return _error_response(request, f"Règle {number[:40]}", error, number)
    found = data["rule"]
    root, main = skeleton(f"Règle {found['number']}", found["number"], request)
    if data["context"]:
        trail = element(main, "nav", "", "breadcrumb", aria_label="Contexte")
        for ancestor in data["context"]:
            element(
                trail,
                "a",
                f"{ancestor['number']} {ancestor['title']}".strip(),
                href=rule_href(ancestor["number"], ancestor["edition"]),
            )
            append_text(trail, " › ")
    article = element(main, "article", "", "rule", data_number=found["number"], data_edition=found["edition"])
    heading = element(article, "h1")
    element(heading, "span", found["number"], "number")
    if found["title"]:
        append_text(heading, " " + found["title"])
    element(
        article,
        "p",
        f"{edition_label(request, found['edition'])} (édition {found['edition']}) · "
        f"{found['source']['document']}, ligne {found['source']['line_start']}",
        "muted edition",
    )
    _linked_text(article, request.app.state.kb, found)
    for example in found["examples"]:
        element(article, "p", "Exemple : " + example, "example")
    for note in data["notes"]:
        element(article, "p", note, "note")
    if data["subrules"]:
        listing = element(add_section(main, "Sous-règles"), "ul", "", "subrules")
        for child in data["subrules"]:
            item = element(listing, "li", "", "subrule", id=child["number"])
            element(item, "a", child["number"], "number", href=rule_href(child["number"], child["edition"]))
            if child["title"]:
                element(item, "strong", " " + child["title"])
            _linked_text(item, request.app.state.kb, child)
            for example in child["examples"]:
                element(item, "p", "Exemple : " + example, "example")
    _links(main, "Cite", data.get("cites", []))
    _links(main, "Cité par", data.get("cited_by", []))
    if data.get("terms"):
        section = add_section(main, "Termes du glossaire")
        for term in data["terms"]:
            _term_details(section, term["term"], term["definition"], term.get("written", ""))
    _links(main, "Décisions de la FAQ", data.get("rulings", []))
    _links(main, "Cartes", data.get("cards", []))
    if data.get("counterparts"):
        listing = element(add_section(main, "Autres éditions"), "ul", "", "links")
        for other in data["counterparts"]:
            rule_line(listing, other, edition=edition_label(request, other["edition"]))
    for version in data.get("versions", []):
        section = add_section(main, f"Version {version['edition']} : {edition_label(request, version['edition'])}")
        rule_line(section, version, "p")
        if version.get("diff") or any(child.get("diff") for child in version["subrules"]):
            element(section, "p", "Différences (ancien → nouveau) :", "muted")
            if version.get("diff"):
                _diff(section, version["diff"])
            for child in version["subrules"]:
                if child.get("diff"):
                    element(section, "a", child["number"], "number", href=rule_href(child["number"], child["edition"]))
                    _diff(section, child["diff"])
    return html_response(root)


def definition(request):
    term = (request.query_params.get("terme") or "").strip()
    try:
        data = api.define(request.app.state.kb, api.parameter(request.query_params, _DEFINE.param("term"), "terme"))
    except RulesKbError as error:
        return _error_response(request, "Définition", error, term)
    entry = data["entry"]
    root, main = skeleton(entry["term"], term, request)
    article = element(main, "article", "", "definition")
    element(article, "h1", entry["term"])
    if data["understood"]:
        element(article, "p", f"Compris : {data['understood']}", "muted")
    for paragraph in entry["definition"]:
        element(article, "p", paragraph)
    for example in entry["examples"]:
        element(article, "p", "Exemple : " + example, "example")
    element(article, "p", f"Glossaire, édition {entry['edition']}", "muted")
    if data["cited_rules"]:
        listing = element(add_section(main, "Règles citées"), "ul", "", "links")
        for cited in data["cited_rules"]:
            rule_line(listing, cited)
    _links(main, "Règles qui emploient le terme", data["used_by"])
    if data["alternatives"]:
        listing = element(add_section(main, "Voir aussi"), "ul", "", "links")
        for other in data["alternatives"]:
            name = other if isinstance(other, str) else other.get("term", "")
            element(element(listing, "li"), "a", name, href="/definition?" + urlencode({"terme": name}))
    return html_response(root)


def search_page(request):
    params = request.query_params
    query = (params.get("q") or "").strip()
    root, main = skeleton("Recherche", query, request)
    element(main, "h1", "Recherche")
    if not query:
        element(main, "p", "Tapez des mots dans la boîte de recherche, en haut de la page.")
        return html_response(root)
    try:
        data = api.search(request.app.state.kb, api.parameter(params, _SEARCH.param("query")), api.parameter(params, _PAGE_LIMIT),
                          api.parameter(params, operations.EDITION), api.parameter(params, _SEARCH.param("kinds"), "type"))  # fmt: skip
    except RulesKbError as error:
        error_box(main, error)
        return html_response(root, api.status(error))
    if data["understood"]:
        element(main, "p", "Compris : " + ", ".join(data["understood"]), "muted")
    if not data["hits"]:
        element(main, "p", f"Aucun résultat pour « {query} ».")
    listing = element(main, "ol", "", "hits")
    for hit in data["hits"]:
        item = element(listing, "li", "", f"hit hit-{hit['kind']}")
        element(item, "a", hit["title"] or hit["id"], href=hit_href(hit))
        element(item, "span", f" {_KINDS.get(hit['kind'], hit['kind'])}", "muted")
        element(item, "p", hit["snippet"])
    return html_response(root)


_KINDS = {"rule": "règle", "glossary": "glossaire", "card": "carte", "ruling": "décision", "faq-section": "FAQ",
          "course": "cours"}  # fmt: skip


def question(request):
    query = (request.query_params.get("q") or "").strip()
    root, main = skeleton("Question", query, request)
    element(main, "h1", "Question")
    if not query:
        element(main, "p", "Décrivez la situation en mots de joueur dans la boîte de recherche.")
        return html_response(root)
    try:
        params = request.query_params
        asked = (api.parameter(params, _ASK.param("question")), api.parameter(params, _ASK.param("limit")),
                 api.parameter(params, operations.EDITION))  # fmt: skip
        with api.LOCK:  # one question at a time, as the API asks them
            answer = answer_question(request.app.state.kb, asked[0], limit=asked[1], edition=asked[2])
    except RulesKbError as error:
        error_box(main, error)
        return html_response(root, api.status(error))
    element(main, "p", f"« {answer.question} »", "question")
    for note in answer.notes:
        element(main, "p", note, "note")
    if answer.remarks:
        element(main, "p", "Compris : " + " ; ".join(remark.meaning for remark in answer.remarks), "muted")
    verification = answer.verification
    if verification.verdicts:  # the facts missing first, then what applies, what does not, what it assumes
        box = element(add_section(main, "Verdict du vérificateur", "verdict"), "ul")
        for verdict in verification.verdicts:
            element(box, "li", verdict.text)
        if verification.note:
            element(box, "li", verification.note)
    if answer.unknown:
        element(main, "p", "Aucune règle ne correspond vraiment à la question ; voici les plus proches.", "note")
    if answer.rules:
        listing = element(add_section(main, "Règles"), "ol", "", "rules")
        for found in answer.rules:
            item = rule_line(listing, found._asdict(), text_key="snippet")
            if found.why:
                element(item, "p", found.why, "muted")
    if answer.glossary:
        listing = element(add_section(main, "Glossaire"), "ul", "", "links")
        for entry in answer.glossary:
            element(element(listing, "li"), "a", entry.term, href="/definition?" + urlencode({"terme": entry.term}))
    if answer.rulings:
        listing = element(add_section(main, "Décisions de la FAQ"), "ul", "", "links")
        for ruling in answer.rulings:
            item = element(listing, "li")
            card = ruling.card  # "" for a ruling of a section of the FAQ
            if card:
                element(item, "a", card, href=card_href(card))
            append_text(item, (" — " if card else "") + ruling.text)
    return html_response(root)


def glossary(request):
    kb = request.app.state.kb
    entries = sorted({(entry.term, entry.edition): entry for entry in kb.records(RecordKind.GLOSSARY)}.values(),
                     key=lambda entry: (_folded(entry.term), entry.edition))  # fmt: skip
    by_letter: dict[str, list] = {}
    for entry in entries:
        letter = (_folded(entry.term)[:1] or "#").upper()
        by_letter.setdefault(letter if letter.isalpha() else "#", []).append(entry)
    root, main = skeleton("Glossaire", request=request)
    element(main, "h1", "Glossaire de A à Z")
    letters = element(main, "nav", "", "letters", aria_label="Lettres")
    for letter in by_letter:
        element(letters, "a", letter, href=f"#lettre-{letter}")
    for letter, group in by_letter.items():
        section = element(main, "section", "", "letter", id=f"lettre-{letter}")
        element(section, "h2", letter)
        listing = element(section, "ul", "", "glossary")
        for entry in group:
            item = element(listing, "li")
            element(item, "a", entry.term, href="/definition?" + urlencode({"terme": entry.term}))
            element(item, "span", f" {entry.edition}", "muted")
    return html_response(root)


def routes() -> list:
    """The pages' Starlette routes (and the mount of ``static/``)."""
    return [
        Route("/", home),
        Route("/aller", go),
        Route("/regle/{number:path}", rule),
        Route("/definition", definition),
        Route("/recherche", search_page),
        Route("/question", question),
        Route("/glossaire", glossary),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
