"""The verifier of ``rules-kb serve``: ``/verifier`` builds a scenario by
tapping, or reads one in TOML, and checks it.

- ``GET /verifier``: the board's forms (``?exemple=`` fills them with a
  bundled example, or the expert mode's TOML when the forms cannot describe it);
- ``POST /verifier``: the form submitted; its ``action`` button says what to
  do: ``add-player``, ``add-permanent``, ``add-effect``, ``remove-<section>-<n>``,
  ``clear`` (the board edited and shown again), ``check`` (the board, or the
  TOML when it is the page's source, checked), ``check-toml`` (the expert
  mode's TOML checked, and shown as forms when they can describe it); no
  action: the TOML of the ``scenario`` field, as before the forms;
- ``POST /verifier/scenario.toml``: the same form, answered with its
  scenario as a ``.toml`` file (``Content-Disposition: attachment``), the
  one ``check`` reads; ``GET /verifier/scenario.toml?exemple=``: a bundled
  example's file;
- ``POST /verifier/fichier``: a ``.toml`` file sent (``multipart/form-data``),
  checked and shown as forms when they can describe it.

The board is library code (:mod:`rules_kb.checker.board`: the forms'
fields, the catalogue of effects, board ↔ scenario); this module only reads
the form and renders. Everything works without JavaScript (the board's
state travels in the form's fields; CSS's ``:has`` shows the parameters of
the effect chosen); ``static/verifier.js`` adds rows without a round trip
and copies the TOML, ``static/verifier.css`` lays the forms out for a
phone. The result names every object by its name and says every zone,
type and action in French (the ``--json`` shapes of ``check``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from urllib.parse import parse_qs, urlencode

from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException
from starlette.responses import Response
from starlette.routing import Route

from rules_kb import operations
from rules_kb.checker import board as boards
from rules_kb.checker.board import Board, BoardError, EffectRow, PermanentRow, PlayerRow
from rules_kb.checker.editions import EDITIONS
from rules_kb.checker.report import examples
from rules_kb.checker.scenario import ScenarioError, parse_scenario
from rules_kb.checker.scenario_writer import scenario_to_toml
from rules_kb.core.errors import RulesKbError
from rules_kb.core.text import fold, shortened
from rules_kb.serve import api
from rules_kb.serve.pages import (
    add_section,
    append_text,
    clean,
    element,
    html_response,
    rule_href,
    rule_line,
    skeleton,
)

#: The comment at the head of a scenario built by tapping.
COMMENT = "Scénario construit sur la page « Vérifier » de rules-kb serve."
#: The most fields a submitted form may hold (a permanent has 25).
MAX_FIELDS = 30_000
#: The French names of the sections, as the page's anchors and headings say them.
_SECTIONS = {"player": ("joueurs", "Joueurs"), "permanent": ("permanents", "Permanents"),
             "effect": ("effets", "Effets continus")}  # fmt: skip
_ROW_NAMES = {"player": "Joueur", "permanent": "Permanent", "effect": "Effet"}
_ADD_LABELS = {"player": "Ajouter un joueur", "permanent": "Ajouter un permanent", "effect": "Ajouter un effet"}
_ACTION_RE = re.compile(r"^remove-(player|permanent|effect)-(\d{1,4})$")


class _FormError(RulesKbError):
    """A form the page cannot read (not UTF-8, too many fields, no file sent)."""


@dataclass(frozen=True, slots=True)
class _View:
    """What the page shows: the ``board``, the expert mode's ``text``, which
    of the two is the page's ``source`` (``"board"`` or ``"toml"``), the
    ``edition`` chosen, the user's mistake, the ``report`` of a check
    (``check --json``'s shape) and the TOML checked, and what of a scenario
    read the forms cannot describe (``missing``)."""

    board: Board
    text: str = ""
    source: str = "board"
    edition: str = ""
    problem: RulesKbError | None = None
    report: dict | None = None
    checked: str = ""
    missing: tuple[str, ...] = ()


# -- the routes -----------------------------------------------------------------------------------


def check_page(request):
    """``GET /verifier``: the forms (``?exemple=`` fills them with a bundled example)."""
    view = _View(boards.new_board())
    name = (request.query_params.get("exemple") or "").strip()
    if name:
        try:
            view = _read_text(view, api.example(name)["text"])
        except RulesKbError as error:
            view = replace(view, problem=error)
    return _page(request, view)


async def check_post(request):
    """``POST /verifier``: the form's button done (see the module docstring)."""
    try:
        form = _form(await request.body())
        view = _View(boards.read_form(form), _first(form, "scenario"), _first(form, "source") or "board")
        view = replace(view, edition=view.board.edition)
    except RulesKbError as error:
        return _page(request, _View(boards.new_board(), problem=error))
    action = _first(form, "action")
    board = view.board
    if action in ("add-player", "add-permanent", "add-effect"):
        adding = {"add-player": boards.add_player, "add-permanent": boards.add_permanent,
                  "add-effect": boards.add_effect}[action]  # fmt: skip
        return _page(request, replace(view, board=adding(board)))
    if removed := _ACTION_RE.match(action):
        section, index = removed.group(1), int(removed.group(2))
        removing = {"player": boards.remove_player, "permanent": boards.remove_permanent,
                    "effect": boards.remove_effect}[section]  # fmt: skip
        return _page(request, replace(view, board=removing(board, index)))
    if action == "clear":
        return _page(request, _View(boards.new_board()))
    if action == "check-toml" or (action == "check" and view.source == "toml") or (not action and view.text.strip()):
        return _page(request, await _check_text(request, view, form))
    return _page(request, await _check_board(request, view))


async def download(request):
    """``POST /verifier/scenario.toml``: the form's scenario as a ``.toml`` file;
    ``GET`` with ``?exemple=``: a bundled example's file."""
    if request.method == "GET":
        name = (request.query_params.get("exemple") or "").strip()
        try:
            if not name:
                raise _FormError("Dites quel exemple télécharger : /verifier/scenario.toml?exemple=NOM.")
            found = api.example(name)
        except RulesKbError as error:
            return _page(request, _View(boards.new_board(), problem=error))
        return _file(found["text"], found["name"])
    try:
        form = _form(await request.body())
        view = _View(boards.read_form(form), _first(form, "scenario"), _first(form, "source") or "board")
    except RulesKbError as error:
        return _page(request, _View(boards.new_board(), problem=error))
    if _first(form, "action") == "download-toml" or view.source == "toml":
        try:
            scenario = parse_scenario(api.scenario_text(view.text.encode("utf-8")), "scénario envoyé")
        except RulesKbError as error:
            return _page(request, replace(view, problem=error))
        return _file(view.text, scenario.title)
    try:
        scenario = boards.board_scenario(view.board)
    except RulesKbError as error:
        return _page(request, replace(view, problem=error))
    return _file(scenario_to_toml(scenario, COMMENT), scenario.title)


async def upload(request):
    """``POST /verifier/fichier``: a ``.toml`` file sent, checked and shown as forms when they can describe it."""
    view = _View(boards.new_board())
    try:
        form = await request.form(max_files=1, max_fields=10)
        sent = form.get("fichier")
        if sent is None or isinstance(sent, str) or not sent.filename:
            raise _FormError("Choisissez un fichier de scénario (.toml) à ouvrir.")
        data = await sent.read()
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise _FormError("Le fichier n'est pas en UTF-8 : enregistrez-le en UTF-8 et réessayez.") from None
    except RulesKbError as error:
        return _page(request, replace(view, problem=error))
    except (HTTPException, MultiPartException):  # a body that is not multipart/form-data
        return _page(request, replace(view, problem=_FormError("Envoyez le fichier avec le bouton « Ouvrir ».")))
    return _page(request, await _check_text(request, replace(view, text=text), {}))


def routes() -> list:
    """The verifier's Starlette routes."""
    return [
        Route("/verifier", check_page, methods=["GET"]),
        Route("/verifier", check_post, methods=["POST"]),
        Route("/verifier/scenario.toml", download, methods=["GET", "POST"]),
        Route("/verifier/fichier", upload, methods=["POST"]),
    ]


# -- reading the form ------------------------------------------------------------------------------


def _form(body: bytes) -> dict[str, list[str]]:
    """A submitted form's fields; raises :class:`_FormError` (not UTF-8, too many fields)."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _FormError(f"Le formulaire n'est pas en UTF-8 (octet {error.start + 1}).") from None
    try:
        return parse_qs(text, keep_blank_values=True, max_num_fields=MAX_FIELDS)
    except ValueError:
        raise _FormError(f"Formulaire trop grand : au plus {MAX_FIELDS} champs.") from None


def _first(form: dict[str, list[str]], name: str) -> str:
    values = form.get(name) or [""]
    return values[0]


def _read_text(view: _View, text: str) -> _View:
    """``view`` showing the scenario ``text``: as forms when they describe it
    all, else in the expert mode with what they miss; raises :class:`ScenarioError`."""
    reading = boards.board_from_scenario(parse_scenario(text, "scénario envoyé"))
    if reading.complete:
        return replace(view, board=reading.board, text=text, source="board", edition=reading.board.edition,
                       missing=())  # fmt: skip
    return replace(view, text=text, source="toml", missing=reading.missing)


async def _check_text(request, view: _View, form: dict[str, list[str]]) -> _View:
    """``view`` with its TOML checked (``edition`` of the form overriding the file's)."""
    try:
        edition = api.parameter({name: values[0] for name, values in form.items()}, operations.EDITION)
        text = api.scenario_text(view.text.encode("utf-8"))
        report = await request.app.state.check_queue.run(api.check, request.app.state.kb, text, edition)
    except RulesKbError as error:
        return replace(view, problem=error)
    return replace(_read_text(view, text), report=report, checked=text)


async def _check_board(request, view: _View) -> _View:
    """``view`` with its board checked: built, written as TOML, checked as a file is."""
    try:
        scenario = boards.board_scenario(view.board)
        text = scenario_to_toml(scenario, COMMENT)
        report = await request.app.state.check_queue.run(api.check, request.app.state.kb, text)
    except RulesKbError as error:
        return replace(view, problem=error, source="board")
    return replace(view, text=text, source="board", report=report, checked=text)


def _file(text: str, title: str) -> Response:
    """A scenario's TOML as a file to save (``<title>.toml``)."""
    name = re.sub(r"[^a-z0-9]+", "-", fold(title)).strip("-")[:60] or "scenario"
    return Response(
        text.encode("utf-8"),
        media_type="application/toml; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}.toml"'},
    )


# -- the page --------------------------------------------------------------------------------------


def _page(request, view: _View):
    root, main = skeleton("Vérifier un scénario", request=request)
    head = root.find("head")
    element(head, "link", rel="stylesheet", href="/static/verifier.css")
    element(head, "script", src="/static/verifier.js", defer="defer")
    element(main, "h1", "Vérifier un scénario")
    element(
        main,
        "p",
        "Décrivez la situation en touchant : les joueurs, les permanents, les effets continus (dans l'ordre où "
        "ils sont arrivés : c'est leur horodatage), puis « Vérifier ».",
        "lead",
    )
    invalid = _problems(main, view.problem)
    if view.missing:
        note = element(main, "div", "", "note", role="status")
        element(
            note,
            "p",
            "Les formulaires ne savent pas décrire tout ce scénario ("
            + " ; ".join(view.missing)
            + ") : il est dans le mode expert, en TOML, à modifier là.",
        )
    if view.report is not None:
        _report(main, view.report, view.checked, view.source)
    _form_page(main, view, invalid)
    _upload_form(main)
    listing = element(add_section(main, "Exemples pour commencer"), "ul", "", "examples")
    for example in examples():
        item = element(listing, "li")
        element(item, "a", example.title, href="/verifier?" + urlencode({"exemple": example.name}))
        element(item, "span", f" ({example.name})", "muted")
    if view.source == "board":
        _templates(main, view.board)
    return html_response(root, api.status(view.problem) if view.problem is not None else 200)


def _problems(main, problem: RulesKbError | None) -> dict[str, str]:
    """The error box; returns the message of each form field at fault."""
    if problem is None:
        return {}
    invalid: dict[str, str] = {}
    box = element(main, "div", "", "error", role="alert", id="erreurs")
    if isinstance(problem, BoardError):
        problems = problem.problems
        element(box, "h2", "À corriger")
        listing = element(box, "ul", "", "problems")
        for each in problems:
            item = element(listing, "li")
            if each.field:
                invalid.setdefault(each.field, each.detail)
                element(item, "a", str(each), href=f"#{each.field}")
            else:
                append_text(item, str(each))
        return invalid
    element(box, "h2", "Introuvable" if api.status(problem) == 404 else "Erreur")
    element(box, "p", api.message(problem))
    problems = getattr(problem, "problems", ())
    if isinstance(problem, ScenarioError) and len(problems) > 1:
        listing = element(box, "ul", "", "problems")
        for each in problems:
            element(listing, "li", (f"ligne {each.line} : " if each.line else "") + each.detail)
    return invalid


def _attributes(node, **attributes: str) -> None:
    """Set ``attributes`` on ``node``, empty values included (``value=""``), as typed (:func:`clean`)."""
    for name, value in attributes.items():
        node.set(name.replace("_", "-"), clean(value))


def _field(parent, label: str, name: str, invalid: dict[str, str], css: str = "field"):
    """A labelled field's box (``<div>``): the label, then its message when it is at fault."""
    box = element(parent, "div", "", css + (" invalid" if name in invalid else ""))
    element(box, "label", label, **{"for": name})
    return box


def _error(box, name: str, control, invalid: dict[str, str]) -> None:
    if name in invalid:
        _attributes(control, aria_invalid="true", aria_describedby=f"{name}-erreur")
        element(box, "p", invalid[name], "field-error", id=f"{name}-erreur")


def _input(parent, label: str, name: str, value: str, invalid, kind: str = "text", css: str = "field", **more):
    box = _field(parent, label, name, invalid, css)
    control = element(box, "input", "", "", id=name, name=name, type=kind, **more)
    _attributes(control, value=value)
    if kind == "number":
        _attributes(control, inputmode="numeric", step="1")
    _error(box, name, control, invalid)
    return box


def _textarea(parent, label: str, name: str, value: str, invalid, css: str = "field wide", **more):
    box = _field(parent, label, name, invalid, css)
    control = element(box, "textarea", value, "", id=name, name=name, rows="2", **more)
    _error(box, name, control, invalid)
    return box


def _options(parent, choices, value: str) -> None:
    """``(value, label)`` options under ``parent``, ``value`` selected."""
    for key, label, *classes in choices:
        option = element(parent, "option", label, classes[0] if classes else "")
        _attributes(option, value=key)
        if key == value:
            _attributes(option, selected="selected")


def _select(parent, label: str, name: str, value: str, choices, invalid, css: str = "field", **more):
    """A ``<select>``; a ``value`` among none of ``choices`` is kept as an option of its own."""
    box = _field(parent, label, name, invalid, css)
    control = element(box, "select", "", "", id=name, name=name, **more)
    _options(control, choices, value)
    if value and value not in {choice[0] for choice in choices}:
        _options(control, [(value, f"{value} (n'est plus sur le plateau)")], value)
    _error(box, name, control, invalid)
    return box, control


def _grouped(parent, label: str, name: str, value: str, invalid, css: str, groups) -> None:
    """A ``<select>`` of ``(label, data-list, choices)`` groups (no label: options
    of their own); a ``value`` among none of them is kept as an option of its own."""
    box = _field(parent, label, name, invalid, css)
    control = element(box, "select", "", "", id=name, name=name)
    for heading, listed, choices in groups:
        holder = control
        if heading:
            holder = element(control, "optgroup", "", data_list=listed)
            _attributes(holder, label=heading)
        _options(holder, choices, value)
    if value and value not in {key for _, _, choices in groups for key, *_ in choices}:
        _options(control, [(value, f"{value} (n'est plus sur le plateau)")], value)
    _error(box, name, control, invalid)


def _checks(parent, legend: str, name: str, values, checked, invalid, css: str = "choices wide"):
    """Check boxes: one field ``name`` sent once per box ticked."""
    box = element(parent, "fieldset", "", css + (" invalid" if name in invalid else ""), id=name)
    element(box, "legend", legend)
    for number, (value, label) in enumerate(values):
        item = element(box, "label", "", "choice")
        control = element(item, "input", "", "", type="checkbox", name=name, id=f"{name}-{number}")
        _attributes(control, value=value)
        if value in checked:
            _attributes(control, checked="checked")
        append_text(item, label)
    if name in invalid:
        element(box, "p", invalid[name], "field-error")
    return box


def _flag(parent, label: str, name: str, checked: bool) -> None:
    item = element(parent, "label", "", "choice")
    control = element(item, "input", "", "", type="checkbox", name=name, id=name, value="on")
    if checked:
        _attributes(control, checked="checked")
    append_text(item, label)


def _form_page(main, view: _View, invalid: dict[str, str]) -> None:
    """The form: the board (or, when the TOML is the source, a way back to
    a blank board), the title and edition, the expert mode."""
    form = element(main, "form", "", "check", action="/verifier", method="post", id="plateau")
    actions = element(form, "div", "", "actions")  # first: Enter in a field checks (order: shown last)
    element(actions, "button", "Vérifier", "primary", type="submit", name="action", value="check")
    element(actions, "button", "Télécharger (.toml)", "secondary", type="submit", name="action",
            value="download", formaction="/verifier/scenario.toml")  # fmt: skip
    source = element(form, "input", "", "", type="hidden", name="source")
    _attributes(source, value=view.source)
    board = view.board
    if view.source == "board":
        _players(form, board, invalid)
        _permanents(form, board, invalid)
        _effects(form, board, invalid)
    else:
        box = element(form, "div", "", "toml-only")
        element(box, "p", "Le scénario se modifie dans le mode expert ci-dessous ; « Vérifier » vérifie ce TOML.")
        element(box, "button", "Repartir d'un plateau vide", "secondary", type="submit", name="action", value="clear")
    settings = element(form, "details", "", "settings")
    if "title" in invalid or "edition" in invalid:
        _attributes(settings, open="open")
    element(settings, "summary", "Titre et édition")
    fields = element(settings, "div", "", "fields")
    if view.source == "board":
        _input(fields, "Titre (facultatif)", "title", board.title, invalid, css="field wide")
    editions = [("", "la plus récente du corpus")] + [(key, edition.name) for key, edition in EDITIONS.items()]
    _select(fields, "Édition des règles", "edition", view.edition, editions, invalid, css="field wide")
    expert = element(form, "details", "", "expert", id="expert")
    if view.source == "toml" or (view.problem is not None and not isinstance(view.problem, BoardError)):
        _attributes(expert, open="open")
    element(expert, "summary", "Mode expert : scénario TOML")
    element(expert, "p", "Le format des scénarios (docs/reference/scenarios.md) ; les formulaires l'écrivent ici "
            "après « Vérifier ».", "muted")  # fmt: skip
    element(expert, "label", "Scénario (TOML)", **{"for": "scenario"})
    element(expert, "textarea", view.text, "", id="scenario", name="scenario", rows="16", spellcheck="false")
    buttons = element(expert, "div", "", "buttons")
    element(buttons, "button", "Vérifier ce TOML", "secondary", type="submit", name="action", value="check-toml")
    element(buttons, "button", "Télécharger ce TOML", "secondary", type="submit", name="action",
            value="download-toml", formaction="/verifier/scenario.toml")  # fmt: skip


def _upload_form(main) -> None:
    form = element(main, "form", "", "upload", action="/verifier/fichier", method="post",
                   enctype="multipart/form-data")  # fmt: skip
    element(form, "label", "Ouvrir un fichier de scénario (.toml)", **{"for": "fichier"})
    element(
        form, "input", "", "", type="file", id="fichier", name="fichier", accept=".toml,text/plain,application/toml"
    )
    element(form, "button", "Ouvrir et vérifier", "secondary", type="submit")


def _ordinal(index: int | str) -> str:
    """A row's number as shown (``index`` + 1; a template's placeholder ``__m__``)."""
    return str(index + 1) if isinstance(index, int) else "__m__"


def _row(parent, section: str, index: int | str, label: str):
    """A row's box with its head: its name and « Retirer »."""
    row = element(parent, "div", "", f"row {section}", id=f"{section}-{index}", data_section=section,
                  data_index=str(index))  # fmt: skip
    head = element(row, "div", "", "row-head")
    element(head, "strong", label, "row-title")
    element(head, "button", "Retirer", "remove", type="submit", name="action", value=f"remove-{section}-{index}",
            formaction=f"/verifier#{_SECTIONS[section][0]}", aria_label=f"Retirer : {label}")  # fmt: skip
    return row


def _referenced_row(holder, section: str, index: int, label: str, ref: str):
    """A row of a permanent or an effect (:func:`_row`) with its hidden ``ref``; returns the row's
    box, the function naming its fields (``key`` → form name) and the box its first fields go in."""
    box = _row(holder, section, index, label)
    name = lambda key: boards.field_name(section, index, key)
    _attributes(element(box, "input", "", "", type="hidden", name=name("ref"), data_ref=section), value=ref)
    return box, name, element(box, "div", "", "fields")


def _add_button(fieldset, section: str, count: int) -> None:
    element(fieldset, "button", _ADD_LABELS[section], "add", type="submit", name="action", value=f"add-{section}",
            formaction=f"/verifier#{section}-{count}", data_add=section)  # fmt: skip


def _rows(form, board: Board, invalid, section: str, rows, row_builder, note: str = "") -> None:
    """A section of the board (``section``: player, permanent, effect): its fieldset and legend,
    ``note`` under it, a row per item of ``rows`` (``row_builder(holder, board, index, row, invalid)``)
    and its « Ajouter » button."""
    fieldset = element(form, "fieldset", "", f"rows {section}s", id=_SECTIONS[section][0])
    element(fieldset, "legend", _SECTIONS[section][1])
    if note:
        element(fieldset, "p", note, "muted")
    holder = element(fieldset, "div", "", "holder", data_rows=section)
    for index, row in enumerate(rows):
        row_builder(holder, board, index, row, invalid)
    _add_button(fieldset, section, len(rows))


def _players(form, board: Board, invalid) -> None:
    _rows(form, board, invalid, "player", board.players, _player_row)


def _player_row(holder, board: Board, index: int, player: PlayerRow, invalid) -> None:
    row = _row(holder, "player", index, f"Joueur n°{_ordinal(index)}")
    fields = element(row, "div", "", "fields")
    labels = boards.FIELD_LABELS["player"]
    name = boards.field_name
    _input(fields, "Nom", name("player", index, "name"), player.name, invalid, css="field wide", autocomplete="off",
           data_name="player")  # fmt: skip
    _input(fields, "Points de vie", name("player", index, "life"), player.life, invalid, "number")
    _input(fields, "Marqueurs poison", name("player", index, "poison"), player.poison, invalid, "number", min="0")
    flags = element(fields, "div", "", "choices wide")
    _flag(flags, labels["drew"].capitalize() + " depuis la dernière vérification (420.5g)",
          name("player", index, "drew"), player.drew)  # fmt: skip


def _player_choices(board: Board) -> list[tuple[str, str]]:
    return [(player.name, player.name) for player in board.players if player.name.strip()]


def _permanent_choices(board: Board) -> list[tuple[str, str]]:
    """The permanents an effect may aim at or an aura be attached to: the
    permanent rows and the cards of the catalogue put in play."""
    found = [(row.ref, boards.permanent_label(row, index)) for index, row in enumerate(board.permanents)]
    for row in board.effects:
        if boards._puts_card(row):
            found.append((row.ref, boards.CATALOGUE[row.kind.strip()].card.name))
    return found


def _permanents(form, board: Board, invalid) -> None:
    _rows(form, board, invalid, "permanent", board.permanents, _permanent_row)


def _permanent_row(holder, board: Board, index: int, row: PermanentRow, invalid) -> None:
    box, name, fields = _referenced_row(holder, "permanent", index, f"Permanent n°{_ordinal(index)}", row.ref)
    _input(fields, "Nom", name("name"), row.name, invalid, css="field wide", autocomplete="off",
           placeholder="Ours runegriffe", data_name="permanent")  # fmt: skip
    players = _player_choices(board)
    _select(fields, "Contrôleur", name("controller"), row.controller, players, invalid, css="field wide",
            data_list="players")  # fmt: skip
    _checks(fields, "Types", name("card_types"), [(value, value) for value in boards.CARD_TYPE_VALUES],
            row.card_types, invalid)  # fmt: skip
    _input(fields, "Force", name("power"), row.power, invalid, "number")
    _input(fields, "Endurance", name("toughness"), row.toughness, invalid, "number")
    _input(fields, "Blessures", name("damage"), row.damage, invalid, "number", min="0")
    more = element(box, "details", "", "more")
    extra = [key for key in boards.PERMANENT_FIELDS if key not in ("ref", "name", "controller", "card_types", "power",
                                                                   "toughness", "damage", "timestamp")]  # fmt: skip
    if any(getattr(row, key) for key in extra) or any(name(key) in invalid for key in (*extra, "timestamp")):
        _attributes(more, open="open")
    element(more, "summary", "Plus : sous-types, couleurs, capacités, marqueurs, aura, équipement…")
    fields = element(more, "div", "", "fields")
    _input(fields, "Sous-types (séparés par des virgules)", name("subtypes"), row.subtypes, invalid,
           css="field wide", placeholder="ours, guerrier")  # fmt: skip
    _checks(fields, "Sur-types", name("supertypes"), [(value, value) for value in boards.SUPERTYPE_VALUES],
            row.supertypes, invalid)  # fmt: skip
    _checks(fields, "Couleurs", name("colors"), [(value, value) for value in boards.COLOR_VALUES], row.colors,
            invalid)  # fmt: skip
    _textarea(fields, "Capacités (une par ligne ; des mots-clés : séparés par des virgules)", name("abilities"),
              row.abilities, invalid, placeholder="vol, piétinement")  # fmt: skip
    _input(fields, "Coût converti de mana", name("mana_value"), row.mana_value, invalid, "number", min="0")
    _input(fields, "Marqueurs +1/+1", name("plus_counters"), row.plus_counters, invalid, "number", min="0")
    _input(fields, "Marqueurs -1/-1", name("minus_counters"), row.minus_counters, invalid, "number", min="0")
    _input(fields, "Autres marqueurs (nom : nombre)", name("counters"), row.counters, invalid, css="field wide",
           placeholder="+1/+0 : 1, temps : 3")  # fmt: skip
    roles = list(boards.ROLES.items())
    _select(fields, "Aura ou équipement", name("role"), row.role, roles, invalid, css="field wide")
    _grouped(fields, "Attaché à (enchante, équipe)", name("attached_to"), row.attached_to, invalid, "field wide", [
        ("", "", [("", "rien")]),
        ("Un permanent", "permanents", [choice for choice in _permanent_choices(board) if choice[0] != row.ref]),
        ("Un joueur", "attach-players", [(boards.PLAYER_PREFIX + player, player) for player, _ in players]),
    ])  # fmt: skip
    _input(fields, "« Enchanter : » (vide : tout permanent)", name("enchant"), row.enchant, invalid,
           css="field wide", placeholder="créature")  # fmt: skip
    flags = element(fields, "fieldset", "", "choices wide")
    element(flags, "legend", "État")
    for key, label in (("token", "jeton"), ("copy", "copie d'une carte"), ("tapped", "engagé")):
        _flag(flags, label, name(key), getattr(row, key))
    _input(fields, "Régénérations prêtes", name("regeneration"), row.regeneration, invalid, "number", min="0")
    zones = [("", "en jeu")] + [(zone, zone) for zone in boards.ZONE_VALUES]
    _select(fields, "Zone", name("zone"), row.zone, zones, invalid)
    _input(fields, "Horodatage (ordre d'arrivée)", name("timestamp"), row.timestamp, invalid, "number",
           data_timestamp="1")  # fmt: skip
    _input(fields, "En jeu tel quel depuis (légendes, monde)", name("since"), row.since, invalid, "number")


def _effects(form, board: Board, invalid) -> None:
    note = (
        "Un sort ou une capacité résolus s'appliquent au permanent choisi (418.3b) ; une capacité statique d'un "
        "permanent, à lui-même, à ce qu'il enchante ou équipe, ou à un groupe (418.4a). Une carte de la liste sans "
        "source est mise en jeu."
    )
    _rows(form, board, invalid, "effect", board.effects, _effect_row, note)


def _kind_choices(select, value: str) -> None:
    """The catalogue, grouped: the effects, then the cards; each option's
    classes name the parameters it reads (``uses-power``…), for the CSS."""
    _options(select, [("", "— choisir un effet —")], value)
    for label, cards in (("Effets", False), ("Cartes (leur capacité statique)", True)):
        group = element(select, "optgroup", "")
        _attributes(group, label=label)
        for kind in boards.CATALOGUE.values():
            if (kind.card is not None) != cards:
                continue
            uses = ["uses-source"] + [f"uses-{param}" for param in kind.params]
            uses += ["uses-target"] * (kind.card is None) + ["uses-card"] * (kind.card is not None)
            _options(group, [(kind.key, kind.label, " ".join(uses))], value)
            if kind.card is not None:
                _attributes(group[-1], data_card=kind.card.name)


def _effect_row(holder, board: Board, index: int, row: EffectRow, invalid) -> None:
    box, name, fields = _referenced_row(holder, "effect", index, f"Effet n°{_ordinal(index)}", row.ref)
    kind_box = _field(fields, "Effet", name("kind"), invalid, "field wide")
    kind = element(kind_box, "select", "", "kind", id=name("kind"), name=name("kind"))
    _kind_choices(kind, row.kind)
    _error(kind_box, name("kind"), kind, invalid)
    permanents = [(ref, label) for ref, label in _permanent_choices(board) if ref != row.ref]
    sources = [(permanent.ref, boards.permanent_label(permanent, number))
               for number, permanent in enumerate(board.permanents)]  # fmt: skip
    _grouped(fields, "Source", name("source"), row.source, invalid, "field wide param p-source", [
        ("", "", [("", "aucune : effet résolu, ou la carte en jeu")]),
        ("Capacité statique de", "sources", sources),
    ])  # fmt: skip
    _grouped(fields, "S'applique à", name("target"), row.target, invalid, "field wide param p-target", [
        ("", "", [("", "— choisir —")]),
        ("Un permanent (sort ou capacité résolus)", "targets", permanents),
        ("Capacité statique : ce à quoi elle s'applique", "", [(key, t.label) for key, t in boards.TARGETS.items()]),
    ])  # fmt: skip
    _input(fields, "Force (N)", name("power"), row.power, invalid, "number", css="field param p-power")
    _input(fields, "Endurance (N)", name("toughness"), row.toughness, invalid, "number", css="field param p-toughness")
    colors = [(value, value) for value in boards.COLOR_VALUES] + [(boards.COLORLESS, boards.COLORLESS)]
    _select(fields, "Nouvelle couleur", name("color"), row.color, colors, invalid, css="field param p-color")
    types = [("", "—")] + [(value, value) for value in boards.CARD_TYPE_VALUES]
    _select(fields, "Type de carte", name("card_type"), row.card_type, types, invalid, css="field param p-card_type")
    _input(fields, "Sous-type", name("subtype"), row.subtype, invalid, css="field param p-subtype",
           placeholder="montagne, elfe")  # fmt: skip
    _input(fields, "Capacité", name("ability"), row.ability, invalid, css="field wide param p-ability",
           placeholder="vol")  # fmt: skip
    players = _player_choices(board)
    _grouped(fields, "Joueur qui en prend le contrôle", name("player"), row.player, invalid,
             "field wide param p-player", [("Joueurs", "players", players),
                                           ("", "", [(boards.YOU, "vous (le contrôleur de la source)")])])  # fmt: skip
    _input(fields, "Mot remplacé", name("old_word"), row.old_word, invalid, css="field param p-old_word",
           placeholder="blanc")  # fmt: skip
    _input(fields, "Remplacé par", name("new_word"), row.new_word, invalid, css="field param p-new_word",
           placeholder="noir")  # fmt: skip
    _select(fields, "Contrôleur de la carte", name("controller"), row.controller, players, invalid,
            css="field wide param p-controller", data_list="players")  # fmt: skip
    more = element(box, "details", "", "more")
    if row.text or name("text") in invalid or name("timestamp") in invalid:
        _attributes(more, open="open")
    element(more, "summary", "Plus : texte, horodatage")
    fields = element(more, "div", "", "fields")
    _textarea(fields, "Texte (vide : écrit d'après l'effet)", name("text"), row.text, invalid,
              placeholder=boards.effect_text(row, board) or "")  # fmt: skip
    _input(fields, "Horodatage (ordre d'arrivée ; une capacité statique : celui de son permanent)", name("timestamp"),
           row.timestamp, invalid, "number", css="field wide", data_timestamp="1")  # fmt: skip


def _templates(main, board: Board) -> None:
    """A blank row of each section, for ``verifier.js`` to add rows without a
    round trip: ``__n__`` stands for its number in the fields' names,
    ``__m__`` for the one shown; its timestamp and ref are set when added."""
    probe = boards.add_effect(boards.add_permanent(boards.add_player(board)))
    for section, render, row in (
        ("player", _player_row, replace(probe.players[-1], name="")),
        ("permanent", _permanent_row, replace(probe.permanents[-1], ref="")),
        ("effect", _effect_row, replace(probe.effects[-1], ref="")),
    ):
        template = element(main, "template", "", "", id=f"modele-{section}")
        if section == "player":
            _attributes(template, data_names="|".join(boards.PLAYER_NAMES))
        render(template, board, "__n__", row, {})


# -- the result --------------------------------------------------------------------------------------


def _names(report: dict) -> dict[str, str]:
    """Each object's id → its name, from the report's starting state."""
    initial = report["initial"]
    return {obj["id"]: obj["name"] for obj in (*initial["permanents"], *initial["spells"])}


def _effect_labels(report: dict, names: dict[str, str]) -> dict[str, str]:
    """Each continuous effect's id → how the page names it: « la capacité
    de Croisade », or the start of a resolved effect's text."""
    labels: dict[str, str] = {}
    for layer in report["layers"]:
        for step in layer["steps"]:
            if step["id"] in labels or step["kind"] == "counters":
                continue
            if step["source"]:
                labels[step["id"]] = f"la capacité {boards.of(names.get(step['source'], step['source']))}"
            elif step["text"]:
                labels[step["id"]] = f"« {shortened(step['text'], 50)} »"
    return labels


def _named(text: str, names: dict[str, str]) -> str:
    """``text`` with each id of ``names`` replaced by its name (the longest ids first)."""
    for key in sorted(names, key=len, reverse=True):
        if key and key != names[key]:
            text = re.sub(rf"(?<![\w-]){re.escape(key)}(?![\w-])", lambda _, name=names[key]: name, text)
    return text


def _step_label(step: dict, names: dict[str, str]) -> str:
    if step["kind"] == "counters":
        return "Marqueurs +1/+1 et -1/-1"
    if step["text"]:
        return step["text"]
    if step["source"]:
        return f"Capacité {boards.of(names.get(step['source'], step['source']))}"
    return f"Effet {step['id']}"


def _report(main, report: dict, checked: str, source: str) -> None:
    """The result of a check, in French, every object by its name: outcome,
    state-based events, what an effect that changes the rules stopped,
    layers, final state, the scenario's TOML, rules applied."""
    names = _names(report)
    words = {**names, **_effect_labels(report, names)}
    section = add_section(main, f"Résultat : {report['title'] or 'scénario'}", "verdict")
    _attributes(section, id="resultat")
    element(section, "p", f"Édition : {report['edition_name']}", "muted")
    outcome = report["outcome"]
    if outcome["draw"]:
        element(section, "p", f"Partie nulle ({outcome['rule']}).", "outcome")
    if outcome["losers"]:
        element(section, "p", "Perd la partie : " + ", ".join(outcome["losers"]), "outcome")
    if outcome["winners"] and outcome["losers"]:
        element(section, "p", "Reste en jeu : " + ", ".join(outcome["winners"]), "outcome")
    events = [event for round_ in report["rounds"] for event in round_["events"]]
    if not events:
        element(
            section,
            "p",
            "Aucun effet basé sur un état n'a lieu : un effet qui change les règles empêche ce qui suit (103.1)."
            if report["stopped"]
            else "Aucun effet basé sur un état ne s'applique.",
            "outcome",
        )
    listing = element(section, "ol", "", "events")
    for number, round_ in enumerate(report["rounds"], 1):
        for event in round_["events"]:
            item = element(listing, "li")
            element(item, "a", event["rule"], "number", href=rule_href(event["rule"]))
            who = ", ".join(event["names"] + event["players"])
            reason = _named(event["reason"], words)
            append_text(item, f" (vérification {number}) {who} : {event['label']} — {reason}")
    if report["stopped"]:
        stopped = add_section(main, "Empêché par un effet qui change les règles (103.1)", "stopped")
        note = "La carte l'emporte sur la règle : ces effets basés sur un état n'ont pas lieu."
        element(stopped, "p", note, "muted")
        listing = element(stopped, "ol", "", "events")
        for found in report["stopped"]:
            event, item = found["event"], element(listing, "li")
            element(item, "a", event["rule"], "number", href=rule_href(event["rule"]))
            who = ", ".join(event["names"] + event["players"])
            append_text(
                item,
                f" (vérification {found['check']}) {who} : {found['label']} — {_named(event['reason'], words)} ; "
                f"empêché par {', '.join(found['by_names'])} : « {found['ability']} ».",
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
            line = element(item, "p", _step_label(step, names))
            if step["names"]:
                append_text(line, " → " + ", ".join(step["names"]))
            if step["reason"]:
                append_text(line, f" ({_named(step['reason'], words)})")
            for number in step["rules"]:
                append_text(line, " ")
                element(line, "a", number, "number", href=rule_href(number))
    _final(main, report)
    _scenario(main, checked, source)
    rules = element(add_section(main, "Règles appliquées"), "ul", "", "links")
    for found in report["rules"]:
        rule_line(rules, found)


def _final(main, report: dict) -> None:
    """The final state: each object (name, type line, power and toughness,
    damage, counters, zone) and each player (life, poison, lost)."""
    final = element(add_section(main, "État final", "final"), "ul", "", "final")
    for obj in (*report["final"]["permanents"], *report["final"]["spells"]):
        parts = ["-".join(obj["card_types"]) or "sans type"]
        if obj["power"] is not None:
            parts.append(f"{obj['power']}/{obj['toughness']}")
        if obj["damage"]:
            parts.append(f"{obj['damage']} blessure" + "s" * (obj["damage"] > 1))
        parts += [f"{count} marqueur{'s' * (count > 1)} {name}" for name, count in obj["counters"].items()]
        parts.append(f"contrôleur {obj['controller']}")
        where = obj["zone"] or "a cessé d'exister"
        element(final, "li", f"{obj['name']} — {', '.join(parts)} : {where}")
    for player in report["final"]["players"]:
        text = f"{player['name']} : {player['life']} points de vie, {player['poison']} marqueur"
        text += "s" * (player["poison"] > 1) + " poison"
        if player["lost"]:
            text += f" ; perd la partie ({', '.join(player['lost_by'])})"
        element(final, "li", text)


def _scenario(main, checked: str, source: str) -> None:
    """The TOML checked: to copy (a button ``verifier.js`` shows) or download."""
    section = add_section(main, "Le scénario en TOML", "scenario")
    element(section, "p", "Le fichier que lit la vérification en ligne de commande : à copier, ou à télécharger.",
            "muted")  # fmt: skip
    element(section, "pre", "", "toml", id="toml-resultat").text = clean(checked)  # as written: no French spacing
    buttons = element(section, "div", "", "buttons")
    copy = element(buttons, "button", "Copier le TOML", "secondary copy", type="button", data_copy="toml-resultat")
    _attributes(copy, hidden="hidden")
    element(buttons, "button", "Télécharger (.toml)", "secondary", type="submit", name="action",
            value="download" if source == "board" else "download-toml", formaction="/verifier/scenario.toml",
            form="plateau")  # fmt: skip
